"""The signature kernel's value-code shortcuts against the paths they skip.

The value models' early rejection (_kernel.c bias_rejected, scale_rejected) against the medians: with it on and
off, sign_classify gives the same answer on uncorrelated, scaled, biased and hostile pairs of many sizes and dtypes,
and on pairs built so that one element more or less on the model flips the rejection (a bound one element too low
would reject a model the medians keep, and the answer would change). The survey's lazy float sweep (survey_run's
`lazy`: quotients tied within float's rounding no longer send a pair to the double sweep; the maxima are left out
and swept again only when a rounding answer needs them) against the double sweep: the same signatures. The
correlation sample read apart from the model sample (kept whole when all plain): numpy's signatures."""

from __future__ import annotations

import ctypes
import json
from collections.abc import Iterator

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native, signature_native
from autofuse_studio.core.precision import signature as signature_module
from tests.core.signature_cases import FAULTS, cases, cast
from tests.core.signature_helpers import hostile_float32

_LIBRARY = native.kernel_library()
pytestmark = pytest.mark.skipif(_LIBRARY is None or not hasattr(_LIBRARY, "af_sign_model_reject"),
                                reason="native kernel not built (or built without the early rejection)")
_REJECT = 8  # RP_REJECT: the index of MODEL_REJECT in sign_classify's params
CHUNK = 1024  # the survey's chunk (_kernel.c CHUNK): the lazy sweep starts after the first


