"""Signature cost (issue 31: "at most 2x the metrics of that pair"): signature time / metrics time per fault and size.

What the ratio means. For each fault of the pair generator (tests/core/signature_cases.py) on about 1k, 10k, 40k, 64k,
100k, 150k, 1M and 4M elements (the last axis 256 long), fp16 and fp32, the same in-memory pair is timed two ways, alternated
in RUNS runs: the metrics as compare_pair computes them for one pair (metrics.compare_tensors on one thread: the
native kernel's one pass, or its numpy path) and core.precision.signature.signature. Each run times a batch of
calls of each (enough for ~BATCH_SECONDS, at least one) and takes the mean per call; the ratio of a run is
signature / metrics. The table prints the fastest run's times, their ratio ("best": on a busy machine the
fastest runs are the ones nothing else interrupted), the min–max of the runs' ratios, and the best ratio of the
numpy path (the signature with AUTOFUSE_STUDIO_NO_NATIVE=1, timed in the same runs against the same native
metrics: the checks as they were before the kernel did them, same answers). Not
counted: reading the files (a run reads a pair once for its metrics and again for a culprit's signature), and
the batching of small pairs (pair_batch.py), which makes a run's metrics of a small pair cheaper than one
compare_tensors call. Pairs above signature.MAX_ELEMENTS are not examined (the signature returns None at once).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native
from autofuse_studio.core.precision.metrics import compare_tensors
from autofuse_studio.core.precision.signature import signature
from tests.core.signature_cases import FAULTS

pytestmark = pytest.mark.bench

# The in-between sizes are where the paths change: classified whole up to WHOLE_ELEMENTS (128K), on a grid of a
# quarter of the pair just above it; the worst cells of 2026-12-05 were there (40K-150K).
SIZES = (1 << 10, 10_240, 40_960, 65_536, 102_400, 153_600, 1 << 20, 4 << 20)
WIDTH = 256  # the last axis: 16 blocks of C0 = 16
TARGET = 2.0
RUNS = 7
BATCH_SECONDS = 0.004


def _mean_call(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def measure(fault: str, size: int, dtype: str) -> tuple[int, list[float], list[float], list[float], str]:
    """(elements, metrics s, signature s, numpy-path signature s per run, code found) of one generated pair,
    RUNS alternated runs."""
    rng = np.random.default_rng([size, len(fault)])
    base = rng.standard_normal((max(1, size // WIDTH), WIDTH))
    case = FAULTS[fault](rng, base, dtype, 1.0)
    assert case is not None
    fused, origin = LazyTensor.plain(case.fused), LazyTensor.plain(case.origin)

    def metrics() -> object:
        return compare_tensors(fused, origin)

    def signed() -> object:
        return signature(fused, origin, case.fused_dtype, case.origin_dtype)

    def signed_by_numpy() -> object:
        os.environ[native.DISABLE_ENV] = "1"  # read at each call: the metrics keep the kernel
        try:
            return signed()
        finally:
            del os.environ[native.DISABLE_ENV]

    with np.errstate(all="ignore"):
        found = signed()
        calls = (metrics, signed, signed_by_numpy)
        batch = [max(1, int(BATCH_SECONDS / max(_mean_call(fn, 1), 1e-7))) for fn in calls]
        runs: list[list[float]] = [[], [], []]
        for _ in range(RUNS):
            for times, fn, count in zip(runs, calls, batch, strict=True):
                times.append(_mean_call(fn, count))
    code = "none" if found is None else str(found.code)  # type: ignore[attr-defined]
    return case.fused.size, runs[0], runs[1], runs[2], code


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_signature_cost_per_code(dtype: str) -> None:
    lines: list[str] = []
    worst: dict[str, float] = {}
    for fault in sorted(FAULTS):
        for size in SIZES:
            elements, metric_runs, signature_runs, numpy_runs, code = measure(fault, size, dtype)
            ratios = [cost / metric for metric, cost in zip(metric_runs, signature_runs, strict=True)]
            best = min(signature_runs) / min(metric_runs)
            worst[fault] = max(worst.get(fault, 0.0), best)
            lines.append(f"{fault:22s} {elements:>10,d}  metrics {min(metric_runs) * 1e3:9.3f} ms  signature "
                         f"{min(signature_runs) * 1e3:9.3f} ms  best {best:6.2f}  runs {min(ratios):6.2f}-"
                         f"{max(ratios):<7.2f} numpy path {min(numpy_runs) / min(metric_runs):7.2f} -> {code}")
    if not native.enabled():
        pytest.skip("the native kernel is not built or is disabled: nothing to compare the numpy path to")
    kernel = "native kernel"
    print(f"\nsignature cost, {dtype}, {kernel} (one thread; target ratio <= {TARGET:g}; ratio min-max of {RUNS} "
          "alternated runs)\n" + "\n".join(lines))
    print("worst (over sizes) best ratio per fault: " +
          ", ".join(f"{fault} {ratio:.2f}" for fault, ratio in sorted(worst.items())))
