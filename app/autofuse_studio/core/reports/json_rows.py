"""The `rows` of the `--output x.json` document written column by column by the C row joiner, as json.dumps did.

Instead of a msgspec struct per row, encoded and then indented by msgspec.json.format, every key of a row is a
column: its cells are the indented `"key": value` lines, texts copied between quotes when none of the column
needs a JSON escape (one C scan; else msgspec spells each text), numbers spelled by msgspec a chunk at a time
and respelled as repr() by the joiner, shapes spelled once per distinct shape, the nested statistics and
signature objects by one msgspec call per 4096 (cut apart in the formatted list). Whatever this does
not know (a bool, a float subclass, NaN outside the metrics, a text UTF-8 cannot hold ...) raises Unlike: the
caller then has json.dumps write the document, as before. The columns are made a block of rows at a time
(chunk_makers), so the first chunks can be joined and written on other threads while the next block is made.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.reports.json_spelling import (
    HEAD_KEYS,
    METRIC_KEYS,
    ROW_KEYS,
    TAIL_KEYS,
    Spellings,
    Unlike,
    fixed,
)
from autofuse_studio.core.reports.json_stats import NotColumnar, statistics_columns
from autofuse_studio.core.reports.pipelined_write import Made, Pooled
from autofuse_studio.core.reports.row_join import (
    Column,
    Numbers,
    attribute_columns,
    column_surveys,
    int_tuples,
    join_rows,
    join_rows_into,
    native_joiner,
    nested_unplain,
)
from autofuse_studio.core.reports.stats_table import mostly_statistics, stats_table

CHUNK_ROWS = 4096  # rows joined per C call (~10 ms, most of it with the GIL released)
# Rows whose columns are made at a time: one chunk. The pipeline's head (the first block's columns, before any join)
# and tail (the last block's join and write, after the last columns) are all that does not overlap: 100k rows in
# blocks of four chunks wrote in 0.47 s, of one in 0.39 (the per-block costs are a few ms).
BLOCK_ROWS = CHUNK_ROWS
NESTED_CHUNK = 4096  # statistics or signature objects spelled per msgspec call
_KEY_INDENT = " " * 6  # a row's keys sit at depth 3 of the indent-2 document
_ITEM_INDENT = _KEY_INDENT.encode()
_ROW_SEPARATOR = ",\n"  # before every row; cut off the first
_ROW_OPEN, _ROW_CLOSE = _ROW_SEPARATOR + "    {\n", "\n    }"
# What json.dumps(ensure_ascii=False) escapes in a string: the quote, the backslash and control characters.
_ESCAPED = '"\\' + "".join(map(chr, range(32)))
_SCALARS = frozenset({str, int, float, type(None)})
_NUMBERS = frozenset({int, float, type(None)})
_WHOLE_NUMBERS = frozenset({int, type(None)})
SHAPE_KEYS = ("fused_shape", "origin_shape")
NESTED_KEYS = ("statistics", "signature")


def _prefix(key: str) -> str:
    """What comes before a key's value in a row (after the previous value)."""
    return ("" if key == ROW_KEYS[0] else ",\n") + f'{_KEY_INDENT}"{key}": '


def _nested(value: Any) -> str:
    """A JSON-friendly value as json.dumps(indent=2) writes it at a row key's depth."""
    return msgspec.json.format(msgspec.json.encode(fixed(value)), indent=2).replace(
        b"\n", b"\n" + _KEY_INDENT.encode()).decode("utf-8")


def _scalar_column(key: str, values: Sequence[Any], survey: tuple[set[type], bool, bool | None]) -> Column:
    """A column of texts, ints, floats and None: texts quoted (escaped by msgspec when they need it), numbers
    as repr() spells them, None (and, in the metrics, NaN/Inf) as null. `survey`: column_survey's of `values`."""
    kinds, finite, plain = survey
    if not kinds <= _SCALARS or (not finite and key not in METRIC_KEYS):
        raise Unlike  # a bool or other type, or NaN json.dumps would refuse: the document's own path decides
    prefix = _prefix(key)
    if kinds <= _WHOLE_NUMBERS:
        return (values, prefix, "", prefix + "null")  # ints: the joiner spells them as str(), faster than msgspec
    if kinds <= _NUMBERS:
        return (Numbers(values), prefix, "", prefix + "null")
    if str in kinds and not plain:
        # Escaped by msgspec as whole cells (its escapes are json.dumps': a test of the writers checks).
        values = [(prefix + msgspec.json.encode(value).decode("utf-8"),) if value.__class__ is str else value
                  for value in values]
    if "" in values:  # the joiner writes "" as an empty cell (xlsx: none); here it is the text ""
        empty_text = (prefix + '""',)
        values = [empty_text if value == "" else value for value in values]
    return (values, prefix + '"', '"', prefix + "null", prefix, "")


