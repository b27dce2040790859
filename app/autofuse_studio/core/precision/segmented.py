"""Segmented passes over a tensor pair on worker threads: element ranges, blocks, shared progress, merging.

A pass splits the pair into contiguous segments, a few per worker; each segment gets its own
accumulators and they merge in segment order, so the result is the single-threaded one up to the
summation order of means. Blocks come as stored (the native kernel reads them so); the numpy path
converts them into float64 buffers each worker reuses (numpy and the kernel release the GIL in the
per-block work).
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np

from autofuse_studio.core.dumps.lazy import LazyTensor, rechunk
from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.precision.tensor_pair import TensorPair
from autofuse_studio.core.precision.tensor_stats import Scratch
from autofuse_studio.core.progress import CancelToken, Progress


def default_jobs() -> int:
    """Worker threads by default: one per core, at most 8."""
    return min(os.cpu_count() or 1, 8)


# A few segments per worker: when one core is busy with something else, the other takes more of them.
SEGMENTS_PER_JOB = 8


def segments(size: int, jobs: int, block_elements: int) -> list[tuple[int, int]]:
    """Contiguous [start, stop) element ranges: one for jobs=1, else SEGMENTS_PER_JOB per worker (>= a block)."""
    count = 1 if jobs <= 1 else max(1, min(jobs * SEGMENTS_PER_JOB, -(-size // max(block_elements, 1))))
    bounds = [size * part // count for part in range(count + 1)]
    return list(itertools.pairwise(bounds))


def range_blocks(tensor: LazyTensor, start: int, stop: int, max_elements: int) -> Iterator[np.ndarray]:
    """Elements start .. stop - 1 in C order as 1-D blocks of at most max_elements, cut like iter_blocks."""
    if start >= stop:
        return
    if tensor.ndim == 0 or tensor.size <= max_elements:
        yield tensor.materialize().reshape(-1)[start:stop]
        return
    row = tensor.size // tensor.shape[0]
    first, last = start // row, -(-stop // row)
    if row > max_elements:
        for index in range(first, last):
            offset = index * row
            yield from range_blocks(tensor.sub(index), max(start - offset, 0), min(stop - offset, row),
                                     max_elements)
        return
    step = max(1, max_elements // row)
    for begin in range(first, last, step):
        # A segment may start or end inside a group of rows: read the group, keep the part in range.
        offset = begin * row
        yield tensor.rows(begin, min(begin + step, last)).reshape(-1)[max(start - offset, 0):stop - offset]


def aligned_range(pair: TensorPair, start: int, stop: int,
                   block_elements: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Equal-length blocks of both sides over elements start .. stop - 1 (iter_aligned_pairs on a range)."""
    fused = range_blocks(pair.fused, start, stop, block_elements)
    origin = range_blocks(pair.origin, start, stop, block_elements)
    if pair.fused.shape != pair.origin.shape:
        # Different shapes cut blocks differently: re-cut both to the same lengths.
        fused, origin = rechunk(fused, block_elements), rechunk(origin, block_elements)
    return zip(fused, origin, strict=True)


class SharedProgress:
    """Adds up the elements all workers finished and reports the sum under a lock: monotonic for the caller."""

    def __init__(self, progress: Progress, done: int, total: int, message: str) -> None:
        self._progress, self._done, self._total, self._message = progress, done, total, message
        self._lock = threading.Lock()

    def advance(self, count: int) -> None:
        """Count `count` more elements as done and report."""
        with self._lock:
            self._done += count
            self._progress(self._done, self._total, self._message)


class Stop:
    """What a worker checks before each block: the caller's token, and a flag set when another worker failed."""

    def __init__(self, cancel: CancelToken) -> None:
        self._cancel = cancel
        self._failed = threading.Event()

    def fail(self) -> None:
        """Make every worker stop at its next block."""
        self._failed.set()

    def check(self) -> None:
        """Raise Cancelled when the caller cancelled or another worker failed."""
        self._cancel.check()
        if self._failed.is_set():
            raise Cancelled()


