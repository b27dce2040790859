"""An ATT log dropped on the Precision tab (or given with other paths) opens in the ATT tab."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from tests.synth.att_log import SyntheticShape
from tests.synth.att_perf_log import write_synthetic_perf_log
from tests.ui.test_case_panel import drop

TIMEOUT_MS = 20_000


def test_a_dropped_att_log_opens_in_the_att_tab(qtbot: QtBot, tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=2, results=1, groups=1, cases=2))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.tabs.currentWidget() is window.workbench
    with qtbot.waitSignal(window.att.loaded, timeout=TIMEOUT_MS):
        assert drop(window, [log])
    assert window.tabs.currentIndex() == window.tab_status.page(window.att)
    assert window.att.workspace is not None and window.att.workspace.logs == [log.resolve()]
    assert not window.case_panel.notes.isVisible()  # nothing was "ignored"
    assert window.case_panel.edits["af_open_graph"].text() == ""


def test_a_folder_of_logs_opens_in_the_att_tab(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    write_synthetic_perf_log(folder / "a.log", SyntheticShape(operators=1, results=1, groups=1, cases=1))
    window = MainWindow()
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.att.loaded, timeout=TIMEOUT_MS):
        window.open_paths([str(folder)])
    assert window.tabs.currentIndex() == window.tab_status.page(window.att)
