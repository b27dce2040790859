"""The window's worker threads at a lower CPU priority than the GUI thread (Linux), so a repaint never waits for a core.

On two cores a run's loading threads (a graph's native bracket scan, a dump folder's listing, the compares' child
processes) keep both cores busy, and the GUI thread woke into a run queue: 59-116 ms of a 105-220 ms GUI-thread block
300 ms into a big model's run were spent waiting for a core (Linux schedstat), the rest mostly running. A worker
thread at nice BACKGROUND_NICE gives the core to the GUI thread as soon as it wakes, and an idle window takes nothing
from it (not yet shown to remove such a block: docs/performance.md, issue 29's seventeenth session). Linux only: a
thread's nice is its own there (and inherited by the threads and processes it starts); on other systems setpriority
would lower the whole process, the GUI thread with it.
"""

from __future__ import annotations

import os
import sys
import threading

BACKGROUND_NICE = 5


def lower_this_thread() -> None:
    """Give the calling thread (a worker of the window's) nice BACKGROUND_NICE, if it has less and the system has
    per-thread priorities; nothing otherwise (a sandbox refusing it included)."""
    if not sys.platform.startswith("linux"):
        return
    thread = threading.get_native_id()
    try:
        if os.getpriority(os.PRIO_PROCESS, thread) < BACKGROUND_NICE:
            os.setpriority(os.PRIO_PROCESS, thread, BACKGROUND_NICE)
    except OSError:
        pass  # not allowed here (a seccomp profile): the worker keeps the GUI thread's priority
