"""Flat layered layouts of levels whose nodes may span several layers (collapsed compound blocks)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.layering import Chains, assign_layers, break_cycles, insert_dummies
from autofuse_studio.core.graphview.placement import order_layers, place_x, place_x_spanning
from autofuse_studio.core.progress import CancelToken

__all__ = ["DUMMY_WIDTH", "LevelLayout", "layout_levels"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

DUMMY_WIDTH = 10.0
DUMMY_BUDGET_PER_NODE = 4  # caps memory and time on graphs with very long skip edges
DUMMY_BUDGET_FLOOR = 50_000  # enough for every long edge of a graph of a few thousand ops (a clear route)


@dataclass
class LevelLayout:
    """Top layer and centre x of every node (content starts at x = 0), and each edge's dummy chain.

    Edge i runs downward from its upper end through dummies first_dummy[i] .. + dummy_count[i] - 1;
    back[i] marks edges laid out reversed (their upper end is their destination).
    """

    layer: IntArray
    x: FloatArray
    back: NDArray[np.bool_]
    first_dummy: IntArray  # index into dummy_layer / dummy_x, -1 when none
    dummy_count: IntArray
    dummy_layer: IntArray
    dummy_x: FloatArray
    width: float
    layers: int


def layout_levels(levels: list[tuple[IntArray, IntArray, FloatArray, IntArray]],
                  cancel: CancelToken) -> list[LevelLayout]:
    """Lay out independent levels, each given as (edge src, edge dst, node widths, node heights), in one pass.

    Thousands of small fusion groups would each pay numpy's per-call overhead: instead they are laid out as
    one graph whose parts get disjoint layer ranges, so they never interact, then cut apart again.
    """
    sizes = np.asarray([len(width) for _, _, width, _ in levels], dtype=np.int64)
    node_base = np.concatenate(([0], np.cumsum(sizes)))
    edge_sizes = np.asarray([len(src) for src, _, _, _ in levels], dtype=np.int64)
    edge_base = np.concatenate(([0], np.cumsum(edge_sizes)))
    part = np.repeat(np.arange(len(levels)), sizes)
    shift = [int(b) for b in node_base[:-1]]
    src = np.concatenate([np.zeros(0, dtype=np.int64), *(lv[0] + b for lv, b in zip(levels, shift, strict=True))])
    dst = np.concatenate([np.zeros(0, dtype=np.int64), *(lv[1] + b for lv, b in zip(levels, shift, strict=True))])
    width = np.concatenate([np.zeros(0), *(w for _, _, w, _ in levels)])
    height = np.concatenate([np.zeros(0, dtype=np.int64), *(h for _, _, _, h in levels)])
    count = len(width)
    # Kahn's order and longest paths never cross between parts: both are the same as one run per part.
    back = break_cycles(count, src, dst)
    up_src, up_dst = np.where(back, dst, src), np.where(back, src, dst)  # back edges reversed while layering
    tall = height > 1
    layer = assign_layers(count, up_src, up_dst, height if tall.any() else None)
    top = np.full(len(levels), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(top, part, layer)
    depth = np.zeros(len(levels), dtype=np.int64)
    np.maximum.at(depth, part, layer + height - top[part])
    stack = np.concatenate(([0], np.cumsum(depth)[:-1])) - np.where(sizes > 0, top, 0)
    layer = layer + stack[part]  # parts stacked on disjoint layers
    bottom = layer + height - 1
    chains = insert_dummies(layer, up_src, up_dst, max(DUMMY_BUDGET_PER_NODE * count, DUMMY_BUDGET_FLOOR), bottom)
    cancel.check()
    dummies = len(chains.layer) - count
    widths = np.concatenate((width, np.full(dummies, DUMMY_WIDTH)))
    if not tall.any():
        position = order_layers(chains, count, np.full(len(chains.layer), -1, dtype=np.int64), cancel)
        x = place_x(chains, position, widths)
    else:
        x = _place_with_slices(chains, count, widths, layer, height, cancel)
    cancel.check()
    # Cut apart: every part starts at layer 0 and x = 0 (left edge of its leftmost node or dummy).
    dummy_part = np.repeat(part[src], chains.dummy_count) if len(src) else np.zeros(0, dtype=np.int64)
    every_part = np.concatenate((part, dummy_part))
    left = np.full(len(levels), np.inf)
    np.minimum.at(left, every_part, x - widths / 2)
    right = np.full(len(levels), -np.inf)
    np.maximum.at(right, every_part, x + widths / 2)
    left[~np.isfinite(left)], right[~np.isfinite(right)] = 0.0, 0.0
    x = x - left[every_part]
    laid_layer = chains.layer - stack[every_part]
    dummy_base = np.concatenate(([0], np.cumsum(chains.dummy_count)))[edge_base]
    found = []
    for number in range(len(levels)):
        nodes = slice(int(node_base[number]), int(node_base[number + 1]))
        edges = slice(int(edge_base[number]), int(edge_base[number + 1]))
        extra = slice(count + int(dummy_base[number]), count + int(dummy_base[number + 1]))
        first = chains.first_dummy[edges]
        found.append(LevelLayout(laid_layer[nodes], x[nodes], back[edges],
                                 np.where(first >= 0, first - count - dummy_base[number], -1),
                                 chains.dummy_count[edges], laid_layer[extra], x[extra],
                                 float(right[number] - left[number]), int(depth[number])))
    return found


def _place_with_slices(chains: Chains, count: int, widths: FloatArray, layer: IntArray, height: IntArray,
                       cancel: CancelToken) -> FloatArray:
    """Order and place with every tall node cut into one slice per layer below its top (slices after dummies)."""
    tall = np.flatnonzero(height > 1)
    extra = height[tall] - 1
    owner_of_slice = np.repeat(tall, extra)
    step = np.arange(int(extra.sum())) - np.repeat(np.cumsum(extra) - extra, extra)
    total = len(chains.layer)
    sliced = Chains(np.concatenate((chains.layer, layer[owner_of_slice] + 1 + step)), chains.seg_src,
                    chains.seg_dst, chains.first_dummy, chains.dummy_count)
    owner = np.full(len(sliced.layer), -1, dtype=np.int64)
    owner[tall] = tall
    owner[total:] = owner_of_slice
    position = order_layers(sliced, count, owner, cancel)
    x = place_x_spanning(sliced, position, np.concatenate((widths, widths[owner_of_slice])), owner)
    return x[:total]
