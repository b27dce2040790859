"""A zip part's chunks made and deflated on several threads at once, as pigz deflates a file.

The streamed precision sheet was one chain: a thread joined each chunk of rows, a second deflated it. On two cores
shared with the thread that reads the rows, that chain was the run's length (its threads ran 0.4 s each for 0.3 and
0.19 s of work), and zlib-style deflate takes the GIL back several times a chunk (each time the output grows), each
time waiting for the reading thread to let go. Here each of WORKERS threads takes every WORKERS-th chunk, joins it
(the C join, the GIL released) and deflates it with ISA-L's _ParallelCompress (python-isal's own for its threaded
gzip writer: one release of the GIL a chunk, the CRC counted on the way), each chunk its own deflate blocks ended on
a byte boundary; a collecting thread hands the deflated chunks on in order, combines their CRCs, and ends the part
with an empty final block. Where python-isal lacks _ParallelCompress, the chain stays (xlsx_stream).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable, Iterable
from queue import Queue
from threading import Thread
from types import ModuleType
from typing import Any

from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.reports.pipelined_write import Made, Pooled

Chunk = bytes | str | Callable[[], Made] | Pooled
WORKERS = 2  # the cores of the machines this was measured on; the reading thread is the limit beyond
QUEUE_CHUNKS = 2  # chunks queued to (and from) each worker at most: bounds the memory they hold
_SKIPPED = object()  # a worker's answer for a chunk it did not deflate (a thread failed): keeps the order


def parallel_deflate(isal: ModuleType | None) -> bool:
    """True when `isal` (python-isal's isal_zlib, or None) deflates chunks apart (_ParallelCompress), as tried once:
    a private class, so a release that changed it leaves the writers on their other path, never a broken file."""
    return isal is not None and _works(isal)


@functools.cache
def _works(isal: ModuleType) -> bool:
    probe = b"<row>probe</row>" * 64
    try:
        deflated, crc = isal._ParallelCompress(buffersize=_room(len(probe)), level=1).compress_and_crc(probe, b"")
        stream = deflated + isal.compress(b"", 1, -15)
        inflater = zlib.decompressobj(-15)
        return (inflater.decompress(stream) == probe and inflater.eof and crc == zlib.crc32(probe)
                and isal.crc32_combine(crc, crc, len(probe)) == zlib.crc32(probe * 2))
    except Exception:  # noqa: BLE001 - any failure means: not this path
        return False


def _room(size: int) -> int:
    """An output buffer that holds the deflate of `size` bytes at level 1 or more (python-isal's own bound: stored
    blocks for what does not shrink, the block header, the end code and the sync-flush marker)."""
    return size + max(size // 10, 500)


class DeflatedPart:
    """A zip part's deflated data as its threads make it: handed to `sink` in order (else kept in `deflated`), its
    size, CRC and deflated size counted; `wait` joins the threads and raises the first error of any."""

    def __init__(self, sink: Callable[[bytes], None] | None) -> None:
        self._sink = sink
        self.deflated: list[bytes] = []  # what was deflated (none when the sink took it)
        self.size = self.crc = self.compressed = 0
        self._failed: list[BaseException] = []
        self._threads: list[Thread] = []

    def _emit(self, data: bytes) -> None:
        """Deflated bytes, the next in order (none: nothing)."""
        if data:
            self.compressed += len(data)
            if self._sink is not None:
                self._sink(data)
            else:
                self.deflated.append(data)

    def _start(self, threads: list[Thread]) -> None:
        self._threads = threads
        for thread in threads:
            thread.start()

    def wait(self) -> None:
        """Wait for the threads (the first error of any is raised here)."""
        for thread in self._threads:
            thread.join()
        if self._failed:
            raise self._failed[0]


class ParallelDeflated(DeflatedPart):
    """A zip part's raw deflate data and CRC from its chunks (bytes, str, or functions that make the bytes, called
    on the workers), handed to `sink` as they come in order (else kept in `deflated`)."""

    def __init__(self, chunks: Iterable[Chunk], isal: ModuleType, level: int,
                 sink: Callable[[bytes], None] | None = None, workers: int = WORKERS) -> None:
        super().__init__(sink)
        self._isal, self._level = isal, level
        self._inputs: list[Queue[Chunk | None]] = [Queue(QUEUE_CHUNKS) for _ in range(workers)]
        self._outputs: list[Queue[Any]] = [Queue(QUEUE_CHUNKS) for _ in range(workers)]
        self._start([Thread(target=self._feed, args=(chunks,), name="xlsx-feed", daemon=True),
                     *(Thread(target=self._work, args=(number,), name=f"xlsx-deflate-{number}", daemon=True)
                       for number in range(workers)),
                     Thread(target=self._collect, name="xlsx-collect", daemon=True)])

    def _feed(self, chunks: Iterable[Chunk]) -> None:
        """Chunk n to worker n % WORKERS, in order; then every worker's end."""
        count = 0
        try:
            with gc_paused():  # the blocks' cells, none in a cycle
                for chunk in chunks:
                    if self._failed:
                        break
                    self._inputs[count % len(self._inputs)].put(chunk)
                    count += 1
        except BaseException as exc:  # noqa: BLE001 - raised by wait, on the caller's thread
            self._failed.append(exc)
        finally:
            for inputs in self._inputs:
                inputs.put(None)

    def _work(self, number: int) -> None:
        """Make and deflate this worker's chunks, in order (after a failure: each answered _SKIPPED, unread)."""
        packer: Any = None
        room = 0
        buffer = bytearray()  # this worker's Pooled chunks are joined into it: its pages are not new each chunk
        with gc_paused():
            while (chunk := self._inputs[number].get()) is not None:
                if self._failed:
                    self._outputs[number].put(_SKIPPED)
                    continue
                try:
                    data = chunk(buffer) if isinstance(chunk, Pooled) else chunk() if callable(chunk) else chunk
                    if isinstance(data, str):
                        data = data.encode("utf-8", "replace")
                    if packer is None or _room(len(data)) > room:
                        room = _room(max(len(data), 1 << 20))
                        packer = self._isal._ParallelCompress(buffersize=room, level=self._level)
                    deflated, crc = packer.compress_and_crc(data, b"")
                    size = len(data)
                    if isinstance(data, memoryview):
                        data.release()  # a view of the buffer holds it at its size
                    del data
                    self._outputs[number].put((deflated, crc, size))
                except BaseException as exc:  # noqa: BLE001 - raised by wait, on the caller's thread
                    self._failed.append(exc)
                    self._outputs[number].put(_SKIPPED)
        self._outputs[number].put(None)

    def _collect(self) -> None:
        """The deflated chunks in order, until the worker whose turn it is has no more; then the others drained."""
        turn = 0
        ended: set[int] = set()
        while True:
            number = turn % len(self._outputs)
            item = self._outputs[number].get()
            if item is None:
                ended.add(number)
                break
            turn += 1
            if item is not _SKIPPED and not self._failed:
                self._take(*item)
        for number, outputs in enumerate(self._outputs):
            while number not in ended:
                if outputs.get() is None:
                    ended.add(number)
        if not self._failed:
            self._take(self._isal.compress(b"", self._level, -15), 0, 0)  # the part's final (empty) block

    def _take(self, deflated: bytes, crc: int, size: int) -> None:
        try:
            self.crc = self._isal.crc32_combine(self.crc, crc, size) if self.size else crc
            self.size += size
            self._emit(deflated)
        except BaseException as exc:  # noqa: BLE001 - raised by wait, on the caller's thread
            self._failed.append(exc)
