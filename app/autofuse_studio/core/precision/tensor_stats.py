"""Streaming per-side statistics, shared-bin histograms and top-K worst elements for the tensor view.

Every accumulator takes float64 blocks (a few MB each) and keeps only small state, so a pair of any
size is summarised in bounded memory. NaN and Inf are counted, never binned or averaged. Accumulators
of parts of a tensor merge (`merge`), so parts can be summarised on several threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import DTypeLike

FloatArray = np.ndarray


class Scratch:
    """Work arrays reused from block to block, by slot name; used by one thread at a time.

    A fresh multi-MB temporary per block is handed back to the OS when freed and faulted in again on
    the next block; on a VM that costs more than the numpy work itself and serialises threads on the
    kernel's memory-map lock. Shared slots, each one block of 8-byte values valid during one
    accumulator call: "work" (deviations, a top-K partition, the heatmap's cell ids, histogram bins)
    and "work2" (rarer second temporaries). Callers name their own buffers otherwise.
    """

    def __init__(self) -> None:
        self._slots: dict[str, np.ndarray] = {}

    def get(self, slot: str, count: int, dtype: DTypeLike = np.float64) -> np.ndarray:
        """`count` uninitialised elements of `dtype`, valid until `slot` is asked for again."""
        dtype = np.dtype(dtype)
        size = count * dtype.itemsize
        buffer = self._slots.get(slot)
        if buffer is None or buffer.size < size:
            buffer = self._slots[slot] = np.empty(size, dtype=np.uint8)
        return buffer[:size].view(dtype)


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

    def update(self, values: FloatArray, scratch: Scratch | None = None) -> None:
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
        deviations = np.subtract(values, block_mean, out=(scratch or Scratch()).get("work", values.size))
        # Not np.dot: multi-threaded OpenBLAS dot runs 100x slower on a busy 2-core machine.
        block_m2 = float(np.square(deviations, out=deviations).sum())
        self._combine(finite_count, block_mean, block_m2)

    def add_summary(self, elements: int, finite: int, nan: int, low: float, high: float, mean: float,
                    m2: float) -> None:
        """Add a block summarised elsewhere (the native kernel): its counts, finite extremes, mean and M2."""
        self.elements += elements
        self.nan += nan
        self.inf += elements - finite - nan
        if finite:
            self.low = min(self.low, low)
            self.high = max(self.high, high)
            self._combine(finite, mean, m2)

    def merge(self, other: StatsAccumulator) -> None:
        """Add the statistics of another part of the same side (any order; exact up to rounding)."""
        self.elements += other.elements
        self.nan += other.nan
        self.inf += other.inf
        self.low = min(self.low, other.low)
        self.high = max(self.high, other.high)
        self._combine(other.finite, other.mean, other.m2)

    def _combine(self, count: int, mean: float, m2: float) -> None:
        """Merge (count, mean, M2) of a group of finite values into ours."""
        if count == 0:
            return
        if self.finite == 0:
            # Taken as is: the formula below would round mean * count / count.
            self.finite, self.mean, self.m2 = count, mean, m2
            return
        # Chan et al.: merging (mean, M2) of two groups is exact up to rounding, unlike sum/sum-of-squares.
        total = self.finite + count
        delta = mean - self.mean
        self.mean += delta * count / total
        self.m2 += m2 + delta * delta * self.finite * count / total
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


def log_position(values: FloatArray, out: FloatArray, origin: float, scale: float, bins: int) -> None:
    """Log-bin positions of positive values (truncated: the bin), as HistogramAccumulator bins them."""
    np.log2(values, out=out)
    np.subtract(out, origin, out=out)
    np.multiply(out, scale, out=out)
    np.add(out, 1.0, out=out)
    np.clip(out, 1, bins - 1, out=out)


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

    def update(self, values: FloatArray, scratch: Scratch | None = None, work: FloatArray | None = None) -> None:
        """Add one block; bin positions go to `work` (may be `values`, then overwritten) or scratch "work2"."""
        finite_mask = np.isfinite(values)
        finite_count = int(np.count_nonzero(finite_mask))
        if finite_count < values.size:
            self.nonfinite += int(values.size) - finite_count
            values = values[finite_mask]
        if finite_count == 0:
            return
        scratch = scratch or Scratch()
        position = scratch.get("work2", values.size) if work is None else work[: values.size]
        zeros = values <= 0 if self.log_bins else None  # before `values` may be overwritten
        index = scratch.get("work", values.size, np.intp)
        # Extreme finite values may overflow the scaling to Inf; the clip puts them in the end bins.
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if self.log_bins:
                self._log_position(values, position)
            else:
                self._linear_position(values, position)
            np.copyto(index, position, casting="unsafe")  # truncates like astype(np.intp)
        if zeros is not None:
            index[zeros] = 0  # bin 0: the exact zeros
        self.counts += np.bincount(index, minlength=self.bins)[: self.bins]

    def merge(self, other: HistogramAccumulator) -> None:
        """Add the counts of another part binned into the same edges."""
        if other.bins != self.bins or other.log_bins != self.log_bins:
            raise ValueError("cannot merge histograms with different bins")
        self.counts += other.counts
        self.nonfinite += other.nonfinite

    def _linear_position(self, values: FloatArray, out: FloatArray) -> None:
        np.subtract(values, self._origin, out=out)
        np.multiply(out, self._scale, out=out)
        # Values equal to the upper edge belong to the last bin, as in np.histogram.
        np.clip(out, 0, self.bins - 1, out=out)

    def _log_position(self, values: FloatArray, out: FloatArray) -> None:
        log_position(values, out, self._origin, self._scale, self.bins)

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
    np.copyto(key, np.inf, where=np.isnan(key))  # no -Inf after abs, and +Inf stays
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
               scratch: Scratch | None = None) -> None:
        """Offer one block whose first element has flat index `start` (blocks in ascending flat order)."""
        if self.k <= 0:
            return
        if self.full:
            # Only elements worse than the current K-th can enter (on a tie it has the smaller flat
            # index, blocks coming in order): usually very few, even when all errors are equal.
            positions = np.flatnonzero(keys > self.threshold)
        else:
            positions = self.candidates(keys, scratch or Scratch())
        self.offer(start, positions, keys[positions], fused[positions], origin[positions])

    @property
    def full(self) -> bool:
        """True once K elements are kept: then only keys above `threshold` can enter."""
        return self.keys.size >= self.k

    @property
    def threshold(self) -> float:
        """The key a later element must exceed to enter (+Inf for K = 0, -Inf while not full)."""
        if self.k <= 0:
            return math.inf
        return float(self.keys[-1]) if self.full else -math.inf

    def offer(self, start: int, positions: np.ndarray, keys: FloatArray, fused: FloatArray,
              origin: FloatArray) -> None:
        """Offer candidates of a block starting at flat index `start`: ascending positions, their keys and values."""
        if positions.size == 0 or self.k <= 0:
            return
        chosen = _largest(keys, np.arange(positions.size), self.k)
        chosen_fused, chosen_origin = fused[chosen], origin[chosen]
        with np.errstate(invalid="ignore", over="ignore"):  # Inf - Inf is NaN here, as in the error
            block_values = np.stack((chosen_fused, chosen_origin, chosen_fused - chosen_origin), axis=1)
        self._keep(np.concatenate((self.keys, keys[chosen])),
                   np.concatenate((self.flat, positions[chosen].astype(np.int64) + start)),
                   np.concatenate((self.values, block_values)))

    def candidates(self, keys: FloatArray, scratch: Scratch) -> np.ndarray:
        """Positions of a block's keys at least as large as its K-th largest (all of them when fewer)."""
        if keys.size <= self.k:
            return np.arange(keys.size)
        work = scratch.get("work", keys.size)
        np.copyto(work, keys)
        work.partition(keys.size - self.k)  # in the scratch: no block-sized copies besides
        return np.flatnonzero(keys >= work[keys.size - self.k])

    def merge(self, other: TopKAccumulator) -> None:
        """Keep the K worst of both (any order: the order by key, then flat index, is total)."""
        if other.keys.size == 0:
            return
        self._keep(np.concatenate((self.keys, other.keys)), np.concatenate((self.flat, other.flat)),
                   np.concatenate((self.values, other.values)))

    def _keep(self, keys: FloatArray, flat: np.ndarray, values: FloatArray) -> None:
        """The K best candidates: largest key first, ties by smaller flat index."""
        order = np.lexsort((flat, -keys))[: self.k]
        self.keys, self.flat, self.values = keys[order], flat[order], values[order]

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
