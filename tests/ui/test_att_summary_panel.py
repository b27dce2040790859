"""SummaryPanel: best/all results, parse status visible and filterable, CSV/xlsx exports equal the CLI's."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.cli.att import main as att_main
from autofuse_studio.core.att.workspace import load_workspace
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.summary_model import PROBLEM_FILL, PROBLEMS
from autofuse_studio.ui.att.summary_panel import SummaryPanel
from tests.synth.att_log import SyntheticShape, write_synthetic_log

TIMEOUT_MS = 10000


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "run.log"
    write_synthetic_log(path, SyntheticShape(operators=3, results=2, groups=2, cases=2))
    with path.open("a") as handle:  # an operator without template or best-result lines
        handle.write("[Lonely] [PROF]The value of s0t_size is 7 in graph0_result0_g0_0.\n")
    return path


@pytest.fixture
def panel(qtbot: QtBot, jobs: AttJobs, log: Path) -> SummaryPanel:
    widget = SummaryPanel(jobs)
    qtbot.addWidget(widget)
    widget.set_workspace(load_workspace([log]))
    return widget


def _column(panel: SummaryPanel, name: str) -> list[str]:
    column = panel.model.columns.index(name)
    return [panel.proxy.index(r, column).data() for r in range(panel.proxy.rowCount())]


def test_model_tester_and_best_vs_all(panel: SummaryPanel, qtbot: QtBot, qtmodeltester: ModelTester) -> None:
    qtmodeltester.check(panel.model)
    qtmodeltester.check(panel.proxy)
    assert panel.model.rowCount() == 3 * 2 + 1  # best result: 3 operators x 2 groups, plus Lonely
    with qtbot.waitSignal(panel.refreshed, timeout=TIMEOUT_MS):
        panel.results.setCurrentIndex(1)  # all results are built in the background
    assert panel.model.rowCount() == 3 * 2 * 2 + 1
    qtmodeltester.check(panel.model)


def test_parse_status_is_visible_and_filterable(panel: SummaryPanel) -> None:
    statuses = _column(panel, "Parse Status")
    assert statuses.count("ok") == 6 and "missing_group_case" in statuses
    status_column = panel.model.columns.index("Parse Status")
    lonely = _column(panel, "Operator").index("Lonely")
    assert panel.proxy.index(lonely, status_column).data(8).color() == PROBLEM_FILL  # 8 = BackgroundRole
    panel.set_status_filter(PROBLEMS)
    assert _column(panel, "Operator") == ["Lonely"]
    panel.set_status_filter("ok")
    assert set(_column(panel, "Operator")) == {"Op0", "Op1", "Op2"}
    panel.search.setText("op1")
    assert set(_column(panel, "Operator")) == {"Op1"}
    assert "2 of 7 row(s) shown; 1 with parse problems" in panel.counts.text()


def test_csv_export_matches_the_cli(panel: SummaryPanel, qtbot: QtBot, log: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT_MS):
        panel.export(tmp_path / "gui.csv")
    assert att_main(["summary", str(log), "-f", "csv", "-o", str(tmp_path / "cli.csv")]) == 0
    capsys.readouterr()
    assert (tmp_path / "gui.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()


def test_xlsx_export_has_the_status_column(panel: SummaryPanel, qtbot: QtBot, tmp_path: Path) -> None:
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT_MS):
        panel.export(tmp_path / "gui.xlsx")
    sheet = load_workbook(tmp_path / "gui.xlsx").active
    header = [c.value for c in sheet[1]]
    assert header[0] == "Operator" and header[-1] == "Parse Status"
    assert sheet.max_row == 1 + panel.model.rowCount()


def test_double_click_requests_the_case(panel: SummaryPanel, qtbot: QtBot) -> None:
    with qtbot.waitSignal(panel.caseRequested, timeout=2000) as blocker:
        panel.view.doubleClicked.emit(panel.proxy.index(0, 0))
    operator, key = blocker.args
    assert operator == "Op0" and key.label == "graph0_result0_g0_0"
