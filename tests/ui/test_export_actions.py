"""Export actions that cannot act are disabled (and enable when they can); the table export honours the filter."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.perf_panel import EXPORT_PNG, EXPORT_SVG, PerfPanel
from autofuse_studio.ui.att.workbench import AttWorkbench
from autofuse_studio.ui.file_menu import TABLE_SUFFIXES, chosen_path
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.runner.panel import RunnerPanel
from tests.synth.att_log import SyntheticShape
from tests.synth.att_perf_log import write_synthetic_perf_log


def test_att_exports_wait_for_logs(qtbot: QtBot, jobs: AttJobs, tmp_path: Path) -> None:
    panel = PerfPanel(jobs)
    qtbot.addWidget(panel)
    panel.set_workspace(None)
    assert not panel.buttons[EXPORT_PNG].isEnabled() and not panel.buttons[EXPORT_SVG].isEnabled()
    bench = AttWorkbench()
    qtbot.addWidget(bench)
    assert not bench.evidence_button.isEnabled()
    log = tmp_path / "run.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=2, results=2, groups=2, cases=2))
    with qtbot.waitSignal(bench.loaded, timeout=20_000):
        bench.open_paths([log])
    assert bench.evidence_button.isEnabled()
    bench.shutdown()


def test_runner_history_buttons_need_a_history(qtbot: QtBot) -> None:
    panel = RunnerPanel()
    qtbot.addWidget(panel)
    assert panel.history.rowCount() == 0  # fresh settings: no runs yet
    assert not panel.export_button.isEnabled() and not panel.rerun_button.isEnabled()


def test_graph_exports_wait_for_a_graph(qtbot: QtBot) -> None:
    bench = GraphWorkbench()
    qtbot.addWidget(bench)
    assert not any(action.isEnabled() for action in bench.toolbar.export_actions)
    assert bench.start_picture_export(Path("never.svg"), whole=True) is None
    bench.shutdown()


def test_table_exports_wait_for_a_result(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: not window.export_table_action.isEnabled(), timeout=2000)
    assert not window.export_picture_action.isEnabled()


def test_table_export_writes_the_chosen_type() -> None:
    assert chosen_path("/t/precision", "CSV (*.csv)", TABLE_SUFFIXES) == Path("/t/precision.csv")
    assert chosen_path("/t/precision.xlsx", "JSON (*.json)", TABLE_SUFFIXES) == Path("/t/precision.json")
    assert chosen_path("/t/run.2024", "Excel (*.xlsx)", TABLE_SUFFIXES) == Path("/t/run.2024.xlsx")
    assert chosen_path("/t/p.csv", "CSV (*.csv)", TABLE_SUFFIXES) == Path("/t/p.csv")
