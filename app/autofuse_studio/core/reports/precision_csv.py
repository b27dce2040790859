"""The CSV lines of a precision result, built column by column: what csv.writer wrote over table_records(), faster.

csv.writer spends ~1 µs per cell and repr() ~1 µs per float: 4M cells of 100k rows took seconds. Here every
column is checked in bulk (texts: one join and a few scans, then converted once per distinct value when one needs
it), and row_join writes the lines straight into UTF-8 (numbers spelled as str()/repr() do; in C when built).
Cells csv.writer would quote go through csv.writer itself; a value of a type the bulk paths do not know makes
write_csv fall back to csv.writer. csv_chunk_makers reads the columns a block of rows at a time, so other threads
join and write the first lines (the C joiner with the GIL released) while the next block is read.
"""

from __future__ import annotations

import csv
import functools
import io
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.reports.json_spelling import METRIC_KEYS
from autofuse_studio.core.reports.pipelined_write import Pooled
from autofuse_studio.core.reports.row_join import (
    Numbers,
    attribute_columns,
    column_survey,
    int_tuples,
    join_rows,
    join_rows_into,
    nonfinite_places,
    plain_texts,
)
from autofuse_studio.core.reports.xlsx_cells import FORMULA_LEADS, csv_cell

# The row attributes the tabular columns show as they are (table_records reads them through to_dict()).
ATTRIBUTE_KEYS = frozenset({"rank", "step", "occurrence", "kind", "fused_op", "fused_index", "origin_op",
                            "origin_index", "status", "verdict", "fused_dtype", "origin_dtype", "source_type",
                            "message", "fused_file", "origin_file"})
SHAPE_KEYS = frozenset({"fused_shape", "origin_shape"})
SIGNATURE_PARTS = {"signature": "code", "signature_sentence": "sentence"}  # column: the Signature attribute
_NUMBERS = frozenset({int, float, type(None)})
_WHOLE_NUMBERS = frozenset({int, type(None)})
_TEXTS = frozenset({str, type(None)})
# Characters csv.writer (QUOTE_MINIMAL, ',' and '"', '\n' line ends) may quote a cell for; '\r' for newer Pythons.
_MAY_QUOTE = re.compile(r'[,"\r\n]')
# A cell start (after the \x00 each value is joined with) holding a formula lead: a literal-led regex scans a column
# in ~4 ms where eleven two-character substring tests take ~40; single characters to quote are found by `in`.
_LEAD_AFTER_SEPARATOR = re.compile("\x00[" + re.escape("".join(FORMULA_LEADS)) + "]")
_QUOTE_MARKS = (",", '"', "\r", "\n")
_INNER_MARKS = "".join(_QUOTE_MARKS)
_LEADS = "".join(FORMULA_LEADS)
CHUNK_ROWS = 4096  # lines joined and encoded per step (~10 ms with the GIL held)
# Rows whose columns are made at a time: one chunk. The pipeline's head (the first block's columns, before any join)
# and tail (the last block's join and write, after the last columns) are all that does not overlap: 100k rows in
# blocks of four chunks wrote in 0.47 s, of one in 0.39 (the per-block costs are a few ms).
BLOCK_ROWS = CHUNK_ROWS


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


def _texts(values: Sequence[Any], plain: bool | None = None) -> Sequence[str | None]:
    """Cells of a column of texts (None for empty): as they are when none needs work (`plain`: column_survey's
    answer, None to ask plain_texts), else each distinct one once."""
    if plain is None:
        plain = plain_texts(values, _INNER_MARKS, _LEADS, False, sys.maxsize)
    if plain:
        return values  # C scanned every text: none needs work
    # One join of the distinct values and a few substring scans: most hold no formula lead and nothing to quote.
    # A value holding the separator itself can only send the column down the per-value path.
    joined = "\x00" + "\x00".join(filter(None, set(values)))
    if not (any(mark in joined for mark in _QUOTE_MARKS) or _LEAD_AFTER_SEPARATOR.search(joined)):
        return values  # None is written as an empty cell by join_rows
    spelled = {value: _text_cell(value) for value in dict.fromkeys(values)}
    return list(map(spelled.__getitem__, values))


def _numbers(values: Sequence[Any], non_finite_empty: bool, finite: bool) -> Sequence[Any] | Numbers:
    """Cells of a column of ints and floats (and None), for join_rows to spell as str()/repr() do ('' for None).

    Non-finite floats are '' in metric columns (to_dict() says null) and 'nan'/'inf' elsewhere, as before
    (`finite`: no float of the column is NaN or ±Inf).
    """
    if non_finite_empty or finite:
        return Numbers(values)  # msgspec spells them in join_rows, NaN/Inf as empty cells
    # Those keep their text ('nan', 'inf', '-inf': Numbers' text cells); msgspec spells the rest of the column.
    spelled = list(values)
    for at in nonfinite_places(values):
        spelled[at] = repr(spelled[at])
    return Numbers(spelled)


def column_cells(values: Sequence[Any], non_finite_empty: bool = False) -> Sequence[Any] | Numbers:
    """One column's values (as table_records() holds them) ready for join_rows, which spells them as csv.writer
    did: texts checked and converted in bulk, numbers left to join_rows."""
    kinds, finite, plain = column_survey(values, _INNER_MARKS, _LEADS, False, sys.maxsize)
    if kinds <= _TEXTS:
        return _texts(values, plain)
    if kinds <= _WHOLE_NUMBERS:
        return values  # ints (and None): join_rows spells them as str() does, faster than msgspec and a respelling
    if kinds <= _NUMBERS:
        return _numbers(values, non_finite_empty, finite)
    raise Unlike  # mixed or unknown types: csv.writer spells them


