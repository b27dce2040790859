"""Read-only file mappings that say when their file changed under them, instead of killing the process.

A big dump is memory-mapped and read block by block, often for seconds. If the file shrinks meanwhile (a
dump truncated or rewritten in place), reading a page past its new end raises SIGBUS, which ends the
process ("Bus error", exit 135) with no row written. With the small C module `_mapguard` (built with the
package on POSIX) such a read finds zeros instead, the mapping records the fault, and `changed_since_mapped`
turns it into a sentence the caller puts on the row. The same check also notices a file whose size or
modification time changed while it was read (rewritten without a fault). Without the module (no compiler
at install time, or Windows, which cannot shrink a mapped file) files are mapped as before.
"""

from __future__ import annotations

import logging
import mmap
import os
from pathlib import Path
from typing import Any

import numpy as np

from autofuse_studio.core.native_switch import load_extension

log = logging.getLogger(__name__)


_GUARD = load_extension("autofuse_studio.core.dumps._mapguard",
                        "mapping dumps unguarded (a shrinking dump can end the process)", log)
_Stamp = tuple[int, int, int, int]  # st_dev, st_ino, st_size, st_mtime_ns


def _stamp(info: os.stat_result) -> _Stamp:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


class _Mapped:
    """What every mapping of ours remembers: the file's path and what it was when it was mapped."""

    __slots__ = ()
    path: str
    stamp: _Stamp

    def check(self) -> str | None:
        """The sentence saying how the file changed since it was mapped, or None when it did not."""
        was = self.stamp[2]
        if getattr(self, "faulted", False):
            return f"{self.path} changed while it was read: it shrank below the {was:,} bytes it had when it " \
                "was opened, so its values are not used"
        try:
            now = os.stat(self.path)
        except OSError:
            return None  # removed or renamed: the mapping still holds the file as it was
        if (now.st_dev, now.st_ino) != self.stamp[:2]:
            return None  # replaced by another file (os.replace): ours was read whole and unchanged
        if now.st_size != was:
            return f"{self.path} changed while it was read: it had {was:,} bytes and now has {now.st_size:,}, " \
                "so its values are not used"
        if now.st_mtime_ns != self.stamp[3]:
            return f"{self.path} was written to while it was read, so its values are not used"
        return None


if _GUARD is not None:
    class GuardedMapping(_GUARD.Mapping, _Mapped):  # type: ignore[misc,name-defined]
        """A guarded read-only mapping (see _mapguard.c) with its file's path and stamp."""

        __slots__ = ("path", "stamp")
else:  # pragma: no cover - only without a C compiler
    GuardedMapping = None  # type: ignore[assignment,misc]


class PlainMapping(mmap.mmap, _Mapped):
    """An unguarded read-only mapping (the fallback) with its file's path and stamp."""

    __slots__ = ("path", "stamp")


def guarded() -> bool:
    """True when reads past a shrunk file's end are caught (the C module is built)."""
    return _GUARD is not None


def map_file(fd: int, path: str | Path, info: os.stat_result | None = None) -> Any:
    """A read-only shared mapping of the whole open file `fd` (a buffer for np.frombuffer).

    Raises OSError or ValueError as mmap.mmap does (an empty file cannot be mapped).
    """
    info = info if info is not None else os.fstat(fd)
    mapping: Any = None
    if GuardedMapping is not None:
        try:
            mapping = GuardedMapping(fd, info.st_size)
        except BufferError:  # thousands of mappings alive at once: this one goes unguarded
            mapping = None
    if mapping is None:
        mapping = PlainMapping(fd, 0, access=mmap.ACCESS_READ)
    mapping.path = os.fspath(path)
    mapping.stamp = _stamp(info)
    return mapping


def mapping_of(array: object) -> _Mapped | None:
    """The mapping an array (or memoryview) is a view of, or None when it is not one of ours."""
    base: object = array
    while isinstance(base, (np.ndarray, memoryview)):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    return base if isinstance(base, _Mapped) else None


def changed_since_mapped(*arrays: object) -> str | None:
    """The first sentence saying that the file under one of `arrays` changed while it was read, else None."""
    for array in arrays:
        mapping = mapping_of(array)
        if mapping is not None:
            problem = mapping.check()
            if problem is not None:
                return problem
    return None
