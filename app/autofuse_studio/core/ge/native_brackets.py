"""The bracket scans of the stepwise graph decoder in C (af_json_brackets[_upto] in the native kernel), without the GIL.

The numpy scan took 0.28-0.46 s of a 160 MB graph's 1 s stepwise decode, in many short GIL holds; the C
loop takes 0.12 s and releases the GIL for all of it (ctypes does). None when the kernel was not
built, predates the function, or AUTOFUSE_STUDIO_NO_NATIVE is set: the caller then scans with numpy.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any

import numpy as np

from autofuse_studio.core.precision import native


@functools.cache
def _scanner() -> Any:
    """af_json_brackets with its prototype, or None."""
    return native.prototyped("af_json_brackets", ctypes.c_int64,
                             [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64])


@functools.cache
def _shallow_scanner() -> Any:
    """af_json_brackets_upto with its prototype, or None."""
    return native.prototyped("af_json_brackets_upto", ctypes.c_int64,
                             [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                              ctypes.c_void_p])


def native_shallow_brackets(data: bytes | memoryview, max_level: int) -> tuple[np.ndarray, int, int] | None:
    """(offsets of the { } [ ] outside strings at nesting level <= max_level, the least depth after any bracket,
    the depth at the end), or None without the native kernel. An open's level is the depth before it, a close's
    the depth after it; the least depth is a huge number when there is no bracket at all."""
    scan = _shallow_scanner() if native.enabled() else None
    if scan is None:
        return None
    buffer = np.frombuffer(data, dtype=np.uint8)
    depths = np.zeros(2, dtype=np.int64)
    capacity = 1024
    while True:
        offsets = np.empty(capacity, dtype=np.int64)
        found = int(scan(buffer.ctypes.data, buffer.size, max_level, offsets.ctypes.data, capacity,
                         depths.ctypes.data))
        if found <= capacity:
            return offsets[:found], int(depths[0]), int(depths[1])
        capacity = found


def native_bracket_positions(data: bytes | memoryview) -> np.ndarray | None:
    """Offsets (int64, ascending) of every { } [ ] outside JSON strings, or None without the native kernel."""
    scan = _scanner() if native.enabled() else None
    if scan is None:
        return None
    buffer = np.frombuffer(data, dtype=np.uint8)
    capacity = buffer.size // 16 + 1024  # graph JSON has a bracket every 20-40 bytes; rescanned if not enough
    while True:
        offsets = np.empty(capacity, dtype=np.int64)
        found = int(scan(buffer.ctypes.data, buffer.size, offsets.ctypes.data, capacity))
        if found <= capacity:
            return offsets[:found]
        capacity = found
