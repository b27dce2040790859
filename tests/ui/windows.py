"""shown_result_window(): a main window at the size the benches and screenshots use, showing a case's result."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow


def shown_result_window(qtbot: QtBot, case: Path, timeout_ms: int = 60_000) -> MainWindow:
    """A shown 1600x1000 MainWindow once `case` is analysed and its result shown (table, selection, graph)."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    with qtbot.waitSignal(window.resultShown, timeout=timeout_ms):
        window.open_paths([str(case)])
    return window
