"""A file's parts written in order by threads of their own while the caller makes the next ones.

A part is bytes, or a function that makes them (run on a thread of its own: the C row joiner writes its bytes
with the GIL released, so the caller's next columns, the join of chunk N+1 and the write of chunk N overlap on
two cores). Every SYNC_BYTES the writer has the disk take what it wrote (fdatasync on a regular file), so the
caller's final fsync waits for the last stretch only. Asked to (`direct`, the JSON and CSV result files), a writer
on Linux writes around the page cache (O_DIRECT, direct_writes): the disk takes the bytes as they come, and the
file does not take the page cache's memory from the user's dump files. An error on those threads is raised in the
caller, at its next put() or at the end.
"""

from __future__ import annotations

import contextlib
import os
import queue
import stat
import threading
from collections.abc import Callable, Iterator
from typing import IO, Any

from autofuse_studio.core.reports.direct_writes import DirectWrites

Made = bytes | bytearray | memoryview  # what a part's function gives: written as it is


class Pooled:
    """A part made into a buffer the writer lends it (`make(into)`: into, a view of it or other bytes), which the
    writer takes back once the part is written: the same few buffers serve every part of a file, so their pages
    are not new each time (a new 10 MB bytes object a part faulted each page in again). Called without a buffer,
    it makes the part into a new one (into=None)."""

    def __init__(self, make: Callable[[bytearray | None], Made]) -> None:
        self._make = make

    def __call__(self, into: bytearray | None = None) -> Made:
        return self._make(into)


Part = bytes | Callable[[], Made] | Pooled
POOLED_BUFFERS = 3  # buffers lent to Pooled parts: one being written, one made, one ready (bounds their memory)
# Written between two fdatasync calls of the writer thread: what the caller's final fsync may still wait for (a
# 254 MB JSON: 32 MB left up to 62 MB unsynced, ~0.1 s at the end; 8 MB wrote it 0.02-0.1 s sooner).
SYNC_BYTES = 8 << 20
QUEUE_PARTS = 8  # parts made ahead of the writer at most (bounds the memory they hold)
# Windows and macOS have no fdatasync: fsync there (the same guarantee for the data, a metadata write more).
_datasync: Callable[[int], None] = getattr(os, "fdatasync", os.fsync)


def _regular_file(handle: IO[Any]) -> bool:
    """True when handle writes a regular file (a FIFO or a device cannot be synced)."""
    try:
        return stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):  # no file descriptor (BytesIO)
        return False


class PartWriter:
    """The threads of pipelined_writes: put() hands them parts, finish() waits for the last to be written.

    One thread makes the parts (calls the functions), another writes them: while the kernel copies chunk N into
    the page cache (or waits for the disk), chunk N+1 is joined.
    """

    def __init__(self, handle: IO[bytes], sync_bytes: int = SYNC_BYTES, direct: bool = False) -> None:
        self._handle = handle
        self._parts: queue.Queue[Part | None] = queue.Queue(QUEUE_PARTS)
        self._made: queue.Queue[tuple[Made, bytearray | None] | None] = queue.Queue(QUEUE_PARTS)
        self._buffers: queue.Queue[bytearray] = queue.Queue()
        for _ in range(POOLED_BUFFERS):
            self._buffers.put(bytearray())
        self._error: BaseException | None = None
        self._abandoned = False
        self._sync_bytes = sync_bytes if _regular_file(handle) else 0
        # `direct` on a regular file: written around the page cache where the system and file system allow it
        self._direct = DirectWrites.on(handle) if direct and self._sync_bytes else None
        self._threads = [threading.Thread(target=self._make, name="autofuse-part-maker", daemon=True),
                         threading.Thread(target=self._write, name="autofuse-part-writer", daemon=True)]
        for thread in self._threads:
            thread.start()

    def put(self, part: Part) -> None:
        """Queue `part` (waits while QUEUE_PARTS are queued); raises what the threads met so far."""
        self._raise_error()
        self._parts.put(part)

    def finish(self, abandon: bool = False) -> None:
        """Wait until every queued part is written (`abandon`: drop those not started); raise the threads' error."""
        self._abandoned = abandon
        self._parts.put(None)
        for thread in self._threads:
            thread.join()
        if not abandon:
            self._raise_error()

    def _raise_error(self) -> None:
        error, self._error = self._error, None
        if error is not None:
            self._abandoned = True  # the caller stops here: what is still queued is not wanted
            raise error

    def _stopped(self) -> bool:
        # Parts are drained, not used, once the caller gave up or a thread failed: it rewrites or removes the file.
        return self._abandoned or self._error is not None

    def _make(self) -> None:
        while (part := self._parts.get()) is not None:
            if self._stopped():
                continue
            buffer = self._buffers.get() if isinstance(part, Pooled) else None  # waits for the writer to give one back
            try:
                made = part(buffer) if isinstance(part, Pooled) else part() if callable(part) else part
                self._made.put((made, buffer))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, which raises it
                self._error = exc
                if buffer is not None:
                    self._buffers.put(buffer)
        self._made.put(None)

    def _write(self) -> None:
        unsynced = 0
        while (item := self._made.get()) is not None:
            data, buffer = item
            try:
                if self._stopped():
                    pass
                elif self._direct is not None:
                    self._direct.write(data)
                else:
                    self._handle.write(data)
                    unsynced += len(data)
                    if self._sync_bytes and unsynced >= self._sync_bytes:
                        self._handle.flush()
                        _datasync(self._handle.fileno())
                        unsynced = 0
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, which raises it
                self._error = exc
            finally:
                if isinstance(data, memoryview):
                    data.release()  # a view of the buffer holds it at its size
                del data
                if buffer is not None:
                    self._buffers.put(buffer)  # always: the maker may be waiting for it
        if self._direct is not None:
            try:
                self._direct.finish(write=not self._stopped())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, which raises it
                self._error = exc


@contextlib.contextmanager
def pipelined_writes(handle: IO[bytes], sync_bytes: int = SYNC_BYTES, direct: bool = True) -> Iterator[PartWriter]:
    """A PartWriter on `handle` (`direct`: around the page cache where it can); on leaving, every part is written (or,
    when the body raised, the rest dropped)."""
    writer = PartWriter(handle, sync_bytes, direct)
    try:
        yield writer
    except BaseException:
        writer.finish(abandon=True)
        raise
    writer.finish()
