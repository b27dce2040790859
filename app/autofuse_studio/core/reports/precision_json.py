"""The `--output x.json` document, encoded by msgspec byte for byte as json.dumps(indent=2) spelled it.

json.dumps of PrecisionResult.to_dict() takes seconds for 100k rows; msgspec encodes in C (with the C row joiner
the rows are joined column by column by json_rows; the structs here are the path without it). Two differences
are bridged here: msgspec spells floats below 1e-4 or from 1e16 on otherwise than repr() (`1e-7` for
`1e-07`, `0.00001` for `1e-05`), so those go in as msgspec.Raw(repr); and anything msgspec cannot encode as
json.dumps would (a float subclass, a non-finite float outside the metrics, a non-text dict key ...) sends the
whole document through json.dumps, so it is written, or refused, exactly as before. write_result_json writes
the document while its rows are still being joined (see pipelined_write).
"""

from __future__ import annotations

import dataclasses
import json
import math
from itertools import chain
from operator import attrgetter
from typing import IO, Any

import msgspec
import numpy as np

from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.reports.json_spelling import (
    HEAD_KEYS,
    METRIC_KEYS,
    ROW_KEYS,
    TAIL_KEYS,
    Unlike,
    as_repr,
    fixed,
)
from autofuse_studio.core.reports.pipelined_write import pipelined_writes

_Row = msgspec.defstruct("JsonRow", ROW_KEYS)  # fields in key order: msgspec writes them in that order
_head = attrgetter(*HEAD_KEYS)
_metrics = attrgetter(*METRIC_KEYS)
_tail = attrgetter(*TAIL_KEYS)
_NO_METRICS = (math.nan,) * len(METRIC_KEYS)  # msgspec writes NaN as null, which to_dict() says for no metrics
CHUNK_ROWS = 4096  # rows per msgspec call (~10 ms each)
_EMPTY_ROWS = b'{\n  "rows": []'
_ROWS_OPEN, _ROWS_CLOSE = b'{\n  "rows": [\n', b"\n  ]\n}"


def _in_sync() -> bool:
    """True while ROW_KEYS are to_dict()'s keys in its order (else every document takes the json.dumps path)."""
    return tuple(PrecisionRow("output", "", 0, None, None, "").to_dict()) == ROW_KEYS


_FAST = _in_sync()




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


def _document_head(result: PrecisionResult) -> bytes:
    """The document without its rows, formatted (`{\\n  "rows": [],` and the rest); raises Unlike, TypeError or
    msgspec.EncodeError when msgspec would not spell it as json.dumps did."""
    return msgspec.json.format(msgspec.json.encode(fixed(dataclasses.replace(result, rows=[]).to_dict())), indent=2)


def result_json_parts(result: PrecisionResult) -> list[bytes]:
    """stdlib_json(result) in parts to write one after another (joining 100 MB would copy it once more)."""
    if not _FAST:
        return [stdlib_json(result)]
    # Imported here: json_rows builds on this module (and row_join, which uses respelled).
    from autofuse_studio.core.reports.json_rows import joined_rows

    try:
        with gc_paused():  # 100k acyclic structs: collections would rescan them again and again
            head = _document_head(result)
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


def write_result_json(result: PrecisionResult, handle: IO[bytes]) -> None:
    """Write result_json(result) to `handle` (a new, empty file): each chunk of rows is joined and written by the
    threads of pipelined_write while the next rows' columns are made, so the join, the write and the disk overlap
    the Python work. Should a later row need json.dumps, the file is rewritten from its start by json.dumps."""
    from autofuse_studio.core.reports.json_rows import chunk_makers

    makers = chunk_makers(result.rows) if _FAST and result.rows and handle.seekable() else None
    if makers is None:  # nothing to overlap, or the struct path (without the C joiner), or a pipe
        for part in result_json_parts(result):
            handle.write(part)
        return
    try:
        with gc_paused(), pipelined_writes(handle) as writer:  # gc: as in result_json_parts
            head = _document_head(result)
            if not head.startswith(_EMPTY_ROWS):
                raise Unlike
            writer.put(_ROWS_OPEN)
            for make in makers:
                writer.put(make)
            writer.put(b"\n  ]" + head[len(_EMPTY_ROWS):] + b"\n")
    except (Unlike, TypeError, msgspec.EncodeError):
        handle.seek(0)
        handle.truncate()
        handle.write(stdlib_json(result))
