"""The UI error boundary: a sentence for AppError, silence for Cancelled, a dialog for bugs."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.core.errors import Cancelled, InputError
from autofuse_studio.ui import errors
from autofuse_studio.ui.errors import ErrorBanner, ErrorDialog, build_error_dialog, report_error


def _raised(exc: BaseException) -> BaseException:
    """exc with a real traceback, as the boundary receives it."""
    try:
        raise exc
    except BaseException as caught:  # noqa: BLE001 - the point is to keep it
        return caught


def _visible_dialogs() -> list[ErrorDialog]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, ErrorDialog) and w.isVisible()]


@pytest.fixture(autouse=True)
def _close_dialogs() -> Iterator[None]:
    yield
    for dialog in _visible_dialogs():
        dialog.close()


@contextmanager
def _hooks_restored() -> Iterator[None]:
    # Restored inside the test body: pytest and pytest-qt swap these hooks around each test phase.
    saved = sys.excepthook, threading.excepthook
    try:
        yield
    finally:
        sys.excepthook, threading.excepthook = saved


def test_cancelled_is_silent(qtbot: QtBot) -> None:
    assert report_error(None, Cancelled()) is None
    assert _visible_dialogs() == []


def test_app_error_goes_to_the_status_bar(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setCentralWidget(QLabel("panel"))
    message = "The file x.npy is truncated after 12 bytes."
    shown = report_error(window.centralWidget(), InputError(message, path="x.npy"))
    assert shown is window.statusBar()
    assert window.statusBar().currentMessage() == message
    assert _visible_dialogs() == []


def test_app_error_goes_to_the_inline_banner(qtbot: QtBot) -> None:
    panel = QWidget()
    qtbot.addWidget(panel)
    banner = ErrorBanner()
    QVBoxLayout(panel).addWidget(banner)
    panel.show()
    assert not banner.isVisible()
    shown = report_error(panel, InputError("Graph ge_1.txt line 4: unexpected '}'."), banner=banner)
    assert shown is banner
    assert banner.isVisible()
    assert banner.text() == "Graph ge_1.txt line 4: unexpected '}'."


def test_app_error_without_a_window_falls_back_to_a_dialog(qtbot: QtBot) -> None:
    shown = report_error(None, InputError("The folder dumps/ does not exist."))
    assert isinstance(shown, ErrorDialog)
    assert "does not exist" in shown.summary


def test_error_dialog_shows_summary_details_and_copies(qtbot: QtBot) -> None:
    exc = _raised(ZeroDivisionError("division by zero"))
    dialog = build_error_dialog(None, exc)
    qtbot.addWidget(dialog)
    assert not dialog.isVisible()  # built, not shown: nothing blocks
    assert dialog.summary == "ZeroDivisionError: division by zero"
    details = dialog.details.toPlainText()
    assert "Traceback" in details
    assert "_raised" in details
    dialog.copy_button.click()
    clipboard = QGuiApplication.clipboard().text()
    assert clipboard.startswith("ZeroDivisionError: division by zero")
    assert "Traceback" in clipboard


def test_unexpected_error_shows_a_non_blocking_dialog(qtbot: QtBot, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.CRITICAL, logger=errors.__name__):
        shown = report_error(None, _raised(KeyError("op_42")))
    assert isinstance(shown, ErrorDialog)
    assert shown.isVisible()
    assert "KeyError" in shown.summary


def test_excepthook_logs_and_keeps_running(qtbot: QtBot, caplog: pytest.LogCaptureFixture) -> None:
    exc = _raised(RuntimeError("slot exploded"))
    with _hooks_restored(), caplog.at_level(logging.CRITICAL, logger=errors.__name__):
        errors.install_excepthook()
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert "uncaught exception" in caplog.text
    dialogs = _visible_dialogs()
    assert len(dialogs) == 1
    assert "slot exploded" in dialogs[0].summary


def test_thread_exceptions_reach_the_gui_thread(qtbot: QtBot, caplog: pytest.LogCaptureFixture) -> None:
    def fail() -> None:
        raise LookupError("worker lost op_7")

    with _hooks_restored(), caplog.at_level(logging.CRITICAL, logger=errors.__name__):
        errors.install_excepthook()
        thread = threading.Thread(target=fail)
        thread.start()
        thread.join()
        qtbot.waitUntil(lambda: bool(_visible_dialogs()), timeout=5000)
    assert "worker lost op_7" in _visible_dialogs()[0].summary


def test_fail_fast_quits_the_event_loop_instead_of_a_dialog(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    exits: list[int] = []
    monkeypatch.setenv(errors.FAIL_FAST_ENV, "1")
    monkeypatch.setattr(errors, "_exit_event_loop", exits.append)
    exc = _raised(RuntimeError("fail fast please"))
    with _hooks_restored():
        errors.install_excepthook()
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert exits == [errors.FAIL_FAST_EXIT_CODE]
    assert _visible_dialogs() == []
    assert "fail fast please" in capsys.readouterr().err


def test_the_same_bug_repeating_opens_one_dialog(qtbot: QtBot) -> None:
    first = report_error(None, _raised(ValueError("bad paint")))
    second = report_error(None, _raised(ValueError("bad paint")))
    assert first is second
    assert len(_visible_dialogs()) == 1