def _spelled_once(key: str, values: Sequence[Any], spell: Callable[[Any], str]) -> Column:
    """A column of shapes (few distinct ones), each spelled once as a whole cell; None as null."""
    if not int_tuples(values):  # (True, 16) would take the spelling of an equal (1, 16) in the look-up
        raise Unlike
    prefix = _prefix(key)
    spelled = Spellings(lambda value: None if value is None else (prefix + spell(value),))
    return (list(map(spelled.__getitem__, values)), "", "", prefix + "null")


def _shape(shape: Any) -> str:
    """A shape tuple as to_dict()'s list."""
    if shape.__class__ is not tuple or not all(dim.__class__ is int for dim in shape):
        raise Unlike
    return _nested(list(shape))


def _nested_column(key: str, values: Sequence[Any]) -> Column:
    """The statistics or signature objects (as_dict()), spelled NESTED_CHUNK at a time; None as null."""
    prefix = _prefix(key)
    cells: list[Any] = [None] * len(values)
    present = [number for number, value in enumerate(values) if value is not None]
    for number, cell in zip(present, _object_cells(prefix, [values[number] for number in present]), strict=True):
        cells[number] = cell
    return (cells, "", "", prefix + "null")


def _object_cells(prefix: str, values: Sequence[Any]) -> list[tuple[str]]:
    """Each object's as_dict() as a whole cell after `prefix`, NESTED_CHUNK objects per msgspec call."""
    cells: list[tuple[str]] = []
    for start in range(0, len(values), NESTED_CHUNK):
        objects = [value.as_dict() for value in values[start:start + NESTED_CHUNK]]
        for at in nested_unplain(objects):  # fixed() only where it changes something (it copies every dict)
            objects[at] = fixed(objects[at])
        cells += _nested_cells(prefix, objects)
    return cells


def _statistics_columns(values: list[Any]) -> list[Column]:
    """The statistics objects as columns of their fields where stats_table reads the block, else nested."""
    prefix = _prefix("statistics")
    if not mostly_statistics(values):
        return [_sparse_statistics(values, prefix)]
    table = stats_table(values)  # ~40 columns a block
    if table is not None:
        try:
            return statistics_columns(values, table, prefix, functools.partial(_object_cells, prefix))
        except NotColumnar:
            pass  # a value only the nested spelling writes as json.dumps did
    return [_nested_column("statistics", values)]


def _sparse_statistics(values: list[Any], prefix: str) -> Column:
    """A block where few rows have statistics (a tensor run's): their objects spelled by the columns over those
    rows alone, joined into one whole cell each (~40 columns spread over the whole block cost more than the
    rows' as_dict(); as_dict() cost ~25 us a row), the nested way when the columns cannot spell them."""
    places = [place for place, found in enumerate(values) if found is not None]
    present = [values[place] for place in places]
    table = stats_table(present) if places else None
    if table is None:
        return _nested_column("statistics", values)
    try:
        columns = statistics_columns(present, table, prefix, functools.partial(_object_cells, prefix))
        # JSON text holds no NUL (msgspec escapes control characters; plain texts were checked for them).
        texts = join_rows(columns, 0, len(present), "", "\x00", "").decode("utf-8").split("\x00")
    except NotColumnar:
        return _nested_column("statistics", values)
    if len(texts) != len(present) + 1:
        return _nested_column("statistics", values)
    cells: list[Any] = [(prefix + "null",)] * len(values)
    for place, text in zip(places, texts, strict=False):  # the last text is the empty one after the last NUL
        cells[place] = (text,)
    return (cells, "", "", "")


def _nested_cells(prefix: str, objects: list[dict[str, Any]]) -> list[tuple[str]]:
    """JSON-friendly dicts (floats fixed), each as json.dumps(indent=2) writes it at a row key's depth after
    `prefix`, as whole cells: one msgspec call for all, the formatted list cut between its items."""
    if any(found.__class__ is not dict for found in objects):
        raise Unlike
    # Formatted three lists deep, the objects sit at a row key's depth (6) with their keys at 8. No string holds a
    # newline (escaped), so an object boundary is the only place where `},` ends a line and `{` starts the next
    # at exactly that depth (deeper lines start with more spaces).
    text = msgspec.json.format(msgspec.json.encode([[objects]]), indent=2).decode("utf-8")
    opening, closing = "[\n  [\n    [\n" + _KEY_INDENT + "{", "}\n    ]\n  ]\n]"
    if not (objects and text.startswith(opening) and text.endswith(closing)):
        raise Unlike  # an empty list or object: not what as_dict() gives
    inner = text[len(opening):-len(closing)].split("},\n" + _KEY_INDENT + "{")
    if len(inner) != len(objects):
        raise Unlike
    return [(f"{prefix}{{{piece}}}",) for piece in inner]


