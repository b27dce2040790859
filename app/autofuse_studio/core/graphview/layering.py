"""Layer assignment for the layered layout: cycle breaking, longest-path layers, long-edge dummies."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["Chains", "assign_layers", "break_cycles", "insert_dummies"]

IntArray = NDArray[np.int64]


def _csr(n: int, src: IntArray, dst: IntArray) -> tuple[list[int], list[int]]:
    """Successor lists as (offsets, targets) Python lists: the loops below index them millions of times."""
    order = np.lexsort((dst, src))
    counts = np.bincount(src, minlength=n)
    offsets = np.concatenate(([0], np.cumsum(counts))).tolist()
    return offsets, dst[order].tolist()


def break_cycles(n: int, src: IntArray, dst: IntArray) -> NDArray[np.bool_]:
    """Mark back edges: Kahn's order by node id, forcing the lowest-id waiting node when stuck."""
    offsets, targets = _csr(n, src, dst)
    indegree = np.bincount(dst, minlength=n).tolist()
    heap = [v for v in range(n) if indegree[v] == 0]
    heapq.heapify(heap)
    rank = [-1] * n
    placed = 0
    cursor = 0  # next candidate for forcing: nodes are numbered in execution order
    while placed < n:
        if not heap:
            while rank[cursor] >= 0:
                cursor += 1
            heap.append(cursor)
            indegree[cursor] = 0
        v = heapq.heappop(heap)
        if rank[v] >= 0:
            continue
        rank[v] = placed
        placed += 1
        for w in targets[offsets[v]:offsets[v + 1]]:
            if rank[w] < 0:
                indegree[w] -= 1
                if indegree[w] == 0:
                    heapq.heappush(heap, w)
    ranks = np.asarray(rank, dtype=np.int64)
    back: NDArray[np.bool_] = ranks[src] > ranks[dst]
    return back


def assign_layers(n: int, src: IntArray, dst: IntArray, height: IntArray | None = None) -> IntArray:
    """Longest-path top layers of a DAG (src -> dst goes down), then sources pulled next to their consumers.

    `height` (default 1) is how many layers a node spans: a collapsed compound block is several layers tall.
    """
    offsets, targets = _csr(n, src, dst)
    indegree = np.bincount(dst, minlength=n).tolist()
    span = [1] * n if height is None else height.tolist()
    layer = [0] * n
    stack = [v for v in range(n - 1, -1, -1) if indegree[v] == 0]
    while stack:
        v = stack.pop()
        next_layer = layer[v] + span[v]
        for w in targets[offsets[v]:offsets[v + 1]]:
            if layer[w] < next_layer:
                layer[w] = next_layer
            indegree[w] -= 1
            if indegree[w] == 0:
                stack.append(w)
    layers = np.asarray(layer, dtype=np.int64)
    # Constants and weights are sources: longest-path puts them all on layer 0, far from their consumers.
    has_input = np.zeros(n, dtype=bool)
    has_input[dst] = True
    sources = ~has_input[src]
    if sources.any():
        lowest = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        drop = 1 if height is None else height[src[sources]]
        np.minimum.at(lowest, src[sources], layers[dst[sources]] - drop)
        pull = ~has_input & (lowest != np.iinfo(np.int64).max)
        layers[pull] = np.maximum(layers[pull], lowest[pull])
    return layers - (layers.min() if n else 0)


@dataclass
class Chains:
    """Long edges split into unit segments through dummy nodes numbered from n upwards."""

    layer: IntArray  # layer of every real and dummy node
    seg_src: IntArray  # unit-span segments (all edges between adjacent layers)
    seg_dst: IntArray
    first_dummy: IntArray  # per edge: id of its first dummy (chain runs upward in id), -1 when none
    dummy_count: IntArray  # per edge


def insert_dummies(layer: IntArray, src: IntArray, dst: IntArray, budget: int,
                   bottom: IntArray | None = None) -> Chains:
    """Split edges spanning several layers into dummy chains, shortest spans first, within `budget` dummies.

    `bottom` is the last layer of each node (default its layer): edges leave a tall node from its bottom.
    """
    n = len(layer)
    low = layer if bottom is None else bottom
    span = layer[dst] - low[src]
    need = np.maximum(span - 1, 0)
    # Edges are split in order of span so that a huge graph spends its budget on the local edges.
    order = np.argsort(need, kind="stable")
    allowed = np.zeros(len(src), dtype=bool)
    allowed[order] = np.cumsum(need[order]) <= budget
    count = np.where(allowed, need, 0)
    first = np.full(len(src), -1, dtype=np.int64)
    starts = n + np.concatenate(([0], np.cumsum(count)[:-1])) if len(src) else np.zeros(0, dtype=np.int64)
    first[count > 0] = starts[count > 0]
    total = int(count.sum())
    owner = np.repeat(np.arange(len(src)), count)
    step = np.arange(total) - np.repeat(starts - n, count)  # 0 .. count-1 inside each chain
    dummy_layer = low[src][owner] + 1 + step
    ids = n + np.arange(total)
    # Segments: src -> first dummy, dummy k -> dummy k+1, last dummy -> dst; unsplit edges stay whole.
    chained = count > 0
    is_last = step == count[owner] - 1
    seg_src = np.concatenate((src[~chained], src[chained], ids[~is_last], ids[is_last]))
    seg_dst = np.concatenate((dst[~chained], first[chained], ids[~is_last] + 1, dst[owner[is_last]]))
    unit = np.concatenate((layer, dummy_layer))
    unit_low = np.concatenate((low, dummy_layer))
    keep = unit[seg_dst] - unit_low[seg_src] == 1  # over-budget long edges take no part in ordering
    return Chains(unit, seg_src[keep], seg_dst[keep], first, count)
