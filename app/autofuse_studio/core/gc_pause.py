"""GC policy: pause the cyclic GC while building large acyclic structures; freeze them only where the app opts in."""

from __future__ import annotations

import contextlib
import functools
import gc
import threading
import time
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")

_LOCK = threading.Lock()
_depth = 0
_resume = False
# Set only by the application layer (the CLI entry and the GUI) through long_lived_freezing(): library
# callers (autofuse_studio.api, core called directly) own their heap, and gc.freeze() cannot be undone for
# just the objects we built (gc.unfreeze() thaws the caller's frozen objects too).
_freezing = False


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC until the last overlapping pause (in any thread) ends.

    Parsing and indexing allocate millions of acyclic containers, and every collection rescans
    everything built so far (measured: ~2x slower on a 100k-op graph, 10-15% of a mode-1 run). The
    pause is counted because a load parses graphs on one thread while another indexes dumps: a plain
    disable/enable pair would let the first thread to finish turn the GC back on under the other.
    """
    global _depth, _resume
    with _LOCK:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()


@contextlib.contextmanager
def long_lived_freezing(allowed: bool = True) -> Iterator[None]:
    """Let keep_long_lived() freeze while the block runs (the CLI and the GUI opt in; the previous policy returns)."""
    global _freezing
    with _LOCK:
        before, _freezing = _freezing, allowed
    try:
        yield
    finally:
        with _LOCK:
            _freezing = before


def freezing_allowed() -> bool:
    """Whether the application layer opted in to freezing long-lived objects (see long_lived_freezing)."""
    return _freezing


def keep_long_lived() -> None:
    """gc.freeze() everything alive now when the application opted in; in library use, leave the GC alone.

    Models, results and workspaces live for the whole run or GUI session and hold no cycles. Frozen, no
    later collection rescans their 100k+ objects while holding the GIL (40-180 ms each: a frozen window);
    they stay refcounted, so they are still freed when dropped. But a freeze also moves the caller's own
    objects (and its uncollected cyclic garbage) to the permanent generation, so only the application
    layer, which owns the whole heap, may ask for it.
    """
    if _freezing:
        gc.freeze()


def long_lived_result(function: Callable[_P, _T]) -> Callable[_P, _T]:
    """`function` run with the GC paused, and what it built kept long-lived after (keep_long_lived).

    For a worker's task whose result lives as long as a model (a display graph, its layout, a scope index):
    without the pause, collections started in the worker rescanned the 100k+ objects being built while holding
    the GIL (200-300 ms each at 100k ops: a frozen window); without the freeze, the first young collection after
    the pause scanned all of them at once.
    """

    @functools.wraps(function)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        with gc_paused():
            result = function(*args, **kwargs)
            keep_long_lived()
            return result

    return run


def collections_paused() -> bool:
    """Whether a gc_paused() block runs in some thread now (a collection would rescan what it builds)."""
    return _depth > 0


class OwnerThreadCollection:
    """Cyclic collections run only where collect_due() is called (the GUI thread): automatic collection off.

    A collection frees garbage on whichever thread happened to trigger it. In the GUI, cyclic garbage can hold
    the Python wrapper of a Qt object: freed by a worker's collection, the C++ destructor ran on the worker and
    waited for the GIL inside Qt while the GUI thread, holding the GIL, waited for a Qt lock the destructor held
    (a deadlock seen in a suite run). With automatic collection off, only the owner's timer collects, with
    CPython's own generation thresholds; a full collection is spaced so that it takes at most `full_share` of
    the time (CPython's "long-lived pending" heuristic is not reachable from Python).
    """

    def __init__(self, full_share: float = 0.02) -> None:
        self._full_share = full_share
        self._started = False
        self._was_enabled = False
        self._last_full_end = -float("inf")
        self._last_full_seconds = 0.0

    def start(self) -> None:
        """Switch automatic collection off (a running pause, too, keeps it off at its end)."""
        global _resume
        with _LOCK:
            if self._started:
                return
            self._started = True
            self._was_enabled = _resume if _depth else gc.isenabled()
            _resume = False
            gc.disable()

    def stop(self) -> None:
        """Give back the automatic collection as start() found it (after the running pause, if one runs)."""
        global _resume
        with _LOCK:
            if not self._started:
                return
            self._started = False
            if _depth:
                _resume = self._was_enabled
            elif self._was_enabled:
                gc.enable()

    def collect_due(self) -> int:
        """Collect the oldest generation whose count is over its threshold, on this thread; -1 when none is due.

        Nothing is collected while a gc_paused() block runs (it builds objects that live long), nor when the
        thresholds switch collection off (a first threshold of 0).
        """
        thresholds = gc.get_threshold()
        if collections_paused() or not thresholds[0]:
            return -1
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] <= thresholds[generation]:
                continue
            if generation == 2 and not self._full_allowed():
                continue
            started = time.perf_counter()
            gc.collect(generation)
            if generation == 2:
                self._last_full_end = time.perf_counter()
                self._last_full_seconds = self._last_full_end - started
            return generation
        return -1

    def _full_allowed(self) -> bool:
        since = time.perf_counter() - self._last_full_end
        return since * self._full_share >= self._last_full_seconds * (1 - self._full_share)
