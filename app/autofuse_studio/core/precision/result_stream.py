"""A whole precision run as a record stream: rows while they finish, then one result record; and back again.

Records (one JSON object per line, see row_stream.encode_record):
  hello     {protocol, version, pid}                    first, from the remote side
  progress  {done, total, message}                      throttled
  indexed   {files, af_open, af_close, difference}      what the dump folders hold (the case dock shows it)
  rows      {rows: [{id, <row_to_record fields>}, …]}   finished rows; a row sent again replaces its id
  producers {index: {op: [[producer, port] | null, …]}} only when asked for (the GUI re-assigns verdicts)
  notice_items {notice, items}                          the first items of a long notice, ahead of the result
  result    {order, verdicts, first_divergence, …}      last: table order, verdicts and everything else
  error     {message, exit_code}                        instead of result when the run failed

Every record is checked against core.precision.stream_schema when read. Rows, producers and notice items
travel in parts (at most ROWS_PER_RECORD rows, …), so no line of a real run comes near the reader's
line cap (nwa_stream.MAX_LINE_BYTES) whatever the size of the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

import msgspec

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.notices import wire_params
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
from autofuse_studio.core.precision.stream_schema import (
    Indexed,
    NoticeItems,
    Producers,
    Result,
    Rows,
    check_rows,
    check_verdicts,
    convert,
    detail,
)
from autofuse_studio.core.precision.verdict import Port, ProducerIndex

Write = Callable[[dict[str, Any]], None]
_ROW_FIELDS = tuple(item.name for item in fields(PrecisionRow))
ROWS_PER_RECORD = 500  # ~0.5-1.5 MB a record
OPS_PER_RECORD = 20_000  # producer index entries a record
ITEMS_PER_RECORD = 2_000  # notice items a record


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
        batch: list[dict[str, Any]] = []
        for row in rows:
            number = self._number(row)
            snapshot = _snapshot(row)
            if self._sent.get(number) != snapshot:  # serialised only when new or changed
                self._sent[number] = snapshot
                batch.append({"id": number, **row_to_record(row)})
                if len(batch) == ROWS_PER_RECORD:
                    self._write({"type": "rows", "rows": batch})
                    batch = []
        if batch:
            self._write({"type": "rows", "rows": batch})

    def producers(self, index: ProducerIndex) -> None:
        """Send the producer index (what verdicts are assigned from) for a front that re-assigns them."""
        entries = [(op, [None if port is None else [port[0], port[1]] for port in ports])
                   for op, ports in index.items()]
        for start in range(0, max(len(entries), 1), OPS_PER_RECORD):  # an empty index is sent too
            self._write({"type": "producers", "index": dict(entries[start:start + OPS_PER_RECORD])})

    def result(self, result: PrecisionResult) -> None:
        """Send any row still unsent or changed, then the result record that ends the stream."""
        self.rows(result.rows)
        by_rank = {rank: None if row is None else self._number(row)
                   for rank, row in result.first_divergence_by_rank.items()}
        first = result.first_divergence
        notices = []
        for number, notice in enumerate(result.notices):
            record = notice_to_record(notice)
            items = record["items"]
            last = max(0, (len(items) - 1) // ITEMS_PER_RECORD * ITEMS_PER_RECORD)
            for start in range(0, last, ITEMS_PER_RECORD):  # all but the last part ahead of the result
                self._write({"type": "notice_items", "notice": number, "items": items[start:start + ITEMS_PER_RECORD]})
            params = wire_params(notice.params)  # the Chinese UI renders the relayed notice from them
            notices.append({**record, "items": items[last:], **({"params": params} if params else {})})
        self._write({
            "type": "result", "order": [self._number(row) for row in result.rows],
            "verdicts": [row.verdict for row in result.rows],
            "first_divergence": None if first is None else self._number(first),
            "first_divergence_by_rank": by_rank,
            "notices": notices,
            "output_mappings": result.output_mappings, "input_mappings": result.input_mappings,
            "compare_input": result.compare_input, "steps": result.steps, "ranks": result.ranks,
            "thresholds": thresholds_to_record(result.thresholds),
        })


def sides_record(sides: SidesSummary) -> dict[str, Any]:
    """The `indexed` record of a SidesSummary."""
    return {"type": "indexed", "files": sides.files, "af_open": sides.af_open, "af_close": sides.af_close,
            "difference": sides.difference}


def sides_from_record(record: dict[str, Any] | Indexed) -> SidesSummary:
    """The SidesSummary of an `indexed` record."""
    checked: Indexed = record if isinstance(record, Indexed) else convert(record, Indexed)
    return SidesSummary(checked.files, checked.af_open, checked.af_close, checked.difference)


class ResultAssembler:
    """The receiving side: keeps the rows by id and rebuilds the PrecisionResult from the result record.

    Records arrive checked (stream_schema.parse_record); plain dicts (older callers) are checked here.
    StreamError, a clause saying what is wrong, for a stream that does not add up.
    """

    def __init__(self) -> None:
        self.rows_by_id: dict[int, PrecisionRow] = {}
        self.producers: dict[str, list[Port | None]] | None = None
        self._notice_items: dict[int, list[dict[str, Any]]] = {}

    def add_rows(self, record: dict[str, Any] | Rows) -> list[PrecisionRow]:
        """Take a `rows` record; returns the rows seen for the first time (a resent row is updated in place)."""
        checked: Rows = record if isinstance(record, Rows) else convert(record, Rows)
        if checked is not record:
            check_rows(checked.rows)
        new = []
        for item in checked.rows:
            row = row_from_record(item)
            known = self.rows_by_id.get(item.id)
            if known is None:
                self.rows_by_id[item.id] = row
                new.append(row)
            else:  # the same object stays in any table that shows it already
                for name in _ROW_FIELDS:
                    setattr(known, name, getattr(row, name))
        return new

    def add_producers(self, record: dict[str, Any] | Producers) -> None:
        """Take a `producers` record (a part of the index: parts add up)."""
        checked: Producers = record if isinstance(record, Producers) else convert(record, Producers)
        if self.producers is None:
            self.producers = {}
        self.producers.update({op: [None if port is None else (port[0], port[1]) for port in ports]
                               for op, ports in checked.index.items()})

    def add_notice_items(self, record: dict[str, Any] | NoticeItems) -> None:
        """Take a `notice_items` record: items of a result notice, kept until the result comes."""
        checked: NoticeItems = record if isinstance(record, NoticeItems) else convert(record, NoticeItems)
        self._notice_items.setdefault(checked.notice, []).extend(checked.items)

    def result(self, given: dict[str, Any] | Result) -> PrecisionResult:
        """The PrecisionResult described by a `result` record and the rows received before it."""
        record: Result = given if isinstance(given, Result) else convert(given, Result)
        if record is not given:
            check_verdicts(record.verdicts)
        if len(record.verdicts) != len(record.order):
            raise StreamError("a result record with a different number of verdicts and rows")
        in_table: set[int] = set()
        for number in record.order:
            if number in in_table:
                raise StreamError(f"a result record that lists row {number} twice")
            in_table.add(number)
        named = [*record.order, *(number for number in (record.first_divergence,
                                                          *record.first_divergence_by_rank.values())
                                   if number is not None)]
        missing = next((number for number in named if number not in self.rows_by_id), None)
        if missing is not None:
            raise StreamError(f"a result record that names row {missing}, never sent")
        outside = next((number for number in named if number not in in_table), None)
        if outside is not None:
            raise StreamError(f"a result record whose first divergence (row {outside}) is not in its table")
        extra = next((number for number in self._notice_items if number >= len(record.notices)), None)
        if extra is not None:
            raise StreamError(f"notice items for notice {extra}, which the result record does not have")
        try:
            thresholds = thresholds_from_record(record.thresholds)
        except AppError as error:
            raise StreamError(f"a result record with unusable thresholds ({detail(str(error))})") from None
        rows = [self.rows_by_id[number] for number in record.order]
        for row, verdict in zip(rows, record.verdicts, strict=True):
            row.verdict = verdict
        notices = [notice_from_record(msgspec.structs.replace(notice, items=[*earlier, *notice.items])
                                      if (earlier := self._notice_items.pop(number, None)) else notice)
                   for number, notice in enumerate(record.notices)]
        first = record.first_divergence
        return PrecisionResult(
            rows=rows, thresholds=thresholds, first_divergence=None if first is None else self.rows_by_id[first],
            notices=notices, output_mappings=record.output_mappings, input_mappings=record.input_mappings,
            compare_input=record.compare_input, steps=record.steps, ranks=record.ranks,
            first_divergence_by_rank={rank: None if number is None else self.rows_by_id[number]
                                      for rank, number in record.first_divergence_by_rank.items()},
        )
