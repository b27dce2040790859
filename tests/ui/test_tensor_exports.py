"""Tensor panel: SVG exports read back (plots inside their axes), pyqtgraph's Export… → SVG, the Export menu,
heatmap colour ranges and numbered colour bars, empty histograms that say why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.tensor_view import TensorView, ViewOptions
from autofuse_studio.ui.precision import tensor_panel as tensor_panel_module
from autofuse_studio.ui.precision.plot_svg_exporter import install_svg_exporter
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from tests.ui.svg_bounds import SvgShapes, numbers_right_of, read_svg

TIMEOUT_MS = 20000
SHAPE = (2, 3, 40, 50)
AXIS_COLOUR = "#969696"  # pyqtgraph's default axis pen
CURVES = ("#1f77b4", "#ff7f0e", "#d62728")  # fused, origin, error pens of tensor_plots


def _save(tmp_path: Path, fused: np.ndarray, origin: np.ndarray) -> tuple[Path, Path]:
    paths = tmp_path / "fused.npy", tmp_path / "origin.npy"
    np.save(paths[0], fused)
    np.save(paths[1], origin)
    return paths


@pytest.fixture
def biased(tmp_path: Path) -> tuple[Path, Path]:
    """A pair whose fused side is the origin minus a constant 0.2 (in float32)."""
    origin = np.random.default_rng(5).standard_normal(SHAPE).astype(np.float32)
    return _save(tmp_path, origin - np.float32(0.2), origin)


@pytest.fixture
def panel(qtbot: QtBot) -> Iterator[TensorPanel]:
    widget = TensorPanel(options=ViewOptions(top_k=10, max_cells=64, block_elements=4096))
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.shutdown()


def _show(qtbot: QtBot, panel: TensorPanel, paths: tuple[Path, Path]) -> TensorView:
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS) as blocker:
        panel.show_pair(*paths)
    return blocker.args[0]  # type: ignore[no-any-return]


def _assert_inside_axes(shapes: SvgShapes, plots: int) -> None:
    rects = shapes.axis_rects(AXIS_COLOUR)
    assert len(rects) == plots, rects
    strokes = [box for colour in CURVES for box in shapes.boxes(colour)]
    assert strokes or shapes.images
    for box in strokes:
        assert any(box.inside(rect) for rect in rects), (box, rects)
    # Heatmap images fill their plot; the narrow colour bars beside them stay within its height.
    top = min(rect.top for rect in rects)
    for image in shapes.images:
        if image.bottom < top or any(rect.inside(image) for rect in rects):
            continue  # widget styling drawn as images (above the plots, or a tab page behind them)
        if image.width > 40:
            assert any(image.inside(rect) for rect in rects), (image, rects)
        else:
            assert any(rect.top - 2 <= image.top and image.bottom <= rect.bottom + 2 for rect in rects)


def test_plot_svgs_parse_and_curves_stay_inside_their_axes(qtbot: QtBot, panel: TensorPanel,
                                                           biased: tuple[Path, Path], tmp_path: Path) -> None:
    _show(qtbot, panel, biased)
    panel.tabs.setCurrentWidget(panel.histograms)
    qtbot.wait(20)
    histograms = read_svg(panel.histograms.export_svg(tmp_path / "h.svg"))
    _assert_inside_axes(histograms, plots=3)
    assert histograms.boxes("#1f77b4") and histograms.boxes("#d62728")
    panel.tabs.setCurrentWidget(panel.heatmaps)
    qtbot.wait(20)
    heatmaps = read_svg(panel.heatmaps.export_svg(tmp_path / "m.svg"))
    assert len([image for image in heatmaps.images if image.width > 40]) == 4
    _assert_inside_axes(heatmaps, plots=4)
    whole = read_svg(panel.export_svg(tmp_path / "panel.svg"))  # the whole widget, heatmaps on top
    _assert_inside_axes(whole, plots=4)


def test_zoomed_plots_are_cut_at_their_axes(qtbot: QtBot, panel: TensorPanel, biased: tuple[Path, Path],
                                            tmp_path: Path) -> None:
    _show(qtbot, panel, biased)
    panel.tabs.setCurrentWidget(panel.histograms)
    histograms = panel.histograms
    histograms.values_plot.setRange(xRange=(-0.5, 0.5), yRange=(0, 300), padding=0)  # curves run past both axes
    qtbot.wait(20)
    for svg in (histograms.export_svg(tmp_path / "zoom.svg"), panel.export_svg(tmp_path / "zoom_panel.svg")):
        shapes = read_svg(svg)
        _assert_inside_axes(shapes, plots=3)
        values = shapes.axis_rects(AXIS_COLOUR)[0]
        fused = shapes.union("#1f77b4")
        assert fused is not None and fused.left <= values.left + 2 and fused.right >= values.right - 2


def test_pyqtgraph_export_dialog_writes_svg(qtbot: QtBot, panel: TensorPanel, biased: tuple[Path, Path],
                                            tmp_path: Path) -> None:
    from pyqtgraph.exporters import SVGExporter, listExporters

    _show(qtbot, panel, biased)
    ours = install_svg_exporter()
    assert ours in listExporters() and SVGExporter not in listExporters()
    scene = panel.histograms.graphics.scene()
    scene.contextMenuItem = panel.histograms.values_plot.vb  # what a right-click sets
    scene.showExportDialog()  # what its menu's Export… opens
    dialog = scene.exportDialog
    try:
        tree = dialog.ui.itemTree
        assert tree.currentItem().gitem is panel.histograms.values_plot  # the plot right-clicked
        formats = dialog.ui.formatList
        names = [formats.item(number).text() for number in range(formats.count())]
        formats.setCurrentRow(next(number for number, name in enumerate(names) if "SVG" in name))
        exporter = dialog.currentExporter
        assert isinstance(exporter, ours)
        exporter.export(fileName=str(tmp_path / "dialog.svg"))
    finally:
        dialog.close()
    _assert_inside_axes(read_svg(tmp_path / "dialog.svg"), plots=1)
    ours(scene).export(fileName=str(tmp_path / "scene.svg"))  # "Entire scene" in the dialog's tree
    _assert_inside_axes(read_svg(tmp_path / "scene.svg"), plots=3)
    # One plot alone, as the dialog's item tree allows.
    ours(panel.histograms.error_plot).export(fileName=str(tmp_path / "one.svg"))
    _assert_inside_axes(read_svg(tmp_path / "one.svg"), plots=1)


def test_dialog_export_failure_is_a_sentence(qtbot: QtBot, panel: TensorPanel, biased: tuple[Path, Path],
                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.ui import errors

    _show(qtbot, panel, biased)
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    reported: list[BaseException] = []
    monkeypatch.setattr(errors, "report_error", lambda _parent, exc, banner=None: reported.append(exc))
    install_svg_exporter()(panel.histograms.values_plot).export(fileName=str(blocker / "x.svg"))
    assert len(reported) == 1 and "a_file" in str(reported[0]) and str(reported[0]).endswith(".")


def test_export_menu_writes_plots_and_panel(qtbot: QtBot, panel: TensorPanel, biased: tuple[Path, Path],
                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    panel.export_menu.aboutToShow.emit()
    assert not panel.export_plots_action.isEnabled() and not panel.export_panel_action.isEnabled()
    _show(qtbot, panel, biased)
    answers = iter([(str(tmp_path / "plots"), "SVG (*.svg)"), (str(tmp_path / "panel.png"), "PNG (*.png)")])
    monkeypatch.setattr(tensor_panel_module.QFileDialog, "getSaveFileName", lambda *_args: next(answers))
    written: list[str] = []
    panel.exported.connect(written.append)
    panel.tabs.setCurrentWidget(panel.heatmaps)
    panel.export_menu.aboutToShow.emit()
    assert panel.export_plots_action.isEnabled() and panel.export_button.menu() is panel.export_menu
    for action in (panel.export_plots_action, panel.export_panel_action):
        with qtbot.waitSignal(panel.exported, timeout=TIMEOUT_MS):  # encoded and written on a worker
            action.trigger()
    assert written == [str(tmp_path / "plots.svg"), str(tmp_path / "panel.png")]
    _assert_inside_axes(read_svg(tmp_path / "plots.svg"), plots=4)
    assert QImage(str(tmp_path / "panel.png")).width() == panel.width()
    panel.tabs.setCurrentIndex(2)  # worst elements: a table, no plots
    panel.export_menu.aboutToShow.emit()
    assert not panel.export_plots_action.isEnabled() and panel.export_panel_action.isEnabled()
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(tensor_panel_module.QFileDialog, "getSaveFileName",
                        lambda *_args: (str(blocker / "x.png"), "PNG (*.png)"))
    panel.export_panel_action.trigger()
    qtbot.waitUntil(lambda: panel.banner.isVisible(), timeout=TIMEOUT_MS)
    assert "a_file" in panel.banner.text() and "Traceback" not in panel.banner.text()


def test_heatmap_scales_centre_the_signed_error_and_number_the_bars(qtbot: QtBot, panel: TensorPanel,
                                                                    biased: tuple[Path, Path],
                                                                    tmp_path: Path) -> None:
    _show(qtbot, panel, biased)
    heatmaps = panel.heatmaps
    fused_bar, origin_bar, signed_bar, abs_bar = (bar.levels() for bar in heatmaps.bars)
    assert fused_bar == origin_bar  # shared by default
    assert signed_bar[0] == pytest.approx(-signed_bar[1]) and signed_bar[1] == pytest.approx(0.2, rel=1e-3)
    assert abs_bar[0] == 0.0 and abs_bar[1] == pytest.approx(0.2, rel=1e-3)
    signed = heatmaps.images[2].image
    assert float(signed.max() - signed.min()) < 1e-5  # a constant bias is one flat colour
    heatmaps.shared_range.setChecked(False)
    assert heatmaps.bars[0].levels() != heatmaps.bars[1].levels()
    heatmaps.shared_range.setChecked(True)
    assert heatmaps.bars[0].levels() == heatmaps.bars[1].levels()
    panel.tabs.setCurrentWidget(heatmaps)
    qtbot.wait(20)
    shapes = read_svg(heatmaps.export_svg(tmp_path / "bars.svg"))
    bars = sorted((image for image in shapes.images if image.width <= 40), key=lambda box: box.left)
    assert len(bars) == 4
    for bar, levels in zip(bars, (fused_bar, origin_bar, signed_bar, abs_bar), strict=True):
        numbers = numbers_right_of(shapes, bar)
        assert len(numbers) >= 2, (bar, levels)  # the bar is numbered
        assert all(levels[0] - 1e-9 <= number <= levels[1] + 1e-9 for number in numbers)
    assert 0.0 in numbers_right_of(shapes, bars[2])  # the signed scale's middle is 0
    panel.resize(1100, 600)  # the four plots and their numbered bars still fit side by side
    qtbot.waitUntil(lambda: heatmaps.graphics.ci.geometry().width() <= heatmaps.graphics.viewport().width())
    right = max(bar.axis.sceneBoundingRect().right() for bar in heatmaps.bars)
    assert right <= heatmaps.graphics.viewport().width()


def test_empty_histograms_say_why_instead_of_drawing_axes(qtbot: QtBot, panel: TensorPanel,
                                                          tmp_path: Path) -> None:
    same = np.random.default_rng(2).standard_normal((8, 8)).astype(np.float32)
    _show(qtbot, panel, _save(tmp_path, same, same.copy()))
    histograms = panel.histograms
    assert set(histograms.empty) == {"error", "abs_error"}
    assert "exactly 0" in histograms.empty["error"]
    for name in ("error", "abs_error"):
        plot = histograms.plots()[name]
        assert not plot.getAxis("bottom").isVisible() and not plot.getAxis("left").isVisible()
        texts = [item.toPlainText() for item in plot.items if hasattr(item, "toPlainText")]
        assert texts == [histograms.empty[name]]
    assert histograms.values_plot.getAxis("bottom").isVisible()
    nan = np.full((8, 8), np.nan, dtype=np.float32)
    _show(qtbot, panel, _save(tmp_path, nan, nan.copy()))
    assert "NaN" in histograms.empty["values"] and not histograms.values_plot.getAxis("left").isVisible()
    _show(qtbot, panel, _save(tmp_path, same + 1, same))  # data again: axes and curves come back
    assert histograms.empty == {} and histograms.error_plot.getAxis("bottom").isVisible()
    assert histograms.error_plot.listDataItems()
