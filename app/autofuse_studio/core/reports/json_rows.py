"""The `rows` of the `--output x.json` document written column by column by the C row joiner, as json.dumps did.

Instead of a msgspec struct per row, encoded and then indented by msgspec.json.format, every key of a row is a
column: its cells are the indented `"key": value` lines, texts copied between quotes when none of the column
needs a JSON escape (one C scan; else msgspec spells each text), numbers spelled by msgspec a chunk at a time
and respelled as repr() by the joiner, shapes spelled once per distinct shape, the nested statistics and
signature objects by one msgspec call per 4096 (cut apart in the formatted list). Whatever this does
not know (a bool, a float subclass, NaN outside the metrics, a text UTF-8 cannot hold ...) raises Unlike: the
caller then has json.dumps write the document, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.reports.json_spelling import (
    HEAD_KEYS,
    METRIC_KEYS,
    ROW_KEYS,
    TAIL_KEYS,
    Unlike,
    fixed,
)
from autofuse_studio.core.reports.row_join import (
    Column,
    Numbers,
    attribute_columns,
    column_survey,
    join_rows,
    native_joiner,
    nested_unplain,
)

CHUNK_ROWS = 4096  # rows joined per C call (~10 ms with the GIL held)
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


def _scalar_column(key: str, values: Sequence[Any]) -> Column:
    """A column of texts, ints, floats and None: texts quoted (escaped by msgspec when they need it), numbers
    as repr() spells them, None (and, in the metrics, NaN/Inf) as null."""
    kinds, finite, plain = column_survey(values, _ESCAPED, "", False, 1 << 62)
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
    """A column of few distinct values (shapes), each spelled once as a whole cell; None as null."""
    prefix = _prefix(key)
    spelled = {value: None if value is None else (prefix + spell(value),) for value in set(values)}
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
    for start in range(0, len(present), NESTED_CHUNK):
        numbers = present[start:start + NESTED_CHUNK]
        objects = [values[number].as_dict() for number in numbers]
        for at in nested_unplain(objects):  # fixed() only where it changes something (it copies every dict)
            objects[at] = fixed(objects[at])
        for number, text in zip(numbers, _nested_objects(objects), strict=True):
            cells[number] = (prefix + text,)
    return (cells, "", "", prefix + "null")


def _nested_objects(objects: list[dict[str, Any]]) -> list[str]:
    """JSON-friendly dicts (floats fixed), each as json.dumps(indent=2) writes it at a row key's depth: one
    msgspec call for all, the formatted list cut between its items."""
    if any(found.__class__ is not dict for found in objects):
        raise Unlike
    # Indented 4 more, the list's items sit at a row key's depth (6) with their keys at 8. No string holds a
    # newline (escaped), so an item boundary is the only place where `},` ends a line and `{` starts the next at
    # exactly that depth (deeper lines start with more spaces).
    text = msgspec.json.format(msgspec.json.encode(objects), indent=2).replace(b"\n", b"\n    ")
    body = text[len(b"[\n" + _ITEM_INDENT):-len(b"\n    ]")]
    pieces = body.split(b"},\n" + _ITEM_INDENT + b"{")
    if len(pieces) != len(objects):
        raise Unlike
    if len(pieces) > 1:
        pieces = [pieces[0] + b"}", *(b"{" + piece + b"}" for piece in pieces[1:-1]), b"{" + pieces[-1]]
    return [piece.decode("utf-8") for piece in pieces]


def _columns(rows: Sequence[PrecisionRow]) -> list[Column]:
    """Every ROW_KEYS column of the rows, in order."""
    plain_keys = [*HEAD_KEYS, *(key for key in TAIL_KEYS if key not in SHAPE_KEYS)]
    found: dict[str, Column] = {}
    for key, values in zip(plain_keys, attribute_columns(rows, plain_keys), strict=True):
        found[key] = _scalar_column(key, values)
    metrics = attribute_columns(rows, ("metrics",))[0]  # None for rows without metrics: every metric null
    for key, values in zip(METRIC_KEYS, attribute_columns(metrics, METRIC_KEYS), strict=True):
        found[key] = _scalar_column(key, values)
    for key, values in zip(SHAPE_KEYS, attribute_columns(rows, SHAPE_KEYS), strict=True):
        found[key] = _spelled_once(key, values, _shape)
    for key, values in zip(NESTED_KEYS, attribute_columns(rows, ("stats", "signature")), strict=True):
        found[key] = _nested_column(key, values)
    return [found[key] for key in ROW_KEYS]


def joined_rows(rows: Sequence[PrecisionRow]) -> list[bytes] | None:
    """The rows as they sit in the indented document (`    {` ... `    }` joined by `,\\n`), in chunks; None
    without the C joiner. Raises Unlike for a value this path does not spell as json.dumps did: json.dumps
    itself then writes (or refuses) the document."""
    if native_joiner() is None or tuple(ROW_KEYS[:len(HEAD_KEYS)]) != HEAD_KEYS:
        return None
    try:
        columns = _columns(rows)
        chunks = [join_rows(columns, start, min(start + CHUNK_ROWS, len(rows)), _ROW_OPEN, _ROW_CLOSE, "")
                  for start in range(0, len(rows), CHUNK_ROWS)]
    except (TypeError, ValueError, msgspec.EncodeError) as exc:  # UnicodeEncodeError is a ValueError
        raise Unlike from exc
    if chunks:
        chunks[0] = chunks[0][len(_ROW_SEPARATOR):]
    return chunks
