"""Bridge to the native kernel's signature sweeps (_kernel.c: sign_classify, sign_sweep, af_sign_survey, gate)."""

from __future__ import annotations

import ctypes
import functools
import importlib
import math
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from autofuse_studio.core.native_switch import native_disabled
from autofuse_studio.core.precision import native

# sign_classify's modes and statuses (SC_* of _kernel.c).
FULL, SKIP_GATE, ONLY_REL = 0, 1, 2
IDENTICAL, DONE, PERMUTATION, FALLBACK, GATHERED, REL = 0, 1, 2, 3, 4, 5
# Its model codes (SM_*) and region codes (SR_CODE).
NO_MODEL, BIAS_MODEL, SCALE_MODEL = 0, 1, 2
TAIL, LOCALISED = 1, 2
# The correlation sample's room: a sample of CORRELATION_SAMPLE (signature.py) holds at most that many elements.
SAMPLE_ROOM = 4096

# The float dtypes the sweeps read (bfloat16 arrives decoded to float32); any other dtype takes the numpy path.
_FLOAT_CODES = {np.dtype(np.float16): 9, np.dtype(np.float32): 11, np.dtype(np.float64): 12}
_OK = 0
# Layout of the outputs (the SV_* enums of _kernel.c).
_SURVEY_DOUBLES, _SURVEY_COUNTS = 2, 10
_MAX_AXES = 32
_POINTER = ctypes.c_void_p


@functools.cache
def _function(name: str, argtypes: tuple[Any, ...]) -> Any:
    """The kernel's function with its prototype (set once), or None when the kernel lacks it."""
    return native.prototyped(name, ctypes.c_int, list(argtypes))


_DOUBLES = ctypes.POINTER(ctypes.c_double)
_INT64S = ctypes.POINTER(ctypes.c_int64)
_SURVEY_ARGS = (_POINTER, ctypes.c_int, _POINTER, ctypes.c_int, ctypes.c_int64, ctypes.c_int, _INT64S, _DOUBLES,
                _DOUBLES, _INT64S, _POINTER)


class _Outputs(threading.local):
    """Per-thread ctypes arrays for af_sign_survey's small inputs and outputs (cheaper than numpy per call)."""

    def __init__(self) -> None:
        self.params = (ctypes.c_double * 5)()
        self.doubles = (ctypes.c_double * _SURVEY_DOUBLES)()
        self.counts = (ctypes.c_int64 * _SURVEY_COUNTS)()


_OUTPUTS = _Outputs()


_GATE_ARGS = (_POINTER, ctypes.c_int, _POINTER, ctypes.c_int, ctypes.c_int64, ctypes.c_double, ctypes.c_double,
              _DOUBLES)


@dataclass(slots=True)
class Gate:
    """af_sign_gate's figures: the extremes (exact), the sums in double (another order than numpy's), how many
    elements hold a NaN on either side, and the largest and the sum of tol = c1 max(|x|, |y|) + c2."""

    x_max: float
    x_min: float
    y_max: float
    y_min: float
    sum_x: float
    sum_y: float
    sum_abs_y: float
    nan: float
    tol_max: float
    sum_tol: float


def gate(x: np.ndarray, y: np.ndarray, c1: float = 0.0, c2: float = 0.0) -> Gate | None:
    """af_sign_gate of two float arrays of one size (read flat, C order); None when the kernel cannot."""
    codes = _codes(x, y)
    function = _function("af_sign_gate", _GATE_ARGS)
    if codes is None or function is None or x.size == 0:
        return None
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    out = (ctypes.c_double * 10)()
    if function(native.data_address(x), codes[0], native.data_address(y), codes[1], x.size, c1, c2, out) != _OK:
        return None
    return Gate(*out[:])


@dataclass(slots=True)
class Survey:
    """What signature._classify's masks hold, from one sweep (af_sign_survey's outputs by name)."""

    max_abs: float
    max_rel: float
    not_same: int
    not_both_finite: int
    bad: int
    rest: int
    nonfinite: tuple[int, int]  # (count, first flat index)
    overflow: tuple[int, int]
    underflow: tuple[int, int]
    hits: list[np.ndarray]  # per axis: the indices (ascending) holding a rest element


