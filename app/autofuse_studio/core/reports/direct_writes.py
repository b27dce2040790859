"""Bytes written to a file around the page cache (Linux O_DIRECT), through an aligned staging buffer.

A result file is fsynced when written (atomic_open), so its bytes must reach the disk before the writer returns
anyway. Written through the page cache, a 254 MB statistics JSON first took 254 MB of it (evicting the dump files
the user is analysing) and, on a VM whose host had taken back the guest's free memory, cost up to 0.9 s of system
time to touch those pages again. With O_DIRECT the disk reads the bytes from a small aligned buffer.

O_DIRECT wants the memory, the file offset and the length aligned to the device's logical block: the bytes up to
the first aligned offset, and the last partial block, are written through the page cache. Where the system, the
file system (tmpfs) or the device refuses O_DIRECT, the rest is written the usual way: never an error of its own.
"""

from __future__ import annotations

import errno
import mmap
import os
from typing import IO

try:
    import fcntl
except ImportError:  # Windows: no O_DIRECT either
    fcntl = None  # type: ignore[assignment]

BLOCK = 4096  # O_DIRECT's alignment of memory, offset and length: a logical block of 512 or 4096 bytes
STAGE_BYTES = 2 << 20  # staged between two direct writes (1-8 MB wrote 256 MB at the same speed here)
_O_DIRECT = getattr(os, "O_DIRECT", 0)  # Linux's (macOS and Windows have none)


class DirectWrites:
    """A file's further bytes written with O_DIRECT in STAGE_BYTES writes (write(), then finish())."""

    def __init__(self, handle: IO[bytes]) -> None:
        handle.flush()
        self._handle = handle
        self._fd = handle.fileno()
        self._lead = -os.lseek(self._fd, 0, os.SEEK_CUR) % BLOCK  # bytes through the page cache first
        self._stage = mmap.mmap(-1, STAGE_BYTES)  # page-aligned memory
        self._view = memoryview(self._stage)
        self._staged = 0
        self._direct = False  # O_DIRECT set on the file descriptor now
        self._refused = False  # O_DIRECT refused: the rest is written the usual way

    @classmethod
    def on(cls, handle: IO[bytes]) -> DirectWrites | None:
        """DirectWrites on `handle` (a regular file's), or None where O_DIRECT does not exist (not Linux)."""
        if not _O_DIRECT or fcntl is None:
            return None
        try:
            return cls(handle)
        except (OSError, ValueError, AttributeError):  # no file descriptor to seek
            return None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        """Write `data` after what came before (staged; written once a stage is full)."""
        with memoryview(data) as whole, whole.cast("B") as left:
            if self._lead:
                lead = min(self._lead, len(left))
                self._write_all(left[:lead])
                self._lead -= lead
                left = left[lead:]
            while len(left):
                taken = min(len(left), STAGE_BYTES - self._staged)
                self._view[self._staged:self._staged + taken] = left[:taken]
                self._staged += taken
                left = left[taken:]
                if self._staged == STAGE_BYTES:
                    self._flush_stage(STAGE_BYTES)

    def finish(self, write: bool = True) -> None:
        """Write what is staged (unless `write` is False: the caller gives the file up), set the file descriptor
        back as it was and the handle's position at its end."""
        try:
            if write and self._staged:
                aligned = self._staged - self._staged % BLOCK
                if aligned:
                    self._flush_stage(aligned)
                self._set_direct(False)
                self._write_all(self._view[:self._staged])
                self._staged = 0
        finally:
            self._set_direct(False)
            self._view.release()
            self._stage.close()
            self._handle.seek(os.lseek(self._fd, 0, os.SEEK_CUR))  # the file object's own idea of its position

    def _flush_stage(self, count: int) -> None:
        """Write the stage's first `count` bytes (a multiple of BLOCK), directly where the system lets us, and keep
        the rest staged."""
        if not self._refused and not self._direct:
            self._set_direct(True)
        try:
            self._write_all(self._view[:count])
        except OSError as exc:
            if not self._direct or exc.errno != errno.EINVAL:
                raise
            self._refused = True  # the device or file system refuses this alignment: the usual way from here
            self._set_direct(False)
            self._write_all(self._view[:count])
        rest = self._staged - count
        if rest:
            self._view[:rest] = self._view[count:self._staged]
        self._staged = rest

    def _write_all(self, data: memoryview) -> None:
        while len(data):
            written = os.write(self._fd, data)
            data = data[written:]

    def _set_direct(self, direct: bool) -> None:
        """Set or clear O_DIRECT on the file descriptor (a refusal to set it: the usual way from here)."""
        if direct == self._direct:
            return
        flags = fcntl.fcntl(self._fd, fcntl.F_GETFL)
        try:
            fcntl.fcntl(self._fd, fcntl.F_SETFL, flags | _O_DIRECT if direct else flags & ~_O_DIRECT)
        except OSError:
            if not direct:
                raise
            self._refused = True  # tmpfs and some FUSE file systems
            return
        self._direct = direct

