"""Bridge to the native kernel's signature sweeps (_kernel.c: sign_classify, af_sign_survey, af_sign_whole/_scan)."""

from __future__ import annotations

import ctypes
import functools
import importlib
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
# Layout of the outputs (the SV_* and SW_* enums of _kernel.c).
_SURVEY_DOUBLES, _SURVEY_COUNTS = 2, 10
_WHOLE_DOUBLES, _WHOLE_COUNTS = 7, 3
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
_WHOLE_ARGS = (_POINTER, ctypes.c_int, _POINTER, ctypes.c_int, ctypes.c_int64, ctypes.c_int, ctypes.c_int, _POINTER,
               ctypes.c_int64, _POINTER, ctypes.c_int64, _POINTER, _POINTER, _POINTER)


_SCAN_ARGS = _WHOLE_ARGS[:5] + _WHOLE_ARGS[6:]
_UNSUPPORTED = -1  # any status but _OK


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


def whole(x: np.ndarray, y: np.ndarray, *, wide64: bool, special_limit: float | None, scale: float, floor: float,
          special_cap: int, candidate_cap: int, until_candidate: bool = False) -> Whole | None:
    """af_sign_whole of two flat float arrays: values not equal, the fused NaN/±Inf/±max ones (|x| >=
    special_limit; None: not looked for) and the candidates beyond scale * max(|x|, |y|) + floor (in float, or
    double when `wide64`), with up to special_cap and candidate_cap of their flat indices; None when the
    kernel is absent, disabled or declines. `until_candidate`: af_sign_scan, which stops looking for candidates
    once it found more than candidate_cap (af_sign_whole when it cannot); then the answer says it is not
    complete (Whole.complete: its candidates and maxima are not to be used)."""
    codes = _codes(x, y)
    function = _function("af_sign_whole", _WHOLE_ARGS)
    if codes is None or function is None:
        return None
    x, y = np.ascontiguousarray(x.reshape(-1)), np.ascontiguousarray(y.reshape(-1))
    inputs = np.array([scale, floor, np.inf if special_limit is None else special_limit], dtype=np.float64)
    specials = np.empty(special_cap, dtype=np.int64)
    candidates = np.empty(candidate_cap, dtype=np.int64)
    doubles, counts = np.empty(_WHOLE_DOUBLES), np.empty(_WHOLE_COUNTS, dtype=np.int64)
    address = native.data_address
    arguments = [address(x), codes[0], address(y), codes[1], x.size, int(special_limit is not None),
                 address(inputs), special_cap, address(specials), candidate_cap, address(candidates),
                 address(doubles), address(counts)]
    scan = _function("af_sign_scan", _SCAN_ARGS) if until_candidate else None
    status = scan(*arguments) if scan is not None else _UNSUPPORTED
    if status != _OK:
        status = function(*arguments[:5], int(wide64), *arguments[5:])
    if status != _OK:
        return None
    not_equal, special_count, candidate_count = counts.tolist()
    max_abs, max_rel, x_max, x_min, y_max, y_min, nan = doubles.tolist()
    return Whole(not_equal, special_count, specials[:min(special_count, special_cap)], candidate_count,
                 candidates[:min(candidate_count, candidate_cap)], max_abs, max_rel, x_max, x_min, y_max, y_min, nan,
                 complete=not until_candidate or candidate_count <= candidate_cap)


@functools.cache
def _sign_classify() -> Any:
    """The kernel module's sign_classify (None when the kernel is not built or is older)."""
    if native.kernel_library() is None:  # loads the kernel and runs af_init (the float16 table)
        return None
    module = importlib.import_module("autofuse_studio.core.precision._kernel")
    return getattr(module, "sign_classify", None)


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
