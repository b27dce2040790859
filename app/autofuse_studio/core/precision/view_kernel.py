"""ctypes bridge to the native kernel's tensor-view passes (af_view_first, af_view_hist in _kernel.c).

Each call does one block's work of a tensor-view pass in one C loop over the raw values (ctypes
releases the GIL, so the worker threads run on all cores). The numpy path in tensor_view.py is the
reference and the fallback: AUTOFUSE_STUDIO_NO_NATIVE=1, no compiler at install, or a dtype the kernel
does not read (big-endian, complex ...).
"""

from __future__ import annotations

import ctypes
import functools
import math
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from autofuse_studio.core.precision import native
from autofuse_studio.core.precision.tensor_stats import HistogramAccumulator, Scratch, log_position

_P = ctypes.c_void_p
_I64 = ctypes.c_int64
_INF_BITS = np.float64(math.inf).view(np.uint64)


_LOCK = threading.Lock()


@functools.cache
def _functions() -> tuple[Any, Any] | None:
    """af_view_first and af_view_hist with their prototypes, or None without the kernel."""
    library = native.kernel_library()
    if library is None or not hasattr(library, "af_view_first"):
        return None
    with _LOCK:  # functools.cache may run this on two workers at once: set the prototypes once
        first, hist = library.af_view_first, library.af_view_hist
        first.restype = hist.restype = ctypes.c_int
        first.argtypes = [_P, ctypes.c_int, _P, ctypes.c_int, _I64, _P, _P, _I64, ctypes.c_double, _P, _P, _P, _P]
        hist.argtypes = [_P, ctypes.c_int, _P, ctypes.c_int, _I64, _P, _P, _P, _P, _P]
    return first, hist


def _address(array: np.ndarray) -> int:
    address: int = array.__array_interface__["data"][0]  # cheaper than array.ctypes per call
    return address


def type_codes(fused: np.ndarray, origin: np.ndarray) -> tuple[int, int] | None:
    """The kernel's type codes of two raw blocks, or None when the numpy path must take them."""
    if not native.enabled() or _functions() is None:
        return None
    fused_code, origin_code = native.TYPE_CODES.get(fused.dtype), native.TYPE_CODES.get(origin.dtype)
    if fused_code is None or origin_code is None or fused.size != origin.size:
        return None
    return fused_code, origin_code


@dataclass(frozen=True)
class FirstBlock:
    """What af_view_first found in one block besides the heatmap cells it updated in place."""

    sides: tuple[tuple[int, int, float, float, float, float], ...]  # finite, nan, min, max, mean, m2
    max_abs: float
    min_positive: float
    nonfinite: int
    candidates: np.ndarray  # block positions whose key exceeds the threshold (ascending)
    keys: np.ndarray | None  # every key, when asked for


def first_block(fused: np.ndarray, origin: np.ndarray, codes: tuple[int, int], start: int, ids: np.ndarray,
                cell_arrays: list[np.ndarray], threshold: float, want_keys: bool, scratch: Scratch) -> FirstBlock:
    """One block of the first pass: stats, error range, top-K candidates; heatmap cells updated in place.

    `ids` are int64 indices into `cell_arrays` (elements, fused sums, origin sums, fused and origin
    non-finite counts, worst key, worst flat index, worst fused, worst origin: contiguous, one per cell).
    """
    functions = _functions()
    assert functions is not None  # type_codes() said yes
    fused, origin = np.ascontiguousarray(fused), np.ascontiguousarray(origin)
    count = fused.size
    candidates = scratch.get("candidates", count, np.int64)
    keys = scratch.get("keys", count) if want_keys else None
    pointers = (ctypes.c_void_p * len(cell_arrays))(*(_address(array) for array in cell_arrays))
    doubles, counts = np.empty(10), np.empty(6, dtype=np.int64)
    status = functions[0](
        _address(fused), codes[0], _address(origin), codes[1], count, _address(ids), pointers, start, threshold,
        _address(candidates), 0 if keys is None else _address(keys), _address(doubles), _address(counts))
    if status != 0:
        raise RuntimeError(f"af_view_first failed with status {status}")
    sides = tuple((int(counts[2 * side]), int(counts[2 * side + 1]), float(doubles[4 * side]),
                   float(doubles[4 * side + 1]), float(doubles[4 * side + 2]), float(doubles[4 * side + 3]))
                  for side in range(2))
    return FirstBlock(sides, float(doubles[8]), float(doubles[9]), int(counts[4]), candidates[:int(counts[5])], keys)


@functools.lru_cache(maxsize=64)
def _log_lower(origin: float, scale: float, bins: int) -> np.ndarray:
    """Per log bin k >= 1, the smallest positive double HistogramAccumulator puts in bin k or above (+ Inf).

    A bisection over the bit patterns of positive doubles (ordered like their values), with numpy's own
    binning formula: the kernel then corrects its libm log2 with these, so its bins are numpy's exactly.
    """
    wanted = np.arange(bins, dtype=np.int64)
    low = np.ones(bins, dtype=np.uint64)
    high = np.full(bins, _INF_BITS, dtype=np.uint64)
    position = np.empty(bins)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        while (low < high).any():
            middle = low + (high - low) // np.uint64(2)
            log_position(middle.view(np.float64), position, origin, scale, bins)
            reached = position.astype(np.int64) >= wanted
            high = np.where(reached, middle, high)
            low = np.where(reached, low, middle + np.uint64(1))
    lower = np.append(low.view(np.float64), math.inf)  # lower[bins] = +Inf: the kernel reads k + 1 freely
    lower[0] = 0.0
    lower.flags.writeable = False
    return lower


def histogram_block(fused: np.ndarray, origin: np.ndarray, codes: tuple[int, int],
                    histograms: tuple[HistogramAccumulator, ...]) -> None:
    """Add one block to the fused, origin, error and |error| (log) histograms, in place."""
    functions = _functions()
    assert functions is not None
    fused, origin = np.ascontiguousarray(fused), np.ascontiguousarray(origin)
    params = np.array([value for histogram in histograms for value in (histogram._origin, histogram._scale)])
    bins = np.array([histogram.bins for histogram in histograms], dtype=np.int64)
    counts = (ctypes.c_void_p * 4)(*(_address(histogram.counts) for histogram in histograms))
    log = histograms[3]
    lower = _log_lower(log._origin, log._scale, log.bins)
    nonfinite = np.zeros(3, dtype=np.int64)
    status = functions[1](_address(fused), codes[0], _address(origin), codes[1], fused.size, _address(params),
                          _address(bins), counts, _address(lower), _address(nonfinite))
    if status != 0:
        raise RuntimeError(f"af_view_hist failed with status {status}")
    for histogram, extra in zip(histograms, (nonfinite[0], nonfinite[1], nonfinite[2], nonfinite[2]), strict=True):
        histogram.nonfinite += int(extra)
