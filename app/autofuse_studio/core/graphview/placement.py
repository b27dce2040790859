"""Ordering within layers (barycenter sweeps) and x placement, both vectorised over all layers at once."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.layering import Chains
from autofuse_studio.core.progress import CancelToken

__all__ = ["cluster_boxes", "order_layers", "place_x"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

SWEEPS = 8
PLACE_ROUNDS = 6
NODE_GAP = 18.0
CLUSTER_PAD = 10.0
CLUSTER_HEADER = 16.0  # room above the members for the cluster's label


def _rank_in_layer(layer: IntArray, keys: tuple[FloatArray | IntArray, ...]) -> tuple[IntArray, IntArray]:
    """Sort nodes layer-major by keys (last key most significant before layer); position within layer."""
    order = np.lexsort((*keys, layer))
    counts = np.bincount(layer)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    position = np.empty(len(layer), dtype=np.int64)
    position[order] = np.arange(len(layer)) - starts[layer[order]]
    return order, position


def _barycenter(value: FloatArray, frm: IntArray, to: IntArray, fallback: FloatArray) -> FloatArray:
    """Mean of value[frm] over the edges reaching each node; fallback where no edge arrives."""
    total = np.bincount(to, weights=value[frm], minlength=len(fallback))
    count = np.bincount(to, minlength=len(fallback))
    return np.where(count > 0, total / np.maximum(count, 1), fallback)


def _grouped(cluster: IntArray, bary: FloatArray) -> FloatArray:
    """Sort key keeping cluster members side by side: the cluster's mean barycenter over all its members.

    One key per cluster (not per layer) also keeps clusters in the same left-to-right order on every layer.
    """
    inside = cluster >= 0
    if not inside.any():
        return bary
    total = np.bincount(cluster[inside], weights=bary[inside])
    mean = total / np.maximum(np.bincount(cluster[inside]), 1)
    grouped: FloatArray = np.where(inside, mean[np.maximum(cluster, 0)], bary)
    return grouped


def order_layers(chains: Chains, n: int, cluster: IntArray, cancel: CancelToken) -> IntArray:
    """Position of every real and dummy node within its layer after alternating barycenter sweeps."""
    layer = chains.layer
    total = len(layer)
    # Initial order: execution order; a dummy sits where its edge's source sits.
    seed = np.arange(total, dtype=np.float64)
    if total > n:
        # The first dummy of a chain has its real source as segment source; the rest copy it forward.
        source = np.full(total, -1, dtype=np.int64)
        source[chains.seg_dst] = np.where(chains.seg_src < n, chains.seg_src, -1)
        dummy_source = source[n:]
        filled = np.maximum.accumulate(np.where(dummy_source >= 0, np.arange(total - n), 0))
        seed[n:] = np.maximum(dummy_source[filled], 0) + 0.5
    _, position = _rank_in_layer(layer, (seed,))
    pos = position.astype(np.float64)
    for sweep in range(SWEEPS):
        cancel.check()
        if sweep % 2 == 0:
            bary = _barycenter(pos, chains.seg_src, chains.seg_dst, pos)
        else:
            bary = _barycenter(pos, chains.seg_dst, chains.seg_src, pos)
        _, position = _rank_in_layer(layer, (pos, bary, _grouped(cluster, bary)))
        pos = position.astype(np.float64)
    return position


def _segmented_push(layer_sorted: IntArray, desired: FloatArray, sep: FloatArray) -> FloatArray:
    """Closest non-overlapping positions to `desired` (sorted layer-major): average of push-right and push-left."""
    first = np.ones(len(layer_sorted), dtype=bool)
    first[1:] = layer_sorted[1:] != layer_sorted[:-1]
    gaps = np.where(first, 0.0, sep)
    cum = np.cumsum(gaps)
    base = np.maximum.accumulate(np.where(first, cum, 0.0))
    offset = cum - base  # required distance from the first node of the layer
    slack = desired - offset
    big = 4.0 * (float(np.abs(slack).max(initial=0.0)) + 1.0)
    lifted = slack + layer_sorted * big
    right = np.maximum.accumulate(lifted) - layer_sorted * big
    left = np.minimum.accumulate(lifted[::-1])[::-1] - layer_sorted * big
    placed: FloatArray = offset + (right + left) / 2
    return placed


def place_x(chains: Chains, position: IntArray, width: FloatArray, cluster: IntArray) -> FloatArray:
    """Centre x of every node: packed per layer, then pulled toward its neighbours without overlaps."""
    layer = chains.layer
    order = np.lexsort((position, layer))
    layer_sorted = layer[order]
    w = width[order]
    same_cluster = np.zeros(len(order), dtype=bool)
    same_cluster[1:] = (cluster[order][1:] == cluster[order][:-1]) & (cluster[order][1:] >= 0)
    # Between a cluster member and an outsider leave room for the box border.
    sep = np.zeros(len(order))
    sep[1:] = (w[1:] + w[:-1]) / 2 + NODE_GAP + np.where(same_cluster[1:], 0.0, CLUSTER_PAD)
    x = np.zeros(len(layer))
    x[order] = _segmented_push(layer_sorted, np.zeros(len(order)), sep)
    for round_number in range(PLACE_ROUNDS):
        if round_number % 3 == 0:
            desired = _barycenter(x, chains.seg_src, chains.seg_dst, x)
        elif round_number % 3 == 1:
            desired = _barycenter(x, chains.seg_dst, chains.seg_src, x)
        else:
            both_from = np.concatenate((chains.seg_src, chains.seg_dst))
            both_to = np.concatenate((chains.seg_dst, chains.seg_src))
            desired = _barycenter(x, both_from, both_to, x)
        x[order] = _segmented_push(layer_sorted, desired[order], sep)
    return x


def cluster_boxes(graph: DisplayGraph, x: FloatArray, y: FloatArray, width: FloatArray,
                  height: FloatArray) -> FloatArray:
    """(x0, y0, x1, y1) per cluster around its members and nested clusters, innermost first."""
    count = len(graph.clusters)
    box = np.empty((count, 4))
    box[:, :2] = np.inf
    box[:, 2:] = -np.inf
    members = graph.cluster_members()
    depth = [0] * count
    for number, cluster in enumerate(graph.clusters):
        parent = cluster.parent
        while parent >= 0:
            depth[number] += 1
            parent = graph.clusters[parent].parent
    for number in sorted(range(count), key=lambda c: -depth[c]):
        ids = np.asarray(members[number], dtype=np.int64)
        if len(ids):
            box[number, 0] = min(box[number, 0], float((x[ids] - width[ids] / 2).min()) - CLUSTER_PAD)
            box[number, 1] = min(box[number, 1], float((y[ids] - height[ids] / 2).min()) - CLUSTER_PAD - CLUSTER_HEADER)
            box[number, 2] = max(box[number, 2], float((x[ids] + width[ids] / 2).max()) + CLUSTER_PAD)
            box[number, 3] = max(box[number, 3], float((y[ids] + height[ids] / 2).max()) + CLUSTER_PAD)
        parent = graph.clusters[number].parent
        if parent >= 0 and np.isfinite(box[number]).all():
            inner = box[number]
            box[parent] = [min(box[parent, 0], inner[0] - CLUSTER_PAD), min(box[parent, 1], inner[1] - CLUSTER_HEADER),
                           max(box[parent, 2], inner[2] + CLUSTER_PAD), max(box[parent, 3], inner[3] + CLUSTER_PAD)]
    box[~np.isfinite(box)] = 0.0
    return box
