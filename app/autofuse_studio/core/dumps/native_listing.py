"""A folder's entries read by the native kernel in one call (af_list_folder), the GIL released once.

os.scandir releases and takes the GIL again around every readdir(): listing a dump folder of 70k files beside a
graph's parse handed the GIL between the threads tens of thousands of times, and a GUI thread asleep whenever it was
free waited 100 ms behind them. None without the kernel (not built, older sources, AUTOFUSE_STUDIO_NO_NATIVE) and on
Windows: the caller lists with os.scandir.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from typing import Any

import numpy as np

from autofuse_studio.core.precision import native

MIN_CAPACITY = 1 << 16  # bytes of names tried first at least (a folder's own size says more: see folder_entries)
KINDS = frozenset("fdlo?")  # regular file, folder, symbolic link, other (FIFO, socket, device), unknown


@functools.cache
def _lister() -> Any:
    """af_list_folder with its prototype, or None."""
    return native.prototyped("af_list_folder", ctypes.c_int64, [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int64,
                                                                ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p])


def folder_entries(folder: str, size_hint: int = 0) -> tuple[list[str], str] | None:
    """The names of every entry of `folder` but . and .. in readdir order (what os.scandir lists, decoded as it
    decodes them) and their kinds, one KINDS letter each; None without the native lister. `size_hint`: the
    folder's st_size (its names take about that much on most file systems: read once, not twice). OSError when the
    folder cannot be read."""
    lister = _lister() if os.name != "nt" and native.enabled() else None
    if lister is None:
        return None
    path = os.fsencode(folder)
    capacity, slots = max(MIN_CAPACITY, size_hint + (size_hint >> 2)), max(1024, size_hint // 16)
    count = ctypes.c_int64(0)
    while True:
        names = np.empty(capacity, dtype=np.uint8)  # not zeroed: only what C wrote is read
        kinds = np.empty(slots, dtype=np.uint8)
        used = int(lister(path, names.ctypes.data, capacity, kinds.ctypes.data, slots, ctypes.byref(count)))
        if used < 0:
            raise OSError(-used, os.strerror(-used), folder)
        if used <= capacity and count.value <= slots:
            break
        capacity, slots = used + (used >> 3) + 64, count.value + (count.value >> 3) + 16  # grown meanwhile: room
    # One decode for every name (NUL never sits inside a UTF-8 sequence): what os.fsdecode gives name by name.
    text = names[:used].tobytes().decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    return text.split("\0")[:-1], kinds[:count.value].tobytes().decode("ascii")
