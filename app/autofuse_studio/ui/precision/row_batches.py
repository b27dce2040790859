"""RowBatches: rows that arrive one by one reach the table in batches, one model insert per tick."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from autofuse_studio.core.precision.rows import PrecisionRow

FLUSH_INTERVAL_MS = 100


class RowBatches(QObject):
    """Collects arriving rows and emits them at most every FLUSH_INTERVAL_MS (100k rows: 100s of inserts)."""

    ready = Signal(object)  # list[PrecisionRow]

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: list[PrecisionRow] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)

    def add(self, rows: list[PrecisionRow]) -> None:
        """Queue rows; the batch goes out when the tick ends."""
        self._pending.extend(rows)
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        """Emit what is queued now (nothing when empty)."""
        self._timer.stop()
        rows, self._pending = self._pending, []
        if rows:
            self.ready.emit(rows)

    def clear(self) -> None:
        """Drop what is queued (a cancelled or failed run)."""
        self._pending.clear()
        self._timer.stop()
