"""RowBatches: rows that arrive one by one reach the table in batches, one model insert per tick.

Each slice is sized so that the table takes it in within TICK_BUDGET_S (measured on the previous slices):
under a busy worker the same rows cost the GUI thread twice as long as on an idle machine.

RowInbox: rows posted by worker threads wait there until the GUI thread takes them, so that a burst of
groups costs the GUI one queued event rather than one per group.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from autofuse_studio.core.precision.rows import PrecisionRow

FLUSH_INTERVAL_MS = 100
# At most this many rows per insert: 20k rows that arrive at once (a big model's last groups) took 50 ms
# to insert plus the table's reaction in one go; in slices the window repaints between them.
ROWS_PER_TICK = 4000
MIN_ROWS_PER_TICK = 100
# The GUI thread's time for one slice (the insert and the proxy's and the workbench's reaction; the repaint
# comes after). 4000 rows took 25 ms on an idle machine but 100-150 ms while the worker assembled the result.
TICK_BUDGET_S = 0.03


# The first slice, before any was timed: a quarter of the most.
FIRST_ROWS_PER_TICK = 1000


class SliceSizer:
    """How many rows the next slice holds: as many as took TICK_BUDGET_S at the last measured pace.

    A slice is at most twice the last measured one: the pace of small slices while the pool compares
    says little about a big model's last 20k rows, which arrive while the worker assembles the result
    and the same rows cost twice as long (a 4000-row slice took 70-130 ms there).
    """

    def __init__(self) -> None:
        self.size = FIRST_ROWS_PER_TICK

    def measured(self, rows: int, seconds: float) -> None:
        """The last slice of `rows` rows took `seconds` to take in."""
        if rows < MIN_ROWS_PER_TICK:
            return  # too few to tell the pace from the fixed cost of a tick
        per_row = max(seconds, 1e-6) / rows
        self.size = max(MIN_ROWS_PER_TICK, min(ROWS_PER_TICK, 2 * rows, int(TICK_BUDGET_S / per_row)))


class RowBatches(QObject):
    """Collects arriving rows and emits a slice of them every FLUSH_INTERVAL_MS while any wait.

    A backlog (a big model's last 20k rows arrive within half a second) goes out a slice per interval,
    not back to back: the table shows the run's progress, and the GUI thread keeps most of each
    interval while the worker, busy with the result, competes for the GIL. When the run is done, the
    rows still waiting are dropped: the finished result that follows holds every row.
    """

    ready = Signal(object)  # list[PrecisionRow]

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: list[PrecisionRow] = []
        self._then: Callable[[], None] | None = None
        self._sizer = SliceSizer()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self._on_timer_timeout)

    def add(self, rows: list[PrecisionRow]) -> None:
        """Queue rows; a slice goes out when the tick ends."""
        if self._then is not None:
            return  # finishing: the result holds these rows
        self._pending.extend(rows)
        if not self._timer.isActive():
            self._timer.start(FLUSH_INTERVAL_MS)

    @property
    def finishing(self) -> bool:
        """True between finish() and the call of its `then`."""
        return self._then is not None

    def finish(self, then: Callable[[], None]) -> None:
        """The run is done: drop the rows still waiting and call `then` on the next event-loop turn."""
        self._pending.clear()
        self._then = then
        self._timer.start(0)

    def clear(self) -> None:
        """Drop what is queued, and a pending finish's `then` (a cancelled, failed or replaced run)."""
        self._pending.clear()
        self._then = None
        self._timer.stop()

    def _on_timer_timeout(self) -> None:
        then, self._then = self._then, None
        if then is not None:
            then()
            return
        size = self._sizer.size
        rows, self._pending = self._pending[:size], self._pending[size:]
        if rows:
            start = time.perf_counter()
            self.ready.emit(rows)
            self._sizer.measured(len(rows), time.perf_counter() - start)
        if self._pending and not self._timer.isActive():
            self._timer.start(FLUSH_INTERVAL_MS)  # the rest a slice per interval, the window free between


class RowInbox:
    """Rows from worker threads, kept in arrival order until the GUI thread takes them.

    When comparing started early, the engine delivers a thousand finished groups at once: one queued
    signal each made the GUI thread run a thousand slots in one go (130 ms without a repaint). Only the
    put that finds the inbox empty needs to wake the GUI thread; later ones join the waiting rows.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: list[PrecisionRow] = []

    def put(self, rows: list[PrecisionRow]) -> bool:
        """Add rows (any thread); True when the GUI thread must be told, i.e. nothing was waiting."""
        with self._lock:
            wake = not self._rows
            self._rows.extend(rows)
        return wake

    def take(self) -> list[PrecisionRow]:
        """Every waiting row, in arrival order (GUI thread)."""
        with self._lock:
            rows, self._rows = self._rows, []
        return rows
