"""What the worker tasks send back: msgpack bytes of strict msgspec structs, never a pickled object.

A task returns `bytes` (Dask sends them to this client as msgpack, see safe_client.py); the client decodes
them into exactly one of the types below and refuses anything else. Every struct is array-like (compact),
frozen and refuses unknown fields; numbers keep their Python type (an int stays an int, NaN and -0.0 stay
as they are), so the rows rebuilt here are repr-equal to a local run's. A task that fails inside
autofuse-studio's code sends a `TaskFailed` record with the error as text instead of raising (a raised
exception would reach the client as a pickle).
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any, TypeAlias

import msgspec

from autofuse_studio.core.dumps.index import TreeScan
from autofuse_studio.core.dumps.walk import WalkReport
from autofuse_studio.core.notices import Notice, wire_params
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.packed_sides import PackedPair
from autofuse_studio.core.precision.pair import PairResult
from autofuse_studio.core.precision.stats import StatsComparison, item_comparison, stats_comparison
from autofuse_studio.core.precision.stream_schema import KNOWN_STATUSES, detail

_TEXT_LIMIT = 2000  # characters of a worker's error text kept in a message
Number: TypeAlias = int | float
Shape: TypeAlias = tuple[int, ...] | None
Value: TypeAlias = str | int | float | bool | None


class WireError(Exception):
    """A reply that is not what an autofuse-studio task sends (the reason, for the client's sentence)."""


class _Record(msgspec.Struct, array_like=True, forbid_unknown_fields=True, frozen=True):
    """Base of every record: a list on the wire, no unknown fields."""


class MetricsRecord(_Record, frozen=True):
    """Metrics, field for field (floats may be ints when the engine made them so: kept as they are)."""

    cosine: Number
    max_abs_err: Number
    max_rel_err: Number
    mean_abs_err: Number
    rmse: Number
    rel_euclidean: Number
    one_thousandth_ratio: Number
    five_thousandth_ratio: Number
    elements: int
    nan_fused: int
    inf_fused: int
    nan_origin: int
    inf_origin: int
    nonfinite_mismatch: int


class ItemRecord(_Record, frozen=True):
    """One statistic compared (ItemComparison)."""

    name: str
    fused: Number
    origin: Number
    diff: Number
    rel_diff: Number


class StatsRecord(_Record, frozen=True):
    """A statistics comparison (StatsComparison)."""

    kind: str
    index: int
    fused_dtype: str
    origin_dtype: str
    fused_shape: Shape
    origin_shape: Shape
    items: tuple[ItemRecord, ...]
    one_sided: tuple[str, ...]
    shape_mismatch: bool
    count_mismatch: bool
    problem: str | None


class PairRecord(_Record, frozen=True):
    """One pair's outcome (PairResult)."""

    status: str
    metrics: MetricsRecord | None
    message: str
    fused_dtype: str
    origin_dtype: str
    fused_shape: Shape
    origin_shape: Shape
    stats: StatsRecord | None


class NoticeRecord(_Record, frozen=True):
    """A Notice of a dump scan (what reading a mapping.csv said)."""

    kind: str
    message: str
    count: int
    items: list[dict[str, Value]]
    side: str | None
    params: Any = None  # checked by notices.wire_params on receipt (a malformed one is dropped, not refused)


Entry: TypeAlias = tuple[tuple[str, str, int, int], str]  # (op name, kind, index, timestamp), file name


class TreeScanRecord(_Record, frozen=True):
    """A TreeScan: the folders with their index entries (in walk order) and what the walk said."""

    found: list[tuple[str, list[Entry]]]
    unreadable: list[tuple[str, str]]
    outside_links: list[str]
    ignored: list[str]
    notices: list[NoticeRecord]
    loose: list[str]


class ScanReply(_Record, frozen=True, tag="scan"):
    """What scan_sides sends: the worker's autofuse-studio version, its scan of each side, problems."""

    version: str
    sides: list[TreeScanRecord | None]
    problems: list[str]


class CompareReply(_Record, frozen=True, tag="compare"):
    """What compare_batch sends: one PairRecord per pair of the batch, in order."""

    results: list[PairRecord]


class TaskFailed(_Record, frozen=True, tag="failed"):
    """A task that failed inside autofuse-studio's code: the error as text (never the exception object)."""

    version: str
    error: str


class _VersionOnly(msgspec.Struct, array_like=True, tag="scan"):
    """The version at the head of a scan reply, read when the rest does not decode (another release)."""

    version: str


_SCAN = msgspec.msgpack.Decoder(ScanReply | TaskFailed)
_COMPARE = msgspec.msgpack.Decoder(CompareReply | TaskFailed)
_HEAD = msgspec.msgpack.Decoder(_VersionOnly | TaskFailed)
_ENCODER = msgspec.msgpack.Encoder()
# A task's pairs cross to the worker as one msgpack blob: Dask walks a task's arguments for keys and futures on the
# scheduler (a nested list of tuples: ~16 objects a pair, a fifth of the scheduler's time) and pickles them; bytes it
# passes as they are.
_PAIRS = msgspec.msgpack.Decoder(list[PackedPair])


def encode_pairs(pairs: list[PackedPair]) -> bytes:
    """A batch's packed pairs as the compare task's argument (client side)."""
    return _ENCODER.encode(pairs)


def decode_pairs(data: bytes) -> list[PackedPair]:
    """encode_pairs' pairs, decoded strictly into their types (worker side; a DecodeError otherwise)."""
    return _PAIRS.decode(data)


# --- worker side ------------------------------------------------------------------------------------------


def _metrics_record(metrics: Metrics) -> MetricsRecord:
    return MetricsRecord(*(getattr(metrics, item.name) for item in fields(Metrics)))


def _stats_record(stats: StatsComparison) -> StatsRecord:
    items = tuple(ItemRecord(item.name, item.fused, item.origin, item.diff, item.rel_diff) for item in stats.items)
    return StatsRecord(stats.kind, stats.index, stats.fused_dtype, stats.origin_dtype, stats.fused_shape,
                       stats.origin_shape, items, stats.one_sided, stats.shape_mismatch, stats.count_mismatch,
                       stats.problem)


def _pair_record(result: PairResult) -> PairRecord:
    return PairRecord(result.status, None if result.metrics is None else _metrics_record(result.metrics),
                      result.message, result.fused_dtype, result.origin_dtype, result.fused_shape,
                      result.origin_shape, None if result.stats is None else _stats_record(result.stats))


def _tree_record(scan: TreeScan) -> TreeScanRecord:
    notices = [NoticeRecord(notice.kind, notice.message, notice.count, notice.items, notice.side,
                            wire_params(notice.params) or None) for notice in scan.notices]
    return TreeScanRecord([(str(folder), entries) for folder, entries in scan.found.items()],
                          scan.report.unreadable, scan.report.outside_links, scan.ignored, notices, scan.loose)


def encode_scan(version: str, sides: list[TreeScan | None], problems: list[str]) -> bytes:
    """The scan task's reply as msgpack bytes."""
    return _ENCODER.encode(ScanReply(version, [None if side is None else _tree_record(side) for side in sides],
                                     problems))


def encode_compare(results: list[PairResult]) -> bytes:
    """The compare task's reply as msgpack bytes."""
    return _ENCODER.encode(CompareReply([_pair_record(result) for result in results]))


def encode_failure(version: str, error: BaseException) -> bytes:
    """A failed task's reply: the error's type and text only."""
    return _ENCODER.encode(TaskFailed(version, f"{type(error).__name__}: {error}"[:_TEXT_LIMIT]))


# --- client side ------------------------------------------------------------------------------------------


def _metrics(record: MetricsRecord) -> Metrics:
    return Metrics(*(getattr(record, item.name) for item in fields(Metrics)))


def _stats(record: StatsRecord) -> StatsComparison:
    items = tuple(item_comparison(item.name, item.fused, item.origin, item.diff, item.rel_diff)
                  for item in record.items)
    return stats_comparison(kind=record.kind, index=record.index, fused_dtype=record.fused_dtype,
                            origin_dtype=record.origin_dtype, fused_shape=record.fused_shape,
                            origin_shape=record.origin_shape, items=items, one_sided=record.one_sided,
                            shape_mismatch=record.shape_mismatch, count_mismatch=record.count_mismatch,
                            problem=record.problem)


def _pair(record: PairRecord) -> PairResult:
    if record.status not in KNOWN_STATUSES:  # a row's status decides what the table and the verdicts do with it
        raise WireError(f"it sent a comparison status autofuse-studio does not know ({detail(record.status)})")
    return PairResult(record.status, None if record.metrics is None else _metrics(record.metrics), record.message,
                      record.fused_dtype, record.origin_dtype, record.fused_shape, record.origin_shape,
                      None if record.stats is None else _stats(record.stats))


def _tree(record: TreeScanRecord) -> TreeScan:
    notices = [Notice(notice.kind, notice.message, notice.count, notice.items, notice.side,
                      wire_params(notice.params)) for notice in record.notices]
    return TreeScan({Path(folder): entries for folder, entries in record.found},
                    WalkReport(record.unreadable, record.outside_links), record.ignored, notices, record.loose)


def _bytes(payload: object) -> bytes:
    if not isinstance(payload, bytes):
        raise WireError(f"it sent a {type(payload).__name__} where autofuse-studio sends bytes")
    return payload


def decode_scan(payload: object, version: str, sides: int) -> tuple[str, list[TreeScan | None], list[str]] | TaskFailed:
    """(version, one scan per side, problems) of a scan reply, or the TaskFailed record; WireError for anything
    else (`sides`: how many dump folders were asked for).

    The reply of another release (`version` is this one's) that does not decode gives its version and no
    scans, so that the caller says "install the same version" rather than "not autofuse-studio's".
    """
    data = _bytes(payload)
    try:
        reply = _SCAN.decode(data)
    except msgspec.DecodeError as error:
        try:
            head = _HEAD.decode(data)
        except msgspec.DecodeError:
            head = None
        if isinstance(head, _VersionOnly) and head.version != version:
            return head.version, [None] * sides, []
        raise WireError(f"not an autofuse-studio scan reply: {error}") from None
    if isinstance(reply, TaskFailed):
        return reply
    if len(reply.sides) != sides:
        raise WireError(f"{len(reply.sides)} dump folder scans where {sides} were asked for")
    return reply.version, [None if side is None else _tree(side) for side in reply.sides], reply.problems


def decode_compare(payload: object, pairs: int) -> list[PairResult] | TaskFailed:
    """The PairResults of a compare reply (exactly `pairs` of them), or the TaskFailed record; else WireError."""
    try:
        reply = _COMPARE.decode(_bytes(payload))
    except msgspec.DecodeError as error:
        raise WireError(f"not an autofuse-studio comparison reply: {error}") from None
    if isinstance(reply, TaskFailed):
        return reply
    if len(reply.results) != pairs:
        raise WireError(f"{len(reply.results)} results for a batch of {pairs} pairs")
    return [_pair(record) for record in reply.results]
