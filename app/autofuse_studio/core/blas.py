"""Keep the BLAS library numpy loaded to one thread: we parallelise over blocks and pairs ourselves.

OpenBLAS's worker threads busy-wait; next to our own worker threads on a 2-core machine that made
np.dot up to 200x slower. OPENBLAS_NUM_THREADS only works before numpy is imported, so when a caller
imported numpy first we set the thread count through the library's own entry point, as threadpoolctl does.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os

log = logging.getLogger(__name__)

_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)


def _loaded_blas_libraries() -> list[str]:
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    except OSError:
        return []
    return sorted(path for path in paths if os.path.basename(path).startswith("lib"))


@functools.cache
def limit_blas_threads(threads: int = 1) -> bool:
    """Set the loaded OpenBLAS to `threads` threads once per process; True when it was done."""
    import numpy  # noqa: F401 - makes sure the BLAS library is loaded before we look for it

    for path in _loaded_blas_libraries():
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for name in _SETTERS:
            setter = getattr(library, name, None)
            if setter is not None:
                setter(ctypes.c_int(threads))
                log.debug("%s(%d) in %s", name, threads, path)
                return True
    return False
