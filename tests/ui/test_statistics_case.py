"""Dump folders as they come off the NPU, dropped on the window: raw dump files, and statistics CSVs (statistics
rows in the table, the tensor panel's statistics view, statistics limits that re-judge the rows live)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.graphview.style import VERDICT_FILLS
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, VERDICT_OK, PrecisionRow
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.limit_input import INVALID_STYLE
from autofuse_studio.ui.precision.stats_view import BROKEN_ROLE
from autofuse_studio.ui.precision.table_model import verdict_colour
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from tests.core.npu_cases import npu_run_folder
from tests.ui.test_case_panel import drop

WAIT_MS = 60_000
TOOLTIP = Qt.ItemDataRole.ToolTipRole


@pytest.fixture(scope="module")
def raw_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder with raw dump files (read-only)."""
    return npu_run_folder(tmp_path_factory.mktemp("raw"), "raw")


@pytest.fixture(scope="module")
def stats_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder with statistics CSVs (read-only); its NPY original is in ../npy."""
    return npu_run_folder(tmp_path_factory.mktemp("stats"), "stats")


def _dropped(qtbot: QtBot, run: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        assert drop(window, [run])
    return window


@pytest.fixture
def stats_window(qtbot: QtBot, stats_run: Path) -> Iterator[MainWindow]:
    """The statistics run dropped on a window and analysed; English and default limits again afterwards."""
    window = _dropped(qtbot, stats_run)
    yield window
    window.set_language("en")


def _panel(window: MainWindow) -> TensorPanel:
    panel = window.workbench.tensor_panel
    assert isinstance(panel, TensorPanel)
    return panel


def _cell(window: MainWindow, row: PrecisionRow, key: str, role: int = Qt.ItemDataRole.DisplayRole) -> object:
    model = window.workbench.model
    return model.value(model.position_of(row), COLUMN_KEYS.index(key), role)


def _select(window: MainWindow, row: PrecisionRow) -> None:
    assert window.workbench.view.select_row(row)


def _culprit(window: MainWindow) -> PrecisionRow:
    result = window.workbench.result
    assert result is not None and result.first_divergence is not None
    return result.first_divergence


def test_a_raw_run_folder_is_a_tensor_case(qtbot: QtBot, raw_run: Path) -> None:
    window = _dropped(qtbot, raw_run)
    edits = window.case_panel.edits
    assert Path(edits["af_open_data"].text()) == raw_run / "af_open" / "dump"
    assert Path(edits["af_close_data"].text()) == raw_run / "af_close" / "dump"
    assert window.tabs.currentWidget() is not window.att  # not taken for an ATT log folder
    raws = DumpIndex.build(raw_run / "af_open" / "dump").counts["raw"]
    summary = window.case_panel.dump_summary.text()
    assert f"af-open: 2 steps (0, 1), {raws:,} raw dump files, 0 NPYs" in summary
    culprit = _culprit(window)
    assert culprit.metrics is not None and culprit.stats is None
    assert window.workbench.view.isColumnHidden(COLUMN_KEYS.index("statistics"))  # a tensor case looks as before
    panel = _panel(window)
    qtbot.waitUntil(lambda: panel.view is not None, timeout=WAIT_MS)
    assert panel.pages.currentWidget() is panel.tabs and not panel.cover.isVisible()


def test_a_statistics_run_folder_shows_statistics_rows(qtbot: QtBot, stats_window: MainWindow,
                                                      stats_run: Path) -> None:
    window = stats_window
    assert Path(window.case_panel.edits["af_open_data"].text()) == stats_run / "af_open" / "dump"
    csvs = DumpIndex.build(stats_run / "af_open" / "dump").counts["stats"]
    assert f"af-open: statistics dumps ({csvs:,} CSVs), 2 steps (0, 1)" in window.case_panel.dump_summary.text()
    culprit = _culprit(window)
    assert culprit.stats is not None and culprit.metrics is None and culprit.verdict == VERDICT_CULPRIT
    assert not window.workbench.view.isColumnHidden(COLUMN_KEYS.index("statistics"))
    text = str(_cell(window, culprit, "statistics"))
    assert text.startswith("Avg ") and " vs " in text and text.endswith("%)")
    assert _cell(window, culprit, "cosine") == "—"
    assert _cell(window, culprit, "max_rel_err") != "-"  # the worst statistic's relative difference, as the CLI
    tooltip = str(_cell(window, culprit, "statistics", TOOLTIP))
    assert tooltip.startswith("3 statistics break the limits.")
    broken = [line.split()[1] for line in tooltip.splitlines() if line.startswith("•")]
    assert broken[0] == "Avg" and sorted(broken) == ["Avg", "Max", "Min"]  # worst first
    assert "1% relative and 0.001 absolute" in tooltip
    # Colours follow the verdicts: the table row, the overview cell and the graph node.
    assert _cell(window, culprit, "verdict", Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("CULPRIT")
    cell = window.workbench.overview.grid.overview.cell(culprit.rank, culprit.step)
    assert cell is not None and cell.worst_verdict == VERDICT_CULPRIT
    pane = window.graph.open_pane

    def node_fill() -> str | None:
        style, graph = pane.node_style(), pane.graph
        node = graph.node_of_op(culprit.fused_op) if graph is not None else None
        return style.fills[node] if style is not None and node is not None else None

    qtbot.waitUntil(lambda: node_fill() == VERDICT_FILLS[VERDICT_CULPRIT], timeout=WAIT_MS)


def test_the_tensor_panel_shows_the_two_statistic_sets(qtbot: QtBot, stats_window: MainWindow,
                                                       qtmodeltester: object) -> None:
    window, panel = stats_window, _panel(stats_window)
    culprit = _culprit(window)
    _select(window, culprit)
    view = panel.stats_view
    assert panel.pages.currentWidget() is view and panel.view is None and not panel.busy
    assert panel.title.text().startswith(f"{culprit.fused_op} output 0 vs ")
    model = view.model
    names = [model.data(model.index(row, 0)) for row in range(model.rowCount())]
    assert names == ["Elements", "Max", "Min", "Avg", "NaN count", "-Inf count", "+Inf count"]  # no L2 norm column
    broken = [model.data(model.index(row, 0)) for row in range(model.rowCount()) if model.data(model.index(row, 3),
                                                                                               BROKEN_ROLE)]
    assert broken == ["Max", "Min", "Avg"]
    avg = names.index("Avg")
    assert model.data(model.index(avg, 4)).endswith("%")
    assert model.data(model.index(avg, 0), Qt.ItemDataRole.BackgroundRole) is not None
    assert view.verdict.text().startswith("3 statistics break the limits.")
    assert "1% relative" in view.details.text()
    qtmodeltester.check(model)  # type: ignore[attr-defined]


def test_switching_rows_never_shows_the_previous_rows_data(qtbot: QtBot, stats_window: MainWindow,
                                                           stats_run: Path) -> None:
    window, panel = stats_window, _panel(stats_window)
    result = window.workbench.result
    assert result is not None
    culprit = _culprit(window)
    unmapped = next(row for row in result.rows if row.status == "NO_MAPPING")
    missing = next(row for row in result.rows if row.status == "FILE_NOT_FOUND" and row.fused_file)
    _select(window, culprit)
    assert panel.stats_view.model.rowCount() > 0
    for row, reason in ((missing, "has no statistics to compare (FILE_NOT_FOUND)"), (unmapped, "no file pair")):
        _select(window, row)
        assert panel.title.text().startswith(f"{row.fused_op} output")
        assert panel.stats_view.model.rowCount() == 0 and reason in panel.stats_view.verdict.text()
    # A tensor row (the NPYs the statistics were taken from), then the statistics row again.
    npy = stats_run.parent / "npy"
    fused, origin = (DumpIndex.build(npy / side / "dump") for side in ("af_open", "af_close"))
    assert culprit.origin_op is not None
    tensor_row = PrecisionRow("output", culprit.fused_op, 0, culprit.origin_op, 0, "OK", step="0",
                              fused_file=str(fused.lookup(culprit.fused_op, "output", 0, "0").path),
                              origin_file=str(origin.lookup(culprit.origin_op, "output", 0, "0").path))
    panel.show_row(tensor_row)
    assert panel.pages.currentWidget() is panel.tabs and panel.cover.isVisible()  # reading: no old plots
    assert panel.view is None and panel.title.text().startswith(f"{culprit.fused_op} output 0 vs model")
    qtbot.waitUntil(lambda: panel.view is not None, timeout=WAIT_MS)
    assert not panel.cover.isVisible()
    panel.show_row(tensor_row)  # and leave while it is read: its late result must not show up
    _select(window, missing)
    _select(window, culprit)
    qtbot.wait(300)
    assert panel.pages.currentWidget() is panel.stats_view and panel.view is None and panel.pair is None
    assert panel.stats_view.row is culprit and panel.stats_view.model.rowCount() > 0


def test_a_statistics_limit_edit_judges_the_rows_again(qtbot: QtBot, stats_window: MainWindow) -> None:
    window, panel = stats_window, _panel(stats_window)
    culprit = _culprit(window)
    _select(window, culprit)
    editor = window.thresholds_editor
    edit = editor.stats_edits["max_rel"]
    edit.clear()
    qtbot.keyClicks(edit, "abc")  # marked as it is typed; nothing in force changes
    assert edit.styleSheet() == INVALID_STYLE and editor.problem_label.isVisible()
    assert "0.01" in editor.problem_label.text()
    edit.editingFinished.emit()
    assert culprit.verdict == VERDICT_CULPRIT
    edit.clear()
    qtbot.keyClicks(edit, "2")  # 200%: the culprit's Avg (115% apart) passes now
    edit.editingFinished.emit()
    assert edit.styleSheet() == "" and editor.problem_label.isHidden()
    assert culprit.verdict == VERDICT_OK and window.workbench.legend.labels["CULPRIT"].text() == "CULPRIT 0"
    assert window.settings.thresholds().stats.default.max_rel == 2  # remembered like the other limits
    assert "200% relative" in str(_cell(window, culprit, "statistics", TOOLTIP))
    assert panel.stats_view.verdict.text().startswith("Every statistic is within the limits.")
    nonfinite = editor.stats_edits["max_nonfinite_diff"]
    nonfinite.clear()
    qtbot.keyClicks(nonfinite, "1.5")
    assert nonfinite.styleSheet() == INVALID_STYLE and "whole number" in nonfinite.toolTip()
    editor.reset_button.click()
    assert culprit.verdict == VERDICT_CULPRIT and window.settings.thresholds().stats.default.max_rel == 0.01
    assert panel.stats_view.verdict.text().startswith("3 statistics break the limits.")


def test_statistics_texts_are_chinese(qtbot: QtBot, stats_window: MainWindow) -> None:
    window = stats_window
    culprit = _culprit(window)
    _select(window, culprit)
    window.set_language("zh_CN")
    qtbot.waitUntil(lambda: window.workbench.notices.toggle.text() == "警告")
    assert "统计 dump（" in window.case_panel.dump_summary.text()
    assert str(_cell(window, culprit, "statistics")).startswith("平均值 ")
    view = _panel(window).stats_view
    assert view.model.headerData(4, Qt.Orientation.Horizontal) == "相对差"
    assert view.verdict.text().startswith("3 个统计值超出限值。")
    assert window.thresholds_editor.stats_box.title() == "统计值限值（统计 dump）"
