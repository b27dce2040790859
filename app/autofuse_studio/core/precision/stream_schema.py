"""The schema of the `nwa --host` record stream: every record a host may send, as msgspec Structs.

A line is decoded straight into its Struct with strict types (msgspec: strict JSON — no NaN or Infinity
tokens —, ints within 64 bits, floats finite, bounded nesting, no str/int coercion); a missing field, a
wrong type or an unknown record type is a StreamError. What types cannot say is checked next: statuses,
verdicts and row kinds from the known sets, row ids unique within a record. Non-finite metrics travel as
the strings "nan", "inf" and "-inf" (see row_stream), so a real run's numbers round-trip exactly.
"""

from __future__ import annotations

import sys
from itertools import combinations
from typing import Annotated, Any, Literal

import msgspec

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.precision import pair
from autofuse_studio.core.precision.rows import INPUT, OUTPUT, VERDICTS

_MAX = sys.float_info.max
Finite = Annotated[float, msgspec.Meta(ge=-_MAX, le=_MAX)]  # rejects the inf that 1e400 would give
NonFinite = Literal["nan", "inf", "-inf"]
FloatValue = Finite | NonFinite
NumberValue = int | Finite | NonFinite  # a statistic: counts stay ints
Count = Annotated[int, msgspec.Meta(ge=0)]
RowId = Annotated[int, msgspec.Meta(ge=0)]
ProgressCount = Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)]  # Qt's progress signals carry C ints
Shape = list[int]
# A notice item: names and numbers, a list of them (older_runs_ignored) or one level of object; nesting is
# bounded, so no item can be too deep for the JSON writers of --output.
Scalar = str | int | Finite | bool | None
NoticeItem = dict[str, Scalar | list[Scalar] | dict[str, Scalar]]

# The statuses a row may have: the comparison's (core.precision.pair), the cluster's (core.cluster.submit,
# not imported: it needs Dask), and every combination of the conversion notes joined in their fixed order.
_NOTES = (pair.FORMAT_CONVERTED, pair.DTYPE_CAST, pair.SHAPE_FLATTENED)
KNOWN_STATUSES = frozenset({
    pair.OK, pair.NO_MAPPING, pair.SKIPPED_CONST_DATA, pair.FILE_NOT_FOUND, pair.RANK_NOT_FOUND,
    pair.NPY_LOAD_ERROR, pair.FORMAT_UNSUPPORTED, pair.DTYPE_UNSUPPORTED, pair.FORMAT_CONVERSION_ERROR,
    pair.SHAPE_MISMATCH, pair.COMPUTE_ERROR, "NO_WORKER", "WORKER_LOST", "CLUSTER_ERROR",
    *("_".join(notes) for size in range(1, len(_NOTES) + 1) for notes in combinations(_NOTES, size)),
})
KNOWN_VERDICTS = frozenset(VERDICTS)
ROW_KINDS = frozenset({OUTPUT, INPUT})
DETAIL_CHARS = 300  # what a message quotes of a broken record


class StreamError(AppError):
    """A line of the record stream is not what the protocol promises."""


class MetricsRecord(msgspec.Struct, kw_only=True):
    """core.precision.metrics.Metrics."""

    cosine: FloatValue
    max_abs_err: FloatValue
    max_rel_err: FloatValue
    mean_abs_err: FloatValue
    rmse: FloatValue
    rel_euclidean: FloatValue
    one_thousandth_ratio: FloatValue
    five_thousandth_ratio: FloatValue
    elements: Count
    nan_fused: Count
    inf_fused: Count
    nan_origin: Count
    inf_origin: Count
    nonfinite_mismatch: Count


class StatsRecord(msgspec.Struct, kw_only=True):
    """core.precision.stats.StatsComparison; items are [name, fused, origin, diff, rel_diff]."""

    kind: str
    index: int
    fused_dtype: str
    origin_dtype: str
    fused_shape: Shape | None
    origin_shape: Shape | None
    items: list[tuple[str, NumberValue, NumberValue, NumberValue, NumberValue]]
    one_sided: list[str]
    shape_mismatch: bool
    count_mismatch: bool
    problem: str | None


class LayoutRecord(msgspec.Struct, kw_only=True):
    """core.dumps.layout.LayoutInfo."""

    layout: str | None
    origin_format: str | None
    origin_shape: Shape | None


class SignatureRecord(msgspec.Struct, kw_only=True):
    """core.precision.signature.Signature (params: JSON values, no NaN tokens in a strict stream)."""

    code: str
    confidence: Finite
    params: dict[str, Any]
    sentence: str


class RowRecord(msgspec.Struct, kw_only=True):
    """Every field of a PrecisionRow (see row_stream.row_to_record)."""

    kind: str
    fused_op: str
    fused_index: int
    origin_op: str | None
    origin_index: int | None
    status: str
    step: str
    rank: str | None
    occurrence: int | None
    metrics: MetricsRecord | None
    verdict: str
    message: str
    source_type: str
    fused_file: str | None
    origin_file: str | None
    fused_dtype: str
    origin_dtype: str
    fused_shape: Shape | None
    origin_shape: Shape | None
    order: int
    table_position: int
    fused_layout: LayoutRecord | None
    origin_layout: LayoutRecord | None
    stats: StatsRecord | None = None  # rows of hosts before statistics mode have none
    signature: SignatureRecord | None = None  # rows of hosts before signatures have none


class StreamRow(RowRecord, kw_only=True):
    """A row of a `rows` record: its fields and the id the result record refers to it by."""

    id: RowId


