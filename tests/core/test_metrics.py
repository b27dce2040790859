"""Streaming metrics agree with the reference formulas and fix their overflow and integer flaws."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision.metrics import compare_tensors


def reference_metrics(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """The reference tool's formulas, verbatim in spirit (float64, whole arrays)."""
    a64, b64 = a.reshape(-1).astype(np.float64), b.reshape(-1).astype(np.float64)
    with np.errstate(all="ignore"):
        cosine = float(np.dot(a64, b64) / (np.linalg.norm(a64) * np.linalg.norm(b64) + 1e-8))
        abs_diff = np.abs(a64 - b64)
        rel = abs_diff / (np.maximum(np.abs(a64), np.abs(b64)) + 1e-8)
        return cosine, float(np.max(abs_diff)), float(np.max(rel))


def _metrics(a: np.ndarray, b: np.ndarray, block: int = 1000, threads: int = 0):  # type: ignore[no-untyped-def]
    fused, origin = LazyTensor.plain(a), LazyTensor.plain(b)
    if threads:
        with ThreadPoolExecutor(threads) as pool:
            return compare_tensors(fused, origin, executor=pool, block_elements=block)
    return compare_tensors(fused, origin, block_elements=block)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("threads", [0, 2])
def test_agrees_with_reference_formulas(dtype: type, threads: int) -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal(12_345).astype(dtype)
    b = (a.astype(np.float64) + rng.standard_normal(12_345) * 0.01).astype(dtype)
    metrics = _metrics(a, b, threads=threads)
    cosine, max_abs, max_rel = reference_metrics(a, b)
    assert metrics.cosine == pytest.approx(cosine, abs=1e-9)
    assert metrics.max_abs_err == pytest.approx(max_abs, rel=1e-12)
    assert metrics.max_rel_err == pytest.approx(max_rel, rel=1e-12)
    assert metrics.elements == 12_345
    diff = a.astype(np.float64) - b.astype(np.float64)
    assert metrics.mean_abs_err == pytest.approx(np.mean(np.abs(diff)))
    assert metrics.rmse == pytest.approx(math.sqrt(np.mean(diff**2)))
    assert metrics.rel_euclidean == pytest.approx(np.linalg.norm(diff) / np.linalg.norm(b.astype(np.float64)))
    rel = np.abs(diff) / (np.maximum(np.abs(a), np.abs(b)).astype(np.float64) + 1e-8)
    assert metrics.one_thousandth_ratio == pytest.approx(np.mean(rel < 0.001))
    assert metrics.five_thousandth_ratio == pytest.approx(np.mean(rel < 0.005))


def test_identical_small_vectors_give_reference_epsilon_cosine() -> None:
    a = np.array([1e-3, 2e-3], dtype=np.float64)
    metrics = _metrics(a, a.copy())
    assert metrics.cosine == pytest.approx(reference_metrics(a, a)[0], abs=1e-12)
    assert metrics.cosine < 1.0


def test_all_zero_gives_zero_cosine_like_the_reference() -> None:
    zeros = np.zeros(10, dtype=np.float32)
    metrics = _metrics(zeros, zeros.copy())
    assert (metrics.cosine, metrics.max_abs_err, metrics.max_rel_err) == (0.0, 0.0, 0.0)


def test_huge_values_do_not_overflow() -> None:
    a = np.array([1e200, -3e200, 5e199], dtype=np.float64)
    b = a * (1 + 1e-9)
    metrics = _metrics(a, b, block=2)
    assert metrics.cosine == pytest.approx(1.0, abs=1e-9)
    assert math.isfinite(metrics.rmse)
    assert math.isnan(reference_metrics(a, b)[0])  # the flaw we fix


def test_integers_above_two_to_the_53_are_exact() -> None:
    a = np.array([2**53 + 1, 5, -(2**62)], dtype=np.int64)
    b = np.array([2**53, 5, 2**62], dtype=np.int64)
    metrics = _metrics(a, b)
    assert metrics.max_abs_err == float(2**63)
    small = _metrics(np.array([2**53 + 1], dtype=np.int64), np.array([2**53], dtype=np.int64))
    assert small.max_abs_err == 1.0


def test_mixed_signed_and_unsigned_64_bit() -> None:
    a = np.array([2**64 - 1, 3], dtype=np.uint64)
    b = np.array([-1, 3], dtype=np.int64)
    assert _metrics(a, b).max_abs_err == float(2**64)


def test_nan_propagates_and_is_counted() -> None:
    a = np.array([1.0, np.nan, 3.0, np.inf], dtype=np.float32)
    b = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    metrics = _metrics(a, b, block=2)
    assert math.isnan(metrics.cosine)
    assert math.isnan(metrics.max_abs_err)
    assert (metrics.nan_fused, metrics.inf_fused, metrics.nan_origin, metrics.inf_origin) == (1, 1, 0, 0)


def test_empty_tensors_raise() -> None:
    empty = np.zeros(0, dtype=np.float32)
    with pytest.raises(ValueError, match="empty"):
        _metrics(empty, empty)


def test_block_size_does_not_change_results() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal(5000)
    b = a + rng.standard_normal(5000) * 1e-3
    one = _metrics(a, b, block=5000)
    many = _metrics(a, b, block=77, threads=2)
    assert many.cosine == pytest.approx(one.cosine, abs=1e-12)
    assert many.max_abs_err == one.max_abs_err
    assert many.rmse == pytest.approx(one.rmse, rel=1e-12)


def test_nonfinite_positions_are_compared() -> None:
    a = np.array([1.0, np.nan, np.inf, 4.0])
    same = _metrics(a, a.copy())
    assert same.nonfinite_mismatch == 0
    moved = _metrics(a, np.array([np.nan, 2.0, -np.inf, 4.0]))
    assert moved.nonfinite_mismatch == 3
