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
from autofuse_studio.ui.widgets.retranslate import Retranslating

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


class TensorHistograms(Retranslating, _ScenePlots):
    """Fused vs origin on shared bins, the signed error, and |error| on log bins; linear/log counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Values across the top; the two error views side by side below, so each plot keeps some height
        # in the lower half of the window.
        self.view: TensorView | None = None
        self.values_plot = self.graphics.addPlot(row=0, col=0, colspan=2)
        self.values_plot.addLegend(offset=(-10, 10))
        self.error_plot = self.graphics.addPlot(row=1, col=0)
        self.abs_plot = self.graphics.addPlot(row=1, col=1)
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.showGrid(x=True, y=True, alpha=0.2)
            # Values and log10 errors are plain numbers: "(x0.001)" unit prefixes only confuse.
            plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.log_counts = QCheckBox()
        self.log_counts.toggled.connect(self._on_log_counts_toggled)
        self.note = QLabel()
        bar = QHBoxLayout()
        bar.addWidget(self.log_counts)
        bar.addWidget(self.note, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.graphics, 1)
        self.retranslate()

    def retranslate(self) -> None:
        """Titles, labels and legend in the current language (the plots are redrawn when a view is shown)."""
        self.values_plot.setTitle(self.tr("Values (shared bins)"))
        self.error_plot.setTitle(self.tr("Error (fused − origin)"))
        self.abs_plot.setTitle(self.tr("|Error| (log bins; bin 0 = exact zeros)"))
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.setLabel("left", self.tr("count"))
        self.log_counts.setText(self.tr("Log counts"))
        if self.view is not None:
            self.set_view(self.view)


    def set_view(self, view: TensorView) -> None:
        """Plot the four histograms of a view."""
        self.view = view
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.clear()
        _step(self.values_plot, view.fused_histogram, FUSED_PEN, self.tr("fused"))
        _step(self.values_plot, view.origin_histogram, ORIGIN_PEN, self.tr("origin"))
        _step(self.error_plot, view.error_histogram, ERROR_PEN, self.tr("error"))
        abs_hist = view.abs_error_histogram
        if abs_hist.log_bins:
            # Bin 0 starts at 0, which a log axis cannot show: plot the geometric bins in log10 units.
            edges = np.log10(abs_hist.edges[1:])
            self.abs_plot.plot(edges, abs_hist.counts[1:].astype(np.float64), stepMode="center", pen=ERROR_PEN)
            self.abs_plot.setLabel("bottom", "log10 |error|")
        else:
            self.abs_plot.setLabel("bottom", "|error|")
            _step(self.abs_plot, abs_hist, ERROR_PEN, "|error|")
        zeros = str(int(abs_hist.counts[0])) if abs_hist.log_bins else self.tr("n/a")
        self.note.setText(
            self.tr("exact zeros: %1 · non-finite: fused %2, origin %3, error %4").replace("%1", zeros)
            .replace("%2", str(view.fused_histogram.nonfinite)).replace("%3", str(view.origin_histogram.nonfinite))
            .replace("%4", str(view.error_histogram.nonfinite)))

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


class TensorHeatmaps(Retranslating, _ScenePlots):
    """Fused, origin and max-pooled |diff| images with colour bars, axis pickers and hover details."""

    axesChanged = Signal(object)  # HeatmapAxes chosen by the user
    TITLES = ("Fused (mean)", "Origin (mean)", "|Fused − Origin| (max)")  # English; titles() translates

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heatmap: Heatmap | None = None
        self.plots: list[pg.PlotItem] = []
        self.images: list[pg.ImageItem] = []
        self.bars: list[pg.ColorBarItem] = []
        self._wrap = 0
        for column in range(len(self.TITLES)):
            plot = self.graphics.addPlot(row=0, col=column)
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
        self.hover_label = QLabel()
        self.rows_label, self.cols_label = QLabel(), QLabel()
        bar_layout = QHBoxLayout()
        for widget in (self.rows_label, self.rows_combo, self.cols_label, self.cols_combo):
            bar_layout.addWidget(widget)
        bar_layout.addWidget(self.hover_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar_layout)
        layout.addWidget(self.graphics, 1)
        self.retranslate()

    def titles(self) -> tuple[str, str, str]:
        """The plot titles in the current language."""
        return (self.tr("Fused (mean)"), self.tr("Origin (mean)"), self.tr("|Fused − Origin| (max)"))

    def retranslate(self) -> None:
        """Titles, labels and pickers in the current language."""
        for plot, title in zip(self.plots, self.titles(), strict=True):
            plot.setTitle(title)
        self.rows_label.setText(self.tr("Rows:"))
        self.cols_label.setText(self.tr("Columns:"))
        self.hover_label.setText(self.tr("Hover a cell for its worst element."))
        if self._wrap:
            for combo in (self.rows_combo, self.cols_combo):
                combo.setItemText(0, self._wrapped_text())
        if self.heatmap is not None:
            self._set_axis_labels(self.heatmap)


    def _wrapped_text(self) -> str:
        return self.tr("wrapped 1-D (%1 per row)").replace("%1", str(self._wrap))

    def _set_axis_labels(self, heatmap: Heatmap) -> None:
        for plot in self.plots:
            plot.setLabel("bottom", self.tr("columns (%1 per cell)").replace("%1", str(heatmap.col_step)))
            plot.setLabel("left", self.tr("rows (%1 per cell)").replace("%1", str(heatmap.row_step)))

    def set_axes_choices(self, names: list[str], shape: tuple[int, ...], axes: HeatmapAxes) -> None:
        """Fill the row/column pickers for a tensor and select `axes` (pickers are off for 1-D tensors)."""
        wrapped = bool(axes.wrap)
        self._wrap = axes.wrap or 0
        for combo, current in ((self.rows_combo, axes.rows), (self.cols_combo, axes.cols)):
            combo.clear()
            if wrapped:
                combo.addItem(self._wrapped_text(), _encode(current))
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
        self._set_axis_labels(heatmap)

    def cell_text(self, row: int, col: int) -> str:
        """The hover text of a cell: its grid ranges, worst element index and both values."""
        info = self.heatmap.cell_info(row, col) if self.heatmap is not None else None
        if info is None:
            return ""
        values = (f"({row}, {col})", f"{info.rows[0]}–{info.rows[1] - 1}", f"{info.cols[0]}–{info.cols[1] - 1}",
                  str(info.elements), str(info.index), format_value(info.fused), format_value(info.origin),
                  format_value(info.max_abs_error), format_value(info.fused_mean), format_value(info.origin_mean))
        text = self.tr("cell %1: rows %2, cols %3, %4 elements\nworst at %5: fused %6, origin %7, |error| %8\n"
                       "means: fused %9, origin %10")
        for number in range(len(values), 0, -1):  # %10 before %1
            text = text.replace(f"%{number}", values[number - 1])
        return text

    def _on_scene_mouse_moved(self, scene_pos: QPointF) -> None:
        for image in self.images:
            if image.sceneBoundingRect().contains(scene_pos):
                point = image.mapFromScene(scene_pos)
                text = self.cell_text(math.floor(point.y()), math.floor(point.x()))
                if text:
                    self.hover_label.setText(text.replace("\n", " · "))
                    QToolTip.showText(QCursor.pos(), text, self)
                return
