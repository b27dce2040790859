"""The C transform search (_transform.c, signature._native_transform) names exactly numpy's transform.

Check 4's named transforms (reverse, swap_axes, shift, c0_blocks) are compared candidate search to candidate
search (signature._named_transform on numpy arrays, float64 and float32 arithmetic) and whole signature to whole
signature (native path against AUTOFUSE_STUDIO_NO_NATIVE=1): the generator's permutation and C0 pairs, and
hostile ones (NaN/Inf on both sides, axes of 1, 1-5 axes, strided views, a transform wrong in one element,
repeated values, many blocks).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from autofuse_studio.core.precision import native, signature
from autofuse_studio.core.precision.signature import ROUNDING_ULPS, dtype_limits
from tests.core.signature_cases import Case, cases, to_bf16
from tests.core.signature_helpers import signed_both_ways

pytestmark = [pytest.mark.skipif(signature._TRANSFORM is None, reason="_transform not built (no C compiler)"),
              pytest.mark.usefixtures("grid_above_sample")]  # 70K-100K pairs: the grid's path


@pytest.fixture(autouse=True)
def _native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)


def _tols(dtype: str) -> tuple[float, float]:
    low = dtype_limits(dtype)
    return ROUNDING_ULPS * low.eps, ROUNDING_ULPS * low.min_subnormal


def _numpy_named(x: np.ndarray, y: np.ndarray, c1: float, c2: float, single: bool) -> object:
    """_named_transform as _permutation_numpy (float64) or _whole_permutation (float32) run it."""
    wide = np.float32 if single else np.float64
    xw, yw = x.astype(wide), y.astype(wide)
    with np.errstate(all="ignore"):
        if single:
            tol = np.maximum(np.abs(xw), np.abs(yw)) * wide(c1) + wide(c2)
        else:
            tol = c1 * np.maximum(np.abs(xw), np.abs(yw))
            tol += c2
        return signature._named_transform(xw, yw, tol)


def _agree(x: np.ndarray, y: np.ndarray, dtype: str) -> list[str]:
    """The disagreements of the two searches on one pair, in both precisions (empty when they agree)."""
    c1, c2 = _tols(dtype)
    wrong = []
    for single in (False, True):
        expected = _numpy_named(x, y, c1, c2, single)
        found = signature._native_transform(x, y, c1, c2, single)
        assert found is not None
        if found[0] != expected:
            wrong.append(f"single={single} shape={x.shape}: native {found[0]} numpy {expected}")
    return wrong


def _generated() -> Iterator[Case]:
    yield from cases("layout_permutation")
    yield from cases("c0_blocks")


def test_generator_pairs_name_the_same_transform() -> None:
    wrong: list[str] = []
    for case in _generated():
        wrong += [f"{case.name} {line}" for line in _agree(case.fused, case.origin, case.fused_dtype)]
    assert not wrong, "\n".join(wrong[:5])


def test_generator_pairs_name_their_transform() -> None:
    """Not only alike: the search finds each generated transform (the params the case expects)."""
    for case in _generated():
        c1, c2 = _tols(case.fused_dtype)
        found = signature._native_transform(case.fused, case.origin, c1, c2, single=False)
        assert found is not None and found[0] is not None, case.name
        for key, value in case.params.items():
            assert found[0][key] == value, (case.name, key, found[0])


def _stored(values: np.ndarray, dtype: str) -> np.ndarray:
    return to_bf16(values) if dtype == "bfloat16" else values.astype(dtype)


def _transforms(y: np.ndarray, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Every named transform of y (and a few that are none of them)."""
    for axis in range(y.ndim):
        yield np.flip(y, axis)
        for step in {1, y.shape[axis] - 1, int(rng.integers(1, max(2, y.shape[axis])))}:
            yield np.roll(y, step, axis)
        for second in range(axis + 1, y.ndim):
            if y.shape[axis] == y.shape[second]:
                yield np.swapaxes(y, axis, second)
    last = y.shape[-1]
    for c0 in (8, 16, 32):
        if last % c0 == 0 and last // c0 >= 2:
            perm = rng.permutation(last // c0)
            yield y.reshape(*y.shape[:-1], last // c0, c0)[..., perm, :].reshape(y.shape)
    if last in (8, 16, 32):
        for axis in range(y.ndim - 1):
            yield np.take(y, rng.permutation(y.shape[axis]), axis=axis)
    yield rng.permutation(y.reshape(-1)).reshape(y.shape)
    yield y[::-1, ...] * 1.5


SHAPES = ((2,), (7,), (300,), (1, 9), (5, 1), (6, 6), (3, 64), (4, 48), (1, 1, 2), (2, 3, 16), (3, 3, 3),
          (2, 1, 4, 32), (2, 2, 3, 4, 8), (1, 3, 1, 3, 1), (4, 96), (2, 5, 8))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_hostile_pairs_name_the_same_transform(dtype: str) -> None:
    rng = np.random.default_rng(31)
    wrong: list[str] = []
    for shape in SHAPES:
        for values in (rng.standard_normal(shape), rng.integers(-2, 3, size=shape).astype(float),
                       np.where(rng.random(shape) < 0.9, 0.0, rng.standard_normal(shape))):
            y = _stored(values, dtype)
            for moved in _transforms(y, rng):
                x = np.ascontiguousarray(moved)
                wrong += _agree(x, y, dtype)
                if x.size >= 2:  # the transform wrong in one element: first, last or one inside
                    for where in (0, x.size - 1, int(rng.integers(x.size))):
                        spoiled = x.copy().reshape(-1)
                        spoiled[where] = spoiled[where] * 3 + 1
                        wrong += _agree(spoiled.reshape(shape), y, dtype)
    assert not wrong, "\n".join(wrong[:5])


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_nonfinite_values_match_as_numpy_compares_them(dtype: str) -> None:
    """NaN never matches; Inf matches nothing (Inf - Inf is NaN) unless the tolerance is Inf too."""
    rng = np.random.default_rng(5)
    wrong: list[str] = []
    for special in (np.nan, np.inf, -np.inf):
        y = rng.standard_normal((4, 32)).astype(dtype)
        y[1, 3] = special
        for moved in _transforms(y, rng):
            x = np.ascontiguousarray(moved)
            wrong += _agree(x, y, dtype)
            x = x.copy()
            x[2, 5] = special  # on both sides
            wrong += _agree(x, y, dtype)
    assert not wrong, "\n".join(wrong[:5])


def test_strided_views_are_read_as_their_values() -> None:
    rng = np.random.default_rng(7)
    base = rng.standard_normal((8, 64)).astype(np.float32)
    y = base[::2, ::2]  # not contiguous
    x = np.flip(y, 1)
    assert not y.flags.c_contiguous
    assert _agree(x, y, "float32") == []
    found = signature._native_transform(x, y, *_tols("float32"), single=True)
    assert found is not None and found[0] == {"transform": "reverse", "axis": 1}


def test_exact_only_when_every_value_moved_bit_for_bit() -> None:
    """exact (which lets _whole_permutation skip its gate) holds for moved stored values, not rounded ones."""
    rng = np.random.default_rng(9)
    y = rng.standard_normal((64, 48)).astype(np.float16)
    x = np.ascontiguousarray(np.roll(y, 5, 0))
    shift = {"transform": "shift", "axis": 0, "shift": 5}
    assert signature._native_transform(x, y, *_tols("float16"), single=True) == (shift, True)
    rounded = x.copy()
    rounded[3, 7] = np.nextafter(rounded[3, 7], np.float16(np.inf))  # one ulp: within rounding, not the same
    assert signature._native_transform(rounded, y, *_tols("float16"), single=True) == (shift, False)
    assert signature._native_transform(x.astype(np.float32), y, *_tols("float16"), single=True) == (shift, False)


def test_disabled_extension_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    y = np.arange(8, dtype=np.float32)
    assert signature._native_transform(y[::-1].copy(), y, *_tols("float32"), single=True) is None


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_big_pairs_sign_alike(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above SAMPLE_ELEMENTS the whole pair is searched in float32 with the gate's sums from the winning pass."""
    rng = np.random.default_rng(11)
    y = rng.standard_normal((1024, 96)).astype(dtype)
    shuffled = rng.permutation(6)
    for moved in (np.flip(y, 0), np.roll(y, 3, 1), np.roll(y, 700, 0),
                  y.reshape(1024, 6, 16)[:, shuffled, :].reshape(y.shape), rng.permutation(y.reshape(-1)).reshape(y.shape)):
        x = np.ascontiguousarray(moved)
        fast, slow = signed_both_ways(x, y, dtype, monkeypatch)
        assert fast == slow
        assert "layout_permutation" in fast
        rounded = x.copy()  # moved and rounded: the gate is numpy's
        rounded[::7, ::3] = np.nextafter(rounded[::7, ::3], np.inf, dtype=rounded.dtype)
        fast, slow = signed_both_ways(rounded, y, dtype, monkeypatch)
        assert fast == slow
        assert "layout_permutation" in fast
        spoiled = x.copy()
        spoiled[500, 40] += 100
        fast, slow = signed_both_ways(spoiled, y, dtype, monkeypatch)
        assert fast == slow
