"""The points of the fused-vs-origin scatter plot: a deterministic sample of a pair, each point judged.

Qt-free (runs on a worker). At most MAX_POINTS strided elements (every k-th in C order, k = ceil(size / cap)),
plus the worst elements the tensor view found, so a 100M-element pair costs one read and 20k points to draw.
An element is rounding-level when |fused - origin| <= ROUNDING_ULPS units of rounding of the lower-precision
dtype (the rule core.precision.signature uses); otherwise it is wrong. NaN/Inf elements have no place on
the axes and are counted instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.precision.segmented import aligned_range
from autofuse_studio.core.precision.signature import ROUNDING_ULPS, dtype_limits
from autofuse_studio.core.precision.tensor_pair import TensorPair
from autofuse_studio.core.precision.tensor_stats import TopElement
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

MAX_POINTS = 20_000
BLOCK_ELEMENTS = 1 << 20


@dataclass(frozen=True)
class ScatterPoints:
    """Origin (x) and fused (y) values of the sampled elements, and which of them are wrong."""

    origin: np.ndarray
    fused: np.ndarray
    wrong: np.ndarray  # bool per point: beyond rounding level
    total: int  # elements in the pair
    stride: int  # every stride-th element was taken (1: all)
    nonfinite: int  # sampled elements left out: NaN or Inf on a side

    @property
    def count(self) -> int:
        """Points drawn."""
        return int(self.origin.size)

    @property
    def wrong_count(self) -> int:
        """Points beyond rounding level."""
        return int(np.count_nonzero(self.wrong))


def rounding_eps(fused_dtype: str, origin_dtype: str) -> tuple[float, float]:
    """(eps, smallest subnormal) of the lower-precision of the two dtypes (float32 when unknown)."""
    limits = [dtype_limits(name or "float32") for name in (fused_dtype, origin_dtype)]
    low = max(limits, key=lambda limit: limit.eps)
    return low.eps, low.min_subnormal


def judge(fused: np.ndarray, origin: np.ndarray, eps: float, subnormal: float) -> np.ndarray:
    """True where an element differs by more than rounding: |f - o| > 4 eps max(|f|, |o|) + 4 subnormal."""
    tol = ROUNDING_ULPS * eps * np.maximum(np.abs(fused), np.abs(origin)) + ROUNDING_ULPS * subnormal
    wrong: np.ndarray = np.abs(fused - origin) > tol
    return wrong


def stride_for(size: int, cap: int = MAX_POINTS) -> int:
    """Take every stride-th element so that at most `cap` are taken."""
    return max(1, math.ceil(size / cap))


def scatter_points(pair: TensorPair, worst: Sequence[TopElement] = (), cap: int = MAX_POINTS, *,
                   progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> ScatterPoints:
    """Every stride-th element of the pair (C order, from 0) plus the worst ones, with NaN/Inf left out."""
    size = pair.size
    stride = stride_for(size, cap)
    fused_parts: list[np.ndarray] = []
    origin_parts: list[np.ndarray] = []
    if stride == 1:
        blocks = aligned_range(pair, 0, size, BLOCK_ELEMENTS)
        position = 0
        for fused_raw, origin_raw in blocks:
            cancel.check()
            fused_parts.append(np.asarray(fused_raw, dtype=np.float64).reshape(-1))
            origin_parts.append(np.asarray(origin_raw, dtype=np.float64).reshape(-1))
            position += fused_raw.size
            progress(position, size, "scatter")
    else:
        # Read in blocks that are a multiple of the stride, so every block starts on a sampled element.
        block = max(stride, (BLOCK_ELEMENTS // stride) * stride)
        position = 0
        for fused_raw, origin_raw in aligned_range(pair, 0, size, block):
            cancel.check()
            offset = (-position) % stride
            fused_parts.append(np.asarray(fused_raw.reshape(-1)[offset::stride], dtype=np.float64))
            origin_parts.append(np.asarray(origin_raw.reshape(-1)[offset::stride], dtype=np.float64))
            position += fused_raw.size
            progress(position, size, "scatter")
    extra = [element for element in worst if element.flat_index % stride != 0]
    if extra:
        fused_parts.append(np.array([element.fused for element in extra], dtype=np.float64))
        origin_parts.append(np.array([element.origin for element in extra], dtype=np.float64))
    fused = np.concatenate(fused_parts) if fused_parts else np.zeros(0)
    origin = np.concatenate(origin_parts) if origin_parts else np.zeros(0)
    finite = np.isfinite(fused) & np.isfinite(origin)
    nonfinite = int(fused.size - np.count_nonzero(finite))
    fused, origin = fused[finite], origin[finite]
    eps, subnormal = rounding_eps(pair.fused.dtype_name, pair.origin.dtype_name)
    with np.errstate(over="ignore", invalid="ignore"):
        wrong = judge(fused, origin, eps, subnormal)
    return ScatterPoints(origin, fused, wrong, size, stride, nonfinite)
