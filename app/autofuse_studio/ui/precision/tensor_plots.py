"""pyqtgraph plots of the tensor panel: value/error histograms and fused/origin/|diff| heatmaps."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QToolTip, QVBoxLayout, QWidget

from autofuse_studio.core.precision.heatmap import Heatmap, HeatmapAxes
from autofuse_studio.core.precision.tensor_stats import Histogram
from autofuse_studio.core.precision.tensor_view import TensorView
from autofuse_studio.ui.precision.tensor_export import export_scene_png, export_widget_svg
from autofuse_studio.ui.precision.tensor_models import format_value

FUSED_PEN = pg.mkPen("#1f77b4", width=1.5)
ORIGIN_PEN = pg.mkPen("#ff7f0e", width=1.5)
ERROR_PEN = pg.mkPen("#d62728", width=1.5)


class _ScenePlots(QWidget):
    """A GraphicsLayoutWidget with export_png/export_svg of its whole scene."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")

    def export_png(self, path: str | Path) -> Path:
        """The plots as PNG at their on-screen size (at least 800 px wide)."""
        return export_scene_png(self.graphics.scene(), path, width=max(800, self.graphics.width()))

    def export_svg(self, path: str | Path) -> Path:
        """The plots as SVG (vector paths, via QSvgGenerator)."""
        # WORKAROUND: pyqtgraph's SVGExporter cannot parse the path data newer Qt writes and raises
        # ValueError (https://github.com/pyqtgraph/pyqtgraph/issues/3485); Qt's own generator is fine.
        return export_widget_svg(self.graphics, path)


def _step(plot: pg.PlotItem, histogram: Histogram, pen: object, name: str) -> pg.PlotDataItem:
    return plot.plot(histogram.edges, histogram.counts.astype(np.float64), stepMode="center", pen=pen, name=name)


