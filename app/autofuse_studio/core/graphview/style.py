"""Node colours: by precision verdict or by one metric on a colour scale, plus the legend and first divergence."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.graph import NODE_FUSION, DisplayGraph
from autofuse_studio.core.graphview.raster import fill_codes
from autofuse_studio.core.graphview.sync import FusionIndex, worst_verdict
from autofuse_studio.core.precision.palette import VERDICT_FILLS
from autofuse_studio.core.precision.rows import (
    PrecisionRow,
)

__all__ = [
    "BY_VERDICT", "HIGHER_IS_BETTER", "METRICS", "NO_ROWS_FILL", "VERDICT_FILLS", "NodeStyle", "style_nodes",
]

BY_VERDICT = "verdict"
NO_ROWS_FILL = "#f7f7f7"  # ops the precision run did not compare (or no run yet)
METRICS = ("cosine", "max_abs_err", "max_rel_err", "mean_abs_err", "rmse", "rel_euclidean")
HIGHER_IS_BETTER = frozenset({"cosine"})
IntArray = NDArray[np.int64]
# Good -> bad, a colour-blind-safe diverging scale (ColorBrewer RdYlBu reversed).
SCALE = ("#4575b4", "#91bfdb", "#e0f3f8", "#fee090", "#fc8d59", "#d73027")


@dataclass
class NodeStyle:
    """Fill per node, nodes holding the first divergence, and legend entries (label, colour)."""

    fills: list[str]
    first_divergence: set[int] = field(default_factory=set)
    legend: list[tuple[str, str]] = field(default_factory=list)
    title: str = ""
    _palette: tuple[IntArray, NDArray[np.uint8]] | None = field(default=None, repr=False, compare=False)

    def palette(self) -> tuple[IntArray, NDArray[np.uint8]]:
        """(palette index per node, RGBA per palette entry), worked out once (a pane's worker does it)."""
        if self._palette is None:
            self._palette = fill_codes(self.fills, len(self.fills))
        return self._palette


def scale_colour(t: float) -> str:
    """Colour at t in [0, 1] (0 good, 1 bad) interpolated along SCALE."""
    t = min(max(t, 0.0), 1.0) * (len(SCALE) - 1)
    low = min(int(t), len(SCALE) - 2)
    frac = t - low
    a, b = SCALE[low], SCALE[low + 1]
    channels = [round(int(a[i:i + 2], 16) * (1 - frac) + int(b[i:i + 2], 16) * frac) for i in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in channels)


def _node_rows(graph: DisplayGraph, index: FusionIndex, node: int, fused_side: bool) -> list[PrecisionRow]:
    item = graph.nodes[node]
    if item.kind == NODE_FUSION:
        return index.rows_of_fused(item.ops[0])  # a collapsed group: ops[0] is the fused op itself
    if len(item.ops) == 1 and not index.may_have_rows(item.ops[0], fused_side):
        return []  # most ops of a big graph: two dict look-ups instead of building empty lists
    return index.rows_of_ops(item.ops, fused_side)


def _worst_metric(rows: list[PrecisionRow], metric: str) -> float | None:
    values = [float(v) for v in (row.metric(metric) for row in rows) if v is not None and math.isfinite(float(v))]
    if not values:
        return None
    return min(values) if metric in HIGHER_IS_BETTER else max(values)


def _metric_fills(values: list[float | None], metric: str) -> tuple[list[str], list[tuple[str, str]]]:
    present = [v for v in values if v is not None]
    if not present:
        return [NO_ROWS_FILL] * len(values), [("no compared rows", NO_ROWS_FILL)]
    # Errors span decades: a log scale keeps small differences visible.
    log = metric not in HIGHER_IS_BETTER
    def transform(v: float) -> float:
        return math.log10(max(v, 1e-12)) if log else v
    low, high = min(map(transform, present)), max(map(transform, present))
    span = (high - low) or 1.0
    def badness(v: float) -> float:
        t = (transform(v) - low) / span
        return 1 - t if metric in HIGHER_IS_BETTER else t
    fills = [NO_ROWS_FILL if v is None else scale_colour(badness(v)) for v in values]
    best, worst = (max(present), min(present)) if metric in HIGHER_IS_BETTER else (min(present), max(present))
    legend = [(f"{metric} {best:.6g} (best)", scale_colour(0.0)), (f"{metric} {worst:.6g} (worst)", scale_colour(1.0)),
              ("not compared", NO_ROWS_FILL)]
    return fills, legend


def style_nodes(graph: DisplayGraph, index: FusionIndex, fused_side: bool, colour_by: str = BY_VERDICT) -> NodeStyle:
    """Fills for every node from its precision rows (verdict or metric) and the first-divergence nodes."""
    rows = [_node_rows(graph, index, node, fused_side) for node in range(len(graph.nodes))]
    if colour_by == BY_VERDICT:
        verdicts = [worst_verdict(node_rows) for node_rows in rows]
        fills = [NO_ROWS_FILL if v is None else VERDICT_FILLS[v] for v in verdicts]
        # Graphs opened without dumps: nothing has a verdict, the legend says so instead of listing four.
        legend = [] if index.result is None else [(v.lower(), colour) for v, colour in VERDICT_FILLS.items()]
        legend.append(("not compared", NO_ROWS_FILL))
    else:
        fills, legend = _metric_fills([_worst_metric(node_rows, colour_by) for node_rows in rows], colour_by)
    first: set[int] = set()
    result = index.result
    if result is not None and result.first_divergence is not None:
        target = result.first_divergence
        names = [target.fused_op] if fused_side else list(index.originals_of(target.fused_op))
        for name in names:
            node = graph.node_of_op(name)
            if node is None:
                node = graph.node_of_key(f"fusion:{target.fused_op}")
            if node is not None:
                first.add(node)
        legend.append(("first divergence", "#000000"))
    return NodeStyle(fills, first, legend, colour_by)
