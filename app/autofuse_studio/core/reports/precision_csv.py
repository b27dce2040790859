"""The CSV lines of a precision result, built column by column: what csv.writer wrote over table_records(), faster.

csv.writer spends ~1 µs per cell and repr() ~1 µs per float: 4M cells of 100k rows took seconds. Here every
column becomes its cell texts in bulk (numbers through msgspec's encoder, respelled as repr() spells them;
texts once per distinct value), and each line is one join. Cells csv.writer would quote go through
csv.writer itself; a value of a type the bulk paths do not know makes write_csv fall back to csv.writer.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Sequence
from operator import attrgetter, itemgetter
from typing import Any

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.reports.precision_json import METRIC_KEYS, repr_text
from autofuse_studio.core.reports.xlsx_cells import FORMULA_LEADS, csv_cell

# The row attributes the tabular columns show as they are (table_records reads them through to_dict()).
ATTRIBUTE_KEYS = frozenset({"rank", "step", "occurrence", "kind", "fused_op", "fused_index", "origin_op",
                            "origin_index", "status", "verdict", "fused_dtype", "origin_dtype", "source_type",
                            "message", "fused_file", "origin_file"})
SHAPE_KEYS = frozenset({"fused_shape", "origin_shape"})
_NUMBERS = frozenset({int, float, type(None)})
_TEXTS = frozenset({str, type(None)})
# Characters csv.writer (QUOTE_MINIMAL, ',' and '"', '\n' line ends) may quote a cell for; '\r' for newer Pythons.
_MAY_QUOTE = re.compile(r'[,"\r\n]')
# A cell start (after the \x00 each value is joined with) holding a formula lead: a literal-led regex scans a column
# in ~4 ms where eleven two-character substring tests take ~40; single characters to quote are found by `in`.
_LEAD_AFTER_SEPARATOR = re.compile("\x00[" + re.escape("".join(FORMULA_LEADS)) + "]")
_QUOTE_MARKS = (",", '"', "\r", "\n")
CHUNK_ROWS = 8192  # lines joined per step
_metric_tuple = attrgetter(*METRIC_KEYS)
_NO_METRICS = (math.nan,) * len(METRIC_KEYS)


class Unlike(Exception):
    """A value the bulk paths cannot spell as csv.writer did: the caller writes through csv.writer."""


def _quoted(text: str) -> str:
    """`text` as csv.writer writes it as a cell (quoted, quotes doubled), whatever the Python version does."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([text, ""])
    return buffer.getvalue()[:-2]  # without the empty second cell's ',' and the line end


def _text_cell(value: str | None) -> str:
    """One text cell: '' for None, a leading `'` before formula leads, csv quoting when needed."""
    if value is None:
        return ""
    text = csv_cell(value)
    return _quoted(text) if _MAY_QUOTE.search(text) else text


def _texts(values: Sequence[Any]) -> list[str]:
    """Cells of a column of texts (and None): as they are when none needs work, else each distinct one once."""
    # One join and a few substring scans over the column: most hold no formula lead and nothing to quote. A
    # value holding the separator itself can only send the column down the per-value path.
    joined = "\x00" + "\x00".join(filter(None, values))
    if not (any(mark in joined for mark in _QUOTE_MARKS) or _LEAD_AFTER_SEPARATOR.search(joined)):
        return [value or "" for value in values]
    spelled = {value: _text_cell(value) for value in dict.fromkeys(values)}
    return list(map(spelled.__getitem__, values))


def _numbers(values: Sequence[Any], non_finite_empty: bool) -> list[str]:
    """Cells of a column of ints and floats (and None): str()/repr() spellings, '' for None.

    Non-finite floats are '' in metric columns (to_dict() says null) and 'nan'/'inf' elsewhere, as before.
    """
    text = repr_text(list(values)).decode("ascii")
    nulls = text.count("null")
    if non_finite_empty or nulls == values.count(None):  # every null is an empty cell
        return text.replace("null", "").split(",") if nulls else text.split(",")
    cells = text.split(",")
    for position, cell in enumerate(cells):
        if cell == "null":
            value = values[position]
            cells[position] = "" if value is None else repr(value)
    return cells


def column_cells(values: Sequence[Any], non_finite_empty: bool = False) -> list[str]:
    """The CSV cells of one column's values (as table_records() holds them), in bulk when the types allow."""
    kinds = set(map(type, values))
    if kinds <= _TEXTS:
        return _texts(values)
    if kinds <= _NUMBERS:
        return _numbers(values, non_finite_empty)
    raise Unlike  # mixed or unknown types: csv.writer spells them


def _shape_cell(shape: tuple[int, ...] | None) -> str | None:
    return None if shape is None else "x".join(map(str, shape))


def column_values(rows: Sequence[PrecisionRow], columns: Sequence[str],
                  stats: Sequence[dict[str, Any] | None] | None) -> dict[str, Sequence[Any]]:
    """Each column's values as table_records() holds them (metrics raw: non-finite floats stay), by key.

    `stats` holds each row's stats_cells() (None for tensor rows). Raises Unlike for a column it does not know.
    """
    metric_rows = [_NO_METRICS if row.metrics is None else _metric_tuple(row.metrics) for row in rows]
    found: dict[str, Sequence[Any]] = dict(zip(METRIC_KEYS, zip(*metric_rows, strict=True), strict=True))
    stat_keys = [key for key in columns if key.startswith("stat_")]
    if stats is not None and stat_keys:  # transposed in one pass: zip(*) is C, a loop per column is not
        get = itemgetter(*stat_keys, *stat_keys[:1])  # one key more: a tuple even for one column
        empty = (None,) * (len(stat_keys) + 1)
        picked = [empty if found is None else get(found) for found in stats]
        found.update(zip(stat_keys, zip(*picked, strict=True), strict=False))
    for key in columns:
        if key in found:
            continue
        if key in ATTRIBUTE_KEYS:
            found[key] = list(map(attrgetter(key), rows))
        elif key in SHAPE_KEYS:
            found[key] = [_shape_cell(shape) for shape in map(attrgetter(key), rows)]
        elif key in ("signature", "signature_sentence"):
            part: Callable[[Any], Any] = attrgetter("code" if key == "signature" else "sentence")
            found[key] = [None if row.signature is None else part(row.signature) for row in rows]
        else:
            raise Unlike  # a column this module does not know yet
    return found


def csv_lines(rows: Sequence[PrecisionRow], columns: Sequence[str],
              stats: Sequence[dict[str, Any] | None] | None) -> list[str]:
    """write_csv's text in chunks of lines; `stats` holds each row's stats_cells() (None for tensor rows)."""
    if not rows:
        return [",".join(columns) + "\n"]
    values = column_values(rows, columns, stats)
    cells = [column_cells(values[key], non_finite_empty=key in METRIC_KEYS) for key in columns]
    del values
    # In chunks: one C loop over 100k lines (joining, then encoding) would hold the GIL, and the GUI, for ~80 ms.
    chunks = [",".join(columns) + "\n"]
    for start in range(0, len(rows), CHUNK_ROWS):
        lines = map(",".join, zip(*(column[start:start + CHUNK_ROWS] for column in cells), strict=True))
        chunks.append("\n".join(lines) + "\n")
    while cells:  # freed a column at a time: 4M cell strings freed at once would hold the GIL for ~50 ms
        cells.pop()
    return chunks
