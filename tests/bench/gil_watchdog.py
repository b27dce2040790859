"""A thread that wakes every 1 ms and records how late it woke: where the GIL (or a CPU) went meanwhile.

A wake-up late by more than `gap_ms` is kept with the CPU time each other thread used during the gap
(`pthread_getcpuclockid`), the watchdog's own time in the run queue (`/proc/thread-self/schedstat`: the part
of the gap spent waiting for a CPU, the rest it waited asleep, i.e. for the GIL) and every thread's innermost
frames right after the gap (the thread that held the GIL is where its long C call returned). The histogram
counts every wake-up by lateness. Used by gui_big_model_run.py when GIL_WATCHDOG is set.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import traceback
from typing import Any

EDGES_MS = (0.5, 1, 2, 5, 10, 20, 50, 100, float("inf"))
TICK_S = 0.001


def _frames(frame: Any, depth: int = 4) -> list[str]:
    """The innermost `depth` frames of a stack as file:line:function, innermost first."""
    return [f"{os.path.basename(entry.filename)}:{entry.lineno}:{entry.name}"
            for entry in reversed(traceback.extract_stack(frame, limit=depth))]


class GilWatchdog:
    """Start it, run the work, stop it; `summary()` is JSON-ready."""

    def __init__(self, gap_ms: float = 20) -> None:
        self.gap_s = gap_ms / 1000
        self.histogram = [0] * len(EDGES_MS)
        self.gaps: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gil-watchdog", daemon=True)
        self._clocks: dict[int, tuple[int, str]] = {}  # thread ident -> (CPU clock id, name)

    def start(self) -> GilWatchdog:
        """Begin watching (from now on every wake-up counts)."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop watching and wait for the thread."""
        self._stop.set()
        self._thread.join()

    def _thread_cpu(self) -> dict[int, float]:
        """Each known thread's CPU seconds (threads that ended are dropped)."""
        times = {}
        for ident, (clock, _name) in list(self._clocks.items()):
            try:
                times[ident] = time.clock_gettime(clock)
            except OSError:
                del self._clocks[ident]
        return times

    def _learn_threads(self, me: int) -> None:
        for thread in threading.enumerate():
            if thread.ident is not None and thread.ident != me and thread.ident not in self._clocks:
                with contextlib.suppress(OSError):  # the thread ended meanwhile
                    self._clocks[thread.ident] = (time.pthread_getcpuclockid(thread.ident), thread.name)

    def _run(self) -> None:
        me = threading.get_ident()
        schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
        try:
            self._watch(me, schedstat)
        finally:
            os.close(schedstat)

    def _watch(self, me: int, schedstat: int) -> None:
        start = last = time.perf_counter()
        queued_before = int(os.pread(schedstat, 100, 0).split()[1])
        self._learn_threads(me)
        cpu_before = self._thread_cpu()
        ticks = 0
        while not self._stop.is_set():
            time.sleep(TICK_S)
            now = time.perf_counter()
            late = now - last - TICK_S
            self.histogram[next(k for k, edge in enumerate(EDGES_MS) if late * 1000 < edge)] += 1
            if late > self.gap_s:
                self._record(me, start, now, late, cpu_before,
                             int(os.pread(schedstat, 100, 0).split()[1]) - queued_before)
            ticks += 1
            if ticks % 50 == 0:
                self._learn_threads(me)
            last = time.perf_counter()
            queued_before = int(os.pread(schedstat, 100, 0).split()[1])
            cpu_before = self._thread_cpu()

    def _record(self, me: int, start: float, now: float, late: float, cpu_before: dict[int, float],
                queued_ns: int) -> None:
        cpu_after = self._thread_cpu()
        names = {ident: name for ident, (_clock, name) in self._clocks.items()}
        ran = {names[ident]: round((cpu_after[ident] - cpu_before[ident]) * 1000, 1)
               for ident in cpu_after if ident in cpu_before and cpu_after[ident] - cpu_before[ident] > 0.001}
        stacks = {names.get(ident, str(ident)): _frames(frame)
                  for ident, frame in sys._current_frames().items() if ident != me}
        self.gaps.append({"at_ms": round((now - start) * 1000), "ms": round(late * 1000, 1),
                          "queued_ms": round(queued_ns / 1e6, 1), "ran_ms": ran, "stacks": stacks})

    def summary(self) -> dict[str, Any]:
        """The histogram of wake-up lateness (bucket upper edges in ms) and the gaps over the threshold."""
        return {"edges_ms": [str(edge) for edge in EDGES_MS], "histogram": self.histogram, "gaps": self.gaps}
