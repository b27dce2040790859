"""A whole precision run as a record stream: rows while they finish, then one result record; and back again.

Records (one JSON object per line, see row_stream.encode_record):
  hello     {protocol, version, pid}                    first, from the remote side
  progress  {done, total, message}                      throttled
  indexed   {files, af_open, af_close, difference}      what the dump folders hold (the case dock shows it)
  rows      {rows: [{id, <row_to_record fields>}, …]}   finished rows; a row sent again replaces its id
  producers {index: {op: [[producer, port] | null, …]}} only when asked for (the GUI re-assigns verdicts)
  result    {order, verdicts, first_divergence, …}      last: table order, verdicts and everything else
  error     {message, exit_code}                        instead of result when the run failed
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from autofuse_studio.core.precision.dump_pairs import SidesSummary
from autofuse_studio.core.precision.row_stream import (
    StreamError,
    notice_from_record,
    notice_to_record,
    row_from_record,
    row_to_record,
    thresholds_from_record,
    thresholds_to_record,
)
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.verdict import Port, ProducerIndex

Write = Callable[[dict[str, Any]], None]
_ROW_FIELDS = tuple(item.name for item in fields(PrecisionRow))


# Every field but the verdict (verdicts travel in the result record). All field values are immutable (str,
# int, tuples, frozen Metrics/LayoutInfo), so a tuple of them is an exact snapshot of what was sent.
_SNAPSHOT_FIELDS = tuple(name for name in _ROW_FIELDS if name != "verdict")


def _snapshot(row: PrecisionRow) -> tuple[Any, ...]:
    return tuple(getattr(row, name) for name in _SNAPSHOT_FIELDS)


class RowEmitter:
    """The sending side: numbers rows, sends each once (again only if it changed), then the result record."""

    def __init__(self, write: Write) -> None:
        self._write = write
        self._ids: dict[int, int] = {}
        self._alive: list[PrecisionRow] = []  # keeps id(row) unique for the whole run
        self._sent: dict[int, tuple[Any, ...]] = {}

    def _number(self, row: PrecisionRow) -> int:
        number = self._ids.get(id(row))
        if number is None:
            number = self._ids[id(row)] = len(self._alive)
            self._alive.append(row)
        return number

    def rows(self, rows: Iterable[PrecisionRow]) -> None:
        """Send the rows not sent yet, and those whose content changed since they were sent."""
        batch = []
        for row in rows:
            number = self._number(row)
            snapshot = _snapshot(row)
            if self._sent.get(number) != snapshot:  # serialised only when new or changed
                self._sent[number] = snapshot
                batch.append({"id": number, **row_to_record(row)})
        if batch:
            self._write({"type": "rows", "rows": batch})

    def producers(self, index: ProducerIndex) -> None:
        """Send the producer index (what verdicts are assigned from) for a front that re-assigns them."""
        self._write({"type": "producers", "index": {op: [None if port is None else [port[0], port[1]]
                                                           for port in ports] for op, ports in index.items()}})

    def result(self, result: PrecisionResult) -> None:
        """Send any row still unsent or changed, then the result record that ends the stream."""
        self.rows(result.rows)
        by_rank = {rank: None if row is None else self._number(row)
                   for rank, row in result.first_divergence_by_rank.items()}
        first = result.first_divergence
        self._write({
            "type": "result", "order": [self._number(row) for row in result.rows],
            "verdicts": [row.verdict for row in result.rows],
            "first_divergence": None if first is None else self._number(first),
            "first_divergence_by_rank": by_rank,
            "notices": [notice_to_record(notice) for notice in result.notices],
            "output_mappings": result.output_mappings, "input_mappings": result.input_mappings,
            "compare_input": result.compare_input, "steps": result.steps, "ranks": result.ranks,
            "thresholds": thresholds_to_record(result.thresholds),
        })


def sides_record(sides: SidesSummary) -> dict[str, Any]:
    """The `indexed` record of a SidesSummary."""
    return {"type": "indexed", "files": sides.files, "af_open": sides.af_open, "af_close": sides.af_close,
            "difference": sides.difference}


def sides_from_record(record: dict[str, Any]) -> SidesSummary:
    """The SidesSummary of an `indexed` record."""
    return SidesSummary(int(record["files"]), str(record["af_open"]), str(record["af_close"]), record["difference"])


class ResultAssembler:
    """The receiving side: keeps the rows by id and rebuilds the PrecisionResult from the result record."""

    def __init__(self) -> None:
        self.rows_by_id: dict[int, PrecisionRow] = {}
        self.producers: dict[str, list[Port | None]] | None = None

    def add_rows(self, record: dict[str, Any]) -> list[PrecisionRow]:
        """Take a `rows` record; returns the rows seen for the first time (a resent row is updated in place)."""
        new = []
        for item in _list(record, "rows"):
            if not isinstance(item, dict) or not isinstance(item.get("id"), int):
                raise StreamError("A streamed row has no id.")
            row = row_from_record(item)
            known = self.rows_by_id.get(item["id"])
            if known is None:
                self.rows_by_id[item["id"]] = row
                new.append(row)
            else:  # the same object stays in any table that shows it already
                for name in _ROW_FIELDS:
                    setattr(known, name, getattr(row, name))
        return new

    def add_producers(self, record: dict[str, Any]) -> None:
        """Take a `producers` record."""
        index = record.get("index")
        if not isinstance(index, dict):
            raise StreamError("The producers record has no index.")
        self.producers = {str(op): [None if port is None else (str(port[0]), int(port[1])) for port in ports]
                          for op, ports in index.items()}

    def result(self, record: dict[str, Any]) -> PrecisionResult:
        """The PrecisionResult described by a `result` record and the rows received before it."""
        try:
            rows = [self.rows_by_id[number] for number in _list(record, "order")]
            verdicts = _list(record, "verdicts")
            if len(verdicts) != len(rows):
                raise StreamError("The result record has a different number of verdicts and rows.")
            for row, verdict in zip(rows, verdicts, strict=True):
                row.verdict = str(verdict)
            first = record["first_divergence"]
            return PrecisionResult(
                rows=rows, thresholds=thresholds_from_record(record["thresholds"]),
                first_divergence=None if first is None else self.rows_by_id[first],
                notices=[notice_from_record(item) for item in _list(record, "notices")],
                output_mappings=int(record["output_mappings"]), input_mappings=int(record["input_mappings"]),
                compare_input=bool(record["compare_input"]), steps=[str(step) for step in _list(record, "steps")],
                ranks=[str(rank) for rank in _list(record, "ranks")],
                first_divergence_by_rank={str(rank): None if number is None else self.rows_by_id[number]
                                          for rank, number in record["first_divergence_by_rank"].items()},
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StreamError(f"The result record is incomplete or names a row never sent ({exc!r}).") from None


def _list(record: dict[str, Any], key: str) -> list[Any]:
    value = record.get(key)
    if not isinstance(value, list):
        raise StreamError(f"The {record.get('type')} record has no {key} list.")
    return value
