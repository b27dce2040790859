"""The native signature sweeps (_kernel.c af_sign_survey, af_sign_whole) give numpy's signatures exactly.

Every pair is signed twice, with the kernel and with AUTOFUSE_STUDIO_NO_NATIVE=1, and the two JSON dicts must be
equal: the generator's pairs (tests/core/signature_cases.py, and the rates bench's random shapes), big pairs that
take the sampled path, and hostile values (NaN, ±Inf, -0.0, subnormals, dtype limits, mixed dtypes, 1–5 axes,
axes of 1, strided views). Both the AVX2 code and the plain C baseline are checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native, signature_native
from autofuse_studio.core.precision.signature import MODEL_SAMPLE, Signature, _model_sample, classify, signature
from tests.bench.test_bench_signature_rates import knob_cases
from tests.core import signature_cases
from tests.core.signature_cases import FAULTS, Case, cases

pytestmark = pytest.mark.skipif(native.kernel_library() is None, reason="native kernel not built (no C compiler)")


@pytest.fixture(params=["simd", "baseline"])
def simd(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run with the kernel's AVX2 code (where the CPU has it) and with its plain C baseline."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    library = native.kernel_library()
    assert library is not None
    level = library.af_use_simd(int(request.param == "simd"))
    assert request.param == "simd" or level == 0
    yield request.param
    library.af_use_simd(1)


def _as_json(found: Signature | None) -> str | None:
    return None if found is None else json.dumps(found.as_dict(), sort_keys=True)


def _both(monkeypatch: pytest.MonkeyPatch, fused: np.ndarray, origin: np.ndarray, fused_dtype: str,
          origin_dtype: str) -> tuple[str | None, str | None]:
    """(native, numpy) signatures of a pair, as JSON."""
    def signed() -> str | None:
        with np.errstate(all="ignore"):
            return _as_json(signature(LazyTensor.plain(fused), LazyTensor.plain(origin), fused_dtype, origin_dtype))

    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    fast = signed()
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    slow = signed()
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    return fast, slow


def _disagreements(monkeypatch: pytest.MonkeyPatch, pairs: Iterator[Case]) -> list[str]:
    wrong = []
    for case in pairs:
        fast, slow = _both(monkeypatch, case.fused, case.origin, case.fused_dtype, case.origin_dtype)
        if fast != slow:
            wrong.append(f"{case.name}:\n  native {fast}\n  numpy  {slow}")
    return wrong


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_generator_pairs_sign_alike(fault: str, simd: str, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = _disagreements(monkeypatch, cases(fault))
    assert not wrong, "\n".join(wrong[:5])


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_random_shapes_sign_alike(fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rates bench's knobs: random shapes of 1–5 axes, magnitudes 1e-3 … 1e4, tiles up to 64."""
    monkeypatch.setattr(signature_cases, "TILES", (1, 2, 4, 8, 16, 32, 64))
    wrong = _disagreements(monkeypatch, knob_cases(fault, seeds=2))
    assert not wrong, "\n".join(wrong[:5])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("fault", ["identical", "rounding", "nonfinite_introduced", "overflow", "underflow",
                                   "tail_block", "localised", "mixed", "bias", "scale", "uncorrelated"])