@dataclass(slots=True)
class Whole:
    """signature._sampled's passes over a whole big pair, from one sweep (af_sign_whole's outputs)."""

    not_equal: int
    special_count: int
    specials: np.ndarray  # flat indices, the first min(count, cap) of them
    candidate_count: int
    candidates: np.ndarray
    max_abs: float
    max_rel: float
    # The extremes of x and y over the elements with no NaN on either side (exact; not worked out when
    # not_equal is 0), and how many elements have a NaN on either side (-1: none of these worked out, as for
    # pairs with a float64 side).
    x_max: float
    x_min: float
    y_max: float
    y_min: float
    nan: float
    # False for af_sign_scan's answer once it found more candidates than it lists: then their count and the two
    # maxima are not the whole pair's (the rest is exact).
    complete: bool = True


def _codes(x: np.ndarray, y: np.ndarray) -> tuple[int, int] | None:
    x_code, y_code = _FLOAT_CODES.get(x.dtype), _FLOAT_CODES.get(y.dtype)
    if x_code is None or y_code is None or x.size != y.size or not native.enabled():
        return None
    return x_code, y_code


def survey(x: np.ndarray, y: np.ndarray, params: tuple[float, float, float, float, float]) -> Survey | None:
    """af_sign_survey of x (fused) and y (origin), C-contiguous floats of one shape; None when the kernel is
    absent, disabled or declines (other dtypes, 0 or more than 32 axes). params: ROUNDING_ULPS * eps and
    ROUNDING_ULPS * min_subnormal of the lower-precision dtype, the fused dtype's max, tiny and min_subnormal."""
    codes = _codes(x, y)
    function = _function("af_sign_survey", _SURVEY_ARGS)
    if codes is None or function is None or not 1 <= x.ndim <= _MAX_AXES or x.shape != y.shape:
        return None
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    outputs = _OUTPUTS
    outputs.params[:] = list(params)
    marks = np.empty(sum(x.shape), dtype=np.int64)
    status = function(native.data_address(x), codes[0], native.data_address(y), codes[1], x.size, x.ndim,
                      (ctypes.c_int64 * x.ndim)(*x.shape), outputs.params, outputs.doubles, outputs.counts,
                      native.data_address(marks))
    if status != _OK:
        return None
    c, d = outputs.counts[:], outputs.doubles[:]
    return Survey(d[0], d[1], not_same=c[0], not_both_finite=c[1], bad=c[2], rest=c[3],
                  nonfinite=(c[4], c[5]), overflow=(c[6], c[7]), underflow=(c[8], c[9]),
                  hits=_per_axis(marks, x.shape) if c[3] else [])


def _per_axis(marks: np.ndarray, shape: tuple[int, ...]) -> list[np.ndarray]:
    """The kernel's concatenated per-axis marks as the marked indices of each axis."""
    marked = np.flatnonzero(marks)
    ends = np.cumsum(shape).tolist()
    bounds = np.searchsorted(marked, ends).tolist()
    parts, start, first = [], 0, 0
    for end, bound in zip(ends, bounds, strict=True):
        parts.append(marked[first:bound] - start)
        start, first = end, bound
    return parts


class _IndexBuffers(threading.local):
    """Per-thread index buffers of sign_sweep, by kind and cap (allocating them was a fixed cost of every big
    pair; the listed part is copied out)."""

    def __init__(self) -> None:
        self.buffers: dict[tuple[str, int], np.ndarray] = {}

    def get(self, kind: str, cap: int) -> np.ndarray:
        """An int64 buffer of cap flat indices."""
        buffer = self.buffers.get((kind, cap))
        if buffer is None:
            buffer = self.buffers[(kind, cap)] = np.empty(cap, dtype=np.int64)
        return buffer


_INDEX_BUFFERS = _IndexBuffers()


