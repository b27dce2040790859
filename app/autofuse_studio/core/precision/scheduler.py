"""PairScheduler: compares planned pairs on a thread pool, and can start early on a provisional plan."""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from types import TracebackType
from typing import Any, TypeVar

from autofuse_studio.core.precision.compare_process import TINY_PAIR_BYTES, CompareHelper, helper_wanted
from autofuse_studio.core.precision.pair import PairResult, PairSide, compare_pair
from autofuse_studio.core.precision.pair_batch import compare_pairs
from autofuse_studio.core.precision.plan import PlannedRow
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.core.release import empty_in_chunks

# Pairs bigger than this are compared one at a time with block-level parallelism instead.
LARGE_PAIR_BYTES = 64 << 20

PairKey = tuple[PairSide, PairSide]
Outcomes = dict[PairKey, PairResult]
Delivery = Callable[[list[tuple[int, PlannedRow, PairResult]]], None]
_T = TypeVar("_T")


def _key(item: PlannedRow) -> PairKey | None:
    """The pair an item compares; None when its status is known without comparing."""
    if item.fused is None or item.origin is None:
        return None
    return item.fused, item.origin


def _compare_keys(keys: list[PairKey], cancel: CancelToken) -> Outcomes:
    # In batches (two GIL releases for all of them, see pair_batch); what the batch cannot take goes to
    # compare_pair, looked up here at call time.
    return compare_pairs(keys, cancel, compare_pair)


def _keys_and_tiny(small: list[tuple[PlannedRow, PairKey]]) -> tuple[list[PairKey], list[PairKey]]:
    """The distinct keys of `small`, and those of them whose pairs are tiny (TINY_PAIR_BYTES)."""
    keys = list(dict.fromkeys(key for _, key in small))
    tiny = list(dict.fromkeys(key for item, key in small if item.size_bytes <= TINY_PAIR_BYTES))
    return keys, tiny


class PairScheduler:
    """A pool of `jobs` comparing threads; small pairs go in batches, large ones with block threads.

    start_early() compares the pairs of a provisional plan (drawn before the af-close graph is read)
    while the caller goes on parsing; compare() then reuses every result whose pair is exactly the
    same in the final plan and compares the rest. A result depends only on the two PairSides (files,
    layouts, labels, graph dtypes), so reuse cannot change any row.
    """

    def __init__(self, jobs: int, cancel: CancelToken) -> None:
        self._jobs = max(1, jobs)
        self._cancel = cancel
        self._pool = ThreadPoolExecutor(max_workers=self._jobs, thread_name_prefix="pair")
        self._early: dict[PairKey, Future[Outcomes]] = {}
        self._helper: CompareHelper | None = None  # started for a big model's tiny pairs (compare_process)

    def __enter__(self) -> PairScheduler:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        # On an error nothing pending is needed any more; started batches stop at their next check.
        if self._helper is not None:
            self._helper.close(abort=kind is not None)
        self._pool.shutdown(wait=True, cancel_futures=kind is not None)

    def submit(self, function: Callable[..., _T], *args: Any) -> Future[_T]:
        """Run other work (e.g. dump indexing) on the pool."""
        return self._pool.submit(function, *args)

    def _batch_size(self, count: int) -> int:
        # One future per pair cost more than a small pair's compare; a few batches per worker keep
        # the load balanced.
        return max(1, min(16, count // (8 * self._jobs)))

    def _submit_batches(self, keys: list[PairKey],
                        tiny: list[PairKey] | None = None) -> dict[PairKey, Future[Outcomes]]:
        """Futures of `keys`' outcomes; `tiny` of them (GIL-bound glue) may go to the helper process."""
        futures: dict[PairKey, Future[Outcomes]] = {}
        if tiny and (self._helper is not None or helper_wanted(len(tiny), self._jobs)):
            if self._helper is None:
                self._helper = CompareHelper(self._fall_back, self._cancel, max(1, self._jobs - 1))
            futures.update(self._helper.submit(tiny))
            keys = [key for key in keys if key not in futures]
        size = self._batch_size(len(keys))
        for start in range(0, len(keys), size):
            chunk = keys[start:start + size]
            future = self._pool.submit(_compare_keys, chunk, self._cancel)
            futures.update((key, future) for key in chunk)
        return futures

    def _fall_back(self, keys: list[PairKey]) -> Future[Outcomes]:
        """The helper's frames it could not answer, compared on the pool."""
        return self._pool.submit(_compare_keys, keys, self._cancel)

    def start_early(self, provisional: list[PlannedRow]) -> None:
        """Start comparing the small pairs of a provisional plan."""
        small = [(item, key) for item in provisional
                 if (key := _key(item)) is not None and item.size_bytes <= LARGE_PAIR_BYTES]
        self._early.update(self._submit_batches(*_keys_and_tiny(small)))

    def compare(self, planned: list[PlannedRow], progress: Progress, deliver: Delivery | None = None,
                meanwhile: Callable[[], object] | None = None) -> dict[int, PairResult]:
        """Outcome of every planned pair by position; `deliver` gets each finished group.

        `meanwhile` runs on this thread once every batch is submitted, while the pool compares.
        """
        todo = [(number, item, key) for number, item in enumerate(planned) if (key := _key(item)) is not None]
        small = [entry for entry in todo if entry[1].size_bytes <= LARGE_PAIR_BYTES]
        large = [entry for entry in todo if entry[1].size_bytes > LARGE_PAIR_BYTES]
        futures = dict(self._early)
        futures.update(self._submit_batches(*_keys_and_tiny([(item, key) for _, item, key in small
                                                              if key not in futures])))
        self._drop_unused_early({key for _, _, key in small})
        if self._helper is not None:  # this process's own work is done: its core takes the helpers' last frames
            self._pool.submit(self._helper.compare_queued, functools.partial(_compare_keys, cancel=self._cancel))
        if meanwhile is not None:
            meanwhile()
        waiting: dict[Future[Outcomes], list[tuple[int, PlannedRow, PairKey]]] = {}
        for entry in small:
            waiting.setdefault(futures[entry[2]], []).append(entry)
        outcomes: dict[int, PairResult] = {}
        total = len(todo)
        done: set[Future[Outcomes]] = set()
        while waiting:
            done, _ = wait(waiting, return_when=FIRST_COMPLETED)
            for future in done:
                results = future.result()
                group = [(number, item, results[key]) for number, item, key in waiting.pop(future)]
                self._record(group, outcomes, deliver, progress, total)
        for number, item, key in large:
            result = compare_pair(key[0], key[1], self._pool)
            self._record([(number, item, result)], outcomes, deliver, progress, total)
        # The last `done` can hold every batch (the early ones all finish while the af-close graph is read):
        # freed with the frame, its futures and their results were one 14-20 ms cascade holding the GIL at
        # the end of a big-model run. Emptied first, they go with `futures`, a chunk at a time.
        done.clear()
        empty_in_chunks(todo, small, futures)  # a cascade of 100k+ objects otherwise (see core.release)
        return outcomes

    def _drop_unused_early(self, needed: set[PairKey]) -> None:
        """Cancel early batches none of whose pairs the final plan needs (the guess was wrong)."""
        useful = {future for key, future in self._early.items() if key in needed}
        for future in set(self._early.values()) - useful:
            future.cancel()
        self._early.clear()

    @staticmethod
    def _record(group: list[tuple[int, PlannedRow, PairResult]], outcomes: dict[int, PairResult],
                deliver: Delivery | None, progress: Progress, total: int) -> None:
        outcomes.update((number, result) for number, _, result in group)
        if deliver is not None:
            deliver(group)
        progress(len(outcomes), total, "comparing")
