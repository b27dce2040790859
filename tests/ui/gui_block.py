"""GuiBlockMeter: the longest time the GUI thread could not run its event loop (a 1 ms timer's largest gap)."""

from __future__ import annotations

from types import TracebackType

from PySide6.QtCore import QElapsedTimer, QTimer


class GuiBlockMeter:
    """Use as a context manager around GUI work; `longest_ms` is the longest stall seen."""

    def __init__(self) -> None:
        self._clock = QElapsedTimer()
        self._timer = QTimer()
        self._timer.setInterval(1)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._last = 0
        self.longest_ms = 0.0

    def _on_timer_timeout(self) -> None:
        now = self._clock.nsecsElapsed()
        self.longest_ms = max(self.longest_ms, (now - self._last) / 1e6)
        self._last = now

    def __enter__(self) -> GuiBlockMeter:
        self._clock.start()
        self._last = self._clock.nsecsElapsed()
        self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._on_timer_timeout()  # a stall right before the end counts too
        self._timer.stop()
