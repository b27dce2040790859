"""Per-block benchmark: native one-pass kernel vs the numpy reference path, 1 and 2 threads, 260k-element blocks."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from autofuse_studio.core.precision import native
from autofuse_studio.core.precision.metrics import EPSILON, PASS_RATIO_LIMITS, _block_partial

pytestmark = [
    pytest.mark.bench,
    pytest.mark.skipif(native.kernel_library() is None, reason="native kernel not built"),
]
BLOCK = 260_000
BLOCKS = 16


def _numpy_partial(a: np.ndarray, b: np.ndarray) -> object:
    with np.errstate(all="ignore"):
        return _block_partial(a, b)


def _native_partial(a: np.ndarray, b: np.ndarray) -> object:
    return native.native_partial(a, b, PASS_RATIO_LIMITS, EPSILON)


def _per_block(fn: Callable[[np.ndarray, np.ndarray], object], pairs: list[tuple[np.ndarray, np.ndarray]],
               threads: int) -> float:
    """Best-of-9 wall time per block, running all blocks on `threads` threads."""
    best = float("inf")
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(9):
            start = time.perf_counter()
            list(pool.map(lambda pair: fn(*pair), pairs))
            best = min(best, (time.perf_counter() - start) / len(pairs))
    return best


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_native_kernel_per_block(dtype: str) -> None:
    rng = np.random.default_rng(0)
    pairs = []
    for _ in range(BLOCKS):
        a = rng.standard_normal(BLOCK)
        pairs.append((a.astype(dtype), (a + rng.standard_normal(BLOCK) * 0.01).astype(dtype)))
    times = {(name, threads): _per_block(fn, pairs, threads)
             for name, fn in (("numpy", _numpy_partial), ("native", _native_partial)) for threads in (1, 2)}
    single = times["numpy", 1] / times["native", 1]
    scaling = times["native", 1] / times["native", 2]
    print(f"\n{dtype} block of {BLOCK}: numpy {times['numpy', 1] * 1e6:.0f} us (2 threads "
          f"{times['numpy', 2] * 1e6:.0f} us/block), native {times['native', 1] * 1e6:.0f} us (2 threads "
          f"{times['native', 2] * 1e6:.0f} us/block); speedup {single:.1f}x, native 2-thread scaling "
          f"{scaling:.2f}x, numpy 2-thread scaling {times['numpy', 1] / times['numpy', 2]:.2f}x")
    # A floor, not the expected figure (3x for fp16, ~1.8x for fp32 on a quiet machine): this shared
    # machine's noise swings single runs by 1.5x.
    assert single >= 1.2, f"native kernel only {single:.1f}x faster than numpy"
