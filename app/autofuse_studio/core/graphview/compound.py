"""Compound layout: every cluster is laid out on its own, then placed as one tall block inside its parent.

"Collapse, lay out, expand": innermost clusters first, each becomes a node as wide as its box and as tall
(in layers) as its content in the level above; then absolute positions flow back down. A box therefore
holds exactly its members, and sibling boxes never overlap: they are separated like any two nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.levels import LevelLayout, layout_levels
from autofuse_studio.core.progress import CancelToken

__all__ = ["CLUSTER_HEADER", "CLUSTER_PAD", "Hierarchy", "Placement", "build_hierarchy", "place_compound"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

CLUSTER_PAD = 10.0
CLUSTER_HEADER = 16.0  # room above the members for the cluster's label


@dataclass
class Hierarchy:
    """Levels of the cluster tree (level C is the root) and where every unique edge is laid out."""

    items: list[list[int]]  # per level: node ids (< n) and n + cluster ids, in execution order
    depth: list[int]  # per cluster
    pair_level: IntArray  # level holding each unique edge (the innermost cluster around both ends)
    pair_edge: IntArray  # its index among that level's edges
    level_src: list[IntArray]  # per level: local ends of its edges
    level_dst: list[IntArray]


@dataclass
class Placement:
    """Absolute layer and x of nodes, boxes (x0, x1, top layer, layers), dummies and each level's layout."""

    layer: IntArray
    x: FloatArray
    box_x: FloatArray  # (C, 2)
    box_layer: IntArray  # (C, 2): top layer, layers spanned; layers 0 for an empty cluster
    dummy_layer: IntArray
    dummy_x: FloatArray
    dummy_base: IntArray  # per level: index of its first dummy in the arrays above
    levels: list[LevelLayout | None]
    width: float
    layers: int


def build_hierarchy(graph: DisplayGraph, src: IntArray, dst: IntArray) -> Hierarchy:
    """Items of every level and, for every unique edge, the level and local edge it belongs to."""
    n, count = len(graph.nodes), len(graph.clusters)
    if not count:  # flat graph: one level, nodes numbered as they are (fast path for huge graphs)
        return Hierarchy([list(range(n))], [], np.full(len(src), 0, dtype=np.int64),
                         np.arange(len(src), dtype=np.int64), [src], [dst])
    parent = [c.parent if c.parent >= 0 else count for c in graph.clusters]
    path: list[tuple[int, ...]] = []  # outermost .. itself; parents are listed before their children
    for number in range(count):
        above = graph.clusters[number].parent
        path.append((*path[above], number) if 0 <= above < number else _path_of(graph, number))
    first = [-1] * count  # smallest node id inside: orders clusters among nodes by execution order
    items: list[list[int]] = [[] for _ in range(count + 1)]
    for node, item in enumerate(graph.nodes):
        items[item.cluster if item.cluster >= 0 else count].append(node)
        for cluster in reversed(path[item.cluster] if item.cluster >= 0 else ()):
            if first[cluster] >= 0:
                break
            first[cluster] = node
    for cluster in range(count):
        if first[cluster] >= 0:  # an empty cluster (a subgraph without ops) takes no room
            items[parent[cluster]].append(n + cluster)

    def start(key: int) -> int:
        return key if key < n else first[key - n]

    local: dict[int, int] = {}
    for members in items:
        members.sort(key=start)
        local.update((key, index) for index, key in enumerate(members))
    pair_level, pair_edge = np.empty(len(src), dtype=np.int64), np.empty(len(src), dtype=np.int64)
    edges: list[dict[tuple[int, int], int]] = [{} for _ in range(count + 1)]
    for number, (s, d) in enumerate(zip(src.tolist(), dst.tolist(), strict=True)):
        ps = path[graph.nodes[s].cluster] if graph.nodes[s].cluster >= 0 else ()
        pd = path[graph.nodes[d].cluster] if graph.nodes[d].cluster >= 0 else ()
        shared = 0
        while shared < min(len(ps), len(pd)) and ps[shared] == pd[shared]:
            shared += 1
        level = ps[shared - 1] if shared else count
        ends = (local[n + ps[shared] if len(ps) > shared else s], local[n + pd[shared] if len(pd) > shared else d])
        pair_level[number] = level
        pair_edge[number] = edges[level].setdefault(ends, len(edges[level]))
    level_src = [np.asarray([e[0] for e in found], dtype=np.int64) for found in edges]
    level_dst = [np.asarray([e[1] for e in found], dtype=np.int64) for found in edges]
    return Hierarchy(items, [len(p) - 1 for p in path], pair_level, pair_edge, level_src, level_dst)


