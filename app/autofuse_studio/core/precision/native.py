"""ctypes bridge to the optional native kernel (_kernel.c) that computes a block's partial sums in one pass."""

from __future__ import annotations

import ctypes
import functools
import importlib
import logging
import os
import threading
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from autofuse_studio.core.precision.metrics import _Partial

_LOG = logging.getLogger(__name__)
DISABLE_ENV = "AUTOFUSE_STUDIO_NO_NATIVE"

# Type codes of _kernel.c; bf16 never reaches us (LazyTensor decodes it to float32 first).
_TYPE_CODES = {
    np.dtype(np.bool_): 0,
    np.dtype(np.int8): 1,
    np.dtype(np.int16): 2,
    np.dtype(np.int32): 3,
    np.dtype(np.int64): 4,
    np.dtype(np.uint8): 5,
    np.dtype(np.uint16): 6,
    np.dtype(np.uint32): 7,
    np.dtype(np.uint64): 8,
    np.dtype(np.float16): 9,
    np.dtype(np.float32): 11,
    np.dtype(np.float64): 12,
}
_OK = 0
_DOUBLES, _COUNTS = 7, 7
_INIT_LOCK = threading.Lock()


@functools.cache
def _library() -> ctypes.CDLL | None:
    """The loaded kernel with its prototypes set, or None when it was not built."""
    try:
        module = importlib.import_module("autofuse_studio.core.precision._kernel")
        library = ctypes.CDLL(module.__file__)
    except (ImportError, OSError) as exc:
        _LOG.info("native precision kernel unavailable, using numpy: %s", exc)
        return None
    library.af_init.restype = ctypes.c_int
    library.af_init.argtypes = []
    library.af_pair_stats.restype = ctypes.c_int
    library.af_pair_stats.argtypes = [
        ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64,
        ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p,
    ]
    # functools.cache may run this twice when two threads race; the lock keeps af_init single.
    with _INIT_LOCK:
        avx2 = library.af_init()
    _LOG.debug("native precision kernel loaded from %s (%s)", module.__file__, "AVX2" if avx2 else "baseline")
    return library


class _Outputs(threading.local):
    def __init__(self) -> None:
        self.doubles = (ctypes.c_double * _DOUBLES)()
        self.counts = (ctypes.c_int64 * _COUNTS)()


_OUTPUTS = _Outputs()


def _outputs() -> tuple[ctypes.Array[ctypes.c_double], ctypes.Array[ctypes.c_int64]]:
    return _OUTPUTS.doubles, _OUTPUTS.counts


def enabled() -> bool:
    """True when the native kernel is built, loadable and not disabled by AUTOFUSE_STUDIO_NO_NATIVE=1."""
    return os.environ.get(DISABLE_ENV, "") not in ("1", "true", "yes") and _library() is not None


def native_partial(
    a_block: np.ndarray, b_block: np.ndarray, limits: tuple[float, float], epsilon: float
) -> _Partial | None:
    """The block's partial sums from the native kernel, or None when the numpy path must do it."""
    if not enabled():
        return None
    library = _library()
    a_code, b_code = _TYPE_CODES.get(a_block.dtype), _TYPE_CODES.get(b_block.dtype)
    if library is None or a_code is None or b_code is None or a_block.size != b_block.size:
        return None
    # The kernel reads plain native-endian C arrays; byte-swapped dtypes were not in _TYPE_CODES.
    a = np.ascontiguousarray(a_block.reshape(-1))
    b = np.ascontiguousarray(b_block.reshape(-1))
    # Per-thread ctypes output arrays and __array_interface__ cost a fraction of numpy's .ctypes per call.
    doubles, counts = _outputs()
    status = library.af_pair_stats(
        a.__array_interface__["data"][0], a_code, b.__array_interface__["data"][0], b_code, a.size,
        limits[0], limits[1], epsilon, doubles, counts,
    )
    if status != _OK:
        return None
    from autofuse_studio.core.precision.metrics import _Partial  # metrics imports this module

    dot_ab, sum_aa, sum_bb, sum_dd, sum_abs, max_abs, max_rel = doubles[:]
    pass1, pass2, nan_a, inf_a, nan_b, inf_b, mismatch = counts[:]
    return _Partial(
        count=int(a.size), dot_ab=dot_ab, sum_aa=sum_aa, sum_bb=sum_bb, sum_dd=sum_dd, max_abs=max_abs,
        max_rel=max_rel, sum_abs=sum_abs, passes=[pass1, pass2], nan_a=nan_a, inf_a=inf_a, nan_b=nan_b,
        inf_b=inf_b, nonfinite_mismatch=mismatch,
    )
