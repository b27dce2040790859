"""ctypes bridge to the optional native kernel (_kernel.c): partial sums in one pass, of a block or of a batch."""

from __future__ import annotations

import ctypes
import functools
import importlib
import logging
import threading
from typing import Any

import numpy as np

from autofuse_studio.core.native_switch import NATIVE_DISABLE_ENV, native_disabled
from autofuse_studio.core.precision.partial import Partial

_LOG = logging.getLogger(__name__)
DISABLE_ENV = NATIVE_DISABLE_ENV  # the tests set it by this name

# Type codes of _kernel.c; bf16 never reaches us (LazyTensor decodes it to float32 first).
TYPE_CODES = {
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
def kernel_library() -> ctypes.CDLL | None:
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
    if hasattr(library, "af_pair_stats_batch"):  # a kernel built from older sources has only af_pair_stats
        library.af_pair_stats_batch.restype = ctypes.c_int
        library.af_pair_stats_batch.argtypes = [
            ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
            ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
        ]
    # functools.cache may run this twice when two threads race; the lock keeps af_init single.
    with _INIT_LOCK:
        avx2 = library.af_init()
    _LOG.debug("native precision kernel loaded from %s (%s)", module.__file__, "AVX2" if avx2 else "baseline")
    return library


def prototyped(name: str, restype: Any, argtypes: list[Any]) -> Any:
    """The kernel's function `name` with its prototype set (once, under a lock), or None when it is absent."""
    library = kernel_library()
    if library is None or not hasattr(library, name):  # not built, or built from older sources
        return None
    with _INIT_LOCK:  # two threads may ask at once: set the prototype once
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    return function


class _Outputs(threading.local):
    def __init__(self) -> None:
        self.doubles = (ctypes.c_double * _DOUBLES)()
        self.counts = (ctypes.c_int64 * _COUNTS)()


_OUTPUTS = _Outputs()


def _outputs() -> tuple[ctypes.Array[ctypes.c_double], ctypes.Array[ctypes.c_int64]]:
    return _OUTPUTS.doubles, _OUTPUTS.counts


def enabled() -> bool:
    """True when the native kernel is built, loadable and not disabled by AUTOFUSE_STUDIO_NO_NATIVE=1."""
    return not native_disabled() and kernel_library() is not None


def native_partial(
    a_block: np.ndarray, b_block: np.ndarray, limits: tuple[float, float], epsilon: float
) -> Partial | None:
    """The block's partial sums from the native kernel, or None when the numpy path must do it."""
    if not enabled():
        return None
    library = kernel_library()
    a_code, b_code = TYPE_CODES.get(a_block.dtype), TYPE_CODES.get(b_block.dtype)
    if library is None or a_code is None or b_code is None or a_block.size != b_block.size:
        return None
    # The kernel reads plain native-endian C arrays; byte-swapped dtypes were not in TYPE_CODES.
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
    return _partial(int(a.size), doubles[:], counts[:])


def _partial(count: int, doubles: list[float], counts: list[int]) -> Partial:
    """The Partial of a block from the kernel's 7 doubles and 7 counts."""
    dot_ab, sum_aa, sum_bb, sum_dd, sum_abs, max_abs, max_rel = doubles
    pass1, pass2, nan_a, inf_a, nan_b, inf_b, mismatch = counts
    return Partial(
        count=count, dot_ab=dot_ab, sum_aa=sum_aa, sum_bb=sum_bb, sum_dd=sum_dd, max_abs=max_abs,
        max_rel=max_rel, sum_abs=sum_abs, passes=[pass1, pass2], nan_a=nan_a, inf_a=inf_a, nan_b=nan_b,
        inf_b=inf_b, nonfinite_mismatch=mismatch,
    )


def batch_enabled() -> bool:
    """True when native_partials can work: the kernel is enabled and has af_pair_stats_batch."""
    return enabled() and hasattr(kernel_library(), "af_pair_stats_batch")


def data_address(array: np.ndarray) -> int:
    """The address of an array's first element, for the kernel's pointer arguments."""
    address: int = array.__array_interface__["data"][0]  # a fraction of the cost of array.ctypes
    return address


def native_partials(
    blocks: list[tuple[np.ndarray, np.ndarray]], limits: tuple[float, float], epsilon: float
) -> list[Partial | None]:
    """native_partial of every pair of blocks, computed in one kernel call (one GIL release for all of them)."""
    if not batch_enabled():
        return [None] * len(blocks)
    library = kernel_library()
    assert library is not None
    results: list[Partial | None] = [None] * len(blocks)
    numbers, a_blocks, b_blocks, a_codes, b_codes = [], [], [], [], []
    for number, (a_block, b_block) in enumerate(blocks):
        a_code, b_code = TYPE_CODES.get(a_block.dtype), TYPE_CODES.get(b_block.dtype)
        if a_code is None or b_code is None or a_block.size != b_block.size:
            continue  # native_partial declines these too
        numbers.append(number)
        # Kept in these lists until the call returns: the kernel reads their memory.
        a_blocks.append(np.ascontiguousarray(a_block.reshape(-1)))
        b_blocks.append(np.ascontiguousarray(b_block.reshape(-1)))
        a_codes.append(a_code)
        b_codes.append(b_code)
    if not numbers:
        return results
    k = len(numbers)
    inputs: list[np.ndarray] = [
        np.array([data_address(block) for block in a_blocks], dtype=np.uintp), np.array(a_codes, dtype=np.int32),
        np.array([data_address(block) for block in b_blocks], dtype=np.uintp), np.array(b_codes, dtype=np.int32),
        np.array([block.size for block in a_blocks], dtype=np.int64),
    ]
    doubles, counts = np.empty((k, _DOUBLES), dtype=np.float64), np.empty((k, _COUNTS), dtype=np.int64)
    statuses = np.empty(k, dtype=np.int32)
    library.af_pair_stats_batch(k, *map(data_address, inputs), limits[0], limits[1], epsilon, data_address(doubles),
                                data_address(counts), data_address(statuses))
    for number, block, status, block_doubles, block_counts in zip(
            numbers, a_blocks, statuses.tolist(), doubles.tolist(), counts.tolist(), strict=True):
        if status == _OK:
            results[number] = _partial(int(block.size), block_doubles, block_counts)
    return results
