"""DelayedBusy: a progress bar and cancel button that appear only when work takes a while.

Showing and hiding them laid the tensor panel out again around its pyqtgraph plots: 40-55 ms of the
60-80 ms a row switch held the GUI thread, for tensors that were ready in 10-30 ms. Work that ends
within SHOW_AFTER_MS never shows them; longer work shows them with the latest progress.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QProgressBar, QWidget

SHOW_AFTER_MS = 250


class DelayedBusy(QObject):
    """Drives `progress` (and `also`, e.g. a cancel button): hidden unless the work outlasts SHOW_AFTER_MS."""

    def __init__(self, progress: QProgressBar, also: list[QWidget], starting_text: str = "",
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._progress, self._widgets = progress, [progress, *also]
        self.starting_text = starting_text
        self._latest: tuple[int, int, str] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SHOW_AFTER_MS)
        self._timer.timeout.connect(self._show)
        self.stop()

    def start(self) -> None:
        """Work began: show the widgets if it is still running after SHOW_AFTER_MS."""
        self._latest = None
        self._timer.start()

    def stop(self) -> None:
        """Work ended (done, failed or cancelled): hide the widgets."""
        self._timer.stop()
        for widget in self._widgets:
            widget.setVisible(False)

    def progressed(self, done: int, total: int, message: str) -> None:
        """The work's progress; shown at once when the widgets are visible, else when they appear."""
        self._latest = (done, total, message)
        if self._progress.isVisible():
            self._apply()

    def _show(self) -> None:
        self._apply()
        for widget in self._widgets:
            widget.setVisible(True)

    def _apply(self) -> None:
        if self._latest is None or self._latest[1] <= 0:
            self._progress.setRange(0, 0)
            self._progress.setFormat(self.starting_text)
            return
        done, total, message = self._latest
        self._progress.setRange(0, 1000)
        self._progress.setValue(int(1000 * done / total))
        self._progress.setFormat(f"{message} %p%")
