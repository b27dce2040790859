"""EdgeIndex: the segments and arrow heads of a layout's edges, found by rectangle or point; the overview.

A view of a big graph is crossed by thousands of long edges; batching edges into cached paths by edge
number drew most of the graph on every pan. Culled segment by segment instead, a repaint draws only
what crosses the view.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.layout import Layout
from autofuse_studio.core.graphview.raster import Overview, overview
from autofuse_studio.core.render.svg import ARROW_HALF_WIDTH, ARROW_LENGTH

__all__ = ["EdgeIndex", "graph_overview"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

SHORT = 400.0  # segments up to this tall are indexed by their top y; taller ones are tested one by one


class EdgeIndex:
    """Segments of every polyline (by edge), sorted by top y, plus one arrow-head triangle per edge."""

    def __init__(self, points: FloatArray, offsets: IntArray) -> None:
        count = max(len(offsets) - 1, 0)
        inner = np.ones(max(len(points) - 1, 0), dtype=bool)
        inner[offsets[1:-1] - 1] = False  # a polyline's last point does not lead to the next one's first
        first = np.flatnonzero(inner)
        a, b = points[first], points[first + 1]
        owner = np.repeat(np.arange(count), np.maximum(np.diff(offsets) - 1, 0))
        low, high = np.minimum(a, b), np.maximum(a, b)
        short = high[:, 1] - low[:, 1] <= SHORT
        order = np.flatnonzero(short)[np.argsort(low[short, 1], kind="stable")]
        self.start, self.end, self.edge = a, b, owner
        self.low, self.high = low, high
        self._short = order
        self._short_top = low[order, 1]
        self._tall = np.flatnonzero(~short)
        self.arrows = _arrow_heads(points, offsets)

    def segments_in(self, x0: float, y0: float, x1: float, y1: float) -> IntArray:
        """Segments whose bounding boxes meet the rectangle (x0, y0)-(x1, y1)."""
        lo = int(np.searchsorted(self._short_top, y0 - SHORT, side="left"))
        hi = int(np.searchsorted(self._short_top, y1, side="right"))
        candidates = np.concatenate((self._short[lo:hi], self._tall))
        low, high = self.low[candidates], self.high[candidates]
        hit = (high[:, 1] >= y0) & (low[:, 1] <= y1) & (high[:, 0] >= x0) & (low[:, 0] <= x1)
        found: IntArray = np.sort(candidates[hit])
        return found

    def clipped(self, segments: IntArray, x0: float, y0: float, x1: float, y1: float) -> tuple[FloatArray, FloatArray]:
        """The parts of some segments inside the rectangle (Liang-Barsky), as (starts, ends).

        Long edges reach far beyond a view; stroking them whole (antialiased) costs Qt time per length.
        """
        a, b = self.start[segments], self.end[segments]
        d = b - a
        low, high = np.zeros(len(a)), np.ones(len(a))
        with np.errstate(divide="ignore", invalid="ignore"):
            for axis, lo_edge, hi_edge in ((0, x0, x1), (1, y0, y1)):
                step = d[:, axis]
                t_lo, t_hi = (lo_edge - a[:, axis]) / step, (hi_edge - a[:, axis]) / step
                moving = step != 0
                enter = np.where(moving, np.minimum(t_lo, t_hi), -np.inf)
                leave = np.where(moving, np.maximum(t_lo, t_hi), np.inf)
                low, high = np.maximum(low, enter), np.minimum(high, leave)
        keep = low <= high
        start: FloatArray = a[keep] + d[keep] * low[keep, None]
        end: FloatArray = a[keep] + d[keep] * high[keep, None]
        return start, end

    def arrows_in(self, x0: float, y0: float, x1: float, y1: float) -> IntArray:
        """Edges whose arrow heads may show in the rectangle."""
        tip = self.arrows[:, 0]
        pad = ARROW_LENGTH + ARROW_HALF_WIDTH
        hit = (tip[:, 0] >= x0 - pad) & (tip[:, 0] <= x1 + pad) & (tip[:, 1] >= y0 - pad) & (tip[:, 1] <= y1 + pad)
        found: IntArray = np.flatnonzero(hit)
        return found

    def nearest(self, x: float, y: float, tolerance: float) -> int | None:
        """The edge passing closest to (x, y), strictly within tolerance (the lowest number on a tie)."""
        near = self.segments_in(x - tolerance, y - tolerance, x + tolerance, y + tolerance)
        if not len(near):
            return None
        a, d = self.start[near], self.end[near] - self.start[near]
        length2 = np.maximum((d * d).sum(axis=1), 1e-9)
        t = np.clip(((x - a[:, 0]) * d[:, 0] + (y - a[:, 1]) * d[:, 1]) / length2, 0, 1)
        distance = np.hypot(a[:, 0] + t * d[:, 0] - x, a[:, 1] + t * d[:, 1] - y)
        inside = distance < tolerance
        if not inside.any():
            return None
        best = distance[inside].min()
        return int(self.edge[near[inside & (distance == best)]].min())


def _arrow_heads(points: FloatArray, offsets: IntArray) -> FloatArray:
    """(edges, 3, 2): the corners of each edge's arrow head, as render.svg.arrow_head computes them."""
    if len(offsets) < 2:
        return np.zeros((0, 3, 2))
    tip, before = points[offsets[1:] - 1], points[offsets[1:] - 2]
    delta = tip - before
    length = np.hypot(delta[:, 0], delta[:, 1])
    length = np.where(length == 0, 1.0, length)
    ux, uy = delta[:, 0] / length, delta[:, 1] / length
    bx, by = tip[:, 0] - ux * ARROW_LENGTH, tip[:, 1] - uy * ARROW_LENGTH
    corners = np.empty((len(tip), 3, 2))
    corners[:, 0] = tip
    corners[:, 1, 0], corners[:, 1, 1] = bx - uy * ARROW_HALF_WIDTH, by + ux * ARROW_HALF_WIDTH
    corners[:, 2, 0], corners[:, 2, 1] = bx + uy * ARROW_HALF_WIDTH, by - ux * ARROW_HALF_WIDTH
    return corners


def graph_overview(layout: Layout, index: EdgeIndex, palette: tuple[IntArray, NDArray[np.uint8]],
                   edge: tuple[int, int, int, int]) -> Overview:
    """The whole laid-out graph as one picture (node fills over grey edges), for far zooms of big graphs."""
    codes, colours = palette
    half_w, half_h = layout.width / 2, layout.height / 2
    return overview(layout.x - half_w, layout.y - half_h, layout.x + half_w, layout.y + half_h, codes, colours,
                    (index.start, index.end), layout.size, edge)