@pytest.fixture
def rejection(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The native path on; the early rejection left on afterwards."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    assert _LIBRARY is not None
    _LIBRARY.af_sign_model_reject.restype = ctypes.c_int64
    _LIBRARY.af_sign_model_reject(1)
    yield
    _LIBRARY.af_sign_model_reject(1)


def _rejected_since() -> int:
    """How many stages the early rejection decided since the last call."""
    assert _LIBRARY is not None
    return int(_LIBRARY.af_sign_model_reject(-1))


def _both(x: np.ndarray, y: np.ndarray, params: tuple[float, ...]) -> tuple[object, object, int]:
    """sign_classify's answer with the early rejection on and off, and how many stages it rejected (compared by
    repr: exact floats, and a NaN equal to a NaN)."""
    assert _LIBRARY is not None
    _rejected_since()
    answers = []
    for on in (1, 0):
        _LIBRARY.af_sign_model_reject(on)
        with np.errstate(all="ignore"):
            answers.append(signature_native.classify(x, y, params))
        if on:
            rejected = _rejected_since()
    _LIBRARY.af_sign_model_reject(1)
    return answers[0], answers[1], rejected


def _params(x: np.ndarray, fused: str, origin: str, reject: float | None = None) -> tuple[float, ...]:
    params = signature_module._native_params(fused, origin, x.shape)[2]
    if reject is None:
        return params
    return (*params[:_REJECT], reject, *params[_REJECT + 1:])


@pytest.mark.parametrize("fault", ["uncorrelated", "scale", "bias", "mixed", "tail_block", "localised"])
def test_generated_pairs_answer_alike(fault: str, rejection: None) -> None:
    """Every pair of the generator's fault (float16, bfloat16, float32; 1-5 axes; magnitudes 1e-2 to 1e2): the
    same answer, and for uncorrelated pairs the rejection is what decides most of them."""
    rejected = 0
    for case in cases(fault):
        params = _params(case.fused, case.fused_dtype, case.origin_dtype)
        on, off, count = _both(case.fused, case.origin, params)
        assert repr(on) == repr(off), case.name
        rejected += count
    if fault == "uncorrelated":
        assert rejected > 0


@pytest.mark.parametrize("size", [1, 2, 3, 5, 64, 1023, 1024, 1025, 2047, 3000, 10_241, 65_536])
@pytest.mark.parametrize(("fused", "origin"), [("float16", "float16"), ("bfloat16", "bfloat16"),
                                               ("float32", "float32"), ("float16", "float32"),
                                               ("float32", "float64"), ("bfloat16", "float64")])
def test_uncorrelated_and_scaled_sizes_answer_alike(size: int, fused: str, origin: str, rejection: None) -> None:
    """Garbage and scaled pairs of odd and even sample counts, with float64 origins too: the same answer."""
    rng = np.random.default_rng([size, len(fused), len(origin)])
    y = rng.standard_normal(size) * 10.0 ** rng.integers(-3, 3)
    stored = np.float64 if origin == "float64" else (np.float16 if origin == "float16" else np.float32)
    y_stored = cast(y, origin) if origin != "float64" else y.astype(stored)
    for x in (rng.standard_normal(size) * 3, y / 3.0, y * -7.5, y + 0.25 * np.abs(y).mean()):
        x_stored = cast(x, fused)
        on, off, _ = _both(x_stored, y_stored, _params(x_stored, fused, origin))
        assert repr(on) == repr(off)


@pytest.mark.parametrize("size", [7, 1024, 5000])
def test_hostile_values_answer_alike(size: int, rejection: None) -> None:
    """NaN, ±Inf, ±0, subnormals, the largest values and ties (values from a few integers) on either side."""
    rng = np.random.default_rng(size)
    for trial in range(12):
        x, y = hostile_float32(rng, size), hostile_float32(rng, size)
        if trial % 3 == 1:  # ties: differences and quotients of a few values
            x = rng.integers(-3, 4, size).astype(np.float32)
            y = rng.integers(-3, 4, size).astype(np.float32)
        if trial % 3 == 2:  # finite: the stages run (no NaN/Inf among the usable elements)
            x[~np.isfinite(x)] = 0.0
            y[~np.isfinite(y)] = -0.0
        for fused in ("float16", "float32"):
            with np.errstate(over="ignore"):
                stored_x = x.astype(np.float16) if fused == "float16" else x
            on, off, _ = _both(stored_x, y, _params(stored_x, fused, "float32"))
            assert repr(on) == repr(off)


def _modelled(rng: np.random.Generator, kind: str, rows: int, width: int, wrong_rows: int, spread: str
              ) -> tuple[np.ndarray, np.ndarray]:
    """float32 pairs on a model (bias 96, or scale 2.5), the last rows off it: a tail the model leaves. far: on
    within 0.9 of each element's tolerance, the tail garbage (differences and quotients beyond 300 from the
    model's); near: the tail 30 to 300 float32 ulps of the model's value away (the buckets a few tolerances
    wide); border: on within 0.7 of the tolerance (bias: tol + slack; scale: tol x 2.5), the tail 1.5 to 3
    tolerances away (the buckets then a small part of one tolerance: a window too narrow misses elements on)."""
    y = (rng.standard_normal((rows, width)) * 4).astype(np.float32).astype(np.float64)
    expected = y + 96.0 if kind == "bias" else 2.5 * y
    tol = 4 * 2.0**-23 * np.maximum(np.abs(expected), np.abs(y))
    reach = tol + 4 * 2.0**-23 * 96.0 if kind == "bias" else tol * 2.5
    on = 0.7 if spread == "border" else 0.9
    x = (expected + rng.uniform(-on, on, y.shape) * (reach if spread == "border" else tol)).astype(np.float32)
    sign = rng.choice([-1.0, 1.0], (wrong_rows, width))
    tail = slice(rows - wrong_rows, rows)
    if spread == "far":
        wrong = sign * rng.uniform(5e3, 1e4, (wrong_rows, width))
    elif spread == "border":
        wrong = expected[tail] + sign * rng.uniform(1.5, 3, (wrong_rows, width)) * reach[tail]
    elif kind == "bias":
        wrong = y[tail] + 96.0 * (1 + sign * rng.uniform(30, 300, (wrong_rows, width)) * 2.0**-21)
    else:
        wrong = y[tail] * 2.5 * (1 + sign * rng.uniform(30, 300, (wrong_rows, width)) * 2.0**-21)
    x[tail] = wrong.astype(np.float32)
    return x, y.astype(np.float32)


@pytest.mark.parametrize("spread", ["far", "near", "border"])
@pytest.mark.parametrize("kind", ["bias", "scale"])
def test_rejection_at_the_border_answers_alike(kind: str, spread: str, rejection: None) -> None:
    """The rejection share swept across the count of elements off the model, one element at a time: below it
    the medians reject the model, from it on they keep it (a model with a tail). The early rejection must
    agree at every step: a bound one element too low would reject the model the medians keep."""
    rng = np.random.default_rng(len(kind))
    rows, width, wrong_rows = 64, 16, 8  # 1024 elements: the whole pair is the model sample
    x, y = _modelled(rng, kind, rows, width, wrong_rows, spread)
    wrong = wrong_rows * width
    models, rejected = [], 0
    for off in range(wrong - 3, wrong + 3):
        on, off_answer, count = _both(x, y, _params(x, "float32", "float32", reject=(off + 0.5) / x.size))
        assert repr(on) == repr(off_answer), off
        assert on is not None
        models.append(on[12])
        rejected += count
    expected_model = signature_native.BIAS_MODEL if kind == "bias" else signature_native.SCALE_MODEL
    assert models == [signature_native.NO_MODEL] * 3 + [expected_model] * 3
    assert rejected >= 3  # the early rejection decided the three below the border


@pytest.mark.parametrize("fault", ["uncorrelated", "scale", "bias"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_signatures_are_the_numpy_paths(fault: str, dtype: str, rejection: None,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole signatures (with the rejection on) of the bench's pairs against numpy's, 1K to 100K elements."""
    for size in (1 << 10, 10_240, 102_400):
        rng = np.random.default_rng([size, len(fault)])
        base = rng.standard_normal((size // 256, 256))
        case = FAULTS[fault](rng, base, dtype, 1.0)
        assert case is not None
        found = []
        for disabled in (False, True):
            if disabled:
                monkeypatch.setenv(native.DISABLE_ENV, "1")
            with np.errstate(all="ignore"):
                got = signature_module.signature(LazyTensor.plain(case.fused), LazyTensor.plain(case.origin),
                                                 case.fused_dtype, case.origin_dtype)
            found.append(None if got is None else json.dumps(got.as_dict(), sort_keys=True))
        monkeypatch.delenv(native.DISABLE_ENV)
        assert found[0] == found[1]


def _signed(x: np.ndarray, y: np.ndarray, dtype: str) -> str:
    with np.errstate(all="ignore"):
        found = signature_module.signature(LazyTensor.plain(x), LazyTensor.plain(y), dtype, dtype)
    return json.dumps(None if found is None else found.as_dict(), sort_keys=True)


@pytest.fixture
def sweeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The native path on; the float32 sweep left on afterwards."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    yield
    assert _LIBRARY is not None
    _LIBRARY.af_sign_survey_f32(1)


def _tied(rng: np.random.Generator, size: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """float32 pairs whose quotients |x - y| / |y| tie within float's rounding (not exact in float): a scale, or
    rounding-level differences (y = ±3 2^k, x one 2^(k-20) further from zero: every quotient 2^-20 / 3)."""
    if kind == "ties":
        y = (rng.choice([-3.0, 3.0], size) * 2.0 ** rng.integers(-10, 10, size)).astype(np.float32)
        return (y + np.sign(y) * np.abs(y) / 3 * 2.0**-20).astype(np.float32), y
    y = rng.standard_normal(size).astype(np.float32)
    return (y.astype(np.float64) * {"third": 1 / 3, "seventh": 1 / 7, "minus": -2.5}[kind]).astype(np.float32), y


@pytest.mark.parametrize("size", [1023, 1024, 10_240, 65_536])
@pytest.mark.parametrize("kind", ["third", "seventh", "minus", "ties"])
@pytest.mark.parametrize("extra", ["none", "tail", "hostile"])
def test_tied_quotients_sweep_lazily_as_the_double_sweep(size: int, kind: str, extra: str, sweeps: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """float32 pairs whose quotients tie (a scale; rounding-level ties: then the maxima are swept again for the
    rounding answer), with a garbage tail or hostile values: the signature of the lazy float sweep is the double
    sweep's and numpy's. Past the first chunk the lazy sweep does run: its maxima come out NaN where rest
    elements are, and exact (swept again) where there are none."""
    assert _LIBRARY is not None
    rng = np.random.default_rng([size, len(kind), len(extra)])
    x, y = _tied(rng, size, kind)
    if extra == "tail":
        x[size - size // 8:] = rng.standard_normal(size // 8).astype(np.float32)
    if extra == "hostile":
        where = rng.random(size) < 0.01
        x[where] = hostile_float32(rng, int(where.sum()))
    shape = (size // 256, 256) if size % 256 == 0 else (size,)
    x, y = x.reshape(shape), y.reshape(shape)
    found = []
    for f32 in (1, 0):
        _LIBRARY.af_sign_survey_f32(f32)
        found.append(_signed(x, y, "float32"))
    _LIBRARY.af_sign_survey_f32(1)
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    found.append(_signed(x, y, "float32"))
    monkeypatch.delenv(native.DISABLE_ENV)
    assert found[0] == found[1] == found[2]
    if kind == "ties" and extra == "none":  # the rounding answer carries the maxima swept again
        assert json.loads(found[0])["params"]["max_rel_err"] == 2.0**-20 / 3
    if CHUNK < size <= signature_module.SAMPLE_ELEMENTS and extra != "hostile":
        answer = signature_native.classify(x, y, _params(x, "float32", "float32"))
        assert answer is not None
        assert np.isnan(answer[1]) == (answer[9] > 0)  # the lazy sweep ran: NaN with rest elements, else swept


@pytest.mark.parametrize("size", [4097, 10_240, 20_001])
@pytest.mark.parametrize("odd", [0, 1, 30])
def test_gathered_correlation_sample_is_numpys(size: int, odd: int, sweeps: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Garbage pairs whose correlation sample is read apart from the model sample (its own stride), with none, one
    or many of its elements not plain (NaN, ±Inf, ±0, values beyond float16's max): the kernel's gathered sample
    (kept whole when all plain, else compacted) gives numpy's signature."""
    rng = np.random.default_rng([size, odd])
    x = rng.standard_normal(size).astype(np.float32)
    y = rng.standard_normal(size).astype(np.float32)
    stride = signature_module._model_stride((size,), signature_module.CORRELATION_SAMPLE)
    picked = rng.choice(np.arange(0, size, stride), odd, replace=False)
    pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 7e4], dtype=np.float32)
    x[picked] = rng.choice(pool, odd)
    y[picked[::2]] = rng.choice(pool, picked[::2].size)
    for fused in ("float16", "float32"):
        with np.errstate(over="ignore"):
            fused_x = x.astype(np.float16) if fused == "float16" else x
        found = [_signed_as(fused_x, y, fused, "float32")]
        monkeypatch.setenv(native.DISABLE_ENV, "1")
        found.append(_signed_as(fused_x, y, fused, "float32"))
        monkeypatch.delenv(native.DISABLE_ENV)
        assert found[0] == found[1]


def _signed_as(x: np.ndarray, y: np.ndarray, fused: str, origin: str) -> str:
    with np.errstate(all="ignore"):
        found = signature_module.signature(LazyTensor.plain(x), LazyTensor.plain(y), fused, origin)
    return json.dumps(None if found is None else found.as_dict(), sort_keys=True)
