"""pyqtgraph plots of the tensor panel: the scene-export base and the value/error histograms (with empty states)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.tensor_view import TensorView
from autofuse_studio.ui.precision.grid_axis import add_grid_plot
from autofuse_studio.ui.precision.plot_svg_exporter import install_svg_exporter
from autofuse_studio.ui.precision.sorted_values import SortedValuesInset
from autofuse_studio.ui.precision.tensor_export import PendingPicture, scene_png, scene_svg
from autofuse_studio.ui.widgets.retranslate import Retranslating

FUSED_PEN = pg.mkPen("#1f77b4", width=1.5)
ORIGIN_PEN = pg.mkPen("#ff7f0e", width=1.5)
ERROR_PEN = pg.mkPen("#d62728", width=1.5)
EMPTY_TEXT_COLOUR = "#555555"
MIN_LOG_SPAN = 1.0  # decades: errors that (nearly) all equal keep a readable axis, not 8-decimal ticks
PLOT_MIN_HEIGHT = 150  # px per plot row: title, ticks and axis labels stay apart; less room scrolls instead
PLOT_MIN_WIDTH = 260  # px per plot when the three share one row (a low, wide panel: 1280x720)
_LAYOUT_MARGINS = 24  # px of the plot grid's margins and row spacing, around the plots' own heights


def move_in_grid(grid: pg.GraphicsLayout, places: tuple[tuple[pg.PlotItem, int, int, int], ...]) -> None:
    """Put each (plot, row, col, colspan) of `grid`'s own plots in its new cell, keeping grid's bookkeeping.

    The plots stay in the scene with the same parent: pyqtgraph's removeItem/addItem took each out of the scene and
    back, and every axis, view box and curve re-linked its view on the way (5-7 ms a flip alone, 25-35 ms beside a
    busy worker, when the signature line's appearance flips the panel to one row as a row is shown).
    """
    layout = grid.layout
    for plot, *_ in places:
        for row, col in grid.items[plot]:
            del grid.rows[row][col]
        layout.removeAt(grid.itemIndex(plot))
    for plot, row, col, colspan in places:
        grid.items[plot] = [(row, col + offset) for offset in range(colspan)]
        for cell_row, cell_col in grid.items[plot]:
            grid.rows.setdefault(cell_row, {})[cell_col] = plot
        layout.addItem(plot, row, col, 1, colspan)
    layout.activate()


class ScenePlots(QWidget):
    """A GraphicsLayoutWidget with export_png/export_svg of its whole scene."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        install_svg_exporter()  # the right-click Export… → SVG of every plot
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")

    def picture(self, suffix: str) -> PendingPicture:
        """The plots drawn for a '.png' (on-screen size, at least 800 px wide) or '.svg' file."""
        if suffix.lower() == ".svg":
            return scene_svg(self.graphics.scene())
        return scene_png(self.graphics.scene(), width=max(800, self.graphics.width()))

    def export_png(self, path: str | Path) -> Path:
        """The plots as PNG, written atomically."""
        return self.picture(".png").write(path)

    def export_svg(self, path: str | Path) -> Path:
        """The plots as SVG (vector paths, via QSvgGenerator at the screen's dpi), written atomically."""
        return self.picture(".svg").write(path)


def _step_curve(plot: pg.PlotItem, pen: object) -> pg.PlotDataItem:
    """An empty step curve on `plot`, kept for every view (setData per pair: no items re-created)."""
    return plot.plot(pen=pen, stepMode="center")


def _show_step(curve: pg.PlotDataItem, edges: np.ndarray, counts: np.ndarray) -> None:
    curve.setData(edges, counts.astype(np.float64), stepMode="center")
    curve.show()


def _hide_curve(curve: pg.PlotDataItem) -> None:
    # No data rather than only hidden: an export or the auto range never sees the last pair's curve.
    curve.setData([], [])
    curve.hide()


def _empty_state(plot: pg.PlotItem, label: pg.TextItem, text: str) -> None:
    """A plot's contents replaced by `label` (added once) saying `text`: no axes, so no made-up 0–1 ranges."""
    for side in ("left", "bottom"):
        plot.hideAxis(side)
    plot.setMouseEnabled(x=False, y=False)
    if label not in plot.items:
        plot.addItem(label, ignoreBounds=True)
    label.setText(text, color=EMPTY_TEXT_COLOUR)
    label.setPos(0.5, 0.5)
    label.show()
    plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)


def _axes_state(plot: pg.PlotItem) -> None:
    """Undo _empty_state: axes back, mouse zoom and automatic range on."""
    for side in ("left", "bottom"):
        plot.showAxis(side)
    plot.setMouseEnabled(x=True, y=True)
    plot.enableAutoRange()


