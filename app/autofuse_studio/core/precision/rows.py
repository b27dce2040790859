"""The result table of a precision run: one PrecisionRow per compared fused output or input."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.stats import StatsComparison
from autofuse_studio.core.precision.thresholds import Thresholds

OUTPUT = "output"
INPUT = "input"

VERDICT_OK = "OK"
VERDICT_UNKNOWN = "UNKNOWN"
VERDICT_CULPRIT = "CULPRIT"
VERDICT_PROPAGATED = "PROPAGATED"
VERDICTS = (VERDICT_CULPRIT, VERDICT_PROPAGATED, VERDICT_OK, VERDICT_UNKNOWN)

# Metric fields written to --output files after the reference's three, in this order.
EXTRA_METRICS = (
    "mean_abs_err", "rmse", "rel_euclidean", "one_thousandth_ratio", "five_thousandth_ratio",
    "nan_fused", "inf_fused", "nan_origin", "inf_origin", "nonfinite_mismatch", "elements",
)


@dataclass(slots=True)
class PrecisionRow:
    """One comparison: a fused op's output (or input) against the origin op's output.

    Slots, not a __dict__: a big run holds 100k+ of them, and the result writers read their fields in C straight
    from the slots (row_join.attribute_columns)."""

    kind: str
    fused_op: str
    fused_index: int
    origin_op: str | None
    origin_index: int | None
    status: str
    step: str = ""
    rank: str | None = None  # the device id of multi-rank dumps; None when neither side has several ranks
    occurrence: int | None = None  # k-th dump (timestamp order) of an op dumped k times on both sides
    metrics: Metrics | None = None
    verdict: str = VERDICT_UNKNOWN
    message: str = ""
    source_type: str = ""
    fused_file: str | None = None
    origin_file: str | None = None
    fused_dtype: str = ""
    origin_dtype: str = ""
    fused_shape: tuple[int, ...] | None = None
    origin_shape: tuple[int, ...] | None = None
    order: int = 0
    table_position: int = 0
    # The graph's layouts of both tensors, so viewers convert exactly as the comparison did.
    fused_layout: LayoutInfo | None = None
    origin_layout: LayoutInfo | None = None
    stats: StatsComparison | None = None  # statistics mode: the row was compared by its statistics
    signature: Signature | None = None  # what kind of error a failing row holds (core.precision.signature)

    @property
    def compared(self) -> bool:
        """True when metrics (or, in statistics mode, statistics) exist for this row."""
        return self.metrics is not None or self.stats is not None

    @property
    def key(self) -> tuple[str | None, str, int | None, str, str, int]:
        """(rank, step, occurrence, kind, fused op, index): unique within a result."""
        return (self.rank, self.step, self.occurrence, self.kind, self.fused_op, self.fused_index)

    def metric(self, name: str) -> float | int | None:
        """A metric by field name, or None when the row was not compared."""
        value: float | int | None = None if self.metrics is None else getattr(self.metrics, name)
        return value

    def to_dict(self) -> dict[str, Any]:
        """The JSON form documented in the README (NaN and Inf become null)."""
        row: dict[str, Any] = {
            "kind": self.kind, "rank": self.rank, "step": self.step, "occurrence": self.occurrence,
            "fused_op": self.fused_op,
            "fused_index": self.fused_index, "origin_op": self.origin_op,
            "origin_index": self.origin_index, "status": self.status,
            "cosine": _json_number(self.metric("cosine")),
            "max_abs_err": _json_number(self.metric("max_abs_err")),
            "max_rel_err": _json_number(self.metric("max_rel_err")),
        }
        for name in EXTRA_METRICS:
            row[name] = _json_number(self.metric(name))
        row.update({
            "verdict": self.verdict, "fused_dtype": self.fused_dtype, "origin_dtype": self.origin_dtype,
            "fused_shape": list(self.fused_shape) if self.fused_shape is not None else None,
            "origin_shape": list(self.origin_shape) if self.origin_shape is not None else None,
            "source_type": self.source_type, "message": self.message,
            "fused_file": self.fused_file, "origin_file": self.origin_file,
            "statistics": self.stats.as_dict() if self.stats is not None else None,
            "signature": self.signature.as_dict() if self.signature is not None else None,
        })
        return row


def _json_number(value: float | int | None) -> float | int | None:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    return value


def divergence_dict(row: PrecisionRow) -> dict[str, Any]:
    """Where a first divergence is: op, index, kind, rank, step, occurrence and origin."""
    return {"fused_op": row.fused_op, "fused_index": row.fused_index, "kind": row.kind, "rank": row.rank,
            "step": row.step, "occurrence": row.occurrence, "origin_op": row.origin_op,
            "origin_index": row.origin_index}


@dataclass
class PrecisionResult:
    """Everything a precision run found: rows in table order, the first divergence (overall and per rank), notices."""

    rows: list[PrecisionRow]
    thresholds: Thresholds
    first_divergence: PrecisionRow | None = None
    notices: list[Notice] = field(default_factory=list)
    output_mappings: int = 0
    input_mappings: int = 0
    compare_input: bool = False
    steps: list[str] = field(default_factory=list)
    ranks: list[str] = field(default_factory=list)  # the ranks compared; [] when the rows carry no rank
    first_divergence_by_rank: dict[str, PrecisionRow | None] = field(default_factory=dict)

    @property
    def warnings(self) -> list[str]:
        """The notices' sentences, one per kind of warning."""
        return [notice.message for notice in self.notices]

    def to_dict(self) -> dict[str, Any]:
        """The `--output x.json` document."""
        first = self.first_divergence
        return {
            "rows": [row.to_dict() for row in self.rows],
            "first_divergence": None if first is None else divergence_dict(first),
            "first_divergence_by_rank": {rank: None if row is None else divergence_dict(row)
                                         for rank, row in self.first_divergence_by_rank.items()},
            "thresholds": self.thresholds.as_dict(),
            "ranks": self.ranks,
            "steps": self.steps,
            "warnings": [notice.to_dict() for notice in self.notices],
        }

    def counts(self, attribute: str) -> dict[str, int]:
        """How many rows have each value of `attribute` ("status" or "verdict"), in first-seen order."""
        counted: dict[str, int] = {}
        for row in self.rows:
            value = getattr(row, attribute)
            counted[value] = counted.get(value, 0) + 1
        return counted
