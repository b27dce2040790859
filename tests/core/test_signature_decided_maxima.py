"""The survey leaves the maxima out once the answer cannot be rounding (_kernel.c survey_run, decided_before).

sign_classify's survey stops working out max |x - y| and max |x - y| / |y| (the rounding answer's params, the only
answer that reads them) from the chunk after the first rest, non-finite, overflow or underflow element, in the
float sweep and in the double sweep (float64 origins). Against the full survey (af_sign_survey, which always works
them out) on float64 origins near float32's limits and subnormals, NaN/Inf/-0, ties and faults in the first or the
last chunk only: the same counts and first indices, exact maxima for every rounding answer (NaN there would be
a wrong shortcut), NaN ones where the shortcut ran; and numpy's signatures.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native, signature_native
from autofuse_studio.core.precision import signature as signature_module

pytestmark = pytest.mark.skipif(native.kernel_library() is None, reason="native kernel not built")
CHUNK = 1024  # the survey's chunk (_kernel.c CHUNK)
F32 = np.finfo(np.float32)
STORED: dict[str, type[np.floating[Any]]] = {"float16": np.float16, "float32": np.float32,
                                             "float64": np.float64}
# (fused, origin) as the kernel reads them: the double sweep (a float64 side) and the float sweep.
DTYPES = [("float32", "float64"), ("float64", "float64"), ("float32", "float32"), ("float16", "float32"),
          ("float16", "float16")]
FAULTS = ["rounding", "underflow", "garbage", "nan", "overflow", "ties"]
PLACES = ["first_chunk", "last_chunk", "everywhere"]


def _origin(rng: np.random.Generator, size: int, origin: str, fused: str) -> np.ndarray:
    """Plain values of several magnitudes with hostile ones: the fused dtype's largest and smallest values and
    beyond, subnormals, signed zeros, values float32 cannot hold (float64 origins)."""
    limits = np.finfo(STORED[fused])
    values = rng.standard_normal(size) * 10.0 ** rng.integers(-3, 4, size)
    pool = [0.0, -0.0, float(limits.tiny), -float(limits.tiny), float(limits.smallest_subnormal),
            float(limits.max) * 0.999, -float(limits.max) * 0.999, 1.0, -1.0, 1.0 + 2.0**-40, 3.0, 1 / 3]
    if origin == "float64":
        pool += [float(F32.tiny) * 0.37, float(F32.tiny) * (1 - 2.0**-30), 2.0**-149 * 1.5, 2.0**-150,
                 float(F32.max) * (1 - 2.0**-30), 1e-300, 5e-324]
    where = rng.random(size) < 0.05
    values[where] = rng.choice(pool, int(where.sum()))
    with np.errstate(over="ignore"):
        return values.astype(STORED[origin])


def _places(rng: np.random.Generator, size: int, place: str, count: int) -> np.ndarray:
    """Flat indices of a fault: in the first chunk only, in the last chunk only, or anywhere."""
    if place == "first_chunk":
        low, high = 0, min(size, CHUNK)
    elif place == "last_chunk":
        low, high = (size - 1) // CHUNK * CHUNK, size
    else:
        low, high = 0, size
    return rng.integers(low, high, count)


def _pair(seed: int, size: int, fused: str, origin: str, fault: str, place: str) -> tuple[np.ndarray, np.ndarray]:
    """A fused array made from the origin (rounded to the fused dtype) and one fault at the place."""
    rng = np.random.default_rng([seed, size, FAULTS.index(fault), PLACES.index(place), len(fused), len(origin)])
    y = _origin(rng, size, origin, fused)
    with np.errstate(all="ignore"):
        x = y.astype(STORED[fused])
        count = max(1, size // 50)
        where = _places(rng, size, place, count)
        if fault == "underflow":  # origin values the fused dtype holds only as subnormals, flushed to zero
            tiny = float(np.finfo(STORED[fused]).tiny)
            y[where] = (tiny * rng.uniform(0.05, 0.95, count) * rng.choice([-1, 1], count)).astype(y.dtype)
            x = y.astype(STORED[fused])
            x[where] = 0
        elif fault == "garbage":
            x[where] = rng.standard_normal(count) * 100
        elif fault == "nan":
            x[where] = rng.choice([np.nan, np.inf, -np.inf], count)
        elif fault == "overflow":
            y[where] = rng.choice([-1, 1], count) * float(np.finfo(STORED[fused]).max) * 4
            x = y.astype(STORED[fused])
        elif fault == "ties":  # rounding only, with differences tied within float's rounding and -0 against +0
            x[where] = (y[where].astype(np.float64) * (1 + 2.0**-12)).astype(x.dtype)
            x[rng.integers(0, size, count)] = -0.0
    return x, y


def _params(x: np.ndarray, fused: str, origin: str) -> tuple[float, ...]:
    return tuple(signature_module._native_params(fused, origin, x.shape)[2])


@pytest.mark.parametrize("dtypes", DTYPES)
@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("size", [1023, 1025, 4099, 20_001])
def test_counts_are_the_full_surveys_and_rounding_keeps_its_maxima(dtypes: tuple[str, str], fault: str, size: int,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fused, origin = dtypes
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    for place in PLACES:
        x, y = _pair(31, size, fused, origin, fault, place)
        params = _params(x, fused, origin)
        with np.errstate(all="ignore"):
            answer = signature_native.classify(x, y, params)
            full = signature_native.survey(x, y, params[:5])
        assert answer is not None and full is not None
        if answer[0] != signature_native.DONE:  # identical, or the permutation gate: not this sweep's answer
            continue
        counts = (answer[3], answer[4], answer[5], answer[6], answer[7], answer[8], answer[9])
        assert counts == (*full.nonfinite, *full.overflow, *full.underflow, full.rest), (fault, place)
        decided = full.nonfinite[0] or full.overflow[0] or full.underflow[0] or full.rest
        if not decided:  # a rounding answer: its maxima exact, the full sweep's
            assert (answer[1], answer[2]) == (full.max_abs, full.max_rel), (fault, place)
        elif place == "first_chunk" and size > CHUNK and fault not in ("rounding", "ties") \
                and (fused, origin) != ("float16", "float64"):
            # The fault decided the answer in the first chunk: the later chunks left the maxima out.
            assert math.isnan(answer[1]) and math.isnan(answer[2]), (fault, place)


def _signed(x: np.ndarray, y: np.ndarray, fused: str, origin: str) -> str:
    with np.errstate(all="ignore"):
        found = signature_module.signature(LazyTensor.plain(x), LazyTensor.plain(y), fused, origin)
    return json.dumps(None if found is None else found.as_dict(), sort_keys=True)


@pytest.mark.parametrize("dtypes", DTYPES)
@pytest.mark.parametrize("fault", FAULTS)
def test_signatures_are_numpys(dtypes: tuple[str, str], fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fused, origin = dtypes
    for size, place in ((4099, "first_chunk"), (20_001, "everywhere"), (102_400, "first_chunk"),
                        (102_400, "everywhere"), (102_400, "last_chunk")):
        x, y = _pair(5, size, fused, origin, fault, place)
        if size % 256 == 0:
            x, y = x.reshape(-1, 256), y.reshape(-1, 256)
        monkeypatch.delenv(native.DISABLE_ENV, raising=False)
        natively = _signed(x, y, fused, origin)
        monkeypatch.setenv(native.DISABLE_ENV, "1")
        by_numpy = _signed(x, y, fused, origin)
        assert natively == by_numpy, (size, place)


@pytest.mark.parametrize("limit", [float(F32.max), 60000.0, 65504.00000001, None])
@pytest.mark.parametrize("dense_at", [0, 3000, 20_000 - 40])
def test_scan_of_a_float64_origin_past_its_candidates_is_the_whole_sweeps(limit: float | None, dense_at: int,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """af_sign_scan of a float32 x against a float64 y once it found more candidates than it lists (then x and y
    are read in place, x's NaN/Inf/max test in float when float holds the limit, else the double sweep): the
    not-equal count and the fused NaN/±Inf/±max values are af_sign_whole's, on values near float32's limits,
    subnormals, ±0 against ∓0, ties (y a float32 value) and values float32 cannot hold."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    rng = np.random.default_rng([dense_at, 0 if limit is None else int(limit) % 1000])
    size = 20_000 + 7
    y = _origin(rng, size, "float64", "float32")
    with np.errstate(all="ignore"):
        x = y.astype(np.float32)
    pool = np.array([np.nan, np.inf, -np.inf, F32.max, -F32.max, np.nextafter(F32.max, 0), 60000.0, -60000.0,
                     np.nextafter(np.float32(60000.0), np.float32(0)), 65504.0, 0.0, -0.0, 2.0**-149, F32.tiny],
                    dtype=np.float32)
    where = rng.random(size) < 0.01
    x[where] = rng.choice(pool, int(where.sum()))
    tied = rng.random(size) < 0.3
    y[tied] = x[tied].astype(np.float64)  # equal (NaN never equal), -0 against +0 equal too
    y[rng.random(size) < 0.01] = -0.0
    x[dense_at:dense_at + 40] += 7  # more candidates than the scan lists
    swept = [signature_native.whole(x, y, wide64=True, special_limit=limit, scale=2.0**-21, floor=2.0**-147,
                                    special_cap=64, candidate_cap=8, until_candidate=until) for until in (False, True)]
    whole, scan = swept
    assert whole is not None and scan is not None and not scan.complete
    assert (scan.not_equal, scan.special_count, scan.specials.tolist()) == \
        (whole.not_equal, whole.special_count, whole.specials.tolist())
    assert whole.special_count > 0 or limit is None
