"""ScatterPlot: fused value (y) against origin value (x) of one pair, with the y = x diagonal.

Points within rounding of the diagonal are drawn small and grey-blue, wrong ones red on top (scatter_points
judges them); the sample is computed off the GUI thread by the tensor panel. With nothing to draw the plot
says why (no pair, not read yet, no finite values).
"""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from autofuse_studio.core.precision.scatter_points import ScatterPoints
from autofuse_studio.ui.precision.grid_axis import add_grid_plot
from autofuse_studio.ui.precision.tensor_plots import EMPTY_TEXT_COLOUR, PLOT_MIN_HEIGHT, ScenePlots
from autofuse_studio.ui.widgets.retranslate import Retranslating

ROUNDING_BRUSH = pg.mkBrush(31, 119, 180, 110)
WRONG_BRUSH = pg.mkBrush("#d62728")
DIAGONAL_PEN = pg.mkPen("#555555", width=1, style=pg.QtCore.Qt.PenStyle.DashLine)


class ScatterPlot(Retranslating, ScenePlots):
    """One plot: origin on x, fused on y, y = x dashed; a note counts points, wrong ones and the sampling."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.points: ScatterPoints | None = None
        self.reason = ""  # why nothing is drawn ('' when points are)
        self._reason_text: Callable[[], str] | None = None
        self.plot = add_grid_plot(self.graphics, row=0, col=0)
        for side in ("left", "bottom"):
            self.plot.getAxis(side).enableAutoSIPrefix(False)
        self.plot.setMinimumHeight(PLOT_MIN_HEIGHT)
        # The same items for every pair, their data replaced: nothing is removed from the scene, so no
        # graphics items are left for the cyclic GC to delete at some later, arbitrary moment.
        self.diagonal = self.plot.plot([], [], pen=DIAGONAL_PEN)
        self.rounding_item = pg.ScatterPlotItem(size=4, pen=None, brush=ROUNDING_BRUSH)
        self.wrong_item = pg.ScatterPlotItem(size=5, pen=None, brush=WRONG_BRUSH)
        for item in (self.rounding_item, self.wrong_item):
            self.plot.addItem(item)
        self.empty_label = pg.TextItem("", color=EMPTY_TEXT_COLOUR, anchor=(0.5, 0.5))
        self.plot.addItem(self.empty_label, ignoreBounds=True)
        self.note = QLabel()
        self.note.setObjectName("scatterNote")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.graphics, 1)
        self.retranslate()
        self.show_reason(self._no_pair)

    def retranslate(self) -> None:
        """Titles and the note in the current language (what is drawn stays)."""
        self.plot.setTitle(self.tr("Fused vs origin (y = x dashed)"))
        self.plot.setLabel("bottom", self.tr("origin value"))
        self.plot.setLabel("left", self.tr("fused value"))
        if self.points is not None:
            self.note.setText(self._note_text(self.points))
        elif self._reason_text is not None:
            self.show_reason(self._reason_text)

    def _no_pair(self) -> str:
        return self.tr("No tensor pair to plot.")

    def show_reason(self, text: object) -> None:
        """Draw nothing and say why (`text`: a sentence, or a callable wording it in the current language)."""
        self.points = None
        self._reason_text = text if callable(text) else None
        self.reason = str(text()) if callable(text) else str(text)
        self.diagonal.setData([], [])
        for item in (self.rounding_item, self.wrong_item):
            item.setData([], [])
        for side in ("left", "bottom"):
            self.plot.hideAxis(side)
        self.plot.setMouseEnabled(x=False, y=False)
        self.empty_label.setText(self.reason)
        self.empty_label.setPos(0.5, 0.5)
        self.empty_label.show()
        self.plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
        self.note.setText("")

    def set_points(self, points: ScatterPoints) -> None:
        """Draw a sample: rounding-level points, then wrong ones over them, and the diagonal across both."""
        if points.count == 0:
            self.show_reason(lambda: self.tr("No finite values to plot: every sampled element is NaN or Inf."))
            return
        self.points, self.reason, self._reason_text = points, "", None
        self.empty_label.hide()
        for side in ("left", "bottom"):
            self.plot.showAxis(side)
        self.plot.setMouseEnabled(x=True, y=True)
        low = float(min(points.origin.min(), points.fused.min()))
        high = float(max(points.origin.max(), points.fused.max()))
        if high == low:
            low, high = low - 1.0, high + 1.0
        self.diagonal.setData([low, high], [low, high])
        wrong = points.wrong
        self.rounding_item.setData(points.origin[~wrong], points.fused[~wrong])
        self.wrong_item.setData(points.origin[wrong], points.fused[wrong])
        self.plot.enableAutoRange()
        self.note.setText(self._note_text(points))

    def _note_text(self, points: ScatterPoints) -> str:
        if points.stride == 1:
            shown = self.tr("%1 points (every element)").replace("%1", str(points.count))
        else:
            shown = self.tr("%1 points: every %2th of %3 elements, plus the worst ones").replace(
                "%1", str(points.count)).replace("%2", str(points.stride)).replace("%3", str(points.total))
        text = self.tr("%1 · beyond rounding (red): %2 · within rounding (blue)").replace("%1", shown).replace(
            "%2", str(points.wrong_count))
        if points.nonfinite:
            text += " · " + self.tr("NaN/Inf left out: %1").replace("%1", str(points.nonfinite))
        return text

    def drawn_count(self) -> int:
        """Points on the plot now (0 when a reason is shown)."""
        return len(self.rounding_item.data) + len(self.wrong_item.data)
