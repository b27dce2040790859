"""AttJobs: runs the ATT panels' core functions on the TaskRunner and shows progress, cancel and errors."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from autofuse_studio.core.errors import AppError
from autofuse_studio.ui.errors import ErrorBanner, report_error
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.widgets.progress_bar import ProgressBar

log = logging.getLogger(__name__)
Done = Callable[[Any], None]


class TaskStrip(QWidget):
    """A one-line strip: what runs, a progress bar and a Cancel button; hidden when idle."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = ProgressBar()
        self.bar.setTextVisible(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.cancel_button)
        self.hide()

    def changeEvent(self, event: QEvent) -> None:
        """Re-translate when the application language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            self.cancel_button.setText(self.tr("Cancel"))
        super().changeEvent(event)

    def show_progress(self, done: int, total: int, message: str) -> None:
        """Show one progress update (the bar works in per-mille so byte counts never overflow)."""
        self.bar.setRange(0, 1000)
        self.bar.setValue(int(1000 * done / total) if total > 0 else 0)
        if message:
            self.label.setText(message)


class AttJobs(QObject):
    """Starts tasks, routes their results to callbacks; failures go to the banner; Cancel stops them all."""

    busyChanged = Signal(bool)
    failed = Signal(object)  # the exception, after it was reported

    def __init__(self, runner: TaskRunner, strip: TaskStrip, banner: ErrorBanner,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.strip = strip
        self.banner = banner
        self.handles: dict[int, TaskHandle] = {}
        self.cancelled: set[int] = set()  # failures of cancelled tasks stay silent, like their results
        strip.cancel_button.clicked.connect(self.cancel_all)

    @property
    def busy(self) -> bool:
        """True while any task of this panel set is running."""
        return bool(self.handles)

    def run(self, label: str, fn: Callable[..., Any], *args: Any, on_done: Done, **kwargs: Any) -> TaskHandle:
        """Run fn(*args, progress=, cancel=, **kwargs) in the background; on_done(result) on success."""
        was_busy = self.busy
        handle = self.runner.start(fn, *args, **kwargs)
        self.handles[handle.task_id] = handle
        self.strip.label.setText(label)
        self.strip.bar.setRange(0, 0)  # busy until the first progress report
        self.strip.show()
        handle.progressed.connect(self.strip.show_progress)
        handle.finished.connect(lambda result, h=handle: self._finish(h, on_done, result))
        handle.failed.connect(lambda exc, h=handle: self._fail(h, exc))
        handle.cancelled.connect(lambda h=handle: self._end(h))
        if not was_busy:
            self.busyChanged.emit(True)
        return handle

    def cancel_all(self) -> None:
        """Cancel every running task (silently: cancelled work reports nothing)."""
        for handle in list(self.handles.values()):
            self.cancel(handle)

    def cancel(self, handle: TaskHandle) -> None:
        """Cancel one task started by run(); a failure it still reports is not shown."""
        if handle.task_id in self.handles:
            self.cancelled.add(handle.task_id)
            handle.cancel()

    def _finish(self, handle: TaskHandle, on_done: Done, result: Any) -> None:
        # A result already queued when cancel() was called is not wanted any more either.
        unwanted = handle.task_id in self.cancelled
        self._end(handle)
        if unwanted:
            return
        try:
            on_done(result)
        except Exception as exc:  # noqa: BLE001 - a failing consumer must reach the error boundary
            self._report(exc)

    def _fail(self, handle: TaskHandle, exc: BaseException) -> None:
        silent = handle.task_id in self.cancelled
        self._end(handle)
        if silent:
            log.debug("task %d failed after it was cancelled: %s", handle.task_id, exc)
            return
        self._report(exc)

    def _report(self, exc: BaseException) -> None:
        parent = self.banner.parentWidget()
        report_error(parent, exc, self.banner)
        self.failed.emit(exc)

    def _end(self, handle: TaskHandle) -> None:
        self.handles.pop(handle.task_id, None)
        self.cancelled.discard(handle.task_id)
        if not self.handles:
            self.strip.hide()
            self.busyChanged.emit(False)


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn an OSError while writing `path` into an AppError sentence (a full disk is not a bug)."""
    try:
        yield
    except OSError as exc:
        raise AppError.of("file_unwritable_quoted", path=path, reason=exc.strerror or str(exc)) from exc
