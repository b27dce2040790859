"""edge_box_hits(): which edge polyline segments run through a node box other than their own ends."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.graphview.layout import Layout

__all__ = ["edge_box_hits"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

PAIRS_PER_CHUNK = 2_000_000  # segment x box pairs tested at once: bounds memory on big graphs


def edge_box_hits(layout: Layout, tolerance: float = 1.0) -> IntArray:
    """(K, 2) array of (edge, node) where a segment of the edge crosses the node's box shrunk by `tolerance`.

    The edge's own source and destination are never counted; a segment that only touches a border is not a hit.
    """
    counts = np.diff(layout.offsets)
    segments = np.maximum(counts - 1, 0)
    owner = np.repeat(np.arange(len(counts)), segments)
    start = np.repeat(layout.offsets[:-1], segments) + (
        np.arange(int(segments.sum())) - np.repeat(np.cumsum(segments) - segments, segments))
    p0, p1 = layout.points[start], layout.points[start + 1]
    half_w, half_h = layout.width / 2 - tolerance, layout.height / 2 - tolerance
    box = np.column_stack((layout.x - half_w, layout.y - half_h, layout.x + half_w, layout.y + half_h))
    found: list[IntArray] = []
    chunk = max(1, PAIRS_PER_CHUNK // max(len(box), 1))
    for first in range(0, len(owner), chunk):
        part = slice(first, first + chunk)
        seg, node = np.nonzero(_crosses(p0[part], p1[part], box))
        edge = owner[part][seg]
        own = (layout.edge_src[edge] == node) | (layout.edge_dst[edge] == node)
        found.append(np.column_stack((edge[~own], node[~own])))
    hits = np.concatenate([np.zeros((0, 2), dtype=np.int64), *found]).astype(np.int64)
    return np.unique(hits, axis=0) if len(hits) else hits


def _crosses(p0: FloatArray, p1: FloatArray, box: FloatArray) -> NDArray[np.bool_]:
    """(S, N) Liang-Barsky test: does segment s pass through the open interior of box n."""
    low = np.zeros((len(p0), len(box)))
    high = np.ones((len(p0), len(box)))
    inside = np.ones((len(p0), len(box)), dtype=bool)
    for axis in (0, 1):
        d = (p1[:, axis] - p0[:, axis])[:, None]
        lo, hi = box[None, :, axis], box[None, :, axis + 2]
        origin = p0[:, axis][:, None]
        moving = np.abs(d) > 1e-12
        with np.errstate(divide="ignore", invalid="ignore"):
            t_lo = np.where(moving, (lo - origin) / d, -np.inf)
            t_hi = np.where(moving, (hi - origin) / d, np.inf)
        enter, leave = np.minimum(t_lo, t_hi), np.maximum(t_lo, t_hi)
        # A segment parallel to this axis' borders is inside only when it lies strictly between them.
        inside &= moving | ((origin > lo) & (origin < hi))
        low = np.maximum(low, np.where(moving, enter, 0.0))
        high = np.minimum(high, np.where(moving, leave, 1.0))
    hit: NDArray[np.bool_] = inside & (high > low) & (box[None, :, 2] > box[None, :, 0]) & \
        (box[None, :, 3] > box[None, :, 1])
    return hit
