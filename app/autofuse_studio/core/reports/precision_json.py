"""The `--output x.json` document, encoded by msgspec byte for byte as json.dumps(indent=2) spelled it.

json.dumps of PrecisionResult.to_dict() takes seconds for 100k rows; msgspec encodes in C (with the C row joiner
the rows are joined column by column by json_rows; the structs here are the path without it). Two differences
are bridged here: msgspec spells floats below 1e-4 or from 1e16 on otherwise than repr() (`1e-7` for
`1e-07`, `0.00001` for `1e-05`), so those go in as msgspec.Raw(repr); and anything msgspec cannot encode as
json.dumps would (a float subclass, a non-finite float outside the metrics, a non-text dict key ...) sends the
whole document through json.dumps, so it is written, or refused, exactly as before.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from itertools import chain
from operator import attrgetter
from typing import Any

import msgspec
import numpy as np

from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.precision.rows import EXTRA_METRICS, PrecisionResult, PrecisionRow

# PrecisionRow.to_dict()'s keys, grouped by where the values come from (a test checks they are its keys).
HEAD_KEYS = ("kind", "rank", "step", "occurrence", "fused_op", "fused_index", "origin_op", "origin_index", "status")
METRIC_KEYS = ("cosine", "max_abs_err", "max_rel_err", *EXTRA_METRICS)
TAIL_KEYS = ("verdict", "fused_dtype", "origin_dtype", "fused_shape", "origin_shape", "source_type", "message",
             "fused_file", "origin_file")
NESTED_KEYS = ("statistics", "signature")
ROW_KEYS = HEAD_KEYS + METRIC_KEYS + TAIL_KEYS + NESTED_KEYS

_Row = msgspec.defstruct("JsonRow", ROW_KEYS)  # fields in key order: msgspec writes them in that order
_head = attrgetter(*HEAD_KEYS)
_metrics = attrgetter(*METRIC_KEYS)
_tail = attrgetter(*TAIL_KEYS)
_NO_METRICS = (math.nan,) * len(METRIC_KEYS)  # msgspec writes NaN as null, which to_dict() says for no metrics
CHUNK_ROWS = 4096  # rows per msgspec call (~10 ms each)
_EMPTY_ROWS = b'{\n  "rows": []'
_ROWS_OPEN, _ROWS_CLOSE = b'{\n  "rows": [\n', b"\n  ]\n}"


class Unlike(Exception):
    """msgspec would not write this as json.dumps did: the document goes through json.dumps."""


def _in_sync() -> bool:
    """True while ROW_KEYS are to_dict()'s keys in its order (else every document takes the json.dumps path)."""
    return tuple(PrecisionRow("output", "", 0, None, None, "").to_dict()) == ROW_KEYS


_FAST = _in_sync()


def _number(value: float) -> Any:
    """A float as json.dumps spells it: msgspec's own spelling in [1e-4, 1e16), repr() outside."""
    if not math.isfinite(value):
        raise Unlike  # json.dumps(allow_nan=False) refuses it; let it say so
    if value == 0 or 1e-4 <= abs(value) < 1e16:
        return value
    return msgspec.Raw(float.__repr__(value).encode())


# msgspec's spellings of floats outside [1e-4, 1e16) turned into repr()'s, on a buffer of numbers only, each
# number after a ','. Literal first characters keep each pass a fast scan.
_POSITIVE_EXPONENT = re.compile(rb"e(?=[0-9])")  # 1e16 -> 1e+16
_ONE_DIGIT_EXPONENT = re.compile(rb"e-(?=[0-9],)")  # 1e-7 -> 1e-07
_FIXED_POINT = re.compile(rb",0\.0000([1-9])([0-9]*)")  # 0.000015 -> 1.5e-05 (and 0.00001 -> 1.e-05)
_FIXED_POINT_NEGATIVE = re.compile(rb"-0\.0000([1-9])([0-9]*)")  # only a number's sign precedes a 0. here


def repr_text(values: list[Any]) -> bytes:
    """Ints and floats, comma-separated, as str()/repr() spell them (msgspec's encoder is 25x repr()).

    Non-finite floats and None come out as `null`.
    """
    return respelled(msgspec.json.encode(values))


def respelled(encoded: bytes) -> bytes:
    """msgspec's JSON array of numbers as repr_text spells it (the numbers comma-separated, without brackets)."""
    text = b"," + encoded[1:-1] + b","
    if b"e" in text:
        text = _POSITIVE_EXPONENT.sub(b"e+", text)
        text = _ONE_DIGIT_EXPONENT.sub(b"e-0", text)
    if b"0.0000" in text:
        text = _FIXED_POINT.sub(rb",\1.\2e-05", text)
        text = _FIXED_POINT_NEGATIVE.sub(rb"-\1.\2e-05", text).replace(b".e-05", b"e-05")
    return text[1:-1]


def as_repr(values: list[float]) -> list[msgspec.Raw]:
    """Finite floats as Raw JSON numbers spelled as repr() spells them."""
    return list(map(msgspec.Raw, repr_text(values).split(b",")))


