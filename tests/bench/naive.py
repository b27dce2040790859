"""The naive baseline of the mode-1 benchmarks: the reference's three metrics, pair by pair, in float64."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from autofuse_studio.core.precision.dump_pairs import pair_dumps
from autofuse_studio.core.precision.engine import load_case, run_mode1
from autofuse_studio.core.precision.plan import plan_rows
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.run.spec import RunSpec


def naive_loop(pairs: list[tuple[Path, Path]]) -> float:
    """Seconds to np.load both files of every pair, cast to float64 and compute cosine, max abs and max rel."""
    start = time.perf_counter()
    for fused_path, origin_path in pairs:
        a = np.load(fused_path).flatten().astype(np.float64)
        b = np.load(origin_path).flatten().astype(np.float64)
        if a.size != b.size:
            continue
        float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-8))
        diff = np.abs(a - b)
        float(np.max(diff))
        float(np.max(diff / (np.maximum(np.abs(a), np.abs(b)) + 1e-8)))
    return time.perf_counter() - start


def known_pairs(request: RunSpec) -> list[tuple[Path, Path]]:
    """Every (fused, origin) file pair our own plan compares: the paths the naive loop is handed."""
    case = load_case(request)
    planned = plan_rows(case, pair_dumps(case.open_index, case.close_index), False).rows
    return [(Path(item.fused.path), Path(item.origin.path)) for item in planned  # the plan keeps path text
            if item.fused is not None and item.origin is not None
            and item.fused.path is not None and item.origin.path is not None]


# Runs of each side, alternated: on a noisy machine the naive loop alone varied by 0.78-1.01 s between runs,
# and the best of two put mode 1 at 0.22-0.27x on the same code.
BEST_OF_RUNS = 3


def best_of_runs(pairs: list[tuple[Path, Path]], request: RunSpec) -> tuple[float, float, PrecisionResult]:
    """(naive seconds, our seconds, our result), each the best of BEST_OF_RUNS runs alternated in one process."""
    naive_times, our_times = [], []
    result = None
    for _ in range(BEST_OF_RUNS):
        naive_times.append(naive_loop(pairs))
        start = time.perf_counter()
        result = run_mode1(request)
        our_times.append(time.perf_counter() - start)
    assert result is not None
    return min(naive_times), min(our_times), result