def whole(x: np.ndarray, y: np.ndarray, *, wide64: bool, special_limit: float | None, scale: float, floor: float,
          special_cap: int, candidate_cap: int, until_candidate: bool = False) -> Whole | None:
    """af_sign_whole of two flat float arrays: values not equal, the fused NaN/±Inf/±max ones (|x| >=
    special_limit; None: not looked for) and the candidates beyond scale * max(|x|, |y|) + floor (in float, or
    double when `wide64`), with up to special_cap and candidate_cap of their flat indices; None when the
    kernel is absent, disabled or declines. `until_candidate`: af_sign_scan, which stops looking for candidates
    once it found more than candidate_cap (af_sign_whole when it cannot); then the answer says it is not
    complete (Whole.complete: its candidates and maxima are not to be used). One call of the kernel module's
    sign_sweep."""
    codes = _codes(x, y)
    sweep = _sign_function("sign_sweep")
    if codes is None or sweep is None:
        return None
    specials = _INDEX_BUFFERS.get("specials", special_cap)
    candidates = _INDEX_BUFFERS.get("candidates", candidate_cap)
    found = sweep(np.ascontiguousarray(x), np.ascontiguousarray(y), codes[0], codes[1], int(wide64),
                  int(special_limit is not None), (scale, floor, math.inf if special_limit is None else special_limit),
                  specials, candidates, int(until_candidate))
    if found is None:
        return None
    not_equal, special_count, candidate_count, max_abs, max_rel, x_max, x_min, y_max, y_min, nan = found
    # Copies: the buffers are the next call's.
    return Whole(not_equal, special_count, specials[:min(special_count, special_cap)].copy(), candidate_count,
                 candidates[:min(candidate_count, candidate_cap)].copy(), max_abs, max_rel, x_max, x_min, y_max,
                 y_min, nan, complete=not until_candidate or candidate_count <= candidate_cap)


@functools.cache
def _sign_function(name: str) -> Any:
    """A function of the kernel module (sign_classify, sign_sweep), None when the kernel is not built or is
    older."""
    if native.kernel_library() is None:  # loads the kernel and runs af_init (the float16 table)
        return None
    module = importlib.import_module("autofuse_studio.core.precision._kernel")
    return getattr(module, name, None)


def _sign_classify() -> Any:
    """The kernel module's sign_classify (None when the kernel is not built or is older)."""
    return _sign_function("sign_classify")


@functools.cache
def centres_like_numpy() -> bool:
    """Whether the kernel's af_pairwise_sum is np.add.reduce's sum on this numpy, so that sign_classify may centre
    the correlation sample as signature._correlation does (the same r): checked once, on fixed samples of the
    sizes it sees whose sums depend on the order of the additions."""
    function = native.prototyped("af_pairwise_sum", ctypes.c_double, [_POINTER, ctypes.c_int64])
    if function is None:
        return False
    rng = np.random.default_rng(31)
    for size in (1, 2, 7, 8, 9, 100, 128, 129, 1000, 1024, 3414, 4096):
        values = rng.standard_normal(size) * 10.0 ** rng.integers(-8, 9, size)
        if function(native.data_address(values), size) != float(np.add.reduce(values)):
            return False
    return True


class _Samples(threading.local):
    """Per-thread float64 buffers the kernel writes the correlation sample into."""

    def __init__(self) -> None:
        self.x = np.empty(SAMPLE_ROOM)
        self.y = np.empty(SAMPLE_ROOM)


_SAMPLES = _Samples()

# One answer of sign_classify: (status, max_abs, max_rel, nonfinite count, first flat index, overflow count,
# first, underflow count, first, rest, gate, region, model, model value, model's region, gathered, rel); a region
# is None or (code, axis, first index, count, listed indices).
Classified = tuple[Any, ...]


def classify(x: np.ndarray, y: np.ndarray, params: tuple[float, ...], mode: int = FULL) -> Classified | None:
    """sign_classify of x (fused) and y (origin), arrays of one shape (params: see _kernel.c, CP_*); None when
    the kernel is absent, disabled or declines (other dtypes, no axes or more than 32)."""
    x_code, y_code = _FLOAT_CODES.get(x.dtype), _FLOAT_CODES.get(y.dtype)
    if x_code is None or y_code is None or x.shape != y.shape or native_disabled():
        return None
    function = _sign_classify()
    if function is None:
        return None
    samples = _SAMPLES
    answer: Classified | None = function(np.ascontiguousarray(x), np.ascontiguousarray(y), x_code, y_code, x.shape,
                                         params, mode, samples.x, samples.y)
    return answer


def gathered(answer: Classified) -> tuple[np.ndarray, np.ndarray]:
    """The correlation sample of a GATHERED answer (views of this thread's buffers: read them before the next
    call)."""
    used = answer[15]
    return _SAMPLES.x[:used], _SAMPLES.y[:used]
