"""The native signature checks (_kernel.c sign_classify, af_sign_whole) give numpy's signatures exactly.

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
from autofuse_studio.core.precision import signature as signature_module
from autofuse_studio.core.precision.signature import MODEL_SAMPLE, Signature, _model_sample, classify, signature
from tests.bench.test_bench_signature_rates import knob_cases
from tests.core import signature_cases
from tests.core.signature_cases import FAULTS, Case, cases

pytestmark = [pytest.mark.skipif(native.kernel_library() is None, reason="native kernel not built (no C compiler)"),
              pytest.mark.usefixtures("grid_above_sample")]  # 70K-100K pairs: the grid's path


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


@pytest.mark.parametrize("shape", [(1,), (2,), (7,), (1, 1), (3, 1, 5), (2, 3, 4, 5), (2, 1, 3, 2, 4), (40, 33),
                                   (64, 70)])
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
    """Bias, scale and the correlation's gathering run in the kernel (sign_classify) and agree with numpy."""
    statuses: list[int | None] = []
    call = signature_native.classify

    def counted(*args: object) -> signature_native.Classified | None:
        found = call(*args)  # type: ignore[arg-type]
        statuses.append(None if found is None else int(found[0]))
        return found

    monkeypatch.setattr(signature_native, "classify", counted)
    wrong = _disagreements(monkeypatch, cases(fault))
    assert not wrong, "\n".join(wrong[:5])
    answered = [status for status in statuses if status is not None]  # None: the run with the kernel disabled
    assert len(answered) >= len(list(cases(fault)))
    assert sum(status != signature_native.FALLBACK for status in answered) >= 0.9 * len(answered)
    assert signature_native.GATHERED in statuses or fault != "uncorrelated"


def test_medians_of_ties_and_even_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """np.median's answer for repeated values and even counts: a bias of a few distinct offsets, n even and odd."""
    rng = np.random.default_rng(11)
    for size in (2, 3, 4, 64, 65, 1000, 1001):
        origin = rng.standard_normal(size).astype(np.float32)
        fused = origin + rng.choice(np.array([0.25, 0.5, 0.5, 0.75], dtype=np.float32), size=size)
        fast, slow = _both(monkeypatch, fused, origin, "float32", "float32")
        assert fast == slow, f"{size}:\n  native {fast}\n  numpy  {slow}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_model_size_tests_at_their_border_sign_alike(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bias near median(tol) and a factor near 1 + low_eps (the kernel counts instead of selecting unless the
    value falls between the two middle ones of an even count): the same codes as numpy's on either side."""
    eps = float(np.finfo(dtype).eps) * signature_module.ROUNDING_ULPS
    rng = np.random.default_rng(5)
    # Checkerboards of 1 and 3: a share of 0.75 falls between the two middle tolerances, below their mean, and
    # the elements it leaves differing (the 1s) form no region.
    spread = [np.where(np.indices((side, side)).sum(axis=0) % 2, 3.0, 1.0) for side in (2, 4)]
    for origin in [*(rng.uniform(1, 3, size) for size in (2, 3, 4, 65, 1000, 1001)), *spread]:
        origin = origin.astype(dtype)
        border = float(np.median(eps * np.abs(origin.astype(np.float64))))
        for share in (0.5, 0.75, 0.9, 0.99, 1.0, 1.01, 1.1, 2.0, 5.0):
            for fused in (origin + np.asarray(share * border, dtype=dtype), origin * np.asarray(1 + share * eps, dtype)):
                fast, slow = _both(monkeypatch, fused.astype(dtype), origin, dtype, dtype)
                assert fast == slow, f"{origin.size} {share}:\n  native {fast}\n  numpy  {slow}"


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


