"""Signature cost (issue 31: "at most 2x the metrics of that pair"): signature time / metric time per fault code.

For each fault of the pair generator (tests/core/signature_cases.py) on 1k … 10M elements, fp16 and fp32, the
metrics (compare_tensors on one thread, as a run measures a pair) and the signature (core.precision.signature) of
the same in-memory pair are timed in this run, best of a few; the table prints both and their ratio. Pairs above
signature.MAX_ELEMENTS are not examined (the signature returns None at once): their rows say so.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision.metrics import compare_tensors
from autofuse_studio.core.precision.signature import MAX_ELEMENTS, signature
from tests.core.signature_cases import FAULTS

pytestmark = pytest.mark.bench

SIZES = (1 << 10, 10_240, 102_400, 1 << 20, 4 << 20, 10 << 20)
WIDTH = 256  # the last axis: 16 blocks of C0 = 16
TARGET = 2.0


def _best(fn: Callable[[], object], budget: float = 1.0, most: int = 5) -> float:
    """Best wall time of up to `most` calls, stopping once `budget` seconds were spent (at least 2 calls)."""
    best, spent, calls = float("inf"), 0.0, 0
    while calls < 2 or (calls < most and spent < budget):
        start = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - start
        best, spent, calls = min(best, elapsed), spent + elapsed, calls + 1
    return best


def measure(fault: str, size: int, dtype: str) -> tuple[int, float, float, str]:
    """(elements, metric s, signature s, code found) of one generated pair."""
    rng = np.random.default_rng([size, len(fault)])
    base = rng.standard_normal((size // WIDTH, WIDTH))
    case = FAULTS[fault](rng, base, dtype, 1.0)
    assert case is not None
    fused, origin = LazyTensor.plain(case.fused), LazyTensor.plain(case.origin)
    metric = _best(lambda: compare_tensors(fused, origin))
    found = signature(fused, origin, case.fused_dtype, case.origin_dtype)
    cost = _best(lambda: signature(fused, origin, case.fused_dtype, case.origin_dtype))
    return case.fused.size, metric, cost, "none" if found is None else found.code


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_signature_cost_per_code(dtype: str) -> None:
    lines: list[str] = []
    worst: dict[str, float] = {}
    for fault in sorted(FAULTS):
        for size in SIZES:
            elements, metric, cost, code = measure(fault, size, dtype)
            ratio = cost / metric
            note = "  (not examined: above MAX_ELEMENTS)" if elements > MAX_ELEMENTS else ""
            if elements <= MAX_ELEMENTS:
                worst[fault] = max(worst.get(fault, 0.0), ratio)
            lines.append(f"{fault:22s} {elements:>10,d}  metrics {metric * 1e3:9.2f} ms  signature "
                         f"{cost * 1e3:9.2f} ms  ratio {ratio:6.2f}  -> {code}{note}")
    print(f"\nsignature cost, {dtype} (one thread; target ratio <= {TARGET:g})\n" + "\n".join(lines))
    print("worst ratio per fault: " + ", ".join(f"{fault} {ratio:.2f}" for fault, ratio in sorted(worst.items())))
