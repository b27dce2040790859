"""The vectorised verdicts and their summary equal a plain per-row reference on random results of many shapes."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import pytest

from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.overview import build_overview
from autofuse_studio.core.precision.rows import (
    INPUT,
    OUTPUT,
    VERDICT_CULPRIT,
    VERDICT_OK,
    VERDICT_PROPAGATED,
    VERDICT_UNKNOWN,
    PrecisionResult,
    PrecisionRow,
)
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.precision.verdict import (
    ProducerIndex,
    _Taint,
    assign_verdicts,
    first_divergence_by_rank,
    row_fails,
)
from autofuse_studio.core.precision.verdict_summary import assign_with_summary
from autofuse_studio.core.sorting import natural_key

GOOD = Metrics(0.9999, 1e-4, 1e-4, 1e-5, 1e-5, 1e-5, 1.0, 1.0, 10, 0, 0, 0, 0)


def _reference_verdicts(rows: list[PrecisionRow], thresholds: Thresholds, producers: ProducerIndex) -> Any:
    """The rules of verdict.py written row by row, with Python's min() for the first divergence."""
    groups: dict[tuple[str | None, str], list[PrecisionRow]] = {}
    for row in rows:
        groups.setdefault((row.rank, row.step), []).append(row)
    for members in groups.values():
        failing = [row for row in members if row_fails(row, thresholds)]
        compared_outputs = {(r.fused_op, r.fused_index) for r in members if r.metrics and r.kind == OUTPUT}
        compared_inputs = {(r.fused_op, r.fused_index) for r in members if r.metrics and r.kind == INPUT}
        failed_outputs = {(r.fused_op, r.fused_index) for r in failing if r.kind == OUTPUT}
        failed_inputs = {(r.fused_op, r.fused_index) for r in failing if r.kind == INPUT}
        taint = _Taint(producers, compared_outputs, failed_outputs)
        for row in members:
            row.verdict = VERDICT_OK if row.metrics is not None else VERDICT_UNKNOWN
        for row in failing:
            inputs = producers.get(row.fused_op, ())

            def own(port: Any, op: str = row.fused_op) -> bool:
                return port is not None and port[0] == op  # a self-reference is never the cause

            if row.kind == INPUT:
                port = inputs[row.fused_index] if row.fused_index < len(inputs) else None
                bad = not own(port) and taint.port_fails(port)
            else:
                bad = any(((row.fused_op, i) in failed_inputs) if (row.fused_op, i) in compared_inputs
                          else taint.port_fails(port) for i, port in enumerate(inputs) if not own(port))
            row.verdict = VERDICT_PROPAGATED if bad else VERDICT_CULPRIT
    culprits = [row for row in rows if row.verdict == VERDICT_CULPRIT]
    return min(culprits, key=lambda r: (natural_key(r.step), r.order, r.kind == OUTPUT, r.fused_index,
                                        natural_key(r.rank), r.occurrence or 0)) if culprits else None


def _random_case(seed: int) -> tuple[list[PrecisionRow], ProducerIndex, Thresholds]:
    rng = random.Random(seed)
    ops = [f"F{n}" for n in range(rng.choice([1, 3, 20, 80]))]
    producers: dict[str, list[tuple[str, int] | None]] = {
        op: [rng.choice([None, ("data", 0), (rng.choice(ops), rng.randrange(2)), (f"plain{rng.randrange(5)}", 0)])
             for _ in range(rng.randrange(4))] for op in ops}
    for n in range(5):
        producers[f"plain{n}"] = [(rng.choice(ops), 0)]
    ranks = rng.choice([[None], ["0"], ["0", "1", "2", "10"], [None, "3"], ["rank0", "rank10", "rank2"]])
    steps = rng.choice([["0"], ["1", "01", "2", "10"], ["3", "0"]])
    rows = []
    for _ in range(rng.choice([0, 1, 5, 60, 400, 1500])):
        op = rng.choice(ops)
        cosine = rng.choice([0.9, 0.99, 0.9999, math.nan, 1.0])
        metrics = None if rng.random() < 0.15 else replace(
            GOOD, cosine=cosine, max_abs_err=rng.choice([0.0, 1e-4, 0.5]),
            nan_fused=rng.choice([0, 0, 1]), nonfinite_mismatch=rng.choice([0, 0, 2]))
        rows.append(PrecisionRow(rng.choice([OUTPUT, INPUT]), op, rng.randrange(3), f"o_{op}", 0,
                                 "OK" if metrics else "FILE_NOT_FOUND", step=rng.choice(steps),
                                 rank=rng.choice(ranks), occurrence=rng.choice([None, 1, 2]),
                                 order=rng.randrange(len(ops) + 3), metrics=metrics,
                                 fused_dtype=rng.choice(["float16", "float32"]), origin_dtype="float16"))
    thresholds = Thresholds(Limits(cosine=rng.choice([0.95, 0.999, None]), max_abs=rng.choice([None, 0.01])),
                            {"float32": Limits(cosine=0.98)} if rng.random() < 0.5 else {})
    return rows, producers, thresholds


def _cells(overview: Any) -> Any:
    return overview.ranks, overview.steps, {
        key: (cell.rows, cell.verdicts, cell.min_cosine, id(cell.first_divergence))
        for key, cell in overview.cells.items()}


@pytest.mark.parametrize("seed", range(60))
def test_summary_equals_the_row_by_row_reference(seed: int) -> None:
    rows, producers, thresholds = _random_case(seed)
    expected_first = _reference_verdicts(rows, thresholds, producers)
    expected_verdicts = [row.verdict for row in rows]
    expected_by_rank = first_divergence_by_rank(rows)
    expected_counts = PrecisionResult(rows, thresholds).counts("verdict")
    expected_overview = _cells(build_overview(rows))
    for row in rows:
        row.verdict = VERDICT_UNKNOWN
    summary = assign_with_summary(rows, thresholds, producers)
    assert [row.verdict for row in rows] == expected_verdicts
    assert summary.first_divergence is expected_first
    assert {rank: id(row) for rank, row in summary.first_divergence_by_rank.items()} == {
        rank: id(row) for rank, row in expected_by_rank.items()}
    assert list(summary.verdict_counts.items()) == list(expected_counts.items())
    assert _cells(summary.overview) == expected_overview
    # The plain entry point agrees, and a second threshold set on the same (cached) rows too.
    assert assign_verdicts(rows, thresholds, producers) is expected_first
    stricter = Thresholds(Limits(cosine=0.99999))
    expected_first = _reference_verdicts(rows, stricter, producers)
    expected_verdicts = [row.verdict for row in rows]
    assert assign_with_summary(rows, stricter, producers).first_divergence is expected_first
    assert [row.verdict for row in rows] == expected_verdicts


def test_many_culprits_take_the_ranked_path_and_keep_row_order_on_ties() -> None:
    rows = [PrecisionRow(OUTPUT, f"F{n % 7}", 0, "o", 0, "OK", step=str(n % 3), order=n % 5, rank=["1", "01"][n % 2],
                         metrics=replace(GOOD, cosine=0.5)) for n in range(300)]
    expected = _reference_verdicts(rows, Thresholds(), {})
    summary = assign_with_summary(rows, Thresholds(), {})
    assert summary.first_divergence is expected
    assert summary.first_divergence_by_rank == first_divergence_by_rank(rows)
