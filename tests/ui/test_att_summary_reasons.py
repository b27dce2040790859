"""Issue 28 item 10: the ATT tab shows its reasons (parse status on screen, readable numbers, notes, one palette)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.runs.analysis import analyze_run
from autofuse_studio.core.att.workspace import load_workspace
from autofuse_studio.ui.att import compare_model
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.palette import CHANGED_SAME_PERF, IMPROVED, ONLY_ONE, REGRESSED
from autofuse_studio.ui.att.perf_panel import PerfPanel
from autofuse_studio.ui.att.runs_model import RunOperatorsModel
from autofuse_studio.ui.att.summary_model import PROBLEMS
from autofuse_studio.ui.att.summary_panel import SummaryPanel
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH
from tests.core.runroots import standard_run_root
from tests.synth.att_log import SyntheticShape, write_synthetic_log
from tests.synth.att_runs import CASE, FASTER, SLOWER

LONG_NAME = "Fused_" + "_".join(f"layer{n}/attention/MatMul" for n in range(14))  # ~300 characters
BACKGROUND = Qt.ItemDataRole.BackgroundRole


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "run.log"
    write_synthetic_log(path, SyntheticShape(operators=3, results=2, groups=2, cases=2))
    with path.open("a") as handle:  # operators without template or best-result lines: parse problems
        handle.write("[Lonely] [PROF]The value of s0t_size is 7 in graph0_result0_g0_0.\n")
        handle.write(f"[{LONG_NAME}] [PROF]The value of s0t_size is 8 in graph0_result0_g0_0.\n")
    return path


@pytest.fixture
def panel(qtbot: QtBot, jobs: AttJobs, log: Path) -> SummaryPanel:
    widget = SummaryPanel(jobs)
    qtbot.addWidget(widget)
    widget.resize(1280, 720)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_workspace(load_workspace([log]))
    return widget


def test_parse_status_is_on_screen_at_1280(panel: SummaryPanel) -> None:
    assert len(LONG_NAME) > 250
    status = panel.model.columns.index("Parse Status")
    left = panel.view.columnViewportPosition(status)
    assert left >= 0 and left + panel.view.columnWidth(status) <= panel.view.viewport().width() <= 1280
    operator = panel.model.columns.index("Operator")
    assert panel.view.columnWidth(operator) <= MAX_WIDTH  # a long name is elided, its tooltip is whole
    assert panel.view.textElideMode() == Qt.TextElideMode.ElideMiddle and not panel.view.wordWrap()
    row = next(r for r in range(panel.model.rowCount()) if panel.model.rows[r].operator == LONG_NAME)
    assert panel.model.index(row, operator).data(Qt.ItemDataRole.ToolTipRole) == LONG_NAME


def test_clicking_the_problem_count_shows_those_rows(panel: SummaryPanel, qtbot: QtBot) -> None:
    panel.view.horizontalScrollBar().setValue(panel.view.horizontalScrollBar().maximum())
    assert "2 with parse problems" in panel.counts.text()
    assert panel.counts.cursor().shape() == Qt.CursorShape.PointingHandCursor
    qtbot.mouseClick(panel.counts, Qt.MouseButton.LeftButton)
    assert panel.status.currentData() == PROBLEMS
    operators = {panel.proxy.index(r, 0).data(Qt.ItemDataRole.ToolTipRole) for r in range(panel.proxy.rowCount())}
    assert operators == {"Lonely", LONG_NAME}
    status = panel.model.columns.index("Parse Status")
    assert panel.view.currentIndex().row() == 0 and panel.view.currentIndex().column() == status
    left = panel.view.columnViewportPosition(status)
    assert 0 <= left < panel.view.viewport().width()  # scrolled back to where the reason is
    assert panel.counts.cursor().shape() == Qt.CursorShape.ArrowCursor  # already filtered: nothing to click


def test_numbers_right_aligned_and_integers_without_point_zero(panel: SummaryPanel, tmp_path: Path,
                                                               qtbot: QtBot) -> None:
    objective = panel.model.columns.index("Objective Value")
    raw = panel.model.cells[0]["Objective Value"]
    assert raw.endswith(".0")  # the CLI's text, e.g. 1000.0
    cell = panel.model.index(0, objective)
    assert cell.data() == raw[:-2] and "." not in cell.data()
    assert cell.data(Qt.ItemDataRole.TextAlignmentRole) == int(Qt.AlignmentFlag.AlignRight
                                                               | Qt.AlignmentFlag.AlignVCenter)
    fraction = panel.model.columns.index("s0t_size")
    assert panel.model.index(0, fraction).data().endswith(".5")  # other numbers as they are
    operator = panel.model.index(0, panel.model.columns.index("Operator"))
    assert operator.data(Qt.ItemDataRole.TextAlignmentRole) is None  # words stay left-aligned
    with qtbot.waitSignal(panel.exported, timeout=10000):
        panel.export(tmp_path / "gui.csv")
    assert f",{raw}," in (tmp_path / "gui.csv").read_text(encoding="utf-8-sig")  # exports keep the CLI's text


def test_an_empty_perf_canvas_says_why_and_what_to_do(qtbot: QtBot, jobs: AttJobs, tmp_path: Path) -> None:
    widget = PerfPanel(jobs)
    qtbot.addWidget(widget)
    assert widget.canvas.message.startswith("No ATT logs open.")  # before anything is opened
    path = tmp_path / "no_perf.log"
    write_synthetic_log(path, SyntheticShape(operators=2, results=1, groups=1, cases=2))
    widget.set_workspace(load_workspace([path]))
    lines = widget.canvas.message.splitlines()
    assert lines[0].startswith("No [PERF] lines in 1 file(s)")
    assert lines[-1] == ("To see a perf picture, open the logs of a compile whose ATT output includes the [PERF] "
                         "perf-formula lines (Open logs… or drop them here).")


def test_runs_view_tints_like_compare(tmp_path: Path) -> None:
    root = standard_run_root(tmp_path / "run", changes={1: CASE, 2: FASTER, 3: SLOWER})
    model = RunOperatorsModel()
    model.set_analysis(analyze_run(root))
    fills = {diff.name: model.index(row, 0).data(BACKGROUND) for row, diff in enumerate(model.diffs)}
    deltas = {diff.name: diff.perf_delta_pct for diff in model.diffs}
    assert deltas["Op2"] is not None and deltas["Op2"] < 0 and deltas["Op3"] is not None and deltas["Op3"] > 0
    assert fills["Op2"].color() == IMPROVED == compare_model.IMPROVED  # faster: Compare's green
    assert fills["Op3"].color() == REGRESSED == compare_model.REGRESSED  # slower: Compare's red
    assert deltas["Op1"] == 0 and fills["Op1"].color() == CHANGED_SAME_PERF  # another case, same perf
    assert len({IMPROVED.name(), REGRESSED.name(), CHANGED_SAME_PERF.name()}) == 3
    assert fills["Op8"].color() == ONLY_ONE and fills["Op0"] is None
