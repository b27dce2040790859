"""The GUI process collects cyclic garbage on the GUI thread only, on a timer (core.gc_pause.OwnerThreadCollection)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from autofuse_studio.core.gc_pause import OwnerThreadCollection

# How often the GUI thread looks at the collection counts: CPython's young threshold (700 allocations) is
# reached many times a second while a case loads; between two looks the young garbage only waits.
CHECK_INTERVAL_MS = 50


class GuiThreadCollector(QObject):
    """Automatic collection off while installed; the GUI thread's timer collects what is due.

    Cyclic garbage may hold Python-owned Qt objects (a window's menu, a dialog): freed by a collection a worker
    happened to trigger, their destructors ran on the worker and could deadlock with the GUI thread.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.collection = OwnerThreadCollection()
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self.collection.collect_due)

    def install(self) -> None:
        """Switch automatic collection off and start the timer (on the thread this object lives in)."""
        self.collection.start()
        self._timer.start()

    def remove(self) -> None:
        """Stop the timer and give back automatic collection as it was (nothing collected here: at the app's end a
        collection could destroy a closed window, still alive, through its wrapper, which crashes in Qt)."""
        self._timer.stop()
        self.collection.stop()
