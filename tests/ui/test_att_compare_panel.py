"""ComparePanel: two logs or CSVs, matched and one-sided operators, improvement/regression colouring, exports."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.compare_inputs import compare_runs
from autofuse_studio.core.att.compare_output import comparison_text
from autofuse_studio.ui.att.compare_model import CHANGE_ROLE, IMPROVED, ONLY_ONE, REGRESSED
from autofuse_studio.ui.att.compare_panel import ComparePanel
from autofuse_studio.ui.att.jobs import AttJobs
from tests.synth.att_log import SyntheticShape, objective_of, write_synthetic_log

TIMEOUT_MS = 10000
BACKGROUND = Qt.ItemDataRole.BackgroundRole


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    """A baseline with Op0-Op2 and a candidate with Op0-Op3 where Op0 got faster and Op1 slower."""
    base, cand = tmp_path / "default.log", tmp_path / "pgo.log"
    write_synthetic_log(base, SyntheticShape(operators=3))
    write_synthetic_log(cand, SyntheticShape(operators=4))
    text = cand.read_text()
    op0_perf = objective_of(0, 0, 0, 0)  # Op0's best result is result 0; Op1's is result 1
    op1_perf = objective_of(1, 1, 0, 0)
    text = text.replace(f"[Op0] The value of graph0_result0 is {op0_perf}.", "[Op0] The value of graph0_result0 is 900.0.")
    text = text.replace(f"[Op1] The value of graph0_result1 is {op1_perf}.", "[Op1] The value of graph0_result1 is 1500.0.")
    text = text.replace("[Op2] [PROF]Among the templates, tiling case 0 of graph0_result0_g1",
                        "[Op2] [PROF]Among the templates, tiling case 1 of graph0_result0_g1")
    cand.write_text(text)
    return base, cand


@pytest.fixture
def panel(qtbot: QtBot, jobs: AttJobs) -> ComparePanel:
    widget = ComparePanel(jobs)
    qtbot.addWidget(widget)
    return widget


def _compare(panel: ComparePanel, qtbot: QtBot, first: Path, second: Path) -> None:
    panel.set_runs(first, second)
    with qtbot.waitSignal(panel.compared, timeout=TIMEOUT_MS):
        panel.compare()


def _row(panel: ComparePanel, key: str) -> int:
    return next(r for r, row in enumerate(panel.model.rows) if row.key == key)


def test_two_logs_coloured_by_change(panel: ComparePanel, qtbot: QtBot, runs: tuple[Path, Path],
                                     qtmodeltester: ModelTester) -> None:
    _compare(panel, qtbot, *runs)
    qtmodeltester.check(panel.model)
    qtmodeltester.check(panel.proxy)
    perf_column = panel.model.columns.index("Result Perf")
    better = panel.model.index(_row(panel, "Op0|0|0|0"), perf_column)
    worse = panel.model.index(_row(panel, "Op1|0|1|0"), perf_column)
    assert better.data(CHANGE_ROLE) == "improved" and better.data(BACKGROUND).color() == IMPROVED
    assert worse.data(CHANGE_ROLE) == "regressed" and worse.data(BACKGROUND).color() == REGRESSED
    assert better.data() == "1000 → 900 (-10.00%)"
    only = panel.model.rows[_row(panel, "Op3|0|1|0")]
    assert only.presence == "only candidate"
    assert panel.model.index(_row(panel, "Op3|0|1|0"), 0).data(BACKGROUND).color() == ONLY_ONE
    assert "6 matched, 0 only in baseline, 2 only in candidate; 2 improved, 3 regressed" in panel.overview.text()


def test_case_change_and_field_diffs(panel: ComparePanel, qtbot: QtBot, runs: tuple[Path, Path],
                                     qtmodeltester: ModelTester) -> None:
    _compare(panel, qtbot, *runs)
    case_column = panel.model.columns.index("Case")
    assert panel.model.index(_row(panel, "Op2|0|0|1"), case_column).data() == "0 → 1"
    panel.select_key("Op2|0|0|1")
    qtmodeltester.check(panel.fields)
    changed = {panel.fields.index(r, 0).data() for r in range(panel.fields.rowCount())}
    assert {"Case", "s0t_size", "Objective Value"} <= changed


def test_filters(panel: ComparePanel, qtbot: QtBot, runs: tuple[Path, Path]) -> None:
    _compare(panel, qtbot, *runs)
    keys = lambda: {panel.proxy.index(r, 0).data() for r in range(panel.proxy.rowCount())}  # noqa: E731
    panel.view_filter.setCurrentIndex(panel.view_filter.findData("regressed"))
    assert keys() == {"Op1|0|1|0", "Op1|0|1|1", "Op2|0|0|1"}  # Op2 g1 switched to the slower case 1
    panel.view_filter.setCurrentIndex(panel.view_filter.findData("only-one"))
    assert keys() == {"Op3|0|1|0", "Op3|0|1|1"}


def test_csv_input_and_exports(panel: ComparePanel, qtbot: QtBot, runs: tuple[Path, Path], tmp_path: Path) -> None:
    from autofuse_studio.cli.att import main as att_main

    csv1 = tmp_path / "default.csv"
    assert att_main(["summary", str(runs[0]), "-f", "csv", "-o", str(csv1)]) == 0
    _compare(panel, qtbot, csv1, runs[1])
    assert panel.result is not None and panel.result.table1.path == str(csv1)
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT_MS):
        panel.export(tmp_path / "report.txt")
    # The English UI writes English (the reference's Chinese is kept by the drop-in CLI only).
    assert (tmp_path / "report.txt").read_text() == comparison_text(compare_runs(csv1, runs[1]), "en")
    assert "CSV comparison report" in (tmp_path / "report.txt").read_text()
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT_MS):
        panel.export(tmp_path / "report.xlsx")
    assert load_workbook(tmp_path / "report.xlsx").sheetnames == ["Summary", "Field differences", "Performance"]


def test_missing_run_is_reported_in_the_banner(panel: ComparePanel, qtbot: QtBot, tmp_path: Path) -> None:
    panel.set_runs(tmp_path / "nope.csv", tmp_path / "nope2.log")
    with qtbot.waitSignal(panel.jobs.failed, timeout=TIMEOUT_MS):
        panel.compare()
    assert "not found" in panel.jobs.banner.text()
