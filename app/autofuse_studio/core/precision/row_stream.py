"""Precision rows, notices and results as JSON records (one per line): exact round trips, NaN and None included.

The remote `nwa --emit-jsonl` mode writes these lines and the local side rebuilds the very same PrecisionResult
from them, so verdicts, the first divergence and every output file are identical to a local run. Any other
front (a cluster client, a notebook) can reuse `row_to_record` / `row_from_record`.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields
from typing import Any

import msgspec

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.errors import AppError
from autofuse_studio.core.notices import Notice, wire_params
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.stats import ItemComparison, StatsComparison, StatsLimits, StatsThresholds
from autofuse_studio.core.precision.stream_schema import (
    LayoutRecord,
    MetricsRecord,
    NoticeRecord,
    RowRecord,
    SignatureRecord,
    StatsRecord,
    check_row,
    convert,
    detail,
)
from autofuse_studio.core.precision.stream_schema import (
    StreamError as StreamError,  # re-exported: the error of every stream reader
)
from autofuse_studio.core.precision.thresholds import Limits, Thresholds, check_limit, stats_limits

PROTOCOL = 1  # bump when a record changes meaning; the local side refuses other protocol numbers
_METRIC_FIELDS = tuple((item.name, item.type in ("float", float)) for item in fields(Metrics))
_ROW_FIELDS = tuple(item.name for item in fields(PrecisionRow))
_SHAPES = ("fused_shape", "origin_shape")
_LAYOUTS = ("fused_layout", "origin_layout")
_NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _float(value: float) -> float | str:
    """A float for JSON: non-finite values as the strings 'nan', 'inf', '-inf' (strict JSON has none)."""
    number = float(value)
    if math.isfinite(number):
        return number
    return "nan" if math.isnan(number) else ("inf" if number > 0 else "-inf")


def _unfloat(value: float | str) -> float:
    if isinstance(value, str):
        return _NON_FINITE[value]
    return float(value)


def metrics_to_record(metrics: Metrics) -> dict[str, Any]:
    """Every Metrics field; floats exact (repr round trip), NaN/Inf as strings, counts as ints."""
    return {name: _float(getattr(metrics, name)) if is_float else int(getattr(metrics, name))
            for name, is_float in _METRIC_FIELDS}


def metrics_from_record(record: dict[str, Any] | MetricsRecord) -> Metrics:
    """The Metrics written by metrics_to_record (checked against the stream schema)."""
    checked: MetricsRecord = record if isinstance(record, MetricsRecord) else convert(record, MetricsRecord)
    values: dict[str, Any] = {name: _unfloat(getattr(checked, name)) if is_float else getattr(checked, name)
                              for name, is_float in _METRIC_FIELDS}
    return Metrics(**values)


def _number(value: float | int) -> float | int | str:
    return value if isinstance(value, int) and not isinstance(value, bool) else _float(value)


def _unnumber(value: float | int | str) -> float | int:
    return value if isinstance(value, int) and not isinstance(value, bool) else _unfloat(value)


def stats_to_record(stats: StatsComparison) -> dict[str, Any]:
    """A statistics comparison as JSON-ready values (see stats_from_record)."""
    return {"kind": stats.kind, "index": stats.index, "fused_dtype": stats.fused_dtype,
            "origin_dtype": stats.origin_dtype,
            "fused_shape": None if stats.fused_shape is None else list(stats.fused_shape),
            "origin_shape": None if stats.origin_shape is None else list(stats.origin_shape),
            "items": [[item.name, *map(_number, (item.fused, item.origin, item.diff, item.rel_diff))]
                      for item in stats.items],
            "one_sided": list(stats.one_sided), "shape_mismatch": stats.shape_mismatch,
            "count_mismatch": stats.count_mismatch, "problem": stats.problem}


def stats_from_record(record: dict[str, Any] | StatsRecord) -> StatsComparison:
    """The StatsComparison written by stats_to_record (checked against the stream schema)."""
    checked: StatsRecord = record if isinstance(record, StatsRecord) else convert(record, StatsRecord)
    items = tuple(ItemComparison(name, *map(_unnumber, values)) for name, *values in checked.items)
    return StatsComparison(checked.kind, checked.index, checked.fused_dtype, checked.origin_dtype,
                           _shape(checked.fused_shape), _shape(checked.origin_shape), items,
                           tuple(checked.one_sided), checked.shape_mismatch, checked.count_mismatch, checked.problem)


def _signature(record: SignatureRecord) -> Signature:
    return Signature(record.code, record.confidence, dict(record.params), record.sentence)


def _shape(shape: list[int] | None) -> tuple[int, ...] | None:
    return None if shape is None else tuple(shape)


def _layout(layout: LayoutInfo | None) -> dict[str, Any] | None:
    if layout is None:
        return None
    shape = None if layout.origin_shape is None else list(layout.origin_shape)
    return {"layout": layout.layout, "origin_format": layout.origin_format, "origin_shape": shape}


def _unlayout(record: LayoutRecord | None) -> LayoutInfo | None:
    if record is None:
        return None
    return LayoutInfo(record.layout, record.origin_format, _shape(record.origin_shape))


def row_to_record(row: PrecisionRow) -> dict[str, Any]:
    """Every field of a PrecisionRow as JSON-ready values (see row_from_record)."""
    record: dict[str, Any] = {}
    for name in _ROW_FIELDS:
        value = getattr(row, name)
        if name == "metrics":
            value = None if value is None else metrics_to_record(value)
        elif name == "stats":
            value = None if value is None else stats_to_record(value)
        elif name == "signature":
            value = None if value is None else value.as_dict()
        elif name in _SHAPES:
            value = None if value is None else [int(dim) for dim in value]
        elif name in _LAYOUTS:
            value = _layout(value)
        record[name] = value
    return record


def row_from_record(record: dict[str, Any] | RowRecord) -> PrecisionRow:
    """The PrecisionRow written by row_to_record (equal to the original, repr included); StreamError if broken:
    a missing field, a wrong type, a number that is none, an unknown kind, status or verdict."""
    checked: RowRecord = record if isinstance(record, RowRecord) else convert(record, RowRecord)
    check_row(checked)
    values = {name: getattr(checked, name) for name in _ROW_FIELDS}
    values["metrics"] = None if checked.metrics is None else metrics_from_record(checked.metrics)
    values["stats"] = None if checked.stats is None else stats_from_record(checked.stats)
    values["signature"] = None if checked.signature is None else _signature(checked.signature)
    for name in _SHAPES:
        values[name] = _shape(values[name])
    for name in _LAYOUTS:
        values[name] = _unlayout(values[name])
    return PrecisionRow(**values)


def notice_to_record(notice: Notice) -> dict[str, Any]:
    """A Notice as JSON (its --output form)."""
    return notice.to_dict()


def notice_from_record(record: dict[str, Any] | NoticeRecord) -> Notice:
    """The Notice written by notice_to_record (checked against the stream schema)."""
    checked: NoticeRecord = record if isinstance(record, NoticeRecord) else convert(record, NoticeRecord)
    return Notice(checked.kind, checked.message, checked.count, list(checked.items), checked.side,
                  wire_params(checked.params))


def thresholds_to_record(thresholds: Thresholds) -> dict[str, Any]:
    """Thresholds as JSON (floats exact)."""
    return thresholds.as_dict()


def _limits(record: Any, where: str) -> Limits:
    if not isinstance(record, dict) or set(record) != {"cosine", "max_abs", "max_rel"}:
        raise StreamError(f"The thresholds of {where} must hold exactly cosine, max_abs and max_rel.")
    return Limits(**{key: None if value is None else check_limit(key, value, where) for key, value in record.items()})


def thresholds_from_record(record: Any) -> Thresholds:
    """Thresholds from thresholds_to_record, every limit checked again (finite, in range)."""
    if not isinstance(record, dict) or not isinstance(record.get("per_dtype"), dict):
        raise StreamError("The thresholds record must hold 'default' and 'per_dtype'.")
    per_dtype = {str(name): _limits(limits, f"dtype {name}") for name, limits in record["per_dtype"].items()}
    return Thresholds(_limits(record.get("default"), "the default limits"), per_dtype,
                      _stats_thresholds(record.get("stats")))


def _stats_thresholds(record: Any) -> StatsThresholds:
    """Statistics limits from a thresholds record (absent in records of older versions: the defaults)."""
    if record is None:
        return StatsThresholds()
    if not isinstance(record, dict) or not isinstance(record.get("default"), dict) \
            or not isinstance(record.get("per_dtype"), dict):
        raise StreamError("The statistics thresholds must hold 'default' and 'per_dtype'.")
    try:
        default = stats_limits(StatsLimits(), record["default"], "the statistics limits")
        per_dtype = {str(name): stats_limits(default, limits, f"statistics dtype {name}")
                     for name, limits in record["per_dtype"].items() if isinstance(limits, dict)}
    except AppError as error:
        raise StreamError(str(error)) from None
    return StatsThresholds(default, per_dtype)


def encode_record(record: dict[str, Any]) -> str:
    """One record as one line of strict, ASCII-only JSON (no NaN tokens: non-finite floats are strings already).

    ASCII, so no remote locale, console escaping or terminal can change a byte of it.
    """
    return json.dumps(record, ensure_ascii=True, allow_nan=False, separators=(",", ":")) + "\n"


def decode_record(line: str) -> dict[str, Any]:
    """One line back into a plain dict; StreamError when it is not strict JSON (no NaN tokens, 64-bit ints,
    bounded nesting) or not an object with a 'type'. The stream's reader uses stream_schema.parse_record."""
    try:
        record = msgspec.json.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        raise StreamError(f"A streamed line is not JSON: {detail(line, 80)!r}.") from None
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise StreamError(f"A streamed line is not a record: {detail(line, 80)!r}.")
    return record
