"""TensorPanel: shows a generated pair from a background task, re-pools on axis change, exports PNG/SVG."""

from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.precision import tensor_view
from autofuse_studio.core.precision.heatmap import HeatmapAxes
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.core.precision.tensor_view import TensorView
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.ui.precision.tensor_models import StatsTableModel, TopKTableModel
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from autofuse_studio.ui.tasks import TaskRunner

TIMEOUT_MS = 20000


SHAPE = (2, 3, 40, 50)


@pytest.fixture
def pair_paths(tmp_path: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(1)
    origin = rng.standard_normal(SHAPE).astype(np.float16)
    fused = origin.copy()
    fused[1, 2, 30, 40] = 9.0
    fused[0, 0, 0, 0] = np.nan
    paths = tmp_path / "fused.npy", tmp_path / "origin.npy"
    np.save(paths[0], fused)
    np.save(paths[1], origin)
    return paths


@pytest.fixture
def panel(tensor_panel: TensorPanel) -> TensorPanel:
    return tensor_panel


def _show(qtbot: QtBot, panel: TensorPanel, paths: tuple[Path, Path]) -> TensorView:
    layout = LayoutInfo("NCHW", "NCHW", SHAPE)
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS) as blocker:
        panel.show_pair(paths[0], paths[1], layout, layout, "test pair")
    view = blocker.args[0]
    assert isinstance(view, TensorView)
    return view


def _non_blank(image: QImage) -> bool:
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    return len(colours) > 3


def test_panel_shows_a_pair(qtbot: QtBot, panel: TensorPanel, pair_paths: tuple[Path, Path],
                            qtmodeltester: object) -> None:
    view = _show(qtbot, panel, pair_paths)
    assert not panel.busy and not panel.progress.isVisible()
    assert view.top[0].index == (0, 0, 0, 0)  # NaN ranks worst
    assert view.top[1].index == (1, 2, 30, 40)
    assert panel.top_model.rowCount() == 10
    assert panel.top_model.data(panel.top_model.index(1, 1)) == "(1, 2, 30, 40)"
    assert panel.stats_model.data(panel.stats_model.index(3, 1)) == "1"  # one NaN on the fused side
    qtmodeltester.check(panel.top_model)  # type: ignore[attr-defined]
    qtmodeltester.check(panel.stats_model)  # type: ignore[attr-defined]
    # rows N*C = 6; cols H*W = 2000 pooled 32 per cell (at most 64 cells) -> 63 cells
    assert panel.heatmaps.images[2].image.shape == (6, 63)
    text = panel.heatmaps.cell_text(5, (30 * 50 + 40) // 32)
    assert "(1, 2, 30, 40)" in text and "origin" in text


def test_axis_change_updates_heatmap(qtbot: QtBot, panel: TensorPanel, pair_paths: tuple[Path, Path]) -> None:
    _show(qtbot, panel, pair_paths)
    heatmaps = panel.heatmaps
    assert heatmaps.current_axes() == HeatmapAxes((0, 1), (2, 3))
    with qtbot.waitSignal(panel.heatmapReady, timeout=TIMEOUT_MS) as blocker:
        heatmaps.select_axes((2,), (3,))
    assert blocker.args[0].cells == (40, 50)
    assert heatmaps.images[0].image.shape == (40, 50)
    with qtbot.waitSignal(panel.heatmapReady, timeout=TIMEOUT_MS):
        heatmaps.select_axes((3,), (3,))  # overlapping: the column picker moves to a disjoint choice
    axes = heatmaps.current_axes()
    assert axes.rows == (3,) and not set(axes.rows) & set(axes.cols)


def test_exports_and_screenshot(qtbot: QtBot, panel: TensorPanel, pair_paths: tuple[Path, Path],
                                tmp_path: Path) -> None:
    _show(qtbot, panel, pair_paths)
    for tab, plots in ((0, panel.histograms), (1, panel.heatmaps)):
        panel.tabs.setCurrentIndex(tab)
        qtbot.wait(10)
        png = plots.export_png(tmp_path / f"plot{tab}.png")
        image = QImage(str(png))
        assert image.width() == max(800, plots.graphics.width()) and _non_blank(image)
        svg = plots.export_svg(tmp_path / f"plot{tab}.svg")
        assert ET.parse(svg).getroot().tag.endswith("svg")
    image = QImage(str(panel.export_png(tmp_path / "panel.png")))
    assert (image.width(), image.height()) == (panel.width(), panel.height()) and _non_blank(image)
    assert ET.parse(panel.export_svg(tmp_path / "panel.svg")).getroot().tag.endswith("svg")
    shot = tmp_path / "screenshot.png"
    assert panel.grab().save(str(shot))
    assert _non_blank(QImage(str(shot)))
    assert not list(tmp_path.glob(".*.tmp")) and not list(tmp_path.glob(".*.png"))  # no temp files left


def test_show_row_and_errors(qtbot: QtBot, panel: TensorPanel, pair_paths: tuple[Path, Path]) -> None:
    row = PrecisionRow(OUTPUT, "fused_op", 0, "origin_op", 0, "OK", fused_file=str(pair_paths[0]),
                       origin_file=str(pair_paths[1]))
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS):
        panel.show_row(row)
    assert "fused_op" in panel.title.text()
    panel.show_pair(pair_paths[0], pair_paths[0].with_name("missing.npy"))
    qtbot.waitUntil(lambda: panel.banner.isVisible(), timeout=TIMEOUT_MS)
    assert "missing.npy" in panel.banner.text()
    # The pair that could not be read is not shown with the previous pair's plots under its title.
    assert panel.view is None and panel.cover.isVisible() and "could not be read" in panel.cover.text()
    assert "missing.npy" in panel.title.text()


def test_cancel_keeps_window_responsive(qtbot: QtBot, pair_paths: tuple[Path, Path],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    original = tensor_view.compute_tensor_view

    def slow(*args: object, progress: Progress, cancel: CancelToken, **kwargs: object) -> TensorView:
        progress(1, 10, "working")
        while not cancel.cancelled and not gate.is_set():
            gate.wait(0.01)
        cancel.check()
        return original(*args, progress=progress, cancel=cancel, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tensor_view, "compute_tensor_view", slow)
    runner = TaskRunner()
    panel = TensorPanel(runner)
    qtbot.addWidget(panel)
    panel.show()
    panel.show_pair(*pair_paths)
    qtbot.waitUntil(lambda: panel.progress.maximum() == 1000, timeout=TIMEOUT_MS)
    assert panel.busy and panel.cancel_button.isVisible()
    with qtbot.waitSignal(runner.taskEvent, timeout=TIMEOUT_MS, check_params_cb=lambda e: e.kind == "cancelled"):
        panel.cancel_button.click()
    assert not panel.busy and not panel.banner.isVisible() and panel.view is None
    gate.set()
    panel.shutdown()
    runner.shutdown()
    qtbot.wait(50)  # deliver the handle's deferred deletion while the panel and runner still exist


def test_models_empty(qtmodeltester: object) -> None:
    top, stats = TopKTableModel(), StatsTableModel()
    qtmodeltester.check(top)  # type: ignore[attr-defined]
    qtmodeltester.check(stats)  # type: ignore[attr-defined]
    assert top.rowCount(QModelIndex()) == 0 and stats.headerData(1, Qt.Orientation.Horizontal) == "Fused"
