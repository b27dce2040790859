"""Synthetic precision results of any size (no dumps): every kind of row the result files must write.

Realistic field values: ~10% non-OK statuses, multi-rank and repeated ops, statistics rows, signed culprits,
NaN/Inf metrics and statistics, and, with `hostile`, op names with unicode, control characters, formula leads
and 300-character names.
"""

from __future__ import annotations

import math
import random

from autofuse_studio.core.dumps.stats_csv import TensorStats
from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.metrics import Metrics
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
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.stats import compare_stats
from autofuse_studio.core.precision.thresholds import Limits, Thresholds

HOSTILE_NAMES = (
    "=HYPERLINK(\"x\",\"y\")", "@SUM(A1:A2)", "+1", "-cmd", "\tlead", "\rlead", "line\nbreak", "nul\x00byte",
    "bell\x07\x1f\x7f", "融合算子_加法", "emoji\U0001f600", "\u2028sep\u2029", "quote\"and,comma", "back\\slash",
    "ｆｕｌｌ＝width", "＝lead", "x" * 300, "0012", "12",
)
_BAD_STATUSES = ("FILE_NOT_FOUND", "SHAPE_MISMATCH", "NO_MAPPING", "DTYPE_MISMATCH")
_SIGNATURES = ("bias", "scale", "overflow", "rounding", "localised", "tail_block")
_DTYPES = ("float16", "float32", "bfloat16", "int32")


def _metrics(rng: random.Random, number: int) -> Metrics:
    """Plausible metrics; every 97th row has NaN/Inf values, tiny and huge errors appear too."""
    cosine = 1.0 - rng.random() ** 4 * 0.05
    max_abs = rng.random() * 10 ** rng.randint(-9, 3)
    metrics = Metrics(cosine, max_abs, max_abs * rng.random() * 40, max_abs / 3, max_abs / 2.5,
                      rng.random() * 1e-3, 1 - rng.random() * 0.01, 1 - rng.random() * 0.001,
                      rng.choice((1, 16, 1024, 65536, 4194304)), 0, 0, 0, 0, 0)
    if number % 97 == 5:
        metrics = Metrics(math.nan, math.inf, -math.inf, math.nan, math.inf, 1e300 * 10, 0.5, 0.25, 64, 3, 2, 0, 1, 4)
    return metrics


def _stats_row(rng: random.Random, number: int) -> tuple[TensorStats, TensorStats]:
    """Two sides' statistics; some with NaN/Inf and missing items."""
    values = [rng.uniform(-100, 100) for _ in range(3)]
    drift = 1 + (rng.random() * 0.2 if number % 3 else 0)
    fused = TensorStats("output", number % 2, 4096, "DT_FLOAT16", "ND", (32, 64), 2048, max(values) * drift,
                        min(values), sum(values) / 3 * drift, None, 0, 0, 0)
    origin = TensorStats("output", number % 2, 4096, "DT_FLOAT16", "ND", (32, 64), 2048, max(values), min(values),
                         sum(values) / 3, 12.5, 0, 0, 0)
    if number % 5 == 0:
        fused = TensorStats("output", 0, 4096, "DT_FLOAT16", "ND", None, 2048, math.inf, -math.inf, math.nan, None,
                            3, 1, 1)
    return fused, origin


def synthetic_rows(count: int, seed: int = 0, hostile: bool = False, statistics: bool = False) -> list[PrecisionRow]:
    """`count` rows of every kind (with `hostile`, names from HOSTILE_NAMES too; with `statistics`, every compared
    row from statistics, as a statistics-mode run gives them)."""
    rng = random.Random(seed)
    rows = []
    for number in range(count):
        bad = rng.random() < 0.1
        kind = INPUT if number % 11 == 0 else OUTPUT
        fused_op = f"autofuse_{number % 977}_Add_Mul_Cast_{number}"
        origin_op = None if bad and number % 2 else f"model/layer_{number // 50}/Add_{number}"
        if hostile and number % 3 == 0:
            fused_op = HOSTILE_NAMES[number % len(HOSTILE_NAMES)] + str(number)
        if hostile and number % 5 == 1:
            origin_op = HOSTILE_NAMES[(number + 7) % len(HOSTILE_NAMES)]
        shape = tuple(rng.choice((1, 8, 16, 128)) for _ in range(number % 4))
        row = PrecisionRow(
            kind, fused_op, number % 3, origin_op, None if origin_op is None else number % 2,
            rng.choice(_BAD_STATUSES) if bad else "OK",
            step=HOSTILE_NAMES[number % len(HOSTILE_NAMES)] if hostile and number % 13 == 0 else str(number % 4),
            rank=str(number % 8) if number % 2 or not hostile else None,
            occurrence=number % 3 if number % 17 == 0 else None,
            verdict=VERDICT_UNKNOWN if bad else rng.choice((VERDICT_OK,) * 30 + (VERDICT_CULPRIT, VERDICT_PROPAGATED)),
            message=f"missing {fused_op}.output.0.npy" if bad else "",
            source_type="Const" if kind == INPUT and bad else "",
            fused_file=f"/data/af_open/rank{number % 8}/{fused_op}.{number}.output.0.npy",
            origin_file=None if origin_op is None else f"/data/af_close/{origin_op}.output.0.npy",
            fused_dtype=rng.choice(_DTYPES), origin_dtype=rng.choice(_DTYPES),
            fused_shape=None if bad else shape, origin_shape=None if bad else shape[::-1], order=number,
            table_position=number,
        )
        if not bad:
            if statistics or number % 20 == 7:
                row.stats = compare_stats(*_stats_row(rng, number))
            else:
                row.metrics = _metrics(rng, number)
        if row.verdict == VERDICT_CULPRIT or number % 50 == 9:
            code = rng.choice(_SIGNATURES)
            row.signature = Signature(code, round(rng.random(), 3),
                                      {"factor": rng.random() * 2, "count": number, "where": [1, 2, 3], "ok": True,
                                       "note": fused_op[:20]},
                                      f"The fused output is off by a {code} ({fused_op[:30]}).")
        rows.append(row)
    return rows


def synthetic_result(count: int, seed: int = 0, hostile: bool = False, statistics: bool = False) -> PrecisionResult:
    """A PrecisionResult over synthetic_rows with per-dtype thresholds, notices and first divergences."""
    rows = synthetic_rows(count, seed, hostile, statistics)
    thresholds = Thresholds(Limits(0.99, 1e-3, None), {"float16": Limits(0.98, 1e-2, 0.5)})
    culprits = [row for row in rows if row.verdict == VERDICT_CULPRIT]
    ranks = sorted({row.rank for row in rows if row.rank is not None})
    result = PrecisionResult(rows, thresholds, first_divergence=culprits[0] if culprits else None,
                             notices=[Notice("missing_dumps", "3 dumps are missing (e.g. a.npy, 融合.npy).", 3,
                                             [{"name": "a.npy", "size": 1.5e-7}], side="af-open")],
                             steps=sorted({row.step for row in rows}), ranks=ranks)
    result.first_divergence_by_rank = {rank: next((row for row in culprits if row.rank == rank), None)
                                       for rank in ranks}
    return result
