"""Edge polylines of a compound layered layout that stay clear of every node box they do not end at."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.compound import CLUSTER_PAD, Hierarchy, Placement

__all__ = ["Rows", "route_edges"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass
class Rows:
    """Where things sit: node centres, the centre y of every layer, row half height, margin added to x."""

    x: FloatArray
    y: FloatArray
    layer_y: FloatArray
    half: float
    margin: float


def route_edges(tree: Hierarchy, placed: Placement, src: IntArray, dst: IntArray,
                rows: Rows) -> tuple[NDArray[np.bool_], FloatArray, IntArray]:
    """Back flags and polylines (flat points, offsets) running source -> destination.

    A polyline leaves the bottom of its upper node, crosses every layer row in between straight down at its
    dummy's x (the slot placement keeps free), slants only in the empty gaps between rows and enters the top of
    its lower node. An end inside a cluster box below (or above) the row where the edge meets the box reaches it
    through a lane inside the box's padding, which no member occupies.
    """
    count = len(src)
    back = np.zeros(count, dtype=bool)
    first = np.full(count, -1, dtype=np.int64)
    chain = np.zeros(count, dtype=np.int64)
    src_box, dst_box = np.full(count, -1, dtype=np.int64), np.full(count, -1, dtype=np.int64)
    n = len(rows.x)
    # Edges grouped by level once: thousands of fusion boxes would otherwise scan every edge per level.
    by_level = np.argsort(tree.pair_level, kind="stable")
    bounds = np.searchsorted(tree.pair_level[by_level], np.arange(len(placed.levels) + 1))
    for level, laid in enumerate(placed.levels):
        mine = by_level[bounds[level]:bounds[level + 1]]
        if laid is None or not len(mine):
            continue
        local = tree.pair_edge[mine]
        back[mine] = laid.back[local]
        chain[mine] = laid.dummy_count[local]
        first[mine] = np.where(laid.first_dummy[local] >= 0, laid.first_dummy[local] + placed.dummy_base[level], -1)
        if len(placed.box_x):  # the block each end belongs to in this level, -1 for a plain node
            keys = np.asarray(tree.items[level], dtype=np.int64)
            src_box[mine] = np.where(keys[tree.level_src[level][local]] >= n,
                                     keys[tree.level_src[level][local]] - n, -1)
            dst_box[mine] = np.where(keys[tree.level_dst[level][local]] >= n,
                                     keys[tree.level_dst[level][local]] - n, -1)
    upper, lower = np.where(back, dst, src), np.where(back, src, dst)
    upper_box, lower_box = np.where(back, dst_box, src_box), np.where(back, src_box, dst_box)
    layer = placed.layer
    box_top, box_last = placed.box_layer[:, 0], placed.box_layer[:, 0] + placed.box_layer[:, 1] - 1
    lane_out = (upper_box >= 0) & (layer[upper] < box_last[np.maximum(upper_box, 0)]) if len(box_top) else \
        np.zeros(count, dtype=bool)
    lane_in = (lower_box >= 0) & (layer[lower] > box_top[np.maximum(lower_box, 0)]) if len(box_top) else \
        np.zeros(count, dtype=bool)
    # Every dummy is two points (top and bottom of its row), every lane two (where it starts and ends).
    offsets = np.concatenate(([0], np.cumsum(2 + 2 * chain + 2 * lane_out + 2 * lane_in))).astype(np.int64)
    points = np.empty((int(offsets[-1]), 2), dtype=np.float64)
    starts, ends = offsets[:-1], offsets[1:] - 1
    half = rows.half
    points[starts] = np.column_stack((rows.x[upper], rows.y[upper] + half))
    points[ends] = np.column_stack((rows.x[lower], rows.y[lower] - half))
    owner = np.repeat(np.arange(count), chain)
    step = np.arange(int(chain.sum())) - np.repeat(np.cumsum(chain) - chain, chain)
    through = np.column_stack((placed.dummy_x[first[owner] + step] + rows.margin,
                               rows.layer_y[placed.dummy_layer[first[owner] + step]])) if len(owner) else \
        np.zeros((0, 2))
    at = starts[owner] + 1 + 2 * lane_out[owner] + 2 * step
    lift = np.array([0.0, half])
    points[at] = through - lift
    points[at + 1] = through + lift
    _lanes(points, starts[lane_out] + 1, upper[lane_out], upper_box[lane_out], placed, rows, leaving=True)
    _lanes(points, ends[lane_in] - 2, lower[lane_in], lower_box[lane_in], placed, rows, leaving=False)
    # Back edges were laid out reversed: flip their point runs so every polyline runs source -> destination.
    for index in np.flatnonzero(back).tolist():
        run = points[offsets[index]:offsets[index + 1]]
        points[offsets[index]:offsets[index + 1]] = run[::-1].copy()
    return back, points, offsets


def _lanes(points: FloatArray, at: IntArray, node: IntArray, box: IntArray, placed: Placement, rows: Rows,
           leaving: bool) -> None:
    """Write the two lane points at[k], at[k] + 1 of a node reaching the bottom (leaving) or top of its box.

    The lane runs down the box's padding on the side nearer the node, from the row next to the node to the
    box's last (or first) row; the slants to and from it stay in the gaps between rows.
    """
    if not len(at):
        return
    left, right = placed.box_x[box, 0] + rows.margin, placed.box_x[box, 1] + rows.margin
    lane_x = np.where(rows.x[node] - left <= right - rows.x[node], left + CLUSTER_PAD / 2, right - CLUSTER_PAD / 2)
    layer = placed.layer[node]
    top, last = placed.box_layer[box, 0], placed.box_layer[box, 0] + placed.box_layer[box, 1] - 1
    if leaving:  # below the node's row down to the bottom of the box's last row
        ys = (rows.layer_y[layer + 1] - rows.half, rows.layer_y[last] + rows.half)
    else:  # from the top of the box's first row down to the bottom of the row above the node
        ys = (rows.layer_y[top] - rows.half, rows.layer_y[layer - 1] + rows.half)
    points[at] = np.column_stack((lane_x, ys[0]))
    points[at + 1] = np.column_stack((lane_x, ys[1]))
