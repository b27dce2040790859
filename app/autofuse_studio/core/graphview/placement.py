"""Ordering within layers (barycenter sweeps) and x placement, vectorised over all layers at once."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.layering import Chains
from autofuse_studio.core.progress import CancelToken

__all__ = ["order_layers", "place_x", "place_x_spanning"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

SWEEPS = 8
PLACE_ROUNDS = 6
NODE_GAP = 28.0  # between neighbours in a layer (wide enough for an edge to pass between two boxes)


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
    """Sort key keeping the slices of one tall node together: their mean barycenter over all its layers.

    One key per node (not per layer) keeps tall nodes in the same left-to-right order on every layer, so
    the separation constraints between them never form a cycle.
    """
    inside = cluster >= 0
    if not inside.any():
        return bary
    total = np.bincount(cluster[inside], weights=bary[inside])
    mean = total / np.maximum(np.bincount(cluster[inside]), 1)
    grouped: FloatArray = np.where(inside, mean[np.maximum(cluster, 0)], bary)
    return grouped


def order_layers(chains: Chains, n: int, owner: IntArray, cancel: CancelToken) -> IntArray:
    """Position of every real, dummy and slice node within its layer after alternating barycenter sweeps.

    `owner` is the tall node a slice (or the tall node itself) belongs to, -1 for everything else.
    """
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
    sliced = owner >= 0
    seed[sliced] = seed[owner[sliced]]
    order, position = _rank_in_layer(layer, (seed,))
    # Each sweep sorts by (layer, key) with ties kept in the current order: a stable sort of the nodes
    # taken in that order. It is the lexsort by (layer, key, position) it replaces, several times faster.
    layer_sorted = layer[order]
    starts = np.concatenate(([0], np.cumsum(np.bincount(layer))[:-1]))
    rank = np.arange(total) - starts[layer_sorted]
    composite = _composite_scale(chains, layer) if not sliced.any() else None
    for sweep in range(SWEEPS):
        cancel.check()
        pos = position.astype(np.float64)
        if sweep % 2 == 0:
            bary = _barycenter(pos, chains.seg_src, chains.seg_dst, pos)
        else:
            bary = _barycenter(pos, chains.seg_dst, chains.seg_src, pos)
        if composite is not None:
            order = order[np.argsort(layer_sorted * composite + bary[order], kind="stable")]
        else:
            # The owner id breaks ties between equal keys the same way on every layer.
            order = order[np.lexsort((bary[order], owner[order], _grouped(owner, bary)[order], layer_sorted))]
        position[order] = rank
    return position


def _composite_scale(chains: Chains, layer: IntArray) -> float | None:
    """A factor f such that layer * f + barycenter sorts exactly like (layer, barycenter), or None.

    Barycenters are means of integer positions below the widest layer's size, so two different ones differ
    by at least 1 / max_degree**2; the float key keeps them apart while that exceeds its rounding error.
    """
    if not len(layer):
        return None
    scale = float(np.bincount(layer).max())
    degree = max(int(np.bincount(chains.seg_src).max(initial=1)), int(np.bincount(chains.seg_dst).max(initial=1)))
    largest = (float(layer.max()) + 1) * scale
    if 1 / degree**2 <= 4 * float(np.spacing(largest)):
        return None
    return scale


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


def place_x(chains: Chains, position: IntArray, width: FloatArray) -> FloatArray:
    """Centre x of every node: packed per layer, then pulled toward its neighbours without overlaps."""
    layer = chains.layer
    order = np.lexsort((position, layer))
    layer_sorted = layer[order]
    w = width[order]
    sep = np.zeros(len(order))
    sep[1:] = (w[1:] + w[:-1]) / 2 + NODE_GAP
    x = np.zeros(len(layer))
    x[order] = _segmented_push(layer_sorted, np.zeros(len(order)), sep)
    for round_number in range(PLACE_ROUNDS):
        desired = _desired(round_number, x, chains)
        x[order] = _segmented_push(layer_sorted, desired[order], sep)
    return x


def _desired(round_number: int, x: FloatArray, chains: Chains) -> FloatArray:
    """Where the neighbours pull each node in one placement round: from above, from below, then both."""
    if round_number % 3 == 0:
        return _barycenter(x, chains.seg_src, chains.seg_dst, x)
    if round_number % 3 == 1:
        return _barycenter(x, chains.seg_dst, chains.seg_src, x)
    both_from = np.concatenate((chains.seg_src, chains.seg_dst))
    both_to = np.concatenate((chains.seg_dst, chains.seg_src))
    return _barycenter(x, both_from, both_to, x)


def place_x_spanning(chains: Chains, position: IntArray, width: FloatArray, owner: IntArray) -> FloatArray:
    """place_x when some nodes span several layers (their slices share one x and stay clear on every layer).

    Neighbours in each layer give constraints x[b] - x[a] >= sep between whole nodes; order_layers keeps
    tall nodes in one left-to-right order on all layers, so the constraints form a DAG and a push to the
    right (longest path) and a push to the left are both overlap-free: so is their average.
    """
    total = len(chains.layer)
    rep = np.where(owner >= 0, owner, np.arange(total))
    order = np.lexsort((position, chains.layer))
    same = chains.layer[order][1:] == chains.layer[order][:-1]
    left, right = order[:-1][same], order[1:][same]
    sep = ((width[left] + width[right]) / 2 + NODE_GAP).tolist()
    preds: list[list[tuple[int, float]]] = [[] for _ in range(total)]
    succs: list[list[tuple[int, float]]] = [[] for _ in range(total)]
    for a, b, gap in zip(rep[left].tolist(), rep[right].tolist(), sep, strict=True):
        preds[b].append((a, gap))
        succs[a].append((b, gap))
    topo = _topological(np.unique(rep).tolist(), preds, succs)

    def push(desired: list[float]) -> FloatArray:
        right_x = list(desired)
        for v in topo:  # plain comparisons: this loop is the hot spot of big overlays
            best = right_x[v]
            for u, gap in preds[v]:
                if right_x[u] + gap > best:
                    best = right_x[u] + gap
            right_x[v] = best
        left_x = list(desired)
        for v in reversed(topo):
            best = left_x[v]
            for w, gap in succs[v]:
                if left_x[w] - gap < best:
                    best = left_x[w] - gap
            left_x[v] = best
        placed: FloatArray = ((np.asarray(right_x) + np.asarray(left_x)) / 2)[rep]
        return placed

    x = push([0.0] * total)
    for round_number in range(PLACE_ROUNDS):
        x = push(_desired(round_number, x, chains).tolist())
    return x


def _topological(nodes: list[int], preds: list[list[tuple[int, float]]],
                 succs: list[list[tuple[int, float]]]) -> list[int]:
    """Kahn's order of the constraint DAG over `nodes` (ascending ids among the ready ones)."""
    waiting = {v: len(preds[v]) for v in nodes}
    ready = [v for v in nodes if waiting[v] == 0]
    found: list[int] = []
    while ready:
        v = ready.pop()
        found.append(v)
        for w, _ in succs[v]:
            waiting[w] -= 1
            if waiting[w] == 0:
                ready.append(w)
    if len(found) < len(nodes):  # cannot happen with consistent orders; stay total rather than drop nodes
        seen = set(found)
        found += [v for v in nodes if v not in seen]
    return found
