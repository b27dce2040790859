"""The perf canvas is readable: no bar over a label or a value (with Qt's real font metrics), a drawn
bottleneck dot instead of an emoji, the separator under "Selected:", a sentence instead of a blank canvas,
and a Log file column in the summary of several logs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.workspace import AttWorkspace, load_workspace
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.perf_panel import WHOLE_VIEW, PerfPanel
from autofuse_studio.ui.att.summary_model import LOG_COLUMN, SummaryTableModel
from autofuse_studio.ui.widgets.display_canvas import DisplayCanvas

TIMEOUT_MS = 20_000
PROF = "[{op}] [PROF]Among the templates, tiling case {case} of graph0_result0_g0 is the best choice."


def _perf(op: str, case: int, node: str, pipe: str, terms: str) -> str:
    return f"[{op}] [PERF][graph0_result0_g0_R{case}] {node}[X]: {pipe} = {terms}"


@pytest.fixture
def workspace(tmp_path: Path) -> AttWorkspace:
    """One operator whose terms have long names (the labels the bars used to cover)."""
    log = tmp_path / "perf.log"
    log.write_text("\n".join([
        _perf("FlashAttentionScore", 0, "Load_0", "AIV_MTE2", "(base_cycles=86 + very_long_head_cost_term=14) = 100"),
        _perf("FlashAttentionScore", 0, "Store_0", "AIV_MTE3", "(block_cost=92.8 + head_cost=7.2) = 100"),
        _perf("FlashAttentionScore", 1, "Load_0", "AIV_MTE2", "(base_cycles=1234567.5 + head_cost=1) = 1234568.5"),
        PROF.format(op="FlashAttentionScore", case=0),
        PROF.format(op="Add", case=0),
    ]) + "\n", encoding="utf-8")
    return load_workspace([log])


@pytest.fixture
def panel(qtbot: QtBot, jobs: AttJobs, workspace: AttWorkspace) -> PerfPanel:
    widget = PerfPanel(jobs)
    qtbot.addWidget(widget)
    widget.resize(1300, 800)
    widget.set_workspace(workspace)
    return widget


def _rows(canvas: DisplayCanvas, roles: set[str]) -> list[tuple[str, QRectF]]:
    return [(item.role, canvas.drawn_rect(number)) for number, item in enumerate(canvas.drawn_items())
            if item.role in roles]


def _assert_apart(canvas: DisplayCanvas, texts: set[str], bars: set[str]) -> None:
    """No bar meets a text's drawn box (the text's real advance and height, from Qt's metrics)."""
    boxes = [rect for _, rect in _rows(canvas, texts)]
    shapes = [rect for _, rect in _rows(canvas, bars)]
    assert boxes and shapes
    for box in boxes:
        for shape in shapes:
            assert not box.adjusted(0, 2, 0, -2).intersects(shape), (box, shape)


def test_operator_view_keeps_bars_off_labels_and_values(panel: PerfPanel) -> None:
    _assert_apart(panel.canvas, {"contribution-label", "pipe-label", "contribution-value", "pipe-value"},
                  {"contribution-bar", "pipe-bar", "bottleneck-bar"})
    labels = {item.text for item in panel.canvas.drawn_items() if item.role == "contribution-label"}
    assert "very_long_head_cost_term" in labels  # whole, not cut at 10 characters


def test_all_operators_view_has_no_emoji_and_no_covered_percentages(panel: PerfPanel, qtbot: QtBot,
                                                                    tmp_path: Path) -> None:
    with qtbot.waitSignal(panel.wholeShown, timeout=TIMEOUT_MS):
        panel.mode.setCurrentIndex(WHOLE_VIEW)
    canvas = panel.canvas
    _assert_apart(canvas, {"contribution-label"}, {"contribution-bar"})
    drawn = canvas.drawn_items()
    assert not any("🔴" in (item.text or "") for item in drawn)
    assert [item.fill for item in drawn if item.role == "bottleneck-marker"] == ["#ff0000"]
    selected = next(rect for role, rect in _rows(canvas, {"selected-label"}))
    separator = next(rect for role, rect in _rows(canvas, {"separator"}))
    assert selected.bottom() <= separator.top() + 0.5  # the line runs under the text, not through it
    panel.export_svg(tmp_path / "all.svg")
    svg = (tmp_path / "all.svg").read_text(encoding="utf-8")
    assert "🔴" not in svg and 'class="bottleneck-marker"' in svg


def test_a_junk_log_says_what_was_found(qtbot: QtBot, jobs: AttJobs, tmp_path: Path) -> None:
    junk = tmp_path / "junk.log"
    junk.write_text("hello\nthis is not an ATT log\n", encoding="utf-8")
    widget = PerfPanel(jobs)
    qtbot.addWidget(widget)
    widget.set_workspace(load_workspace([junk]))
    assert widget.canvas.message.startswith("No [PERF] lines in 1 file(s) (2 lines read)")
    assert "No ATT lines at all" in widget.canvas.message
    assert not widget.buttons[2].isEnabled() and not widget.buttons[3].isEnabled()


def test_an_operator_without_perf_lines_says_so(panel: PerfPanel) -> None:
    row = len(panel.operators.operators) + panel.operators.skipped.index("Add")
    panel.operator_view.selectRow(row)
    assert panel.canvas.message.startswith("Add has no [PERF] lines")
    panel.operator_view.selectRow(0)
    assert panel.canvas.message == "" and panel.canvas.drawn_items()


def test_summary_of_several_logs_names_the_log_of_each_row(qtmodeltester: ModelTester, tmp_path: Path) -> None:
    logs = []
    for name in ("run_a.log", "run_b.log"):
        logs.append(tmp_path / name)
        logs[-1].write_text(PROF.format(op="Add", case=0) + "\n", encoding="utf-8")
    model = SummaryTableModel()
    model.set_rows(load_workspace(logs).summary(False).export_rows)
    qtmodeltester.check(model)
    column = model.columns.index(LOG_COLUMN)
    assert column == 1  # right after Operator
    assert sorted(model.index(row, column).data() for row in range(model.rowCount())) == ["run_a.log", "run_b.log"]
    assert model.headerData(column, Qt.Orientation.Horizontal) == "Log file"
    model.set_rows(load_workspace(logs[:1]).summary(False).export_rows)
    assert LOG_COLUMN not in model.columns  # one log: nothing to tell apart
