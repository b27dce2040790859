"""Does a file hold any of a few byte strings? Read in large chunks, searched in C without the GIL when built.

Role detection reads every dropped graph to the end when it is the fusion-disabled one (no marker to
find): bytes.find went through a 230 MB graph at 0.5 GB/s holding the GIL; af_find_any of the native
kernel goes at several GB/s with the GIL free. Without the kernel (or with AUTOFUSE_STUDIO_NO_NATIVE),
the same chunks are searched with `in`; both give the same answer on any bytes (tests compare them).
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autofuse_studio.core.precision import native

CHUNK_BYTES = 4 << 20


@functools.cache
def _finder() -> Any:
    """af_find_any with its prototype, or None."""
    return native.prototyped("af_find_any", ctypes.c_int64, [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                                                             ctypes.c_void_p, ctypes.c_int64])


def _native_search(markers: Sequence[bytes]) -> Any:
    """A function (buffer, size) -> found, over `markers`, or None without the native kernel."""
    find = _finder() if native.enabled() else None
    if find is None:
        return None
    needles = (ctypes.c_char_p * len(markers))(*markers)
    lengths = (ctypes.c_int64 * len(markers))(*map(len, markers))

    def search(buffer: Any, size: int) -> bool:
        return bool(find(ctypes.addressof(buffer), size, needles, lengths, len(markers)) >= 0)

    return search


def file_contains_any(path: Path, markers: Sequence[bytes], *, chunk_bytes: int = CHUNK_BYTES) -> bool:
    """True when the file holds any of `markers` (non-empty); False too when it cannot be read."""
    keep = max(map(len, markers)) - 1  # a marker may straddle two chunks: carry the bytes it could start in
    buffer = (ctypes.c_char * (keep + chunk_bytes))()
    view = memoryview(buffer).cast("B")
    search = _native_search(markers)
    filled = carried = 0
    try:
        with path.open("rb", buffering=0) as handle:
            while True:
                read = handle.readinto(view[filled:])
                filled += read
                if read and filled < len(view):
                    continue  # a short read: fill the chunk first
                # The carried bytes were searched already, and no marker fits in them alone.
                if filled > carried and _found(search, buffer, view, filled, markers):
                    return True
                if not read:
                    return False
                view[:keep] = view[filled - keep:filled]
                filled = carried = keep
    except OSError:
        return False


def _found(search: Any, buffer: Any, view: memoryview, size: int, markers: Sequence[bytes]) -> bool:
    if search is not None:
        return bool(search(buffer, size))
    window = view[:size].tobytes()
    return any(marker in window for marker in markers)
