"""compute_layout(): a deterministic layered (Sugiyama-style) layout of a DisplayGraph, vectorised with numpy."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.layering import Chains, assign_layers, break_cycles, insert_dummies
from autofuse_studio.core.graphview.placement import cluster_boxes, order_layers, place_x
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

__all__ = ["NODE_HEIGHT", "Layout", "compute_layout", "node_width"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

NODE_HEIGHT = 36.0
LAYER_GAP = 44.0
CHAR_WIDTH = 6.6  # an 11 px monospace digit; the views elide longer labels
MIN_WIDTH, MAX_WIDTH = 60.0, 230.0
DUMMY_WIDTH = 10.0
MARGIN = 30.0
DUMMY_BUDGET_PER_NODE = 4  # caps memory and time on graphs with very long skip edges


def node_width(label: str, type_name: str) -> float:
    """Box width for a node showing `label` over `type_name`."""
    chars = max(len(label), len(type_name))
    return float(min(max(chars * CHAR_WIDTH + 16, MIN_WIDTH), MAX_WIDTH))


@dataclass
class Layout:
    """Node centres and sizes, unique edges as polylines (flat points + offsets), cluster boxes, bounds."""

    x: FloatArray
    y: FloatArray
    width: FloatArray
    height: FloatArray
    layer: IntArray
    edge_src: IntArray
    edge_dst: IntArray
    edge_back: NDArray[np.bool_]
    points: FloatArray  # (M, 2)
    offsets: IntArray  # edge i uses points[offsets[i]:offsets[i + 1]]
    cluster_box: FloatArray  # (C, 4): x0, y0, x1, y1
    size: tuple[float, float]

    def edge_points(self, index: int) -> FloatArray:
        """The polyline of unique edge `index`, from its source to its destination."""
        return self.points[self.offsets[index]:self.offsets[index + 1]]

    def node_rect(self, node: int) -> tuple[float, float, float, float]:
        """(x0, y0, width, height) of a node box."""
        w, h = float(self.width[node]), float(self.height[node])
        return float(self.x[node]) - w / 2, float(self.y[node]) - h / 2, w, h


def compute_layout(graph: DisplayGraph, progress: Progress = no_progress,
                   cancel: CancelToken = NEVER_CANCELLED) -> Layout:
    """Layers by longest path, a few barycenter sweeps, compacted x positions; same graph -> same layout."""
    n = len(graph.nodes)
    src, dst, _ = graph.pairs()
    progress(0, 4, "layering")
    back = break_cycles(n, src, dst)
    up_src, up_dst = np.where(back, dst, src), np.where(back, src, dst)  # back edges reversed while layering
    layer = assign_layers(n, up_src, up_dst)
    chains = insert_dummies(layer, up_src, up_dst, DUMMY_BUDGET_PER_NODE * max(n, 1))
    cancel.check()
    progress(1, 4, "ordering")
    clusters = _top_clusters(graph, len(chains.layer))
    position = order_layers(chains, n, clusters, cancel)
    cancel.check()
    progress(2, 4, "placing")
    widths = np.full(len(chains.layer), DUMMY_WIDTH)
    widths[:n] = [node_width(node.label, node.type) for node in graph.nodes]
    x = place_x(chains, position, widths, clusters)
    total_layers = int(chains.layer.max()) + 1 if n else 0
    y = MARGIN + NODE_HEIGHT / 2 + chains.layer.astype(np.float64) * (NODE_HEIGHT + LAYER_GAP)
    if n:
        x += MARGIN - float((x - widths / 2).min())
    progress(3, 4, "routing")
    points, offsets = _route(chains, x, y, up_src, up_dst, back, n)
    heights = np.full(n, NODE_HEIGHT)
    boxes = cluster_boxes(graph, x[:n], y[:n], widths[:n], heights)
    right = float(max((x[:n] + widths[:n] / 2).max(initial=0), boxes[:, 2].max(initial=0))) + MARGIN
    bottom = MARGIN * 2 + total_layers * (NODE_HEIGHT + LAYER_GAP)
    progress(4, 4, "laid out")
    return Layout(x[:n].copy(), y[:n].copy(), widths[:n].copy(), heights, chains.layer[:n].copy(), src, dst, back,
                  points, offsets, boxes, (right, bottom))


def _top_clusters(graph: DisplayGraph, total: int) -> IntArray:
    """Outermost cluster of every node (-1 none); dummies get -1."""
    top = np.full(total, -1, dtype=np.int64)
    for number, node in enumerate(graph.nodes):
        cluster = node.cluster
        while cluster >= 0 and graph.clusters[cluster].parent >= 0:
            cluster = graph.clusters[cluster].parent
        top[number] = cluster
    return top


def _route(chains: Chains, x: FloatArray, y: FloatArray, src: IntArray, dst: IntArray,
           back: NDArray[np.bool_], n: int) -> tuple[FloatArray, IntArray]:
    """Polylines from the bottom of the upper node through its dummies to the top of the lower node."""
    half = NODE_HEIGHT / 2
    count = chains.dummy_count
    lengths = count + 2
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    points = np.empty((int(offsets[-1]), 2), dtype=np.float64)
    starts, ends = offsets[:-1], offsets[1:] - 1
    points[starts] = np.column_stack((x[src], y[src] + half))
    points[ends] = np.column_stack((x[dst], y[dst] - half))
    owner = np.repeat(np.arange(len(src)), count)
    step = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    ids = chains.first_dummy[owner] + step
    points[starts[owner] + 1 + step] = np.column_stack((x[ids], y[ids]))
    # Back edges were laid out reversed: flip their point runs so every polyline runs source -> destination.
    for index in np.flatnonzero(back).tolist():
        run = points[offsets[index]:offsets[index + 1]]
        points[offsets[index]:offsets[index + 1]] = run[::-1].copy()
    return points, offsets
