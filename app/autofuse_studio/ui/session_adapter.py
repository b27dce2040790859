"""SessionAdapter: the Qt face of a core Session; its changes as signals, delivered on the GUI thread."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from autofuse_studio.core.session import (
    CaseChanged,
    Change,
    FocusChanged,
    ResultChanged,
    Session,
    ThresholdsChanged,
)


class SessionAdapter(QObject):
    """Observes a Session and re-emits each change as the signal of its kind; the views connect to these."""

    caseChanged = Signal(object)  # CaseChanged
    thresholdsChanged = Signal(object)  # ThresholdsChanged
    resultChanged = Signal(object)  # ResultChanged
    focusChanged = Signal(object)  # FocusChanged
    _changedElsewhere = Signal(object)  # a change made off the GUI thread, queued to it

    def __init__(self, session: Session | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session if session is not None else Session()
        # Queued: Qt delivers it in this object's thread (the GUI thread) whatever thread emitted it.
        self._changedElsewhere.connect(self._on_self_changed_elsewhere, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe = self.session.subscribe(self._on_session_changed)
        self.destroyed.connect(self._unsubscribe)

    def detach(self) -> None:
        """Stop observing the session (its later changes emit nothing here)."""
        self._unsubscribe()

    def _on_session_changed(self, change: Change) -> None:
        if self.thread() is not QThread.currentThread():
            self._changedElsewhere.emit(change)
            return
        self._emit(change)

    @Slot(object)
    def _on_self_changed_elsewhere(self, change: Change) -> None:
        self._emit(change)

    def _emit(self, change: Change) -> None:
        # Synchronous on the GUI thread: a view reads the session right after the change, as the session is.
        if isinstance(change, ThresholdsChanged):
            self.thresholdsChanged.emit(change)
        elif isinstance(change, ResultChanged):
            self.resultChanged.emit(change)
        elif isinstance(change, FocusChanged):
            self.focusChanged.emit(change)
        elif isinstance(change, CaseChanged):
            self.caseChanged.emit(change)

