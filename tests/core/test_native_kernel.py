"""The native one-pass kernel gives the numpy reference's partial sums, and declines what it cannot do."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native
from autofuse_studio.core.precision.metrics import (
    EPSILON,
    PASS_RATIO_LIMITS,
    _block_partial,
    block_partial,
    compare_tensors,
)
from autofuse_studio.core.precision.partial import Partial

REPO_ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    native.kernel_library() is None,
    reason="native kernel not built (no C compiler at `pip install -e .`); the numpy path is used instead",
)


@pytest.fixture(autouse=True)
def _native_enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)


def _numpy(a: np.ndarray, b: np.ndarray) -> Partial:
    with np.errstate(all="ignore"):
        return _block_partial(a, b)


def _native(a: np.ndarray, b: np.ndarray) -> Partial:
    partial = native.native_partial(a, b, PASS_RATIO_LIMITS, EPSILON)
    assert partial is not None, "the kernel declined a block it should handle"
    return partial


def _same_float(left: float, right: float) -> bool:
    return (math.isnan(left) and math.isnan(right)) or left == right


def _close(left: float, right: float, scale: float) -> bool:
    if not (math.isfinite(left) and math.isfinite(right)):
        return _same_float(left, right)
    return abs(left - right) <= 1e-12 * max(abs(left), abs(right), scale)


def assert_same_partial(got: Partial, want: Partial) -> None:
    """Counts and maxima exactly; sums to 1e-12 (summation order differs; dot relative to |a||b|)."""
    assert (got.count, got.passes, got.nan_a, got.inf_a, got.nan_b, got.inf_b, got.nonfinite_mismatch) == (
        want.count, want.passes, want.nan_a, want.inf_a, want.nan_b, want.inf_b, want.nonfinite_mismatch)
    assert (got.exp_a, got.exp_b, got.exp_d) == (want.exp_a, want.exp_b, want.exp_d) == (0, 0, 0)
    assert _same_float(got.max_abs, want.max_abs), (got.max_abs, want.max_abs)
    assert _same_float(got.max_rel, want.max_rel), (got.max_rel, want.max_rel)
    norms = math.sqrt(abs(want.sum_aa * want.sum_bb)) if math.isfinite(want.sum_aa * want.sum_bb) else 0.0
    assert _close(got.dot_ab, want.dot_ab, norms), (got.dot_ab, want.dot_ab)
    for name in ("sum_aa", "sum_bb", "sum_dd", "sum_abs"):
        assert _close(getattr(got, name), getattr(want, name), 0.0), name


def _pair(dtype: np.dtype, size: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return rng.random(size) < 0.5, rng.random(size) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)
        b = a.copy()
        flip = rng.random(size) < 0.3
        b[flip] = rng.integers(info.min, info.max, int(flip.sum()), dtype=dtype, endpoint=True)
        return a, b
    a = rng.standard_normal(size) * 3
    b = a + rng.standard_normal(size) * np.where(rng.random(size) < 0.5, 1e-4, 1e-2)
    b[rng.random(size) < 0.1] = 0.0
    return a.astype(dtype), b.astype(dtype)


DTYPES = [np.dtype(name) for name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64",
                                      "uint8", "uint16", "uint32", "uint64", "bool")]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("size", [1, 2, 7, 8, 1023, 1025, 4099, 260_000])
def test_matches_numpy_for_every_dtype_and_size(dtype: np.dtype, size: int) -> None:
    a, b = _pair(dtype, size)
    assert_same_partial(_native(a, b), _numpy(a, b))


@pytest.mark.parametrize(("a_dtype", "b_dtype"), [
    ("float16", "float32"), ("float32", "float64"), ("int32", "float32"), ("float16", "int8"),
    ("int8", "uint8"), ("uint64", "bool"), ("int16", "uint32"), ("bool", "float16"),
])
def test_matches_numpy_for_mixed_dtypes(a_dtype: str, b_dtype: str) -> None:
    a, _ = _pair(np.dtype(a_dtype), 5000, seed=1)
    b, _ = _pair(np.dtype(b_dtype), 5000, seed=2)
    assert_same_partial(_native(a, b), _numpy(a, b))


NONFINITE_CASES = {
    "nan_fused": (math.nan, 1.0),
    "nan_both": (math.nan, math.nan),
    "inf_fused": (math.inf, 1.0),
    "inf_same": (math.inf, math.inf),
    "inf_opposite": (math.inf, -math.inf),
    "neg_inf_vs_nan": (-math.inf, math.nan),
    "nan_origin": (2.0, math.nan),
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("case", list(NONFINITE_CASES))
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_nan_and_inf_follow_numpy(dtype: str, case: str, where: str) -> None:
    a, b = _pair(np.dtype(dtype), 3001, seed=3)
    index = {"first": 0, "middle": 1500, "last": 3000}[where]
    a[index], b[index] = NONFINITE_CASES[case]
    assert_same_partial(_native(a, b), _numpy(a, b))


def test_many_nonfinite_values_and_a_float_against_int() -> None:
    rng = np.random.default_rng(4)
    a = rng.standard_normal(10_000)
    a[rng.random(10_000) < 0.05] = math.nan
    a[rng.random(10_000) < 0.05] = math.inf
    b = rng.integers(-5, 5, 10_000, dtype=np.int32)
    assert_same_partial(_native(a, b), _numpy(a, b))
    assert_same_partial(_native(b, a), _numpy(b, a))


@pytest.mark.parametrize("dtype", ["float16", "float32", "int32", "bool"])
def test_all_zeros(dtype: str) -> None:
    zeros = np.zeros(777, dtype=dtype)
    assert_same_partial(_native(zeros, zeros.copy()), _numpy(zeros, zeros.copy()))


def test_huge_values_fall_back_to_the_rescaling_numpy_path() -> None:
    a = np.full(1000, 1e200)
    b = a * (1 + 1e-6)
    assert native.native_partial(a, b, PASS_RATIO_LIMITS, EPSILON) is None
    partial = block_partial(a, b)
    assert partial.exp_a > 0
    metrics = compare_tensors(LazyTensor.plain(a), LazyTensor.plain(b), block_elements=300)
    assert metrics.cosine == pytest.approx(1.0)
    assert math.isfinite(metrics.rmse) and math.isfinite(metrics.rel_euclidean)


def test_huge_value_beside_a_nan_falls_back_like_numpy() -> None:
    a = np.ones(100)
    a[3] = 2.0**500
    b = np.ones(100)
    b[7] = math.nan
    assert native.native_partial(a, b, PASS_RATIO_LIMITS, EPSILON) is None
    assert block_partial(a, b).exp_a > 0


def test_int64_above_two_to_the_53_is_exact() -> None:
    a = np.array([2**53 + 1, 2**62 + 3, -(2**63), 2**63 - 1, 5], dtype=np.int64)
    b = np.array([2**53, 2**62, 2**63 - 1, -(2**63), 5], dtype=np.int64)
    got = _native(a, b)
    assert_same_partial(got, _numpy(a, b))
    assert got.max_abs == float(2**64 - 1)


def test_int64_against_uint64_is_exact() -> None:
    a = np.array([2**64 - 1, 2**63, 0, 2**53 + 1, 12345678901234567], dtype=np.uint64)
    b = np.array([-(2**63), -1, -(2**63), -(2**53), 12345678901234566], dtype=np.int64)
    got = _native(a, b)
    assert_same_partial(got, _numpy(a, b))
    assert got.max_abs == float(2**64 - 1 + 2**63)
    assert_same_partial(_native(b, a), _numpy(b, a))


def test_bool_pair() -> None:
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    got = _native(a, b)
    assert_same_partial(got, _numpy(a, b))
    assert got.passes == [2, 2]


def test_non_contiguous_blocks() -> None:
    a, b = _pair(np.dtype("float16"), 20_000, seed=5)
    assert_same_partial(_native(a[::3], b[1::3]), _numpy(a[::3], b[1::3]))


def test_unsupported_dtypes_and_the_switch_decline(monkeypatch: pytest.MonkeyPatch) -> None:
    complex_block = np.ones(10, dtype=np.complex64)
    assert native.native_partial(complex_block, complex_block, PASS_RATIO_LIMITS, EPSILON) is None
    swapped = np.ones(10, dtype=">f4")
    assert native.native_partial(swapped, swapped, PASS_RATIO_LIMITS, EPSILON) is None
    plain = np.ones(10, dtype=np.float32)
    assert native.native_partial(plain, plain, PASS_RATIO_LIMITS, EPSILON) is not None
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    assert not native.enabled()
    assert native.native_partial(plain, plain, PASS_RATIO_LIMITS, EPSILON) is None


def test_threads_give_the_same_partials() -> None:
    pairs = [_pair(np.dtype("float16"), 50_000, seed=seed) for seed in range(8)]
    with ThreadPoolExecutor(2) as pool:
        threaded = list(pool.map(lambda pair: _native(*pair), pairs))
    for partial, (a, b) in zip(threaded, pairs, strict=True):
        assert_same_partial(partial, _numpy(a, b))


def test_metrics_and_e2e_suites_pass_on_the_numpy_path() -> None:
    """The normal run covers the native path; this reruns the same suites with it switched off."""
    env = {**os.environ, native.DISABLE_ENV: "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/core/test_metrics.py", "tests/core/test_precision_e2e.py"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