def _columns(rows: Sequence[PrecisionRow]) -> list[Column]:
    """Every ROW_KEYS column of the rows, in order."""
    plain_keys = [*HEAD_KEYS, *(key for key in TAIL_KEYS if key not in SHAPE_KEYS)]
    read = [*plain_keys, *SHAPE_KEYS, "stats", "signature", "metrics"]  # one pass over the rows
    *plain, fused_shapes, origin_shapes, stats, signatures, metrics = attribute_columns(rows, read)
    scalars = dict(zip(plain_keys, plain, strict=True))
    # None for rows without metrics: every metric null.
    scalars.update(zip(METRIC_KEYS, attribute_columns(metrics, METRIC_KEYS), strict=True))
    # Surveyed in one C call that releases the GIL once: a release a column waited for the GIL again each time,
    # ~30 times a block while the joining thread spells numbers.
    surveys = column_surveys(list(scalars.values()), _ESCAPED, "", False, 1 << 62)
    found: dict[str, list[Column]] = {}
    for (key, values), survey in zip(scalars.items(), surveys, strict=True):
        found[key] = [_scalar_column(key, values, survey)]
    for key, values in zip(SHAPE_KEYS, (fused_shapes, origin_shapes), strict=True):
        found[key] = [_spelled_once(key, values, _shape)]
    found["statistics"] = _statistics_columns(stats)
    found["signature"] = [_nested_column("signature", signatures)]
    return [column for key in ROW_KEYS for column in found[key]]


def joined_rows(rows: Sequence[PrecisionRow]) -> list[bytes] | None:
    """The rows as they sit in the indented document (`    {` ... `    }` joined by `,\\n`), in chunks; None
    without the C joiner. Raises Unlike for a value this path does not spell as json.dumps did: json.dumps
    itself then writes (or refuses) the document."""
    makers = chunk_makers(rows)
    if makers is None:
        return None
    chunks = [make() for make in makers]  # each into a bytes object of its own (no buffer lent)
    return [chunk if isinstance(chunk, bytes) else bytes(chunk) for chunk in chunks]


def chunk_makers(rows: Sequence[PrecisionRow]) -> Iterator[Pooled] | None:
    """joined_rows' chunks as functions that join them (into a buffer PartWriter lends, if given), in order (None
    without the C joiner).

    The columns are made BLOCK_ROWS rows at a time as the functions are taken, so a writer thread can join and
    write the first chunks (the C joiner writes with the GIL released) while the next block's columns are made.
    Taking the next function or calling one raises Unlike as joined_rows does.
    """
    if native_joiner() is None or tuple(ROW_KEYS[:len(HEAD_KEYS)]) != HEAD_KEYS:
        return None
    return _block_makers(rows)


def _block_makers(rows: Sequence[PrecisionRow]) -> Iterator[Pooled]:
    for block_start in range(0, len(rows), BLOCK_ROWS):
        block = rows[block_start:block_start + BLOCK_ROWS]
        try:
            columns = _columns(block)
        except (TypeError, ValueError, msgspec.EncodeError) as exc:  # UnicodeEncodeError is a ValueError
            raise Unlike from exc
        for start in range(0, len(block), CHUNK_ROWS):
            yield Pooled(functools.partial(_joined_chunk, columns, start, min(start + CHUNK_ROWS, len(block)),
                                           block_start + start == 0))


def _joined_chunk(columns: list[Column], start: int, stop: int, first: bool, into: bytearray | None) -> Made:
    """Rows start..stop-1 of `columns`, each after `,\\n` (but the document's first row); written into `into` when
    given (the part writer's buffer: a view of it is returned)."""
    try:
        joined = join_rows_into(columns, start, stop, _ROW_OPEN, _ROW_CLOSE, "", into)
    except (TypeError, ValueError, msgspec.EncodeError) as exc:  # UnicodeEncodeError is a ValueError
        raise Unlike from exc
    if joined.__class__ is bytearray:
        return memoryview(joined)[len(_ROW_SEPARATOR):] if first else memoryview(joined)
    return joined[len(_ROW_SEPARATOR):] if first else joined