class TensorHistograms(_ScenePlots):
    """Fused vs origin on shared bins, the signed error, and |error| on log bins; linear/log counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Values across the top; the two error views side by side below, so each plot keeps some height
        # in the lower half of the window.
        self.values_plot = self.graphics.addPlot(row=0, col=0, colspan=2, title="Values (shared bins)")
        self.values_plot.addLegend(offset=(-10, 10))
        self.error_plot = self.graphics.addPlot(row=1, col=0, title="Error (fused − origin)")
        self.abs_plot = self.graphics.addPlot(row=1, col=1, title="|Error| (log bins; bin 0 = exact zeros)")
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.setLabel("left", "count")
            plot.showGrid(x=True, y=True, alpha=0.2)
            # Values and log10 errors are plain numbers: "(x0.001)" unit prefixes only confuse.
            plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.log_counts = QCheckBox("Log counts")
        self.log_counts.toggled.connect(self._on_log_counts_toggled)
        self.note = QLabel()
        bar = QHBoxLayout()
        bar.addWidget(self.log_counts)
        bar.addWidget(self.note, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.graphics, 1)

    def set_view(self, view: TensorView) -> None:
        """Plot the four histograms of a view."""
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.clear()
        _step(self.values_plot, view.fused_histogram, FUSED_PEN, "fused")
        _step(self.values_plot, view.origin_histogram, ORIGIN_PEN, "origin")
        _step(self.error_plot, view.error_histogram, ERROR_PEN, "error")
        abs_hist = view.abs_error_histogram
        if abs_hist.log_bins:
            # Bin 0 starts at 0, which a log axis cannot show: plot the geometric bins in log10 units.
            edges = np.log10(abs_hist.edges[1:])
            self.abs_plot.plot(edges, abs_hist.counts[1:].astype(np.float64), stepMode="center", pen=ERROR_PEN)
            self.abs_plot.setLabel("bottom", "log10 |error|")
        else:
            _step(self.abs_plot, abs_hist, ERROR_PEN, "|error|")
        self.note.setText(
            f"exact zeros: {int(abs_hist.counts[0]) if abs_hist.log_bins else 'n/a'} · non-finite: fused "
            f"{view.fused_histogram.nonfinite}, origin {view.origin_histogram.nonfinite}, "
            f"error {view.error_histogram.nonfinite}")

    def _on_log_counts_toggled(self, checked: bool) -> None:
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.setLogMode(x=False, y=checked)


def _levels(values: np.ndarray) -> tuple[float, float]:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return 0.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def _displayable(values: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """NaN (empty cell) -> the low level; +Inf (NaN or Inf involved) -> the high level: bad stays bright."""
    shown: np.ndarray = np.nan_to_num(values, nan=levels[0], posinf=levels[1], neginf=levels[0])
    return shown.astype(np.float32)


def axis_choices(names: list[str], shape: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
    """Every run of adjacent axes, labelled with names and extents (e.g. 'N×C (2×16)')."""
    choices = []
    for first in range(len(shape)):
        for last in range(first + 1, len(shape) + 1):
            axes = tuple(range(first, last))
            choices.append((_axes_label(names, shape, axes), axes))
    return choices


def _axes_label(names: list[str], shape: tuple[int, ...], axes: tuple[int, ...]) -> str:
    return "×".join(names[a] for a in axes) + " (" + "×".join(str(shape[a]) for a in axes) + ")"


def _encode(axes: tuple[int, ...]) -> str:
    # Combo item data as text: Qt hands tuples back as lists, which findData() would not match.
    return ",".join(str(axis) for axis in axes)


def _decode(data: object) -> tuple[int, ...]:
    return tuple(int(axis) for axis in str(data).split(",") if axis) if data else ()


class TensorHeatmaps(_ScenePlots):
    """Fused, origin and max-pooled |diff| images with colour bars, axis pickers and hover details."""

    axesChanged = Signal(object)  # HeatmapAxes chosen by the user
    TITLES = ("Fused (mean)", "Origin (mean)", "|Fused − Origin| (max)")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heatmap: Heatmap | None = None
        self.plots: list[pg.PlotItem] = []
        self.images: list[pg.ImageItem] = []
        self.bars: list[pg.ColorBarItem] = []
        for column, title in enumerate(self.TITLES):
            plot = self.graphics.addPlot(row=0, col=column, title=title)
            plot.invertY(True)  # row 0 at the top, like a matrix
            plot.setAspectLocked(False)
            image = pg.ImageItem(axisOrder="row-major")
            plot.addItem(image)
            bar = pg.ColorBarItem(colorMap="viridis" if column < 2 else "inferno", interactive=False)
            bar.setImageItem(image, insert_in=plot)
            self.plots.append(plot)
            self.images.append(image)
            self.bars.append(bar)
        self.graphics.scene().sigMouseMoved.connect(self._on_scene_mouse_moved)
        self.rows_combo, self.cols_combo = QComboBox(), QComboBox()
        self.rows_combo.activated.connect(lambda _i: self._on_combo_activated(self.rows_combo, self.cols_combo))
        self.cols_combo.activated.connect(lambda _i: self._on_combo_activated(self.cols_combo, self.rows_combo))
        self.hover_label = QLabel("Hover a cell for its worst element.")
        bar_layout = QHBoxLayout()
        for widget in (QLabel("Rows:"), self.rows_combo, QLabel("Columns:"), self.cols_combo):
            bar_layout.addWidget(widget)
        bar_layout.addWidget(self.hover_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar_layout)
        layout.addWidget(self.graphics, 1)

    def set_axes_choices(self, names: list[str], shape: tuple[int, ...], axes: HeatmapAxes) -> None:
        """Fill the row/column pickers for a tensor and select `axes` (pickers are off for 1-D tensors)."""
        wrapped = bool(axes.wrap)
        for combo, current in ((self.rows_combo, axes.rows), (self.cols_combo, axes.cols)):
            combo.clear()
            if wrapped:
                combo.addItem(f"wrapped 1-D ({axes.wrap} per row)", _encode(current))
            else:
                choices = axis_choices(names, shape)
                if current not in [choice for _label, choice in choices]:
                    choices.insert(0, (_axes_label(names, shape, current), current))
                for label, choice in choices:
                    combo.addItem(label, _encode(choice))
                combo.setCurrentIndex(combo.findData(_encode(current)))
            combo.setEnabled(not wrapped)

    def current_axes(self) -> HeatmapAxes:
        """The axes the pickers show (wrap is kept by the panel, which knows the tensor)."""
        return HeatmapAxes(_decode(self.rows_combo.currentData()), _decode(self.cols_combo.currentData()))

    def select_axes(self, rows: tuple[int, ...], cols: tuple[int, ...]) -> None:
        """Pick rows and columns programmatically, as a user would (emits axesChanged)."""
        self.rows_combo.setCurrentIndex(self.rows_combo.findData(_encode(rows)))
        self.cols_combo.setCurrentIndex(self.cols_combo.findData(_encode(cols)))
        self._on_combo_activated(self.rows_combo, self.cols_combo)

    def _on_combo_activated(self, changed: QComboBox, other: QComboBox) -> None:
        chosen = set(_decode(changed.currentData()))
        if chosen & set(_decode(other.currentData())):
            # Rows and columns must not share an axis: move the other picker to the first disjoint choice.
            for number in range(other.count()):
                if not chosen & set(_decode(other.itemData(number))):
                    other.setCurrentIndex(number)
                    break
        self.axesChanged.emit(self.current_axes())

    def set_heatmap(self, heatmap: Heatmap) -> None:
        """Show the three pooled images."""
        self.heatmap = heatmap
        for image, bar, values in zip(self.images, self.bars, (heatmap.fused, heatmap.origin, heatmap.abs_error),
                                      strict=True):
            levels = _levels(values)
            image.setImage(_displayable(values, levels), autoLevels=False, levels=levels)
            bar.setLevels(levels)
        rows, cols = heatmap.cells
        for plot in self.plots:
            plot.setRange(xRange=(0, cols), yRange=(0, rows), padding=0)
            plot.setLabel("bottom", f"columns ({heatmap.col_step} per cell)")
            plot.setLabel("left", f"rows ({heatmap.row_step} per cell)")

    def cell_text(self, row: int, col: int) -> str:
        """The hover text of a cell: its grid ranges, worst element index and both values."""
        info = self.heatmap.cell_info(row, col) if self.heatmap is not None else None
        if info is None:
            return ""
        return (f"cell ({row}, {col}): rows {info.rows[0]}–{info.rows[1] - 1}, cols {info.cols[0]}–"
                f"{info.cols[1] - 1}, {info.elements} elements\nworst at {info.index}: fused "
                f"{format_value(info.fused)}, origin {format_value(info.origin)}, |error| "
                f"{format_value(info.max_abs_error)}\nmeans: fused {format_value(info.fused_mean)}, origin "
                f"{format_value(info.origin_mean)}")

    def _on_scene_mouse_moved(self, scene_pos: QPointF) -> None:
        for image in self.images:
            if image.sceneBoundingRect().contains(scene_pos):
                point = image.mapFromScene(scene_pos)
                text = self.cell_text(math.floor(point.y()), math.floor(point.x()))
                if text:
                    self.hover_label.setText(text.replace("\n", " · "))
                    QToolTip.showText(QCursor.pos(), text, self)
                return