def fixed(value: Any) -> Any:
    """`value` (JSON-friendly builtins) with floats spelled as json.dumps spells them."""
    kind = value.__class__
    if kind is float:
        return _number(value)
    if kind is dict:
        spelled = {}
        for key, item in value.items():
            if key.__class__ is not str:
                raise Unlike  # json.dumps turns 1.5 or True keys into its own text
            of = item.__class__
            # Inline for speed (statistics rows hold ~30 numbers each); NaN and inf fail both tests.
            if of is float:
                spelled[key] = item if 1e-4 <= abs(item) < 1e16 or item == 0 else _number(item)
            elif of is dict or of is list or of is tuple:
                spelled[key] = fixed(item)
            else:
                spelled[key] = item
        return spelled
    if kind is list or kind is tuple:
        return [fixed(item) for item in value]
    return value


def _metric_values(rows: list[PrecisionRow]) -> list[Any]:
    """Each row's metric values in METRIC_KEYS order; the floats msgspec would spell otherwise as Raw(repr)."""
    values = [_NO_METRICS if row.metrics is None else _metrics(row.metrics) for row in rows]
    if not values:
        return values
    # Found and respelled in bulk: a third of real rows have an error below 1e-4.
    cells = np.array(values, dtype=object)
    try:
        table = cells.astype(np.float64)
    except (TypeError, ValueError):
        raise Unlike from None
    magnitude = np.abs(table)
    with np.errstate(invalid="ignore"):
        respelled = ((magnitude < 1e-4) | (magnitude >= 1e16)) & np.isfinite(table) & (table != 0)
    # Below 1e-4 only floats can be (a nonzero int is at least 1); from 1e16 on an int stays an int.
    for row_number, column in zip(*(axis.tolist() for axis in np.nonzero(respelled & (magnitude >= 1e16))),
                                  strict=True):
        respelled[row_number, column] = cells[row_number, column].__class__ is float
    spelled = cells[respelled].tolist()
    if spelled:
        if not all(value.__class__ is float for value in spelled):
            raise Unlike  # a float subclass (numpy's float64): json.dumps spells it with float.__repr__
        cells[respelled] = np.fromiter(as_repr(spelled), dtype=object, count=len(spelled))
    listed: list[Any] = cells.tolist()
    return listed


def _rows(rows: list[PrecisionRow]) -> list[Any]:
    """The JSON rows as msgspec structs (to_dict()'s keys and values, floats spelled as json.dumps does)."""
    heads, tails = list(map(_head, rows)), list(map(_tail, rows))
    if float in set(map(type, chain.from_iterable(heads + tails))):
        raise Unlike  # a float outside the metrics (never in real rows): json.dumps spells or refuses it
    return [_Row(*head, *metrics, *tail,
                 None if row.stats is None else fixed(row.stats.as_dict()),
                 None if row.signature is None else fixed(row.signature.as_dict()))
            for row, head, metrics, tail in zip(rows, heads, _metric_values(rows), tails, strict=True)]


def stdlib_json(result: PrecisionResult) -> bytes:
    """The document as json.dumps writes it (NaN refused, non-ASCII kept, indent 2, final newline), UTF-8."""
    text = json.dumps(result.to_dict(), ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    return text.encode("utf-8")


def _formatted_rows(rows: list[PrecisionRow]) -> list[bytes]:
    """The rows as they sit in the indented document, in chunks joined by ',\\n'.

    Each chunk is formatted inside a one-key document so msgspec indents it at the rows' depth; between two
    chunks the GIL is free again (one msgspec call over 100k rows would hold it, and the GUI, for ~150 ms).
    """
    parts = []
    for start in range(0, len(rows), CHUNK_ROWS):
        text = msgspec.json.format(msgspec.json.encode({"rows": _rows(rows[start:start + CHUNK_ROWS])}), indent=2)
        parts.append(text[len(_ROWS_OPEN):-len(_ROWS_CLOSE)])
        parts.append(b",\n")
    return parts[:-1]


def result_json_parts(result: PrecisionResult) -> list[bytes]:
    """stdlib_json(result) in parts to write one after another (joining 100 MB would copy it once more)."""
    if not _FAST:
        return [stdlib_json(result)]
    # Imported here: json_rows builds on this module (and row_join, which uses respelled).
    from autofuse_studio.core.reports.json_rows import joined_rows

    try:
        with gc_paused():  # 100k acyclic structs: collections would rescan them again and again
            document = fixed(dataclasses.replace(result, rows=[]).to_dict())
            head = msgspec.json.format(msgspec.json.encode(document), indent=2)
            rows = joined_rows(result.rows) if result.rows else []  # by the C joiner, column by column
            if rows is None:
                rows = _formatted_rows(result.rows)
    except (Unlike, TypeError, msgspec.EncodeError):
        return [stdlib_json(result)]
    if not rows:
        return [head, b"\n"]
    if not head.startswith(_EMPTY_ROWS):  # "rows" is to_dict()'s first key; should that change, the slow path
        return [stdlib_json(result)]
    return [_ROWS_OPEN, *rows, b"\n  ]" + head[len(_EMPTY_ROWS):], b"\n"]


def result_json(result: PrecisionResult) -> bytes:
    """The `--output x.json` bytes: stdlib_json(result), encoded by msgspec when it can spell it the same."""
    return b"".join(result_json_parts(result))
