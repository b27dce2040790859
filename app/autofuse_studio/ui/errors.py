"""The one UI error boundary: AppError -> a sentence, Cancelled -> silence, bugs -> a details dialog."""

from __future__ import annotations

import logging
import os
import platform
import sys
import threading
import traceback
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio import APP_NAME, __version__
from autofuse_studio.core.error_messages import render_error
from autofuse_studio.core.errors import AppError, Cancelled
from autofuse_studio.ui.widgets.wrap_label import WrapLabel

log = logging.getLogger(__name__)

FAIL_FAST_ENV = "AUTOFUSE_STUDIO_FAIL_FAST"
FAIL_FAST_EXIT_CODE = 70  # EX_SOFTWARE from sysexits.h
STATUS_TIMEOUT_MS = 15000


class ErrorBanner(QFrame):
    """An inline, dismissable one-line message that panels place above their content."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#errorBanner { background: #fdecea; color: #611a15; }")
        self.label = WrapLabel()  # breaks long paths too, so a message never widens the panel
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Dismiss")
        # A Python callable, not the C++ slot: see the PySide6 note in README (connecting C++ slots directly
        # aborted test runs at exit on 6.12).
        close.clicked.connect(lambda: self.hide())
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(close)
        self.hide()

    def show_message(self, text: str) -> None:
        """Show text in the banner."""
        self.label.setText(text)
        self.show()

    def text(self) -> str:
        """The message currently shown."""
        return self.label.text()


def user_message(exc: BaseException) -> str:
    """An error's sentence in the UI language (rendered from its code, core/error_messages.py; str() without one)."""
    from autofuse_studio.ui.i18n import translations

    return render_error(exc, translations().language)


def error_summary(exc: BaseException) -> str:
    """One line naming the exception type and its message."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def error_details(exc: BaseException) -> str:
    """Traceback plus version and platform: what a bug report needs."""
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return f"{APP_NAME} {__version__}\nPython {platform.python_version()} on {platform.platform()}\n\n{trace}"


class ErrorDialog(QDialog):
    """Unexpected-error dialog: a summary, the traceback and a Copy button; never blocks on creation."""

    def __init__(self, exc: BaseException, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{APP_NAME}: unexpected error")
        self.summary = error_summary(exc)
        self.summary_label = QLabel(
            f"<b>Something went wrong inside {APP_NAME}.</b><br>{_escape(self.summary)}<br>"
            "The app keeps running; please send the details below with your bug report."
        )
        self.summary_label.setWordWrap(True)
        self.details = QPlainTextEdit(error_details(exc))
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("Copy details")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)
        self.resize(720, 420)

    def copy_to_clipboard(self) -> None:
        """Put the summary and details on the clipboard."""
        QGuiApplication.clipboard().setText(f"{self.summary}\n\n{self.details.toPlainText()}")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build_error_dialog(parent: QWidget | None, exc: BaseException) -> ErrorDialog:
    """Create (but do not show) the dialog for an unexpected exception; tests call this directly."""
    dialog = ErrorDialog(exc, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return dialog


def _status_bar_of(parent: QWidget | None) -> QMainWindow | None:
    window = parent.window() if parent is not None else QApplication.activeWindow()
    return window if isinstance(window, QMainWindow) else None


def report_error(
    parent: QWidget | None, exc: BaseException, banner: ErrorBanner | None = None
) -> QWidget | None:
    """Show exc the house way and return the widget that shows it (None for Cancelled)."""
    if isinstance(exc, Cancelled):
        return None
    if isinstance(exc, AppError):
        message = user_message(exc)
        log.info("reported to the user: %s", str(exc))
        if banner is not None:
            banner.show_message(message)
            return banner
        window = _status_bar_of(parent)
        if window is not None:
            window.statusBar().showMessage(message, STATUS_TIMEOUT_MS)
            return window.statusBar()
        # Nowhere to put a sentence: fall through to a dialog rather than lose the message.
    else:
        log.error("unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
    return _show_dialog(parent, exc)


# Shown dialogs without a parent are owned by Python: keep them alive until they close.
_live_dialogs: set[ErrorDialog] = set()


def _show_dialog(parent: QWidget | None, exc: BaseException) -> ErrorDialog:
    summary = error_summary(exc)
    for dialog in _live_dialogs:
        if dialog.summary == summary and dialog.isVisible():
            dialog.raise_()  # the same failure repeating (e.g. in a paint event) opens one dialog
            return dialog
    dialog = build_error_dialog(parent, exc)
    _live_dialogs.add(dialog)
    dialog.finished.connect(lambda _result: _live_dialogs.discard(dialog))
    dialog.show()
    return dialog


class _MainThreadBridge(QObject):
    """Carries exceptions from worker threads to the GUI thread, where dialogs may be created."""

    raised = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        # A bound slot of an object living on the GUI thread: the queued call runs there.
        self.raised.connect(self._on_raised, Qt.ConnectionType.QueuedConnection)

    def _on_raised(self, exc: BaseException) -> None:
        _on_uncaught(exc)


_bridge: _MainThreadBridge | None = None


def _fail_fast() -> bool:
    return os.environ.get(FAIL_FAST_ENV, "") not in ("", "0")


def _exit_event_loop(code: int) -> None:
    # Quitting the loop (rather than os._exit) lets app.exec() return the code and clean up.
    if QApplication.instance() is not None:
        QApplication.exit(code)


def _on_uncaught(exc: BaseException) -> None:
    if _fail_fast():
        _exit_event_loop(FAIL_FAST_EXIT_CODE)
        return
    if QApplication.instance() is None:
        return
    try:
        report_error(None, exc)
    except Exception:  # the hook must never raise; the log already has the original
        log.exception("could not show the error dialog")


def _excepthook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    log.critical("uncaught exception", exc_info=(exc_type, exc, tb))
    if _fail_fast():
        sys.__excepthook__(exc_type, exc, tb)
    _on_uncaught(exc)


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None:
        return
    exc_info = (args.exc_type, args.exc_value, args.exc_traceback)
    log.critical("uncaught exception in thread %s", args.thread, exc_info=exc_info)
    if _fail_fast():
        sys.__excepthook__(args.exc_type, args.exc_value, args.exc_traceback)
    if _bridge is not None:
        _bridge.raised.emit(args.exc_value)


def install_excepthook() -> None:
    """Route uncaught exceptions (main and worker threads) to the log and the error dialog.

    The app never exits because of them; with AUTOFUSE_STUDIO_FAIL_FAST=1 the traceback is printed and
    the event loop quits with exit code 70 instead, so tests and CI fail fast.
    """
    global _bridge
    if _bridge is None:
        _bridge = _MainThreadBridge()
    sys.excepthook = _excepthook
    threading.excepthook = _thread_excepthook