def _shape_cell(shape: tuple[int, ...] | None) -> str | None:
    return None if shape is None else "x".join(map(str, shape))


def _spelled_shapes(shapes: Sequence[tuple[int, ...] | None]) -> list[str | None]:
    """A shape column spelled "8x16" (None for no shape): each distinct shape once (few of them, 100k rows)."""
    if not int_tuples(shapes):  # (True, 16) equals (1, 16) in a set: one of them would take the other's cell
        return list(map(_shape_cell, shapes))
    spelled = {shape: _shape_cell(shape) for shape in set(shapes)}
    return list(map(spelled.__getitem__, shapes))


def column_values(rows: Sequence[PrecisionRow], columns: Sequence[str],
                  stats: Mapping[str, Sequence[Any]] | None) -> dict[str, Sequence[Any]]:
    """Each column's values as table_records() holds them (metrics raw: non-finite floats stay; None for a row
    without metrics), by key.

    `stats` holds the rows' stats_cells() by column (None in tensor rows' cells). Raises Unlike for a column it
    does not know.
    """
    stat_keys = [key for key in columns if key.startswith("stat_")]
    signature_keys = [key for key in columns if key in SIGNATURE_PARTS]
    row_keys = [key for key in columns if key in ATTRIBUTE_KEYS or key in SHAPE_KEYS]
    if (stat_keys and stats is None) or len(stat_keys) + len(signature_keys) + len(row_keys) + len(
            [key for key in columns if key in METRIC_KEYS]) != len(columns):
        raise Unlike  # a column this module does not know yet
    # One pass over the rows reads every attribute the columns need (each row's attributes while it is in cache).
    nested = ("metrics", "signature") if signature_keys else ("metrics",)
    read = dict(zip((*nested, *row_keys), attribute_columns(rows, (*nested, *row_keys)), strict=True))
    # A row without metrics (or signature) has None in their columns: an empty cell, as to_dict()'s null.
    found: dict[str, Sequence[Any]] = dict(zip(METRIC_KEYS, attribute_columns(read.pop("metrics"), METRIC_KEYS),
                                               strict=True))
    if stats is not None and stat_keys:  # tensor rows (None) have None in every statistics column
        found.update((key, stats[key]) for key in stat_keys)
    if signature_keys:
        parts = [SIGNATURE_PARTS[key] for key in signature_keys]
        found.update(zip(signature_keys, attribute_columns(read.pop("signature"), parts), strict=True))
    for key in SHAPE_KEYS.intersection(row_keys):
        read[key] = _spelled_shapes(read[key])
    found.update(read)
    return found


def csv_header(columns: Sequence[str]) -> bytes:
    """The header line (column keys need no quoting), UTF-8."""
    return (",".join(columns) + "\n").encode("utf-8")


def csv_chunks(rows: Sequence[PrecisionRow], columns: Sequence[str],
               stats: Mapping[str, Sequence[Any]] | None) -> Iterator[bytes]:
    """write_csv's UTF-8 (after the BOM) in chunks of lines; `stats` holds the rows' stats_cells() by column.
    The columns are read and checked now (Unlike is raised here, before any line is written); the
    lines are joined a chunk at a time as the caller takes them, so each is written, and freed, as it is made
    (41 MB held at once cost fresh memory for every chunk)."""
    header = csv_header(columns)
    if not rows:
        return iter([header])
    return _joined_chunks(header, _row_cells(rows, columns, stats), len(rows))


def csv_chunk_makers(rows: Sequence[PrecisionRow], columns: Sequence[str],
                     stats_of: Callable[[Sequence[PrecisionRow]], Mapping[str, Sequence[Any]]] | None,
                     ) -> Iterator[Pooled]:
    """csv_chunks' lines after the header as functions that join a chunk each (the C joiner with the GIL
    released; into the buffer PartWriter lends, if given), in order. The columns are read and checked BLOCK_ROWS
    rows at a time as the functions are taken (Unlike is raised then, perhaps after earlier chunks were written);
    `stats_of` gives a block's stats_cells() by column."""
    for block_start in range(0, len(rows), BLOCK_ROWS):
        block = rows[block_start:block_start + BLOCK_ROWS]
        cells = _row_cells(block, columns, None if stats_of is None else stats_of(block))
        for start in range(0, len(block), CHUNK_ROWS):
            # The lent buffer comes as join_rows_into's `into` (join_rows' own row templates before it).
            yield Pooled(functools.partial(join_rows_into, cells, start, min(start + CHUNK_ROWS, len(block)), "",
                                           "\n", ","))


def _row_cells(rows: Sequence[PrecisionRow], columns: Sequence[str],
               stats: Mapping[str, Sequence[Any]] | None) -> list[tuple[Any, str, str, str]]:
    """join_rows' columns of `rows` (raises Unlike for a column or value the bulk paths do not spell)."""
    values = column_values(rows, columns, stats)
    return [(column_cells(values[key], non_finite_empty=key in METRIC_KEYS), "", "", "") for key in columns]


def _joined_chunks(header: bytes, cells: list[tuple[Any, str, str, str]], count: int) -> Iterator[bytes]:
    """The header, then the lines of `count` rows of `cells` a chunk at a time."""
    yield header
    # In chunks: one C loop over 100k lines would hold the GIL, and the GUI, for ~100 ms.
    for start in range(0, count, CHUNK_ROWS):
        yield join_rows(cells, start, min(start + CHUNK_ROWS, count))
    while cells:  # freed a column at a time: 4M cell strings freed at once would hold the GIL for ~50 ms
        cells.pop()
