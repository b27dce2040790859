"""sign_classify's permutation gate (_kernel.c gate_decide) decides as the exact sums do, on pairs at its border.

The gate compares |sum x - sum y| with twice the sum of tol = c1 max(|x|, |y|) + c2. The kernel sums in double
in its own order (the AVX2 code sweeps only the sums of a float16/float32 pair, taking the extremes from the
survey); whatever the order, a gate that holds (1) must mean the exact excess is negative, one that fails (0) that
it is positive or the extremes differ, and "too close to call" (-1) only where the excess is within its margin.
The pairs are permutations of a random origin with a perturbation whose sum sweeps across the border.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from autofuse_studio.core.precision import native, signature_native
from autofuse_studio.core.precision.signature import _native_params

pytestmark = pytest.mark.skipif(native.kernel_library() is None, reason="native kernel not built (no C compiler)")

_STORED = {"float16": np.float16, "float32": np.float32}


def _exact(x: np.ndarray, y: np.ndarray, c1: float, c2: float) -> tuple[float, float]:
    """(exact excess |sum x - sum y| - 2 sum tol, the kernel's margin for it), tol rounded as the kernel rounds it."""
    x64, y64 = x.astype(np.float64).reshape(-1), y.astype(np.float64).reshape(-1)
    tol = c1 * np.maximum(np.abs(x64), np.abs(y64)) + c2
    excess = abs(math.fsum(x64) - math.fsum(y64)) - 2 * math.fsum(tol)
    n = x64.size
    largest = max(float(np.abs(x64).max()), float(np.abs(y64).max()), float(tol.max()))
    return excess, (2 * (n + 64)) * 2.0**-53 * n * 4.0 * largest


def _bordering_pairs(dtypes: tuple[str, str], shape: tuple[int, ...], seed: int):  # type: ignore[no-untyped-def]
    """Pairs (x, y, scale): x a shifted origin plus a perturbation of about `scale` times the gate's allowance,
    spread over interior (not extreme) elements, scale from 0.5 to 1.5."""
    fused_dtype, origin_dtype = dtypes
    rng = np.random.default_rng(seed)
    y = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4)).astype(_STORED[origin_dtype])
    x = np.roll(y, 1, axis=-1).astype(_STORED[fused_dtype])
    flat_y = y.astype(np.float64).reshape(-1)
    interior = np.flatnonzero(np.abs(flat_y) < 0.5 * np.abs(flat_y).max())
    _, _, params = _native_params(fused_dtype, origin_dtype, shape)
    c1, c2 = params[0], params[1]
    allowance = 2 * float(np.sum(c1 * np.maximum(np.abs(x.astype(np.float64)), np.abs(flat_y.reshape(shape))) + c2))
    for scale in np.linspace(0.5, 1.5, 21):
        # Bumps of a few tol each: the elements stay inside the extremes.
        moved = rng.choice(interior, size=min(interior.size, int(rng.integers(max(1, x.size // 16), x.size // 4 + 2))),
                           replace=False)
        bumped = x.copy().reshape(-1)
        share = allowance * scale / moved.size * rng.choice([-1.0, 1.0])
        bumped[moved] = (bumped[moved].astype(np.float64) + share).astype(bumped.dtype)
        yield bumped.reshape(shape), y, float(scale)


@pytest.mark.parametrize("dtypes", [("float16", "float16"), ("float32", "float32"), ("float16", "float32"),
                                    ("float32", "float16")])
@pytest.mark.parametrize("shape", [(4096,), (64, 100), (8, 30, 37), (3, 1, 41), (256, 256)])
def test_gate_decides_as_the_exact_sums(dtypes: tuple[str, str], shape: tuple[int, ...], simd: str) -> None:
    _, _, params = _native_params(dtypes[0], dtypes[1], shape)
    outcomes: set[int] = set()
    for x, y, scale in _bordering_pairs(dtypes, shape, seed=len(shape) * 1000 + shape[-1] + len(dtypes[0])):
        answer = signature_native.classify(x, y, params)
        assert answer is not None
        if not answer[9] or answer[3] or answer[5] or answer[7]:
            continue  # the gate runs for pairs with rest elements and none non-finite, overflowing, underflowing
        gate = answer[10]
        excess, margin = _exact(x, y, params[0], params[1])
        extremes_agree = all(abs(a - b) <= params[0] * max(abs(a), abs(b)) + params[1] for a, b in
                             ((float(x.max()), float(y.max())), (float(x.min()), float(y.min()))))
        where = f"{dtypes} {shape} scale {scale:.2f}: gate {gate}, exact excess {excess:.6g} (margin {margin:.3g})"
        if gate == 1:
            assert excess < 0, where
        elif gate == 0:
            assert excess > 0 or not extremes_agree, where
        else:
            assert gate == -1 and abs(excess) <= 2 * margin, where
        outcomes.add(gate)
    assert {0, 1} <= outcomes  # the sweep crossed the border