@pytest.mark.parametrize("dtypes", [(np.float32, np.float64), (np.float16, np.float64), (np.float64, np.float64)])
def test_double_sweep_finds_numpys_candidates(dtypes: tuple[type[np.floating], type[np.floating]],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """af_sign_whole on a pair with a float64 side (its double sweep, in AVX2 and in plain C): the not-equal count,
    the fused NaN/Inf/max values and the candidates are numpy's (_candidates, _special), with the same largest
    differences; hostile values, sizes that are not multiples of the vector width."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)  # the kernel's sweep, whatever the caller's environment
    library = native.kernel_library()
    assert library is not None
    low = signature_module.dtype_limits("float32")
    rng = np.random.default_rng([9, np.dtype(dtypes[0]).itemsize])
    for size in (1, 3, 5, 1001, 4099):
        x, y = _hostile(rng, (size,), dtypes[0]), _hostile(rng, (size,), dtypes[1])
        y[::3] = x[::3]  # equal elements too (NaN with NaN, Inf with Inf among them)
        with np.errstate(all="ignore"):
            candidates, max_abs, max_rel = signature_module._candidates(x, y, low)
        answers = []
        for level in (1, 0):
            library.af_use_simd(level)
            try:
                with np.errstate(over="ignore"):
                    answers.append(signature_module._whole_sweep(x, y, low, low))
            finally:
                library.af_use_simd(1)
        for swept in answers:
            assert swept is not None
            assert swept.not_equal == int(np.count_nonzero(x != y))
            assert swept.candidates.tolist() == candidates.tolist()[:signature_module.AUGMENTED_ELEMENTS]
            assert (swept.max_abs, swept.max_rel) == (max_abs, max_rel), f"size {size}"
            special = (np.isnan(x) | (np.abs(x.astype(np.float64)) >= swept_limit(x, low))).nonzero()[0]
            assert swept.special_count == special.size
            assert swept.specials.tolist() == special.tolist()[:signature_module.MAX_SPECIAL]


def swept_limit(x: np.ndarray, fused: signature_module.DtypeLimits) -> float:
    """_special's limit: the fused max as x's dtype stores it."""
    with np.errstate(over="ignore"):
        return float(np.array(fused.max, dtype=x.dtype))


@pytest.mark.parametrize("shape", [(0,), (1,), (1, 1), (5,), (3, 0, 2)])
def test_empty_and_single_element_pairs_classify_alike(shape: tuple[int, ...], simd: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """No element, one element (equal, differing, NaN, Inf, a flushed subnormal), the kernel's call and numpy
    agree (the kernel declines an empty pair)."""
    for fused_value, origin_value in ((1.0, 1.0), (2.0, 1.0), (np.nan, 1.0), (np.inf, 1.0), (0.0, 1e-41),
                                      (np.nan, np.nan), (-0.0, 0.0)):
        fused = np.full(shape, fused_value, dtype=np.float32)
        origin = np.full(shape, origin_value, dtype=np.float64)
        with np.errstate(all="ignore"):
            monkeypatch.delenv(native.DISABLE_ENV, raising=False)
            fast = _as_json(classify(fused, origin, "float32", "float64"))
            monkeypatch.setenv(native.DISABLE_ENV, "1")
            slow = _as_json(classify(fused, origin, "float32", "float64"))
        assert fast == slow, f"{fused_value} vs {origin_value}:\n  native {fast}\n  numpy  {slow}"


def test_one_kernel_call_classifies_a_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tail, a bias, a scale and garbage are each classified by one sign_classify call (garbage: the
    correlation by numpy on the gathered sample); unclassified takes a second call for its median rel; the
    call declines integers and reads a transposed view as its copy."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    rng = np.random.default_rng(17)
    origin = rng.standard_normal((64, 48)).astype(np.float32)
    tail, garbage = origin.copy(), rng.standard_normal(origin.shape).astype(np.float32)
    tail[:, 40:] = 7.0
    # Noise of a third of the values' spread everywhere: correlated, but no region and no value model.
    unexplained = origin + (rng.standard_normal(origin.shape) / 3).astype(np.float32)
    calls: list[int] = []
    call = signature_native.classify

    def counted(*args: object) -> signature_native.Classified | None:
        calls.append(1)
        return call(*args)  # type: ignore[arg-type]

    def no_numpy(*args: object) -> None:
        raise AssertionError("the numpy path ran")

    monkeypatch.setattr(signature_native, "classify", counted)
    monkeypatch.setattr(signature_module, "classify_numpy", no_numpy)
    expected = {"tail_block": (tail, 1), "bias": (origin + np.float32(0.5), 1), "scale": (origin / 3, 1),
                "uncorrelated": (garbage, 1), "unclassified": (unexplained, 2)}
    for code, (fused, count) in expected.items():
        calls.clear()
        found = classify(fused, origin, "float32", "float32")
        assert found is not None and found.code == code and len(calls) == count, (code, found, calls)
    params = signature_module._native_params("float32", "float32", (48, 64))[2]
    numbers = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert call(numbers, numbers, params) is None
    assert call(tail.T, origin.T, params) == call(tail.T.copy(), origin.T.copy(), params)


@pytest.mark.parametrize("dtypes", [(np.float32, np.float32), (np.float16, np.float16), (np.float32, np.float64)])
def test_whole_sweep_keeps_the_first_candidates_of_a_dense_pair(dtypes: tuple[type[np.floating], type[np.floating]],
                                                                 simd: str) -> None:
    """Every element differs (a run of candidates written at once): the first candidate_cap flat indices are
    kept, whatever the cap (not a multiple of the vector width), and the count is every element's."""
    rng = np.random.default_rng(23)
    y = rng.standard_normal(1003).astype(dtypes[1])
    x = (y.astype(np.float64) + 0.5).astype(dtypes[0])
    x[500] = np.nan  # one special value amid the run
    for cap in (0, 1, 5, 8, 13, 1003, 2000):
        swept = signature_native.whole(x, y, wide64=np.float64 in dtypes, special_limit=60000.0, scale=1e-3,
                                       floor=0.0, special_cap=4, candidate_cap=cap)
        assert swept is not None
        assert swept.candidate_count == x.size and swept.candidates.tolist() == list(range(min(cap, x.size)))
        assert swept.special_count == 1 and swept.specials.tolist() == [500]


@pytest.mark.parametrize("dtypes", [(np.float16, np.float16), (np.float32, np.float32), (np.float16, np.float32),
                                    (np.float32, np.float64)])
def test_scan_until_candidate_is_the_whole_sweep_where_it_says(dtypes: tuple[type[np.floating], type[np.floating]],
                                                               simd: str) -> None:
    """af_sign_scan (the big pairs' first sweep): with at most candidate_cap candidates it answers af_sign_whole's
    every figure; with more it says it is not complete, and the not-equal count, the fused NaN/Inf/max values and
    the extremes are still af_sign_whole's (a dense block in the first, a middle or the last chunk; hostile
    values after it; without AVX2 af_sign_whole answers, and says the same)."""
    rng = np.random.default_rng([41, np.dtype(dtypes[0]).itemsize, np.dtype(dtypes[1]).itemsize])
    wide64 = np.float64 in dtypes
    size, cap = 3 * 4096 + 13, 8
    for where, width in ((None, 0), (5000, 3), (0, 100), (5000, 100), (size - 100, 100)):
        y = rng.standard_normal(size).astype(dtypes[1])
        x = y.astype(dtypes[0])  # rounding only, then `width` candidates at `where` and a few specials
        x[[17, 9000]] = [np.nan, np.inf]
        y[[17, 9000]] = x[[17, 9000]]
        if where is not None:
            x[where:where + width] += 3
            x[size // 2:size // 2 + 20] = _hostile(rng, (20,), dtypes[0])
        whole, scan = (signature_native.whole(x, y, wide64=wide64, special_limit=60000.0, scale=1e-3, floor=0.0,
                                              special_cap=4, candidate_cap=cap, until_candidate=until)
                       for until in (False, True))
        assert whole is not None and scan is not None and whole.complete
        if whole.candidate_count <= cap:
            assert _figures(scan) == _figures(whole)
            continue
        assert not scan.complete and scan.candidate_count > cap
        kept = (scan.not_equal, scan.special_count, scan.specials.tolist(), scan.x_max, scan.x_min, scan.y_max,
                scan.y_min, scan.nan)
        assert kept == (whole.not_equal, whole.special_count, whole.specials.tolist(), whole.x_max, whole.x_min,
                        whole.y_max, whole.y_min, whole.nan)


def _figures(swept: signature_native.Whole) -> tuple[object, ...]:
    """A Whole as plain values (its index arrays as lists)."""
    return (swept.not_equal, swept.special_count, swept.specials.tolist(), swept.candidate_count,
            swept.candidates.tolist(), swept.max_abs, swept.max_rel, swept.x_max, swept.x_min, swept.y_max,
            swept.y_min, swept.nan, swept.complete)


@pytest.mark.parametrize("dtypes", [(np.float16, np.float16), (np.float32, np.float32), (np.float16, np.float64)])
def test_wrong_slice_is_numpys(dtypes: tuple[type[np.floating], type[np.floating]], simd: str,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """_wrong_slice (a tail's first index on a big pair) by the kernel's survey is numpy's answer: slices of
    rounding-level values, of one element beyond rounding, of hostile values (NaN, ±Inf: numpy decides), and
    identical ones, along every axis."""
    rng = np.random.default_rng([43, np.dtype(dtypes[0]).itemsize, np.dtype(dtypes[1]).itemsize])
    low = signature_module.dtype_limits("float16" if np.float16 in dtypes else "float32")
    y = rng.standard_normal((6, 5, 8)).astype(dtypes[1])
    x = y.astype(dtypes[0])
    x[1, 2, 3] += 1  # beyond rounding in slice 1 of axis 0, 2 of axis 1, 3 of axis 2
    x[4], y[4] = _hostile(rng, (5, 8), dtypes[0]), _hostile(rng, (5, 8), dtypes[1])
    x[5, 0] = y[5, 0] = np.inf
    answers = []
    for disabled in (False, True):
        if disabled:
            monkeypatch.setenv(native.DISABLE_ENV, "1")
        with np.errstate(all="ignore"):
            answers.append([signature_module._wrong_slice(x, y, axis, index, low)
                            for axis in range(3) for index in range(x.shape[axis])])
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    assert answers[0] == answers[1]
    assert answers[1][1] and not answers[1][0]  # the wrong slice is found, a rounding-level one is not
