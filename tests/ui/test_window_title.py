"""The window title names the open case, so that two windows (or a screenshot) say which case they show."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from autofuse_studio import APP_NAME
from autofuse_studio.core.resources import demo_case_dir
from autofuse_studio.ui.main_window import MainWindow


def test_the_title_follows_the_opened_case(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.windowTitle() == APP_NAME
    with qtbot.waitSignal(window.resultShown, timeout=60_000):  # the demo is analysed: let it finish
        window.open_paths([str(demo_case_dir())])
    assert window.windowTitle() == f"{demo_case_dir().name} — {APP_NAME}"
    window.retranslate()  # a language switch keeps the case in the title
    assert window.windowTitle().startswith(demo_case_dir().name)
