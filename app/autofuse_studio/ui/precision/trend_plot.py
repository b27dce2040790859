"""OpTrend: the selected fused op's cosine and max relative error across the steps and ranks of the result.

One point per (rank, step) row of the same comparison (fused op, kind, index, occurrence); x is the step,
one line per rank, the selected row ringed. With a single (rank, step) there is no trend and the plots say so.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.grid_axis import add_grid_plot
from autofuse_studio.ui.precision.tensor_plots import EMPTY_TEXT_COLOUR, PLOT_MIN_HEIGHT, ScenePlots
from autofuse_studio.ui.precision.trend_index import TrendKey, index_rows, trend_key  # noqa: F401 (moved there)
from autofuse_studio.ui.widgets.retranslate import Retranslating

RANK_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                "#bcbd22", "#17becf")
METRICS = ("cosine", "max_rel_err")


def step_order(step: str) -> tuple[int, float, str]:
    """Numeric steps by number, others by name after them."""
    try:
        return 0, float(step), step
    except ValueError:
        return 1, 0.0, step


def _number(value: float | int | None) -> float | None:
    return float(value) if value is not None and math.isfinite(float(value)) else None


class OpTrend(Retranslating, ScenePlots):
    """Cosine and max relative error (log) of one op per step, one line per rank."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[PrecisionRow] = []
        self.selected: PrecisionRow | None = None
        self.cosine_plot = add_grid_plot(self.graphics, row=0, col=0)
        self.error_plot = add_grid_plot(self.graphics, row=0, col=1)
        # Items are kept and their data replaced (a line per rank from a pool that only grows, one ring, one
        # sentence): nothing leaves the scene, so no graphics items wait for the cyclic GC (see ScatterPlot).
        self._lines: dict[int, list[pg.PlotDataItem]] = {}
        self._rings: dict[int, pg.PlotDataItem] = {}
        self._labels: dict[int, pg.TextItem] = {}
        for plot in (self.cosine_plot, self.error_plot):
            plot.setMinimumHeight(PLOT_MIN_HEIGHT)
            self._lines[id(plot)] = []
            self._rings[id(plot)] = plot.plot([], [], pen=None, symbol="o", symbolSize=13, symbolBrush=None,
                                              symbolPen=pg.mkPen("k", width=2))
            label = pg.TextItem("", color=EMPTY_TEXT_COLOUR, anchor=(0.5, 0.5))
            plot.addItem(label, ignoreBounds=True)
            self._labels[id(plot)] = label
        self.note = QLabel()
        self.note.setObjectName("trendNote")
        self.note.setWordWrap(True)
        # The ranks' colours beside the note, not in a legend over the lines (they sit at the plot's top).
        self.key = QLabel()
        self.key.setObjectName("trendKey")
        self.key.setTextFormat(Qt.TextFormat.RichText)
        top = QHBoxLayout()
        top.addWidget(self.note, 1)
        top.addWidget(self.key)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.graphics, 1)
        self.retranslate()

    def retranslate(self) -> None:
        """Titles and texts in the current language; the plots are drawn again."""
        self.cosine_plot.setTitle(self.tr("Cosine per step"))
        self.error_plot.setTitle(self.tr("Max relative error per step (log)"))
        for plot in (self.cosine_plot, self.error_plot):
            plot.setLabel("bottom", self.tr("step"))
        self.set_rows(self.rows, self.selected)

    def points(self) -> int:
        """(rank, step) points of the shown op (0 when there is no trend to show)."""
        return len(self.rows) if self.has_trend() else 0

    def has_trend(self) -> bool:
        """True when the op has more than one (rank, step)."""
        return len({(row.rank, row.step) for row in self.rows}) > 1

    def set_rows(self, rows: Sequence[PrecisionRow], selected: PrecisionRow | None = None) -> None:
        """Plot these rows of one op (the selected one ringed); fewer than two (rank, step): say so."""
        self.rows, self.selected = list(rows), selected
        if not self.rows:
            self._empty(self.tr("No row selected: no trend."))
            return
        if not self.has_trend():
            self._empty(self.tr("One step, one rank: no trend."))
            return
        steps = sorted({row.step for row in self.rows}, key=step_order)
        ranks = sorted({row.rank for row in self.rows}, key=lambda rank: step_order(rank or ""))
        position = {step: number for number, step in enumerate(steps)}
        self._show_axes(position)
        missing = 0
        key = []
        for colour_number, rank in enumerate(ranks):
            mine = sorted((row for row in self.rows if row.rank == rank), key=lambda row: step_order(row.step))
            colour = RANK_COLOURS[colour_number % len(RANK_COLOURS)]
            name = self.tr("rank %1").replace("%1", rank) if rank is not None else self.tr("all")
            key.append(f'<span style="color:{colour}">&#9632;</span>&nbsp;{html.escape(name)}')
            for plot, metric in ((self.cosine_plot, "cosine"), (self.error_plot, "max_rel_err")):
                xs, ys = [], []
                for row in mine:
                    value = _number(row.metric(metric))
                    if value is None or (metric == "max_rel_err" and value <= 0):
                        missing += metric == "cosine"
                        continue
                    xs.append(float(position[row.step]))
                    ys.append(value)
                if xs:
                    self._line(plot, colour_number).setData(xs, ys, pen=pg.mkPen(colour, width=1.5), symbol="o",
                                                            symbolSize=6, symbolBrush=colour, symbolPen=None)
        self._ring(selected, position)
        op = self.rows[0].fused_op
        text = self.tr("%1: %2 points (%3 ranks × %4 steps); the selected row is ringed.").replace(
            "%1", op).replace("%2", str(len(self.rows))).replace("%3", str(len(ranks))).replace("%4", str(len(steps)))
        if missing:
            text += " " + self.tr("%1 without a metric (not compared).").replace("%1", str(missing))
        self.note.setText(text)
        self.key.setText("&nbsp;&nbsp;".join(key))

    def _show_axes(self, position: dict[str, int]) -> None:
        """Axes on, the steps as ticks, every line and ring emptied (set_rows fills them)."""
        for plot in (self.cosine_plot, self.error_plot):
            self._labels[id(plot)].hide()
            for side in ("left", "bottom"):
                plot.showAxis(side)
            plot.setMouseEnabled(x=True, y=True)
            plot.getAxis("bottom").setTicks([[(number, step or "-") for step, number in position.items()]])
            for line in self._lines[id(plot)]:
                line.setData([], [])
            self._rings[id(plot)].setData([], [])
        self.error_plot.setLogMode(x=False, y=True)

    def _ring(self, selected: PrecisionRow | None, position: dict[str, int]) -> None:
        """Ring the selected row's points; fit both plots to what is drawn."""
        if selected is not None and selected in self.rows:
            for plot, metric in ((self.cosine_plot, "cosine"), (self.error_plot, "max_rel_err")):
                value = _number(selected.metric(metric))
                if value is not None and (metric == "cosine" or value > 0):
                    self._rings[id(plot)].setData([float(position[selected.step])], [value])
        for plot in (self.cosine_plot, self.error_plot):
            plot.enableAutoRange()

    def _line(self, plot: pg.PlotItem, number: int) -> pg.PlotDataItem:
        """The plot's number-th rank line (made when first needed, then kept)."""
        lines = self._lines[id(plot)]
        while len(lines) <= number:
            lines.append(plot.plot([], []))
        return lines[number]

    def _empty(self, text: str) -> None:
        for plot in (self.cosine_plot, self.error_plot):
            plot.setLogMode(x=False, y=False)
            for line in self._lines[id(plot)]:
                line.setData([], [])
            self._rings[id(plot)].setData([], [])
            for side in ("left", "bottom"):
                plot.hideAxis(side)
            plot.setMouseEnabled(x=False, y=False)
            label = self._labels[id(plot)]
            label.setText(text)
            label.setPos(0.5, 0.5)
            label.show()
            plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
        self.note.setText(text)
        self.key.setText("")
