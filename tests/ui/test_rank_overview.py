"""The rank × step overview, the Rank column and filters, the graph's colours per rank, the case dock summary."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.run.spec import RunSpec
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.table_model import verdict_colour
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.synth import CaseManifest, demo_spec, generate_case
from tests.synth.spec import multi_rank_spec

WAIT_MS = 60_000


def _request(root: Path, manifest: CaseManifest) -> RunSpec:
    return RunSpec(root / manifest.graphs["af_open"], root / manifest.graphs["af_close"],
                        root / manifest.data["af_open"], root / manifest.data["af_close"], jobs=2)


@pytest.fixture(scope="module")
def ranked_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    """Four ranks, two steps, the culprit on rank 2, rank 3 without an af-close dump."""
    root = tmp_path_factory.mktemp("ranked")
    return root, generate_case(root, multi_rank_spec(missing_ranks=(("af_close", 3),)))


@pytest.fixture(scope="module")
def ranked_result(ranked_case: tuple[Path, CaseManifest]) -> PrecisionResult:
    return run_mode1(_request(*ranked_case))


@pytest.fixture
def bench(qtbot: QtBot, ranked_result: PrecisionResult) -> PrecisionWorkbench:
    workbench = PrecisionWorkbench()
    qtbot.addWidget(workbench)
    workbench.resize(1400, 800)
    workbench.show()
    workbench.set_result(ranked_result, {})
    return workbench


def test_overview_model_passes_the_model_tester(bench: PrecisionWorkbench, qtmodeltester: ModelTester) -> None:
    qtmodeltester.check(bench.overview.grid)


def test_overview_cells_show_worst_verdict_and_min_cosine(bench: PrecisionWorkbench) -> None:
    grid = bench.overview.grid
    assert bench.overview.isVisible()
    assert (grid.rowCount(), grid.columnCount()) == (2, 4)
    assert grid.headerData(2, Qt.Orientation.Horizontal) == "rank 2"
    assert grid.headerData(1, Qt.Orientation.Vertical) == "step 1"
    culprit = grid.index_of("2", "0")
    assert grid.data(culprit, Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("CULPRIT")
    assert grid.data(culprit).startswith("0.9")
    assert "CULPRIT: 1" in grid.data(culprit, Qt.ItemDataRole.ToolTipRole)
    assert "first divergence: autofuse_3_Mul_Add output 0" in grid.data(culprit, Qt.ItemDataRole.ToolTipRole)
    healthy = grid.index_of("0", "1")
    assert grid.data(healthy, Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("OK")
    missing = grid.index_of("3", "0")
    assert grid.data(missing) == "–"
    assert grid.data(missing, Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("UNKNOWN")


def test_clicking_a_cell_filters_the_table_and_moves_the_focus(qtbot: QtBot, bench: PrecisionWorkbench) -> None:
    overview, grid = bench.overview, bench.overview.grid
    total = bench.proxy.rowCount()
    with qtbot.waitSignal(bench.focusChanged, timeout=2000) as focus:
        overview.clicked.emit(grid.index_of("1", "1"))
    assert focus.args == ["1", "1"]
    visible = bench.proxy.visible_rows()
    assert visible and {(row.rank, row.step) for row in visible} == {("1", "1")}
    assert bench.filter_bar.chosen_rank_step() == ("1", "1")
    overview.clicked.emit(grid.index_of("1", "1"))  # the same cell again: every row
    assert bench.proxy.rowCount() == total
    assert bench.filter_bar.chosen_rank_step() == (None, None)


def test_rank_column_and_filter(bench: PrecisionWorkbench) -> None:
    rank_column = COLUMN_KEYS.index("rank")
    assert not bench.view.isColumnHidden(rank_column)
    assert bench.view.horizontalHeader().visualIndex(rank_column) == 0
    bar = bench.filter_bar
    assert bar.rank_combo.isVisibleTo(bench) and bar.step_combo.isVisibleTo(bench)
    assert [bar.rank_combo.itemData(number) for number in range(bar.rank_combo.count())] == [None, "0", "1", "2", "3"]
    bar.rank_combo.setCurrentIndex(bar.rank_combo.findData("2"))
    assert {row.rank for row in bench.proxy.visible_rows()} == {"2"}
    bar.search.setText("autofuse_3")
    assert bench.go_to_first_divergence()
    assert bench.view.selected_rows()[0].rank == "2"


def test_overview_recolours_when_thresholds_change(bench: PrecisionWorkbench, ranked_result: PrecisionResult) -> None:
    from autofuse_studio.core.precision.thresholds import Limits, Thresholds

    grid = bench.overview.grid
    bench.apply_thresholds(Thresholds(Limits(cosine=0.5)))
    assert grid.data(grid.index_of("2", "0"), Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("OK")
    assert ranked_result.first_divergence_by_rank["2"] is None
    bench.apply_thresholds(Thresholds())
    assert grid.data(grid.index_of("2", "0"), Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("CULPRIT")


def test_overview_picture(bench: PrecisionWorkbench, tmp_path: Path) -> None:
    image = bench.overview.grab().toImage()
    assert image.height() < 160
    culprit = QColor(verdict_colour("CULPRIT")).rgb()
    assert any(image.pixel(x, y) == culprit for x in range(0, image.width(), 3) for y in range(0, image.height(), 3))


def test_single_rank_single_step_hides_the_overview(qtbot: QtBot, tmp_path: Path) -> None:
    manifest = generate_case(tmp_path, multi_rank_spec(ranks=1, culprit_rank=0, steps=1))
    result = run_mode1(_request(tmp_path, manifest))
    workbench = PrecisionWorkbench()
    qtbot.addWidget(workbench)
    workbench.show()
    workbench.set_result(result, {})
    assert not workbench.overview.isVisible()
    assert workbench.view.isColumnHidden(COLUMN_KEYS.index("rank"))
    assert not workbench.filter_bar.rank_combo.isVisibleTo(workbench)


def test_main_window_dock_summary_and_graph_colours_per_rank(qtbot: QtBot,
                                                             ranked_case: tuple[Path, CaseManifest]) -> None:
    root, _ = ranked_case
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(root)])
    summary = window.case_panel.dump_summary
    assert summary.isVisible()
    assert "af-open: 4 ranks (0, 1, 2, 3), 2 steps" in summary.text()
    assert "af-close: 3 ranks (0, 1, 2)" in summary.text()
    assert "differ" in summary.text()
    assert "(rank 2, step 0)" in window.statusBar().currentMessage()
    graph = window.graph
    assert graph.focus == ("2", "0")
    assert {(row.rank, row.step) for row in graph.index.result.rows} == {("2", "0")}
    qtbot.waitUntil(lambda: "colours of rank 2, step 0" in graph.legend.text(), timeout=WAIT_MS)
    culprit_rows = graph.index.rows_of_fused("autofuse_3_Mul_Add")
    assert [row.verdict for row in culprit_rows] == ["CULPRIT"]
    window.workbench.overview.clicked.emit(window.workbench.overview.grid.index_of("0", "1"))
    assert graph.focus == ("0", "1")
    assert [row.verdict for row in graph.index.rows_of_fused("autofuse_3_Mul_Add")] == ["OK"]
    image: QImage = window.grab().toImage()
    assert image.width() >= 1600


def test_single_device_demo_keeps_its_look(qtbot: QtBot, tmp_path: Path) -> None:
    manifest = generate_case(tmp_path, demo_spec())
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(tmp_path)])
    assert window.workbench.view.isColumnHidden(COLUMN_KEYS.index("rank"))
    assert "differ" not in window.case_panel.dump_summary.text()
    # Two steps, one rank: the overview shows the two steps.
    assert window.workbench.overview.isVisible()
    assert window.workbench.overview.grid.columnCount() == 1
    assert manifest.first_divergence is not None
