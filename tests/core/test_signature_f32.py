"""The signature survey's float32 sweep (_kernel.c survey_chunk_f32) against its double sweep: the same outputs,
bit for bit, with values on and around the tolerance's borders, subnormals, signed zeros, NaN, Inf and
magnitudes whose difference overflows float."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native, signature_native
from autofuse_studio.core.precision.signature import signature
from tests.core.signature_helpers import hostile_float32

_LIBRARY = native.kernel_library()
pytestmark = pytest.mark.skipif(_LIBRARY is None or not hasattr(_LIBRARY, "af_sign_survey_f32"),
                                reason="native kernel not built (or built without the float32 sweep)")

F32 = np.finfo(np.float32)
# tol = c1 max(|x|, |y|) + c2: the signature's own params for float16 and float32, and odd ones (c1 not a power
# of two, c2 0, c2 a float32 subnormal).
PARAMS = [
    (4 * 2.0**-10, 4 * 2.0**-24, 65504.0, 2.0**-14, 2.0**-24),
    (4 * 2.0**-23, 4 * 2.0**-149, float(F32.max), float(F32.tiny), 2.0**-149),
    (3e-3, 0.0, float(F32.max), float(F32.tiny), 2.0**-149),
    (0.1, 1e-30, 65504.0, 2.0**-14, 2.0**-24),
    (0.0, 2.0**-140, float(F32.max), float(F32.tiny), 2.0**-149),
]


@pytest.fixture
def sweeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The native path on; the float32 sweep left on afterwards."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    yield
    assert _LIBRARY is not None
    _LIBRARY.af_sign_survey_f32(1)


def _survey(x: np.ndarray, y: np.ndarray, params: tuple[float, ...], f32: bool) -> tuple[object, ...]:
    assert _LIBRARY is not None
    _LIBRARY.af_sign_survey_f32(int(f32))
    found = signature_native.survey(x, y, params)  # type: ignore[arg-type]
    assert found is not None
    return (np.float64(found.max_abs).tobytes(), np.float64(found.max_rel).tobytes(), found.not_same,
            found.not_both_finite, found.bad, found.rest, found.nonfinite, found.overflow, found.underflow,
            [hits.tolist() for hits in found.hits])


def _borders(rng: np.random.Generator, size: int, params: tuple[float, ...],
             octaves: tuple[int, int] = (-140, 120)) -> tuple[np.ndarray, np.ndarray]:
    """float32 pairs whose differences sit within a few float ulps of tol, on both sides (magnitudes 2**octaves)."""
    c1, c2 = params[0], params[1]
    scale = 2.0 ** rng.integers(*octaves, size)
    y = (rng.standard_normal(size) * scale).astype(np.float32).astype(np.float64)
    sign = rng.choice([-1.0, 1.0], size)
    step = rng.integers(-3, 4, size) * 2.0**-24
    # x = y + tol (1 + step) with tol from |y| (close to tol from max(|x|, |y|) when c1 is small)
    x = (y + sign * (c1 * np.abs(y) + c2) * (1 + step)).astype(np.float32)
    nudge = rng.integers(-2, 3, size)
    x = np.where(nudge > 0, np.nextafter(x, np.float32(np.inf)), np.where(nudge < 0, np.nextafter(x, -np.inf), x))
    return x.astype(np.float32), y.astype(np.float32)


@pytest.mark.parametrize("params", PARAMS)
@pytest.mark.parametrize("size", [7, 8, 1024, 1031, 5000])
def test_border_differences_decide_alike(params: tuple[float, ...], size: int, sweeps: None) -> None:
    """Differences a few ulps either side of tol: every count, mark and maximum is the double sweep's."""
    rng = np.random.default_rng([size, int(params[0] * 1e6)])
    x, y = _borders(rng, size, params)
    shape = (size // 7, 7) if size % 7 == 0 else (size,)
    assert _survey(x.reshape(shape), y.reshape(shape), params, True) == \
        _survey(x.reshape(shape), y.reshape(shape), params, False)


@pytest.mark.parametrize("params", PARAMS[1:3])
def test_tiny_border_differences_decide_alike(params: tuple[float, ...], sweeps: None) -> None:
    """Near float's subnormals c1 max(|x|, |y|) rounds coarsely in float: the elements it would misjudge are
    decided in double (and some are: the double sweep's answer differs from float's own test there)."""
    rng = np.random.default_rng(11)
    x, y = _borders(rng, 1 << 15, params, octaves=(-132, -118))
    assert _survey(x, y, params, True) == _survey(x, y, params, False)
    with np.errstate(all="ignore"):
        top = np.maximum(np.abs(x), np.abs(y))
        float_bad = np.abs(x - y) > np.float32(params[0]) * top + np.float32(params[1])
    double_bad = np.abs(x.astype(np.float64) - y) > params[0] * top.astype(np.float64) + params[1]
    assert (float_bad != double_bad).any()


@pytest.mark.parametrize("params", PARAMS)
@pytest.mark.parametrize("fused", ["float16", "float32"])
def test_hostile_values_decide_alike(params: tuple[float, ...], fused: str, sweeps: None) -> None:
    """Special values, subnormals and float-overflowing differences: the double sweep's outputs."""
    rng = np.random.default_rng(len(fused))
    for size in (8, 999, 4096):
        y = hostile_float32(rng, size)
        x = hostile_float32(rng, size)
        keep = rng.random(size) < 0.5  # half of the pairs equal, so chunks differ in what they hold
        x[keep] = y[keep]
        with np.errstate(all="ignore"):
            x = x.astype(fused)
        assert _survey(x, y, params, True) == _survey(x, y, params, False)


def test_the_float_sweep_is_used_and_declines_what_it_cannot_tell(sweeps: None) -> None:
    """Chunks float cannot rank (a difference overflowing float, an extreme at zero) come out as in double."""
    params = PARAMS[1]
    y = np.linspace(-1, 1, 2048, dtype=np.float32)
    for x in (y * np.float32(1.001), np.where(y > 0.5, np.float32(3e38), y), np.minimum(y, 0), -np.abs(y)):
        x[100] = -y[100]
        assert _survey(x.astype(np.float32), y, params, True) == _survey(x.astype(np.float32), y, params, False)


@pytest.mark.parametrize("dtypes", [("float16", "float16"), ("float16", "float32"), ("float32", "float32")])
def test_signatures_of_hostile_pairs_are_the_double_sweeps(dtypes: tuple[str, str], sweeps: None) -> None:
    """Whole signatures (extremes included) of hostile pairs: the float32 sweep changes none."""
    assert _LIBRARY is not None
    rng = np.random.default_rng(7)
    for shape in ((3, 5), (40, 33), (4, 16, 32)):
        y = hostile_float32(rng, int(np.prod(shape))).reshape(shape)
        with np.errstate(all="ignore"):
            x = (y * np.float32(1.0 + 1e-3 * rng.standard_normal(shape))).astype(dtypes[0])
            y = y.astype(dtypes[1])
        found = []
        for f32 in (1, 0):
            _LIBRARY.af_sign_survey_f32(f32)
            with np.errstate(all="ignore"):
                got = signature(LazyTensor.plain(x), LazyTensor.plain(y), dtypes[0], dtypes[1])
            found.append(None if got is None else json.dumps(got.as_dict(), sort_keys=True))
        assert found[0] == found[1]