def test_big_pairs_sign_alike(fault: str, dtype: str, simd: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pairs above SAMPLE_ELEMENTS: the sampled path (grid, special values, candidates) with the native sweep."""
    rng = np.random.default_rng([7, signature_cases.SEED_INDEX[fault], len(dtype)])
    for shape in ((300, 256), (2, 150, 3, 96), (70_001,)):
        case = FAULTS[fault](rng, rng.standard_normal(shape), dtype, 1.0)
        assert case is not None
        fast, slow = _both(monkeypatch, case.fused, case.origin, case.fused_dtype, case.origin_dtype)
        assert fast == slow, f"{case.name} {shape}:\n  native {fast}\n  numpy  {slow}"


def _hostile(rng: np.random.Generator, shape: tuple[int, ...], dtype: type[np.floating]) -> np.ndarray:
    """Values drawn from the corners of a float dtype: NaN, ±Inf, ±0, subnormals, the max, and ordinary ones."""
    info = np.finfo(dtype)
    corners = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, float(info.smallest_subnormal), float(info.tiny),
                        -float(info.tiny) / 3, float(info.max), -float(info.max), 1.0, -1.0, 65504.0, 7e4],
                       dtype=np.float64)
    with np.errstate(over="ignore"):
        values = np.where(rng.random(shape) < 0.3, rng.choice(corners, size=shape), rng.standard_normal(shape))
        return values.astype(dtype)


@pytest.mark.parametrize("shape", [(1,), (2,), (7,), (1, 1), (3, 1, 5), (2, 3, 4, 5), (2, 1, 3, 2, 4), (40, 33)])
@pytest.mark.parametrize("dtypes", [("float16", "float16"), ("float32", "float32"), ("float16", "float32"),
                                    ("bfloat16", "float32"), ("float32", "float64"), ("float64", "float64")])
def test_hostile_values_classify_alike(shape: tuple[int, ...], dtypes: tuple[str, str], simd: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    fused_dtype, origin_dtype = dtypes
    stored = {"float16": np.float16, "bfloat16": np.float32, "float32": np.float32, "float64": np.float64}
    rng = np.random.default_rng([len(shape), *shape, len(fused_dtype), len(origin_dtype)])
    for trial in range(12):
        origin = _hostile(rng, shape, stored[origin_dtype])
        with np.errstate(over="ignore"):  # a wider origin's max becomes Inf in the fused dtype (an overflow)
            fused = _hostile(rng, shape, stored[fused_dtype]) if trial % 3 == 0 else origin.astype(stored[fused_dtype])
        if trial % 3 == 1:  # a few hostile values changed in an otherwise equal pair
            flat = fused.reshape(-1)
            flat[rng.integers(0, flat.size, size=max(1, flat.size // 5))] = _hostile(rng, (1,), flat.dtype.type)[0]
        if fused_dtype == "bfloat16":
            fused = signature_cases.to_bf16(fused)
        fast, slow = _both(monkeypatch, fused, origin, fused_dtype, origin_dtype)
        assert fast == slow, f"trial {trial}:\n  native {fast}\n  numpy  {slow}"


def test_strided_views_classify_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """classify() takes any array: a transposed or sliced view is read as numpy reads it."""
    rng = np.random.default_rng(3)
    origin = rng.standard_normal((24, 40)).astype(np.float32)
    fused = origin.copy()
    fused[:, 36:] = 9.0
    for x, y in ((fused.T, origin.T), (fused[::2, 1:], origin[::2, 1:])):
        monkeypatch.delenv(native.DISABLE_ENV, raising=False)
        fast = _as_json(classify(x, y, "float32", "float32"))
        monkeypatch.setenv(native.DISABLE_ENV, "1")
        assert fast == _as_json(classify(x, y, "float32", "float32"))


def test_the_sweeps_decline_what_they_cannot_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Integers, 0-d arrays and a disabled kernel take the numpy path (None), never a wrong answer."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    params = (4 * 2.0**-23, 4 * 2.0**-149, 3.4e38, 2.0**-126, 2.0**-149)
    numbers = np.arange(6, dtype=np.int32)
    assert signature_native.survey(numbers, numbers, params) is None
    assert signature_native.survey(np.float32(1.0).reshape(()), np.float32(2.0).reshape(()), params) is None
    values = np.ones(6, dtype=np.float32)
    assert signature_native.survey(values, values, params) is not None
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    assert signature_native.survey(values, values, params) is None
    assert signature_native.whole(values, values, wide64=False, special_limit=None, scale=1e-6, floor=0.0,
                                  special_cap=4, candidate_cap=4) is None


def test_survey_counts_are_the_masks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The survey's counts and first indices are those of signature._classify's masks."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    origin = np.array([[1.0, 2.0, 7e4, 1e-6], [3.0, 4.0, 5.0, 6.0]], dtype=np.float32)
    fused = np.array([[1.0, np.nan, np.inf, 0.0], [3.0, 4.5, 5.0, 6.0]], dtype=np.float16)
    limits = np.finfo(np.float16)
    params = (4 * float(limits.eps), 4 * float(limits.smallest_subnormal), float(limits.max), float(limits.tiny),
              float(limits.smallest_subnormal))
    found = signature_native.survey(fused, origin, params)
    assert found is not None
    assert (found.not_same, found.not_both_finite, found.bad, found.rest) == (4, 2, 4, 1)
    assert (found.nonfinite, found.overflow, found.underflow) == ((1, 1), (1, 2), (1, 3))
    assert [hits.tolist() for hits in found.hits] == [[1], [1]]  # the 4.5 at [1, 1]


@pytest.mark.parametrize("dtypes", [("float16", "float16"), ("float32", "float32"), ("float16", "float32"),
                                    ("float32", "float64")])
def test_big_hostile_pairs_sign_alike(dtypes: tuple[str, str], simd: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sampled path on big pairs near rounding: subnormals, tiny and huge values, a few NaN/Inf/max."""
    fused_dtype, origin_dtype = dtypes
    stored = {"float16": np.float16, "float32": np.float32, "float64": np.float64}
    info = np.finfo(stored[fused_dtype])
    rng = np.random.default_rng([len(fused_dtype), len(origin_dtype)])
    for trial in range(8):
        scale = float(rng.choice([float(info.smallest_subnormal) * 8, float(info.tiny), 1.0, float(info.max) / 8]))
        origin = (rng.standard_normal((300, 256)) * scale).astype(stored[origin_dtype])
        with np.errstate(over="ignore"):
            wobble = origin.astype(np.float64) * (1 + rng.uniform(-3, 3, origin.shape) * float(info.eps))
            fused = wobble.astype(stored[fused_dtype])
        if trial % 2:
            fused.reshape(-1)[rng.integers(0, fused.size, size=3)] = [np.nan, np.inf, info.max]
        fast, slow = _both(monkeypatch, fused, origin, fused_dtype, origin_dtype)
        assert fast == slow, f"trial {trial} scale {scale:g}:\n  native {fast}\n  numpy  {slow}"


@pytest.mark.parametrize("fault", ["bias", "scale", "uncorrelated", "mixed"])
def test_value_models_are_decided_natively(fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bias, scale and the correlation's gathering run in the kernel (af_sign_residual) and agree with numpy."""
    decided: list[bool] = []
    stage = signature_native.residual

    def counted(*args: object) -> signature_native.Residual | None:
        found = stage(*args)  # type: ignore[arg-type]
        decided.append(found is not None)
        return found

    monkeypatch.setattr(signature_native, "residual", counted)
    wrong = _disagreements(monkeypatch, cases(fault))
    assert not wrong, "\n".join(wrong[:5])
    assert decided and sum(decided) >= 0.9 * len(decided)


def test_medians_of_ties_and_even_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """np.median's answer for repeated values and even counts: a bias of a few distinct offsets, n even and odd."""
    rng = np.random.default_rng(11)
    for size in (2, 3, 4, 64, 65, 1000, 1001):
        origin = rng.standard_normal(size).astype(np.float32)
        fused = origin + rng.choice(np.array([0.25, 0.5, 0.5, 0.75], dtype=np.float32), size=size)
        fast, slow = _both(monkeypatch, fused, origin, "float32", "float32")
        assert fast == slow, f"{size}:\n  native {fast}\n  numpy  {slow}"


def test_big_identical_pairs_with_nan_sign_alike(simd: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Equal bits are identical only without NaN (array_equal): with one, the sampled path goes on."""
    rng = np.random.default_rng(5)
    origin = rng.standard_normal((300, 256)).astype(np.float32)
    for flat in (None, 0, 1234):
        values = origin.copy()
        if flat is not None:
            values.reshape(-1)[flat] = np.nan
        fast, slow = _both(monkeypatch, values.copy(), values, "float32", "float32")
        assert fast == slow, f"NaN at {flat}:\n  native {fast}\n  numpy  {slow}"


@pytest.mark.parametrize("shape", [(64, 256), (2, 150, 3, 96), (70_001,), (40, 33), (1024, 8)])
def test_the_model_sample_reaches_every_index_of_every_axis(shape: tuple[int, ...]) -> None:
    """The value models' sample (flat positions 0, s, 2s, …) is about MODEL_SAMPLE elements and, where it holds
    enough of them, touches every index of every axis (a stride dividing a row would see one column only)."""
    pick = _model_sample(shape)
    count = int(pick.sum())
    assert min(pick.size, MODEL_SAMPLE // 2) <= count <= MODEL_SAMPLE
    for axis, length in enumerate(shape):
        other = tuple(a for a in range(len(shape)) if a != axis)
        touched = int(np.count_nonzero(pick.any(axis=other) if other else pick))
        assert touched == min(length, count), f"axis {axis}: {touched} of {length} indices"


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_value_models_from_the_sample_sign_alike(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between MODEL_SAMPLE and SAMPLE_ELEMENTS (classified whole, the medians from the model sample): a bias
    next to a tail of 40% of the rows, a scale with a garbage slice, garbage everywhere; native and numpy agree
    and name the faults."""
    rng = np.random.default_rng([3, len(dtype)])
    stored = np.float16 if dtype == "float16" else np.float32
    origin = rng.standard_normal((120, 250)).astype(stored)
    biased = (origin.astype(np.float64) + 0.5).astype(stored)
    biased[72:] = rng.standard_normal((48, 250)).astype(stored) * 3
    scaled = (origin.astype(np.float64) / 3).astype(stored)
    scaled[:, 17] = rng.standard_normal(120).astype(stored) * 3
    garbage = rng.standard_normal(origin.shape).astype(stored)
    expected = {"bias+tail": ["bias", "tail_block"], "scale+slice": ["scale", "localised"],
                "garbage": ["uncorrelated"]}
    for name, fused in (("bias+tail", biased), ("scale+slice", scaled), ("garbage", garbage)):
        fast, slow = _both(monkeypatch, fused, origin, dtype, dtype)
        assert fast == slow, f"{name}:\n  native {fast}\n  numpy  {slow}"
        found = json.loads(fast or "null")
        codes = [part["code"] for part in found["params"]["parts"]] if found["code"] == "mixed" else [found["code"]]
        assert codes == expected[name], f"{name}: {found}"


@pytest.mark.parametrize("dtypes", [(np.float16, np.float16), (np.float32, np.float32), (np.float16, np.float32),
                                    (np.float64, np.float32)])
def test_whole_sweep_extremes_are_numpys(dtypes: tuple[type[np.floating], type[np.floating]], simd: str) -> None:
    """af_sign_whole's extremes (the permutation gate's first test on big pairs) are numpy's max and min over the
    elements without a NaN on either side, and it counts those with one; a few NaN, none, and only NaN (float
    pairs; a pair with a float64 side says it has none)."""
    rng = np.random.default_rng([5, np.dtype(dtypes[0]).itemsize, np.dtype(dtypes[1]).itemsize])
    wide64 = np.float64 in dtypes
    for trial, size in enumerate((1, 7, 8, 9, 1000, 70_001)):
        x, y = _hostile(rng, (size,), dtypes[0]), _hostile(rng, (size,), dtypes[1])
        if trial == 1:
            x[:], y[:] = np.nan, np.nan
        if trial == 2:
            x, y = np.nan_to_num(x), np.nan_to_num(y)
        swept = signature_native.whole(x, y, wide64=wide64, special_limit=None, scale=1e-3, floor=0.0,
                                       special_cap=4, candidate_cap=4)
        assert swept is not None
        clean = ~(np.isnan(x) | np.isnan(y))
        if wide64:  # not worked out for pairs with a float64 side
            assert swept.nan == -1
            continue
        assert swept.nan == int((~clean).sum())
        if clean.any():
            found = (swept.x_max, swept.x_min, swept.y_max, swept.y_min)
            expected = (float(x[clean].max()), float(x[clean].min()), float(y[clean].max()), float(y[clean].min()))
            assert found == expected, f"size {size}: {found} != {expected}"