class TensorHistograms(Retranslating, ScenePlots):
    """Fused vs origin on shared bins, the signed error, and |error| on log bins; linear/log counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Values across the top; the two error views side by side below, so each plot keeps some height
        # in the lower half of the window.
        self.view: TensorView | None = None
        self.empty: dict[str, str] = {}  # plot name -> the sentence shown instead of an empty histogram
        self.values_plot = add_grid_plot(self.graphics, row=0, col=0, colspan=2)
        self.values_plot.addLegend(offset=(-10, 10))
        self.error_plot = add_grid_plot(self.graphics, row=1, col=0)
        self.abs_plot = add_grid_plot(self.graphics, row=1, col=1)
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            # Values and log10 errors are plain numbers: "(x0.001)" unit prefixes only confuse.
            plot.getAxis("bottom").enableAutoSIPrefix(False)
        # The curves and empty-state sentences are made once; each pair only sets their data (re-creating
        # them cost ~12 ms of GUI-thread CPU per shown pair, and pyqtgraph's first paint of new items more).
        self.fused_curve = _step_curve(self.values_plot, FUSED_PEN)
        self.origin_curve = _step_curve(self.values_plot, ORIGIN_PEN)
        self.error_curve = _step_curve(self.error_plot, ERROR_PEN)
        self.abs_curve = _step_curve(self.abs_plot, ERROR_PEN)
        self.curves = {"values": (self.fused_curve, self.origin_curve), "error": (self.error_curve,),
                       "abs_error": (self.abs_curve,)}
        self.empty_labels = {name: pg.TextItem(color=EMPTY_TEXT_COLOUR, anchor=(0.5, 0.5)) for name in self.curves}
        self.abs_label = ""  # the |error| plot's x label now shown (set again only when it changes)
        self.signature: Signature | None = None  # the shown row's: a layout permutation gets the sorted-values inset
        self.sorted_values = SortedValuesInset(self.values_plot, FUSED_PEN, ORIGIN_PEN)
        self.log_counts = QCheckBox()
        self.log_counts.toggled.connect(self._on_log_counts_toggled)
        self.note = QLabel()
        bar = QHBoxLayout()
        bar.addWidget(self.log_counts)
        bar.addWidget(self.note, 1)
        # The plots are never squeezed into flat lines (a 720 px screen, the warnings opened above the table):
        # a low, wide panel puts the three in one row; below PLOT_MIN_HEIGHT per row they scroll.
        self.one_row = False
        self.graphics.setMinimumHeight(2 * PLOT_MIN_HEIGHT + _LAYOUT_MARGINS)
        self.plot_scroll = QScrollArea()
        self.plot_scroll.setObjectName("histogramScroll")
        self.plot_scroll.setWidgetResizable(True)
        self.plot_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.plot_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.plot_scroll.setWidget(self.graphics)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.plot_scroll, 1)
        self.plot_scroll.setMinimumHeight(PLOT_MIN_HEIGHT + _LAYOUT_MARGINS)
        self.plot_scroll.installEventFilter(self)
        self.retranslate()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """One row of three plots when two rows would not fit their minimum height but three fit the width."""
        if watched is self.plot_scroll and event.type() == QEvent.Type.Resize:
            room = self.plot_scroll.size()  # the viewport's own size follows later; its scroll bar is not counted
            self.arrange(room.height() < 2 * PLOT_MIN_HEIGHT + _LAYOUT_MARGINS and room.width() >= 3 * PLOT_MIN_WIDTH)
        return False

    def arrange(self, one_row: bool) -> None:
        """Values across the top and the errors below (two rows), or all three side by side (one row)."""
        if one_row == self.one_row:
            return
        self.one_row = one_row
        if one_row:
            places = ((self.values_plot, 0, 0, 1), (self.error_plot, 0, 1, 1), (self.abs_plot, 0, 2, 1))
        else:
            places = ((self.values_plot, 0, 0, 2), (self.error_plot, 1, 0, 1), (self.abs_plot, 1, 1, 1))
        move_in_grid(self.graphics.ci, places)
        self.graphics.setMinimumHeight((1 if one_row else 2) * PLOT_MIN_HEIGHT + _LAYOUT_MARGINS)

    def retranslate(self) -> None:
        """Titles, labels and legend in the current language (the plots are redrawn when a view is shown)."""
        self.values_plot.setTitle(self.tr("Values (shared bins)"))
        self.error_plot.setTitle(self.tr("Error (fused − origin)"))
        self.abs_plot.setTitle(self.tr("|Error| (log bins; bin 0 = exact zeros)"))
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.setLabel("left", self.tr("count"))
        self.log_counts.setText(self.tr("Log counts"))
        legend = self.values_plot.legend
        legend.clear()
        legend.addItem(self.fused_curve, self.tr("fused"))
        legend.addItem(self.origin_curve, self.tr("origin"))
        self.abs_label = ""
        if self.view is not None:
            self.set_view(self.view)


    def set_signature(self, signature: Signature | None) -> None:
        """The shown row's signature: a layout permutation shows sorted fused vs sorted origin values."""
        self.signature = signature
        self._show_sorted_values()

    def _show_sorted_values(self) -> None:
        view = self.view
        if view is None or self.signature is None or self.signature.code != "layout_permutation" \
                or "values" in self.empty:
            self.sorted_values.hide()
            return
        self.sorted_values.show(view.fused_histogram, view.origin_histogram,
                                self.tr("Sorted values: fused (solid), origin (dashed)"), self.tr("share of values"))

    def plots(self) -> dict[str, pg.PlotItem]:
        """The three plots by name: 'values', 'error', 'abs_error'."""
        return {"values": self.values_plot, "error": self.error_plot, "abs_error": self.abs_plot}

    def empty_reasons(self, view: TensorView) -> dict[str, str]:
        """Why a histogram has nothing to draw, per plot name (plots with data are left out)."""
        fused, origin, abs_hist = view.fused_histogram, view.origin_histogram, view.abs_error_histogram
        reasons = {}
        if not int(fused.counts.sum()) and not int(origin.counts.sum()):
            reasons["values"] = (self.tr("The tensors hold no elements.") if not fused.total else self.tr(
                "No finite values to plot: all %1 elements are NaN or Inf on both sides.").replace(
                "%1", str(fused.total)))
        zeros = int(abs_hist.counts[0]) if abs_hist.log_bins else 0
        positive = int(abs_hist.counts[1:].sum()) if abs_hist.log_bins else int(abs_hist.counts.sum())
        if not positive:
            no_errors = self.tr("No finite errors to plot (%1 non-finite).").replace(
                "%1", str(view.error_histogram.nonfinite))
            nonfinite = view.error_histogram.nonfinite
            if nonfinite:  # NaN/Inf elements differ (or cannot be compared): never "identical"
                identical = self.tr("All %1 finite errors are exactly 0, but %2 errors are NaN or Inf\n"
                                    "(NaN/Inf values: fused %3, origin %4).").replace("%1", str(zeros)).replace(
                    "%2", str(nonfinite)).replace("%3", str(view.fused_histogram.nonfinite)).replace(
                    "%4", str(view.origin_histogram.nonfinite))
                abs_zero = self.tr("Finite errors are all exactly 0; the %1 NaN or Inf errors have no place "
                                   "on a log scale.").replace("%1", str(nonfinite))
            else:
                identical = self.tr("All %1 finite errors are exactly 0: fused and origin are identical.").replace(
                    "%1", str(zeros))
                abs_zero = self.tr("All errors are exactly 0: nothing to show on a log scale.")
            reasons["error"] = identical if zeros else no_errors
            reasons["abs_error"] = abs_zero if zeros else no_errors
        return reasons

    def set_view(self, view: TensorView) -> None:
        """Plot the histograms of a view; a histogram with nothing to draw says why instead."""
        self.view = view
        self.empty = self.empty_reasons(view)
        for name, plot in self.plots().items():
            label = self.empty_labels[name]
            if name in self.empty:
                for curve in self.curves[name]:
                    _hide_curve(curve)
                _empty_state(plot, label, self.empty[name])
            else:
                label.hide()
                _axes_state(plot)
        self.values_plot.legend.setVisible("values" not in self.empty)
        if "values" not in self.empty:
            _show_step(self.fused_curve, view.fused_histogram.edges, view.fused_histogram.counts)
            _show_step(self.origin_curve, view.origin_histogram.edges, view.origin_histogram.counts)
        if "error" not in self.empty:
            _show_step(self.error_curve, view.error_histogram.edges, view.error_histogram.counts)
        abs_hist = view.abs_error_histogram
        if "abs_error" in self.empty:
            pass
        elif abs_hist.log_bins:
            # Bin 0 starts at 0, which a log axis cannot show: plot the geometric bins in log10 units.
            edges = np.log10(abs_hist.edges[1:])
            _show_step(self.abs_curve, edges, abs_hist.counts[1:])
            self._set_abs_label(self.tr("log10 |error|"))
            occupied = edges[np.flatnonzero(abs_hist.counts[1:])]
            if occupied.size and float(occupied[-1] - occupied[0]) < MIN_LOG_SPAN:
                centre = float(occupied[0] + occupied[-1]) / 2  # one decade around the (nearly) equal errors
                self.abs_plot.setXRange(centre - MIN_LOG_SPAN / 2, centre + MIN_LOG_SPAN / 2, padding=0.05)
        else:
            self._set_abs_label(self.tr("|error|"))
            _show_step(self.abs_curve, abs_hist.edges, abs_hist.counts)
        zeros = str(int(abs_hist.counts[0])) if abs_hist.log_bins else self.tr("n/a")
        self.note.setText(
            self.tr("exact zeros: %1 · non-finite: fused %2, origin %3, error %4").replace("%1", zeros)
            .replace("%2", str(view.fused_histogram.nonfinite)).replace("%3", str(view.origin_histogram.nonfinite))
            .replace("%4", str(view.error_histogram.nonfinite)))
        self._show_sorted_values()

    def _set_abs_label(self, text: str) -> None:
        if text != self.abs_label:  # setLabel re-lays the axis out even for the same text
            self.abs_label = text
            self.abs_plot.setLabel("bottom", text)

    def _on_log_counts_toggled(self, checked: bool) -> None:
        for plot in (self.values_plot, self.error_plot, self.abs_plot):
            plot.setLogMode(x=False, y=checked)
