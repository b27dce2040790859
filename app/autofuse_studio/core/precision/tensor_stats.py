"""Streaming per-side statistics, shared-bin histograms and top-K worst elements for the tensor view.

Every accumulator takes float64 blocks (a few MB each) and keeps only small state, so a pair of any
size is summarised in bounded memory. NaN and Inf are counted, never binned or averaged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

FloatArray = np.ndarray


@dataclass(frozen=True)
class SideStats:
    """Statistics of one side; min/max/mean/std are over finite values only (NaN when there are none)."""

    dtype: str
    elements: int
    finite: int
    nan: int
    inf: int
    min: float
    max: float
    mean: float
    std: float


class StatsAccumulator:
    """Running count, mean and M2 (Chan's parallel merge), min/max and non-finite counts of one side."""

    def __init__(self, dtype: str) -> None:
        self.dtype = dtype
        self.elements = 0
        self.finite = 0
        self.nan = 0
        self.inf = 0
        self.low = math.inf
        self.high = -math.inf
        self.mean = 0.0
        self.m2 = 0.0

    def update(self, values: FloatArray) -> None:
        """Add one float64 block."""
        self.elements += int(values.size)
        finite_mask = np.isfinite(values)
        finite_count = int(np.count_nonzero(finite_mask))
        if finite_count < values.size:
            nan_count = int(np.count_nonzero(np.isnan(values)))
            self.nan += nan_count
            self.inf += int(values.size) - finite_count - nan_count
            values = values[finite_mask]
        if finite_count == 0:
            return
        self.low = min(self.low, float(values.min()))
        self.high = max(self.high, float(values.max()))
        block_mean = float(values.mean())
        deviations = values - block_mean
        # Not np.dot: multi-threaded OpenBLAS dot runs 100x slower on a busy 2-core machine.
        block_m2 = float(np.square(deviations, out=deviations).sum())
        # Chan et al.: merging (mean, M2) of two groups is exact up to rounding, unlike sum/sum-of-squares.
        total = self.finite + finite_count
        delta = block_mean - self.mean
        self.mean += delta * finite_count / total
        self.m2 += block_m2 + delta * delta * self.finite * finite_count / total
        self.finite = total

    def result(self) -> SideStats:
        """The statistics so far."""
        empty = self.finite == 0
        return SideStats(
            dtype=self.dtype, elements=self.elements, finite=self.finite, nan=self.nan, inf=self.inf,
            min=math.nan if empty else self.low, max=math.nan if empty else self.high,
            mean=math.nan if empty else self.mean,
            std=math.nan if empty else math.sqrt(max(self.m2, 0.0) / self.finite),
        )


@dataclass(frozen=True)
class Histogram:
    """Counts per bin (int64, len(edges) - 1 bins); non-finite values are counted apart, never binned."""

    edges: FloatArray
    counts: np.ndarray
    nonfinite: int
    log_bins: bool = False

    @property
    def total(self) -> int:
        """Binned plus non-finite values: the element count."""
        return int(self.counts.sum()) + self.nonfinite


def uniform_edges(low: float, high: float, bins: int) -> FloatArray:
    """`bins` equal bins over [low, high]; a constant or empty range is widened like numpy does."""
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    elif high <= low:
        low, high = low - 0.5, high + 0.5
    return np.linspace(low, high, bins + 1)


def log_edges(min_positive: float, high: float, bins: int) -> FloatArray:
    """Bin 0 is [0, min_positive) (the exact zeros); the other bins are geometric up to `high`."""
    if not (math.isfinite(min_positive) and math.isfinite(high)) or high <= 0:
        return uniform_edges(0.0, 1.0, bins)
    if high <= min_positive:
        min_positive = high / 10.0
    return np.concatenate(([0.0], np.geomspace(min_positive, high, bins)))


class HistogramAccumulator:
    """Counts float64 blocks into fixed edges (uniform, or zero + geometric when log_bins)."""

    def __init__(self, edges: FloatArray, log_bins: bool = False) -> None:
        self.edges = edges
        self.log_bins = log_bins
        self.bins = len(edges) - 1
        self.counts = np.zeros(self.bins, dtype=np.int64)
        self.nonfinite = 0
        low, high = float(edges[0]), float(edges[-1])
        if log_bins:
            self._origin = math.log2(float(edges[1]))
            self._scale = (self.bins - 1) / max(math.log2(high) - self._origin, 1e-300)
        else:
            self._origin, self._scale = low, self.bins / (high - low)

    def update(self, values: FloatArray) -> None:
        """Add one block."""
        finite_mask = np.isfinite(values)
        finite_count = int(np.count_nonzero(finite_mask))
        if finite_count < values.size:
            self.nonfinite += int(values.size) - finite_count
            values = values[finite_mask]
        if finite_count == 0:
            return
        # Extreme finite values may overflow the scaling to Inf; the clip puts them in the end bins.
        with np.errstate(over="ignore", invalid="ignore"):
            index = self._log_index(values) if self.log_bins else self._linear_index(values)
        self.counts += np.bincount(index, minlength=self.bins)[: self.bins].astype(np.int64)

    def _linear_index(self, values: FloatArray) -> np.ndarray:
        position = (values - self._origin) * self._scale
        # Values equal to the upper edge belong to the last bin, as in np.histogram.
        return np.clip(position, 0, self.bins - 1).astype(np.intp)

    def _log_index(self, values: FloatArray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            position = (np.log2(values) - self._origin) * self._scale + 1.0
        index: np.ndarray = np.clip(position, 1, self.bins - 1).astype(np.intp)
        index[values <= 0] = 0
        return index

    def result(self) -> Histogram:
        """The histogram so far."""
        return Histogram(self.edges, self.counts.copy(), self.nonfinite, self.log_bins)


@dataclass(frozen=True)
class TopElement:
    """One of the worst elements: its C-order flat index, multi-dimensional index and both values."""

    flat_index: int
    index: tuple[int, ...]
    fused: float
    origin: float
    error: float

    @property
    def abs_error(self) -> float:
        """|fused - origin| (NaN when either side is NaN)."""
        return abs(self.error)


def error_key(error: FloatArray, out: FloatArray | None = None) -> FloatArray:
    """|error| with NaN ranked as +Inf, so mismatched NaNs are the worst elements and never hide."""
    key: FloatArray = np.abs(error, out=out)
    np.nan_to_num(key, copy=False, nan=np.inf, posinf=np.inf)
    return key


def _largest(keys: FloatArray, positions: np.ndarray, count: int) -> np.ndarray:
    """Positions of the `count` largest keys, ties broken by the smaller position (positions ascend)."""
    if positions.size <= count:
        return positions
    candidates = keys[positions]
    kth = np.partition(candidates, candidates.size - count)[candidates.size - count]
    greater = positions[candidates > kth]
    equal = positions[candidates == kth][: count - greater.size]
    return np.concatenate((greater, equal))


class TopKAccumulator:
    """Keeps the K elements with the largest error key across blocks (ties: smaller flat index first)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.keys = np.empty(0, dtype=np.float64)
        self.flat = np.empty(0, dtype=np.int64)
        self.values = np.empty((0, 3), dtype=np.float64)  # fused, origin, error

    def update(self, start: int, keys: FloatArray, fused: FloatArray, origin: FloatArray,
               error: FloatArray) -> None:
        """Offer one block whose first element has flat index `start`."""
        if self.k <= 0:
            return
        if self.keys.size >= self.k:
            # Only elements at least as bad as the current K-th can enter: usually very few.
            positions = np.flatnonzero(keys >= self.keys[-1])
        else:
            positions = np.arange(keys.size)
        if positions.size == 0:
            return
        chosen = _largest(keys, positions, self.k)
        merged_keys = np.concatenate((self.keys, keys[chosen]))
        merged_flat = np.concatenate((self.flat, chosen.astype(np.int64) + start))
        block_values = np.stack((fused[chosen], origin[chosen], error[chosen]), axis=1)
        merged_values = np.concatenate((self.values, block_values))
        order = np.lexsort((merged_flat, -merged_keys))[: self.k]
        self.keys, self.flat, self.values = merged_keys[order], merged_flat[order], merged_values[order]

    def result(self, shape: tuple[int, ...]) -> list[TopElement]:
        """The worst elements, worst first, with indices unravelled in `shape`."""
        indices = np.unravel_index(self.flat, shape) if shape else ()
        return [
            TopElement(
                flat_index=int(flat),
                index=tuple(int(axis[number]) for axis in indices),
                fused=float(values[0]), origin=float(values[1]), error=float(values[2]),
            )
            for number, (flat, values) in enumerate(zip(self.flat, self.values, strict=True))
        ]