class NoticeRecord(msgspec.Struct, kw_only=True):
    """core.notices.Notice; `params` (absent from older hosts) is checked by notices.wire_params on receipt."""

    kind: str
    message: str
    count: Count
    items: list[NoticeItem]
    side: str | None
    params: Any = None


class Record(msgspec.Struct, tag_field="type", kw_only=True):
    """A line of the stream; its `type` names the Struct."""


class Hello(Record, tag="hello"):
    """First: the stream protocol, the host's version and the pid of its process."""

    protocol: int
    version: Annotated[str, msgspec.Meta(max_length=200)] = "?"
    pid: int = 0


class Progress(Record, tag="progress"):
    """How far the host is (throttled)."""

    done: ProgressCount
    total: ProgressCount
    message: str = ""


class Indexed(Record, tag="indexed"):
    """What the two dump folders hold (core.precision.dump_pairs.SidesSummary)."""

    files: Count
    af_open: str
    af_close: str
    difference: str | None


class Rows(Record, tag="rows"):
    """Finished rows; a row sent again replaces the one with its id."""

    rows: list[StreamRow]


class Producers(Record, tag="producers"):
    """Part of the producer index: op -> [(producer, port) or null per input]; parts add up."""

    index: dict[str, list[tuple[str, int] | None]]


class NoticeItems(Record, tag="notice_items"):
    """Items of the result's notice number `notice`, sent ahead of it (a long list travels in parts)."""

    notice: Count
    items: list[NoticeItem]


class Result(Record, tag="result"):
    """Last: table order, verdicts, first divergence and everything else of the PrecisionResult."""

    order: list[RowId]
    verdicts: list[str]
    first_divergence: RowId | None
    first_divergence_by_rank: dict[str, RowId | None]
    notices: list[NoticeRecord]
    output_mappings: Count
    input_mappings: Count
    compare_input: bool
    steps: list[str]
    ranks: list[str]
    thresholds: dict[str, Any]  # checked again by row_stream.thresholds_from_record


class Error(Record, tag="error"):
    """Instead of a result: the run failed with this sentence (`here`: said by the local relay itself)."""

    message: str = "the remote run failed"
    exit_code: int = 1
    here: bool = False
    code: str | None = None  # a coded AppError's code and params (core/error_messages.py), absent before them
    params: Any = None


StreamRecord = Hello | Progress | Indexed | Rows | Producers | NoticeItems | Result | Error
_DECODER = msgspec.json.Decoder(StreamRecord)


class _Kind(msgspec.Struct):
    type: Any = None


_KIND_DECODER = msgspec.json.Decoder(_Kind)


def detail(text: str, limit: int = DETAIL_CHARS) -> str:
    """`text` cut to `limit` characters with '…' (a broken record's excerpt in a sentence)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _kind_of(line: str | bytes) -> str:
    """The `type` a broken line claims, for the message ('record' when it claims none)."""
    try:
        kind = _KIND_DECODER.decode(line).type
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return "an invalid record"
    return f"an invalid {detail(kind, 40)!r} record" if isinstance(kind, str) else "an invalid record"


def parse_record(line: str | bytes) -> StreamRecord:
    """One line as its checked record; StreamError (a clause: what is wrong) for anything else."""
    try:
        record: StreamRecord = _DECODER.decode(line)
    except msgspec.ValidationError as error:
        raise StreamError(f"{_kind_of(line)} ({detail(str(error))})") from None
    except (msgspec.DecodeError, RecursionError):
        text = line if isinstance(line, str) else line.decode("utf-8", "replace")
        raise StreamError(f"a line that is not a JSON record ({detail(text, 80)!r})") from None
    if isinstance(record, Rows):
        check_rows(record.rows)
    elif isinstance(record, Result):
        check_verdicts(record.verdicts)
    return record


def check_row(row: RowRecord) -> None:
    """StreamError when a row's kind, status or verdict is none this version knows."""
    if row.kind not in ROW_KINDS:
        raise StreamError(f"a row of unknown kind {detail(row.kind, 40)!r}")
    if row.status not in KNOWN_STATUSES:
        raise StreamError(f"a row with the unknown status {detail(row.status, 40)!r}")
    if row.verdict not in KNOWN_VERDICTS:
        raise StreamError(f"a row with the unknown verdict {detail(row.verdict, 40)!r}")


def check_rows(rows: list[StreamRow]) -> None:
    """Each row checked, and no id twice in one record."""
    seen: set[int] = set()
    for row in rows:
        if row.id in seen:
            raise StreamError(f"a rows record with row id {row.id} twice")
        seen.add(row.id)
        check_row(row)


def check_verdicts(verdicts: list[str]) -> None:
    """StreamError for a verdict this version does not know."""
    unknown = next((verdict for verdict in verdicts if verdict not in KNOWN_VERDICTS), None)
    if unknown is not None:
        raise StreamError(f"a result record with the unknown verdict {detail(unknown, 40)!r}")


def convert(value: Any, kind: type[Any]) -> Any:
    """A decoded dict (an older caller's record) as the Struct `kind`, with the same strict checks."""
    try:
        return msgspec.convert(value, kind, strict=True)
    except msgspec.ValidationError as error:
        raise StreamError(f"an invalid record ({detail(str(error))})") from None


def to_builtins(record: StreamRecord) -> dict[str, Any]:
    """A record as the dict encode_record writes (the local relay passes checked records on)."""
    value: dict[str, Any] = msgspec.to_builtins(record)
    return value
