"""Vectorised threshold checks agree with each row's Limits, and a changed row is never judged stale."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from autofuse_studio.core.precision.failing import row_table
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import INPUT, OUTPUT, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts, row_fails

SPECIALS = [math.nan, math.inf, -math.inf, 0.0, 1.0, 0.99, 0.98999999]


def _metrics(rng: random.Random) -> Metrics:
    def pick(low: float, high: float) -> float:
        return rng.choice(SPECIALS) if rng.random() < 0.15 else rng.uniform(low, high)

    nan_fused = rng.choice([0, 0, 0, 2])
    return Metrics(cosine=pick(0.9, 1.0), max_abs_err=rng.choice([0.0, pick(0, 2)]), max_rel_err=pick(0, 2),
                   mean_abs_err=0.1, rmse=0.1, rel_euclidean=0.1, one_thousandth_ratio=0.5,
                   five_thousandth_ratio=0.6, elements=10, nan_fused=nan_fused, inf_fused=rng.choice([0, 0, 1]),
                   nan_origin=nan_fused, inf_origin=0, nonfinite_mismatch=rng.choice([0, 0, 3]))


def _rows(count: int, seed: int) -> list[PrecisionRow]:
    rng = random.Random(seed)
    rows = []
    for number in range(count):
        compared = rng.random() < 0.8
        rows.append(PrecisionRow(rng.choice([OUTPUT, INPUT]), f"op{number % 50}", number % 3, "o", 0, "OK",
                                 step=str(number % 2), rank=rng.choice([None, "0", "1"]), order=number,
                                 metrics=_metrics(rng) if compared else None,
                                 fused_dtype=rng.choice(["float16", "float32"]),
                                 origin_dtype=rng.choice(["", "bfloat16", "float32"])))
    return rows


THRESHOLDS = [
    Thresholds(),
    Thresholds(Limits(cosine=None, max_abs=0.5, max_rel=1.0)),
    Thresholds(Limits(cosine=0.995), {"float32": Limits(cosine=0.5, max_rel=0.1), "bfloat16": Limits(None)}),
]


@pytest.mark.parametrize("thresholds", THRESHOLDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_vectorised_failing_matches_each_row(thresholds: Thresholds, seed: int) -> None:
    rows = _rows(600, seed)
    failing = row_table(rows).failing(thresholds)
    assert [bool(flag) for flag in failing] == [bool(row_fails(row, thresholds)) for row in rows]


def test_a_row_whose_metrics_change_is_judged_again() -> None:
    rows = _rows(200, 4)
    target = next(row for row in rows if row.metrics is not None and row.kind == OUTPUT)
    assert target.metrics is not None
    target.metrics = replace(target.metrics, cosine=1.0, max_abs_err=0.0)
    assign_verdicts(rows, Thresholds(), {})
    assert target.verdict == "OK"
    target.metrics = replace(target.metrics, cosine=0.5, max_abs_err=1.0, nan_fused=0, inf_fused=0)
    assign_verdicts(rows, Thresholds(), {})
    assert target.verdict in ("CULPRIT", "PROPAGATED")
