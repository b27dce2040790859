"""Verdicts: the first failing fused op is the CULPRIT, ops fed by it are PROPAGATED."""

from __future__ import annotations

from dataclasses import replace

from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import INPUT, OUTPUT, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts

GOOD = Metrics(0.9999, 1e-4, 1e-4, 1e-5, 1e-5, 1e-5, 1.0, 1.0, 10, 0, 0, 0, 0)
BAD = replace(GOOD, cosine=0.9, max_abs_err=0.5)


def _row(op: str, metrics: Metrics | None, order: int, kind: str = OUTPUT, index: int = 0) -> PrecisionRow:
    return PrecisionRow(kind, op, index, f"origin_{op}", 0, "OK" if metrics else "FILE_NOT_FOUND",
                        metrics=metrics, order=order)


# data -> F1 -> plain_relu (unfused, not compared) -> F2 -> F3 ; F4 is fed by data only
PRODUCERS = {
    "F1": [("data", 0)],
    "plain_relu": [("F1", 0)],
    "F2": [("plain_relu", 0)],
    "F3": [("F2", 0), ("const", 0)],
    "F4": [("data", 0)],
}


def test_first_failing_op_is_culprit_and_downstream_is_propagated() -> None:
    rows = [_row("F1", GOOD, 1), _row("F2", BAD, 3), _row("F3", BAD, 4), _row("F4", BAD, 5)]
    first = assign_verdicts(rows, Thresholds(), PRODUCERS)
    assert [row.verdict for row in rows] == ["OK", "CULPRIT", "PROPAGATED", "CULPRIT"]
    assert first is rows[1]


def test_walks_back_through_uncompared_ops() -> None:
    rows = [_row("F1", BAD, 1), _row("F2", None, 3), _row("F3", BAD, 4)]
    first = assign_verdicts(rows, Thresholds(), PRODUCERS)
    assert [row.verdict for row in rows] == ["CULPRIT", "UNKNOWN", "PROPAGATED"]
    assert first is rows[0]


def test_input_row_decides_before_walking_upstream() -> None:
    rows = [_row("F1", GOOD, 1), _row("F2", GOOD, 3), _row("F3", BAD, 4),
            _row("F3", BAD, 4, kind=INPUT, index=0)]
    first = assign_verdicts(rows, Thresholds(), PRODUCERS)
    # The input row of F3 fails although F2's output passed: the input row is the first divergence.
    assert rows[3].verdict == "CULPRIT"
    assert rows[2].verdict == "PROPAGATED"
    assert first is rows[3]


def test_threshold_change_updates_verdicts_without_recomputing() -> None:
    rows = [_row("F1", replace(GOOD, cosine=0.995), 1), _row("F2", GOOD, 3)]
    assign_verdicts(rows, Thresholds(), PRODUCERS)
    assert rows[0].verdict == "OK"
    assign_verdicts(rows, Thresholds(Limits(cosine=0.999)), PRODUCERS)
    assert [row.verdict for row in rows] == ["CULPRIT", "OK"]


def test_per_dtype_limits_and_max_abs() -> None:
    row = _row("F1", replace(GOOD, max_abs_err=0.2), 1)
    row.origin_dtype = "float16"
    assign_verdicts([row], Thresholds(per_dtype={"float16": Limits(cosine=0.99, max_abs=0.1)}), PRODUCERS)
    assert row.verdict == "CULPRIT"
    assign_verdicts([row], Thresholds(per_dtype={"float32": Limits(cosine=0.99, max_abs=0.1)}), PRODUCERS)
    assert row.verdict == "OK"


def test_identical_all_zero_tensors_pass() -> None:
    zero = Metrics(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 4, 0, 0, 0, 0)
    rows = [_row("F1", zero, 1)]
    assert assign_verdicts(rows, Thresholds(), PRODUCERS) is None
    assert rows[0].verdict == "OK"


def test_deep_chain_and_cycle_do_not_recurse() -> None:
    depth = 50_000
    producers: dict[str, list[tuple[str, int] | None]] = {f"op{i}": [(f"op{i - 1}", 0)] for i in range(1, depth)}
    producers["op0"] = [(f"op{depth - 1}", 0)]  # a loop back edge
    rows = [_row("op0", BAD, 0), _row(f"op{depth - 1}", BAD, depth)]
    assign_verdicts(rows, Thresholds(), producers)
    assert rows[1].verdict == "PROPAGATED"


def test_steps_are_judged_separately() -> None:
    rows = [_row("F1", BAD, 1), _row("F3", BAD, 4)]
    later = [_row("F1", GOOD, 1), _row("F3", BAD, 4)]
    for row in later:
        row.step = "1"
    for row in rows:
        row.step = "0"
    first = assign_verdicts(rows + later, Thresholds(), PRODUCERS)
    assert [row.verdict for row in later] == ["OK", "CULPRIT"]
    assert first is rows[0]
