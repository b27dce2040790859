"""The 'sorted values' inset of a layout permutation (issue 31): sorted fused vs sorted origin values, drawn small
over the values histogram, so 'the same values in other places' is seen at a glance (the curves coincide)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import QGraphicsRectItem

from autofuse_studio.core.precision.tensor_stats import Histogram

INSET_SHARE = (0.4, 0.55)  # of the host plot's data area: width, height
INSET_MARGIN = 6.0  # px from the data area's top-left corner
INSET_MIN = (160.0, 110.0)  # px: below this the inset would be unreadable, so it is not shown


def sorted_curve(histogram: Histogram) -> tuple[np.ndarray, np.ndarray]:
    """The sorted finite values at the histogram's resolution: (share of values below, value) at each bin edge.

    The values histogram bins both sides on shared edges, so two sides holding the same values (in any places)
    give the same curve: the exact sorted arrays are not needed to see that the multisets agree.
    """
    counts = histogram.counts.astype(np.float64)
    total = float(counts.sum())
    share = np.concatenate(([0.0], np.cumsum(counts) / total)) if total else np.zeros(len(histogram.edges))
    return share, np.asarray(histogram.edges, dtype=np.float64)


class SortedValuesInset:
    """A small plot of sorted fused and sorted origin values in the top-left corner of a host plot."""

    def __init__(self, host: pg.PlotItem, fused_pen: QPen, origin_pen: QPen) -> None:
        self.host = host
        # An opaque card under the inset: the histogram's curves must not show through its axes.
        self.card = QGraphicsRectItem(host)
        self.card.setBrush(QBrush(QColor("white")))
        self.card.setPen(QPen(QColor("#999999")))
        self.card.setZValue(20)
        self.plot = pg.PlotItem()
        self.plot.setParentItem(host)
        self.plot.setZValue(21)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.fused = self.plot.plot(pen=fused_pen)
        self.origin = self.plot.plot(pen=pg.mkPen(origin_pen.color(), width=1.5, style=pg.QtCore.Qt.PenStyle.DashLine))
        self.wanted = False  # a permutation is shown (the inset hides while the host is too small for it)
        host.vb.sigResized.connect(self._on_host_resized)
        self._conceal()

    @property
    def shown(self) -> bool:
        """True while the inset is on show."""
        return bool(self.plot.isVisible())

    def show(self, fused: Histogram, origin: Histogram, title: str, share_label: str) -> None:
        """Draw the two sorted-value curves (from the shared-bin histograms) with a title and an x label."""
        self.fused.setData(*sorted_curve(fused))
        self.origin.setData(*sorted_curve(origin))
        self.plot.setTitle(title, size="8pt")
        self.plot.setLabel("bottom", share_label)
        self.plot.setXRange(0, 1, padding=0.02)
        self.plot.enableAutoRange(axis="y")
        self.wanted = True
        self._place()

    def hide(self) -> None:
        """Take the inset off the host plot."""
        self.wanted = False
        self._conceal()

    def _conceal(self) -> None:
        self.plot.hide()
        self.card.hide()

    def _place(self) -> None:
        area = self.host.vb.geometry()
        width, height = area.width() * INSET_SHARE[0], area.height() * INSET_SHARE[1]
        if not self.wanted or width < INSET_MIN[0] or height < INSET_MIN[1]:
            self._conceal()
            return
        rect = QRectF(area.left() + INSET_MARGIN, area.top() + INSET_MARGIN, width, height)
        self.card.setRect(rect)
        self.plot.setGeometry(rect)
        self.card.show()
        self.plot.show()

    def _on_host_resized(self, *_args: object) -> None:
        if self.wanted:
            self._place()