def _path_of(graph: DisplayGraph, cluster: int) -> tuple[int, ...]:
    """Clusters from the outermost down to `cluster` (for parents listed after their children)."""
    chain = []
    while cluster >= 0:
        chain.append(cluster)
        cluster = graph.clusters[cluster].parent
    return tuple(reversed(chain))


def place_compound(graph: DisplayGraph, tree: Hierarchy, node_widths: FloatArray,
                   cancel: CancelToken) -> Placement:
    """Lay out the levels innermost first (clusters become tall blocks), then place everything absolutely."""
    n, count = len(graph.nodes), len(graph.clusters)
    box_w = np.zeros(count)
    box_h = np.zeros(count, dtype=np.int64)
    levels: list[LevelLayout | None] = [None] * (count + 1)
    by_depth: dict[int, list[int]] = {}
    for cluster in range(count):
        if tree.items[cluster]:  # an empty cluster takes no room and is not drawn
            by_depth.setdefault(tree.depth[cluster], []).append(cluster)
    # One batch per depth: every cluster there only needs the sizes of the deeper ones, already known.
    for batch in [*(by_depth[d] for d in sorted(by_depth, reverse=True)), [count]]:
        inputs = []
        for level in batch:
            keys = np.asarray(tree.items[level], dtype=np.int64)
            boxes = np.maximum(keys - n, 0) if count else keys
            inner = keys >= n
            width = np.where(inner, box_w[boxes] if count else 0.0, node_widths[np.minimum(keys, max(n - 1, 0))])
            height = np.where(inner, box_h[boxes] if count else 1, 1).astype(np.int64)
            inputs.append((tree.level_src[level], tree.level_dst[level], width, height))
        for level, laid in zip(batch, layout_levels(inputs, cancel), strict=True):
            levels[level] = laid
            if level < count:
                box_w[level] = laid.width + 2 * CLUSTER_PAD
                box_h[level] = max(laid.layers, 1)
    return _absolute(tree, levels, n, box_w, box_h)


def _absolute(tree: Hierarchy, levels: list[LevelLayout | None], n: int, box_w: FloatArray,
              box_h: IntArray) -> Placement:
    """Offsets flow from the root down: a level's content starts at its box's top layer and left padding."""
    count = len(box_w)
    x, layer = np.zeros(n), np.zeros(n, dtype=np.int64)
    box_x, box_layer = np.zeros((count, 2)), np.zeros((count, 2), dtype=np.int64)
    base_x, base_layer = np.zeros(count + 1), np.zeros(count + 1, dtype=np.int64)
    dummy_x: list[FloatArray] = []
    dummy_layer: list[IntArray] = []
    dummy_base = np.zeros(count + 1, dtype=np.int64)
    total = 0
    for level in [count, *sorted(range(count), key=lambda c: tree.depth[c])]:
        laid = levels[level]
        if laid is None:
            continue
        keys = np.asarray(tree.items[level], dtype=np.int64)
        at_x, at_layer = base_x[level] + laid.x, base_layer[level] + laid.layer
        plain = keys < n
        x[keys[plain]], layer[keys[plain]] = at_x[plain], at_layer[plain]
        boxes = keys[~plain] - n
        half = box_w[boxes] / 2
        box_x[boxes] = np.column_stack((at_x[~plain] - half, at_x[~plain] + half))
        box_layer[boxes] = np.column_stack((at_layer[~plain], box_h[boxes]))
        base_x[boxes], base_layer[boxes] = at_x[~plain] - half + CLUSTER_PAD, at_layer[~plain]
        dummy_base[level] = total
        dummy_x.append(base_x[level] + laid.dummy_x)
        dummy_layer.append(base_layer[level] + laid.dummy_layer)
        total += len(laid.dummy_x)
    root = levels[count]
    assert root is not None
    return Placement(layer, x, box_x, box_layer, np.concatenate([np.zeros(0, dtype=np.int64), *dummy_layer]),
                     np.concatenate([np.zeros(0), *dummy_x]), dummy_base, levels, root.width, root.layers)