@dataclass(frozen=True)
class Segment:
    """One worker's share of a pass: its element range, and what stops and reports it."""

    start: int
    stop: int
    block_elements: int
    halt: Stop
    progress: SharedProgress


Block = tuple[int, np.ndarray, np.ndarray, np.ndarray]
RawBlock = tuple[int, np.ndarray, np.ndarray]


def raw_blocks(pair: TensorPair, segment: Segment) -> Iterator[RawBlock]:
    """(start, fused, origin) blocks of the segment as stored (decoded, layout converted; no float64 copy).

    Checks the stop flags before each block; progress is counted when the consumer asks for the next
    block, i.e. once it is done.
    """
    position = segment.start
    for fused_raw, origin_raw in aligned_range(pair, segment.start, segment.stop, segment.block_elements):
        segment.halt.check()
        count = fused_raw.size
        yield position, fused_raw, origin_raw
        position += count
        segment.progress.advance(count)


def float64_block(start: int, fused_raw: np.ndarray, origin_raw: np.ndarray, scratch: Scratch) -> Block:
    """(start, fused, origin, fused - origin) as float64 in the scratch's reused buffers.

    Call inside np.errstate(invalid="ignore", over="ignore"): Inf - Inf and float64 overflows are expected.
    """
    count = fused_raw.size
    fused, origin, error = (scratch.get(name, count) for name in ("fused", "origin", "error"))
    np.copyto(fused, fused_raw.reshape(-1), casting="unsafe")  # astype(np.float64) without a fresh array
    np.copyto(origin, origin_raw.reshape(-1), casting="unsafe")
    np.subtract(fused, origin, out=error)
    return start, fused, origin, error


class Mergeable(Protocol):
    """What one segment's pass returns: accumulators that pool a later segment's into theirs."""

    def merge(self, other: Any) -> None:
        """Pool `other` into this."""


Part = TypeVar("Part", bound=Mergeable)


@dataclass(frozen=True)
class Plan:
    """How the passes over a pair run: its segments, the worker threads, the block size, the caller's token."""

    ranges: list[tuple[int, int]]
    jobs: int
    block_elements: int
    cancel: CancelToken

    @staticmethod
    def of(pair: TensorPair, block_elements: int, jobs: int | None, cancel: CancelToken) -> Plan:
        """Split `pair` for `jobs` workers (None: one per core)."""
        jobs = default_jobs() if jobs is None else max(1, jobs)
        return Plan(segments(pair.size, jobs, block_elements), jobs, block_elements, cancel)

    def run(self, work: Callable[[Segment], Part], progress: SharedProgress) -> Part:
        """work(segment) for every segment on the pool, merged in segment order into the first one's result.

        At most two segments per worker are in flight, so finished segments wait for the earlier ones
        to merge in bounded memory. The first error (or the caller's cancel) stops every worker at its
        next block and propagates.
        """
        halt = Stop(self.cancel)
        waiting: deque[Future[Part]] = deque()
        total: list[Part] = []  # the first segment's result, once merged
        workers = min(self.jobs, len(self.ranges))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tensor-view") as pool:
            try:
                for start, stop in self.ranges:
                    waiting.append(pool.submit(work, Segment(start, stop, self.block_elements, halt, progress)))
                    if len(waiting) >= 2 * workers:
                        merge_finished(waiting, total)
                while waiting:
                    merge_finished(waiting, total)
            except BaseException:
                halt.fail()
                for future in waiting:
                    future.cancel()
                raise
        return total[0]


def merge_finished(waiting: deque[Future[Part]], total: list[Part]) -> None:
    """Wait until the oldest segment is done (raising the first failure), then merge the finished prefix."""
    while True:
        for future in waiting:
            if future.done() and (error := future.exception()) is not None:
                raise error
        if waiting[0].done():
            break
        wait([future for future in waiting if not future.done()], return_when=FIRST_COMPLETED)
    while waiting and waiting[0].done():
        part = waiting.popleft().result()
        if total:
            total[0].merge(part)
        else:
            total.append(part)
