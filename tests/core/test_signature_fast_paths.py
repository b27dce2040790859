"""The signature kernel's shortcuts against the paths they replace, bit for bit: the value models' whole pass in
float (_kernel.c model_left_f32) against its double pass (the same count of elements a bias or scale leaves and
the same marks, with differences on and around the model's border, subnormals, signed zeros, NaN, Inf and
products overflowing float), and the correlation sample centred by the kernel against numpy's centring."""

from __future__ import annotations

import ctypes
import json
from collections.abc import Iterator

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native, signature_native
from autofuse_studio.core.precision import signature as signature_module
from autofuse_studio.core.precision.signature import signature
from tests.core.signature_cases import FAULTS
from tests.core.signature_helpers import hostile_float32

_LIBRARY = native.kernel_library()
pytestmark = [pytest.mark.skipif(_LIBRARY is None or not hasattr(_LIBRARY, "af_sign_model_left"),
                                 reason="native kernel not built (or built without the float model pass)"),
              pytest.mark.usefixtures("grid_above_sample")]  # 70K-100K pairs: the grid's path

BIAS, SCALE = 0, 1  # RS_BIAS, RS_SCALE of _kernel.c
F32 = np.finfo(np.float32)
# tol's c1, c2 and the fused max, tiny and min_subnormal: float16's and float32's, and odd ones.
TOLERANCES = [
    (4 * 2.0**-10, 4 * 2.0**-24, 65504.0, 2.0**-14, 2.0**-24),
    (4 * 2.0**-23, 4 * 2.0**-149, float(F32.max), float(F32.tiny), 2.0**-149),
    (3e-3, 0.0, float(F32.max), float(F32.tiny), 2.0**-149),
    (2.0**-7, 4 * 2.0**-133, 3.3895313892515355e38, 2.0**-126, 2.0**-133),
]


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The native path on; the float pass left on afterwards."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    yield
    assert _LIBRARY is not None
    _LIBRARY.af_sign_model_f32(1)


def _left(x: np.ndarray, y: np.ndarray, tolerance: tuple[float, ...], kind: int, a: float, b: float, f32: bool,
          all_usable: bool = False) -> tuple[int, list[int]]:
    """af_sign_model_left's count and marks with the float pass on or off (`all_usable`: the caller vouches that
    every element is usable, as classify_models does from the survey's counts)."""
    assert _LIBRARY is not None
    _LIBRARY.af_sign_model_f32(int(f32))
    function = _LIBRARY.af_sign_model_left
    function.restype = ctypes.c_int64
    params = (ctypes.c_double * 9)(*tolerance, 2.0**-10, 4.0, 1.0, 0.75)
    marks = np.zeros(sum(x.shape), dtype=np.int64)
    codes = signature_native._FLOAT_CODES
    left = function(ctypes.c_void_p(native.data_address(x)), codes[x.dtype], ctypes.c_void_p(native.data_address(y)),
                    codes[y.dtype], ctypes.c_int64(x.size), x.ndim, (ctypes.c_int64 * x.ndim)(*x.shape), params,
                    kind, ctypes.c_double(a), ctypes.c_double(b), int(all_usable),
                    ctypes.c_void_p(native.data_address(marks)))
    assert left >= 0
    return int(left), np.flatnonzero(marks).tolist()


def _model(kind: int, a: float, y: np.ndarray) -> np.ndarray:
    return y + a if kind == BIAS else a * y


def _bound(kind: int, a: float, tolerance: tuple[float, ...]) -> float:
    """b as the kernel's stages pass it: the bias's slack, the scale's max(1, |factor|)."""
    return 4 * 2.0**-10 * abs(a) if kind == BIAS else max(1.0, abs(a))


def _borders(rng: np.random.Generator, size: int, tolerance: tuple[float, ...], kind: int, a: float,
             octaves: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """float32 pairs whose distance to the model sits within a few float ulps of tol (+ or ×) b, both sides."""
    c1, c2 = tolerance[0], tolerance[1]
    b = _bound(kind, a, tolerance)
    y = (rng.standard_normal(size) * 2.0 ** rng.integers(*octaves, size)).astype(np.float32).astype(np.float64)
    expected = _model(kind, a, y)
    tol = c1 * np.maximum(np.abs(expected), np.abs(y)) + c2
    reach = tol + b if kind == BIAS else tol * b
    step = 1 + rng.integers(-3, 4, size) * 2.0**-24
    x = (expected + rng.choice([-1.0, 1.0], size) * reach * step).astype(np.float32)
    nudge = rng.integers(-2, 3, size)
    x = np.where(nudge > 0, np.nextafter(x, np.float32(np.inf)), np.where(nudge < 0, np.nextafter(x, -np.inf), x))
    return x.astype(np.float32), y.astype(np.float32)


@pytest.mark.parametrize("tolerance", TOLERANCES)
@pytest.mark.parametrize(("kind", "a"), [(BIAS, 0.5), (BIAS, -3e-3), (SCALE, 1 / 3), (SCALE, 2.0), (SCALE, -1.5)])
@pytest.mark.parametrize("size", [7, 8, 1031, 5000])
def test_border_differences_decide_alike(tolerance: tuple[float, ...], kind: int, a: float, size: int,
                                         passes: None) -> None:
    """Distances a few ulps either side of the model's reach: the double pass's count and marks."""
    rng = np.random.default_rng([size, kind, int(abs(a) * 1000)])
    x, y = _borders(rng, size, tolerance, kind, a, (-20, 20))
    shape = (size // 7, 7) if size % 7 == 0 else (size,)
    b = _bound(kind, a, tolerance)
    assert _left(x.reshape(shape), y.reshape(shape), tolerance, kind, a, b, True) == \
        _left(x.reshape(shape), y.reshape(shape), tolerance, kind, a, b, False)


@pytest.mark.parametrize(("kind", "a"), [(BIAS, 2.0**-120), (SCALE, 1 / 3)])
def test_tiny_border_differences_decide_alike(kind: int, a: float, passes: None) -> None:
    """Near float's subnormals the float test rounds coarsely: the elements it would misjudge are decided in
    double (and some are: float's own test differs from double's there)."""
    tolerance = TOLERANCES[3]  # bfloat16: c1 2**-5 (a float32 pair runs the double pass)
    rng = np.random.default_rng(5)
    x, y = _borders(rng, 1 << 14, tolerance, kind, a, (-140, -118))
    b = _bound(kind, a, tolerance)
    assert _left(x, y, tolerance, kind, a, b, True) == _left(x, y, tolerance, kind, a, b, False)
    c1, c2, fa, fb = (np.float32(value) for value in (tolerance[0], tolerance[1], a, b))
    with np.errstate(all="ignore"):
        tol = c1 * np.maximum(np.abs(x), np.abs(y)) + c2
        float_off = np.abs(x - y - fa) > tol + fb if kind == BIAS else np.abs(x - fa * y) > tol * fb
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    tol64 = tolerance[0] * np.maximum(np.abs(x64), np.abs(y64)) + tolerance[1]
    double_off = np.abs(x64 - y64 - a) > tol64 + b if kind == BIAS else np.abs(x64 - a * y64) > tol64 * b
    assert (float_off != double_off).any()


@pytest.mark.parametrize("tolerance", TOLERANCES)
@pytest.mark.parametrize("fused", ["float16", "float32"])
@pytest.mark.parametrize(("kind", "a"), [(BIAS, 0.25), (SCALE, 3.0), (SCALE, 2.0**90)])
def test_hostile_values_decide_alike(tolerance: tuple[float, ...], fused: str, kind: int, a: float,
                                     passes: None) -> None:
    """Special values, subnormals and products overflowing float: the double pass's count and marks."""
    rng = np.random.default_rng(len(fused) + kind)
    b = _bound(kind, a, tolerance)
    for size in (8, 999, 4096):
        y = hostile_float32(rng, size)
        with np.errstate(all="ignore"):
            x = _model(kind, a, y.astype(np.float64)).astype(np.float32)
        odd = rng.random(size) < 0.3
        x[odd] = hostile_float32(rng, int(odd.sum()))
        with np.errstate(all="ignore"):
            x = x.astype(fused)
        shape = (size // 8, 8) if size % 8 == 0 else (size,)
        assert _left(x.reshape(shape), y.reshape(shape), tolerance, kind, a, b, True) == \
            _left(x.reshape(shape), y.reshape(shape), tolerance, kind, a, b, False)


def _usable(x: np.ndarray, y: np.ndarray, tolerance: tuple[float, ...]) -> np.ndarray:
    """classify_element's usable of each element: both finite and none of overflow, nonfinite, underflow."""
    c1, c2, f_max, f_tiny, f_min_sub = tolerance
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    with np.errstate(all="ignore"):
        both = np.isfinite(x64) & np.isfinite(y64)
        bad = np.abs(x64 - y64) > c1 * np.maximum(np.abs(x64), np.abs(y64)) + c2
        overflow = (np.abs(x64) >= f_max) & (np.abs(y64) > f_max)
        underflow = (x64 == 0) & (np.abs(y64) >= f_min_sub) & (np.abs(y64) < f_tiny) & bad
    return both & ~overflow & ~underflow


@pytest.mark.parametrize("tolerance", TOLERANCES)
@pytest.mark.parametrize("fused", ["float16", "float32"])
@pytest.mark.parametrize(("kind", "a"), [(BIAS, 0.5), (BIAS, -3e-3), (SCALE, 1 / 3), (SCALE, -1.5)])
def test_all_usable_pass_decides_as_the_full_one(tolerance: tuple[float, ...], fused: str, kind: int, a: float,
                                                 passes: None) -> None:
    """The pass for pairs the survey found wholly usable tests only the model: on such pairs (border distances,
    fused zeros, origins above the fused max, subnormals) its count and marks are the full pass's, float or
    double."""
    rng = np.random.default_rng([len(fused), kind, int(abs(a) * 1000)])
    b = _bound(kind, a, tolerance)
    for size in (8, 1031, 5000):
        x, y = _borders(rng, size, tolerance, kind, a, (-20, 20))
        odd = rng.random(size) < 0.1  # the elements the plain vector test leaves to classify_element
        x[odd], y[odd] = rng.choice([0.0, 1.0, 2.0**-140], int(odd.sum())), rng.choice([0.0, 7e4, -1.0], int(odd.sum()))
        with np.errstate(all="ignore"):
            x = x.astype(fused).astype(np.float32) if fused == "float32" else x.astype(fused)
        keep = _usable(x, y, tolerance)
        x, y = np.where(keep, x, x.dtype.type(1)), np.where(keep, y, np.float32(1))
        assert _usable(x, y, tolerance).all()
        shape = (size // 8, 8) if size % 8 == 0 else (size,)
        for f32 in (True, False):
            assert _left(x.reshape(shape), y.reshape(shape), tolerance, kind, a, b, f32, all_usable=True) == \
                _left(x.reshape(shape), y.reshape(shape), tolerance, kind, a, b, f32)


@pytest.mark.parametrize("fault", ["bias", "scale", "mixed"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_signatures_of_model_faults_are_the_double_pass(fault: str, dtype: str, passes: None) -> None:
    """Whole signatures of the generator's bias, scale and mixed pairs: the float pass changes none."""
    assert _LIBRARY is not None
    for size in (1 << 10, 10_240, 102_400):
        rng = np.random.default_rng([size, len(fault)])
        base = rng.standard_normal((size // 256, 256))
        case = FAULTS[fault](rng, base, dtype, 1.0)
        assert case is not None
        found = []
        for f32 in (1, 0):
            _LIBRARY.af_sign_model_f32(f32)
            with np.errstate(all="ignore"):
                got = signature(LazyTensor.plain(case.fused), LazyTensor.plain(case.origin), case.fused_dtype,
                                case.origin_dtype)
            found.append(None if got is None else json.dumps(got.as_dict(), sort_keys=True))
        assert found[0] == found[1]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_the_kernel_centred_sample_gives_numpys_correlation(dtype: str, passes: None) -> None:
    """The correlation of a sample the kernel centred is _correlation's of the same sample centred by numpy, to
    the last bit (this numpy's add.reduce is the kernel's pairwise sum: centres_like_numpy)."""
    assert signature_native.centres_like_numpy()
    for size in (300, 1 << 10, 10_240, 65_536):
        rng = np.random.default_rng([size, 7])
        base = rng.standard_normal((size // 4, 4)) * 10.0 ** rng.integers(-3, 4, (size // 4, 4))
        case = FAULTS["uncorrelated"](rng, base, dtype, 1.0)
        params = signature_module._native_params(case.fused_dtype, case.origin_dtype, case.fused.shape)[2]
        correlations = []
        for centre in (1.0, 0.0):
            answer = signature_native.classify(case.fused, case.origin, (*params[:-1], centre))
            assert answer is not None and answer[0] == signature_native.GATHERED
            x_sample, y_sample = (values.copy() for values in signature_native.gathered(answer))
            if centre:
                assert abs(float(np.mean(x_sample))) < 1e-9 * float(np.abs(x_sample).max())
                correlations.append(signature_module._centred_correlation(x_sample, y_sample))
            else:
                correlations.append(signature_module._correlation(x_sample, y_sample))
        assert correlations[0] is not None and float(correlations[0]).hex() == float(correlations[1]).hex()


def test_on_grid_is_the_grid_membership_of_each_coordinate() -> None:
    """_on_grid (coordinates only along the thinned axes) against the grid's indices of every coordinate."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        inner = tuple(int(length) for length in rng.integers(1, 40, int(rng.integers(0, 4))))
        shape = (int(rng.integers(70_000 // max(1, int(np.prod(inner))) + 1, 90_000)) if not inner
                 else 70_000 // int(np.prod(inner)) + int(rng.integers(1, 50)), *inner)
        flat = np.sort(rng.choice(int(np.prod(shape)), int(rng.integers(1, 40)), replace=False)).astype(np.int64)
        grid = signature_module._grid(shape)
        expected = any(all(int(coord) in set(axis.tolist()) for coord, axis in zip(point, grid, strict=True))
                       for point in zip(*np.unravel_index(flat, shape), strict=True))
        assert signature_module._on_grid(flat, shape) == expected, shape


def test_grid_with_is_union1d_per_axis() -> None:
    """_grid_with (a mask per axis) against np.union1d of the grid's and the added indices, repeats included."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        shape = tuple(int(length) for length in rng.integers(1, 700, int(rng.integers(1, 5))))
        grid = signature_module._grid(shape)
        added = tuple(rng.integers(0, length, int(rng.integers(0, 50))) for length in shape)
        expected = [np.union1d(axis_grid, index) for axis_grid, index in zip(grid, added, strict=True)]
        got = signature_module._grid_with(grid, added, shape)
        assert [axis.tolist() for axis in got] == [axis.tolist() for axis in expected]
        assert all(axis.dtype == np.int64 for axis in got)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_candidates_off_the_grid_skip_only_a_rounding_answer(dtype: str, passes: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A big pair whose differing slices fall between the grid's points: the signature is the one the grid's
    own classify (rounding) and the candidates' grid give."""
    rng = np.random.default_rng(9)
    origin = rng.standard_normal((400, 256)).astype(dtype)
    fused = origin.copy()
    rows = sorted(set(range(400)) - set(signature_module._grid(origin.shape)[0].tolist()))[:3]  # off the grid
    fused[rows] = rng.standard_normal((3, 256)).astype(dtype)
    assert not signature_module._on_grid(np.flatnonzero(fused != origin), origin.shape)
    quick = signature(LazyTensor.plain(fused), LazyTensor.plain(origin), dtype, dtype)
    monkeypatch.setattr(signature_module, "_on_grid", lambda flat, shape: True)
    full = signature(LazyTensor.plain(fused), LazyTensor.plain(origin), dtype, dtype)
    assert quick is not None and quick.code == "localised" and quick.as_dict() == full.as_dict()  # type: ignore[union-attr]
