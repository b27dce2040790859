"""Heatmaps of a tensor pair: chosen axes become rows and columns, the rest is pooled, big grids shrink.

A tensor is seen as a 2-D grid: row index = the row axes' indices raveled in the given order, column
index likewise; axes in neither are reduced. Grids bigger than `max_cells` per side are pooled into
cells of `row_step` x `col_step` grid positions: values by the mean of finite values, the error by
its MAXIMUM, so a single bad element stays visible. Each cell remembers its worst element for hovers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.precision.heatmap_grid import (
    CellMapper,
    HeatmapAxes,
    check_axes,
    default_axes,
    grid_shape,
)
from autofuse_studio.core.precision.tensor_stats import Scratch

__all__ = ["DEFAULT_MAX_CELLS", "CellInfo", "CellMapper", "Heatmap", "HeatmapAccumulator", "HeatmapAxes",
           "check_axes", "default_axes", "grid_shape"]

DEFAULT_MAX_CELLS = 512


@dataclass(frozen=True)
class CellInfo:
    """What a hover reports: the cell's grid ranges and its worst element with both values."""

    rows: tuple[int, int]
    cols: tuple[int, int]
    elements: int
    index: tuple[int, ...]
    fused: float
    origin: float
    max_abs_error: float
    fused_mean: float
    origin_mean: float


@dataclass(frozen=True)
class Heatmap:
    """Pooled cells (row-major, shape `cells`) of fused/origin means and max |fused - origin|."""

    axes: HeatmapAxes
    tensor_shape: tuple[int, ...]
    grid: tuple[int, int]
    row_step: int
    col_step: int
    fused: np.ndarray
    origin: np.ndarray
    abs_error: np.ndarray
    elements: np.ndarray
    worst_flat: np.ndarray
    worst_fused: np.ndarray
    worst_origin: np.ndarray

    @property
    def cells(self) -> tuple[int, int]:
        """(cell rows, cell columns) of the pooled image."""
        return (int(self.fused.shape[0]), int(self.fused.shape[1]))

    def cell_info(self, row: int, col: int) -> CellInfo | None:
        """The cell at (row, col), or None outside the image or for a cell without elements."""
        row, col = int(row), int(col)
        if not (0 <= row < self.cells[0] and 0 <= col < self.cells[1]) or self.elements[row, col] == 0:
            return None
        flat = int(self.worst_flat[row, col])
        index = tuple(int(i) for i in np.unravel_index(flat, self.tensor_shape)) if self.tensor_shape else ()
        return CellInfo(
            rows=(row * self.row_step, min((row + 1) * self.row_step, self.grid[0])),
            cols=(col * self.col_step, min((col + 1) * self.col_step, self.grid[1])),
            elements=int(self.elements[row, col]), index=index,
            fused=float(self.worst_fused[row, col]), origin=float(self.worst_origin[row, col]),
            max_abs_error=float(self.abs_error[row, col]),
            fused_mean=float(self.fused[row, col]), origin_mean=float(self.origin[row, col]),
        )


class _Cells:
    """Per-cell state over a window of cell ids [low, low + size): counts, sums and the worst element."""

    def __init__(self, low: int, size: int) -> None:
        self.low = low
        self.elements = np.zeros(size, dtype=np.int64)
        self.sums = np.zeros((2, size))  # fused, origin: finite values only
        # NaN/Inf counts per side, allocated on the first one: usually there are none.
        self.nonfinite: np.ndarray | None = None
        self.worst_key = np.full(size, -1.0)
        self.worst_flat = np.full(size, -1, dtype=np.int64)
        self.worst_values = np.full((2, size), np.nan)

    @property
    def size(self) -> int:
        """Number of cells held."""
        return int(self.elements.size)

    @property
    def high(self) -> int:
        """One past the last cell id held."""
        return self.low + self.size

    def nonfinite_counts(self) -> np.ndarray:
        """The (2, size) NaN/Inf counts of both sides, allocated when first needed."""
        if self.nonfinite is None:
            self.nonfinite = np.zeros((2, self.size), dtype=np.int64)
        return self.nonfinite

    def finite(self, side: int) -> np.ndarray:
        """Finite values of one side per cell."""
        return self.elements if self.nonfinite is None else self.elements - self.nonfinite[side]

    def covering(self, low: int, high: int) -> _Cells:
        """A copy over the window [low, high), which must contain ours."""
        wider = _Cells(low, high - low)
        wider.add(self)
        return wider

    def add(self, other: _Cells) -> None:
        """Pool another window (inside ours) into ours: counts and sums add, the worse element wins."""
        at = slice(other.low - self.low, other.high - self.low)
        self.elements[at] += other.elements
        self.sums[:, at] += other.sums
        if other.nonfinite is not None:
            self.nonfinite_counts()[:, at] += other.nonfinite
        key, flat = self.worst_key[at], self.worst_flat[at]
        # Larger key, or the same key at a smaller flat index: the rule one in-order pass follows, so
        # the result does not depend on how the tensor was split (empty cells have key and index -1).
        better = (other.worst_key > key) | ((other.worst_key == key) & (other.worst_flat < flat))
        key[better] = other.worst_key[better]
        flat[better] = other.worst_flat[better]
        self.worst_values[:, at][:, better] = other.worst_values[:, better]


class _BlockCells:
    """Per-cell counts, sums and maxima of one block, given its cell ids (0 .. width - 1).

    Ids usually come in runs (a grid row crosses a cell in `col_step` consecutive elements): then each
    run is reduced first (reduceat) and only the run results are scattered. Besides doing less work,
    this keeps the worker threads in numpy calls that release the GIL: bincount and ufunc.at over
    every element hold it for most of their time.
    """

    def __init__(self, ids: np.ndarray, width: int) -> None:
        self.ids, self.width = ids, width
        changes = np.flatnonzero(ids[1:] != ids[:-1])
        self.starts: np.ndarray | None = None
        if changes.size * 4 < ids.size:  # runs four elements long on average, at least
            self.starts = np.concatenate(([0], changes + 1))
            self.lengths = np.diff(self.starts, append=ids.size)
            self.run_ids = ids[self.starts]

    def counts(self) -> np.ndarray:
        """Elements per cell."""
        if self.starts is None:
            return np.bincount(self.ids, minlength=self.width)
        return np.bincount(self.run_ids, weights=self.lengths, minlength=self.width).astype(np.int64)

    def sums(self, values: np.ndarray) -> np.ndarray:
        """Sum of `values` per cell."""
        if self.starts is None:
            return np.bincount(self.ids, weights=values, minlength=self.width)
        return np.bincount(self.run_ids, weights=np.add.reduceat(values, self.starts), minlength=self.width)

    def maxima(self, values: np.ndarray) -> np.ndarray:
        """Largest of `values` per cell (-1 where the block has none); remembers each run's largest."""
        maxima = np.full(self.width, -1.0)
        if self.starts is None:
            np.maximum.at(maxima, self.ids, values)
        else:
            self.run_max = np.maximum.reduceat(values, self.starts)
            np.maximum.at(maxima, self.run_ids, self.run_max)
        return maxima

    def first_at_max(self, values: np.ndarray, maxima: np.ndarray, wanted: np.ndarray,
                     scratch: Scratch) -> tuple[np.ndarray, np.ndarray]:
        """(cells, positions): for each wanted cell, the first position where `values` reach its maximum."""
        if self.starts is None:
            reached = np.take(maxima, self.ids, out=scratch.get("work2", self.ids.size), mode="clip")
            hits = np.flatnonzero(wanted[self.ids] & (values == reached))
        else:
            # Only the runs whose own largest is their cell's can hold it: scan just their elements.
            runs = np.flatnonzero(wanted[self.run_ids] & (self.run_max == maxima[self.run_ids]))
            lengths = self.lengths[runs]
            before = np.cumsum(lengths) - lengths  # elements of earlier chosen runs
            positions = np.arange(int(lengths.sum())) + np.repeat(self.starts[runs] - before, lengths)
            hits = positions[values[positions] == np.repeat(self.run_max[runs], lengths)]
        cells, first = np.unique(self.ids[hits], return_index=True)  # hits ascend: the first wins
        return cells, hits[first]


class HeatmapAccumulator:
    """Pools float64 blocks of both sides and their error key into the cells of a CellMapper.

    Without a `span` it holds every cell. With span=(start, stop) it holds only the cells flat indices
    start .. stop - 1 can fall into (a band for the usual axes), so accumulators of parts of a tensor
    processed in parallel cost little memory before they merge; it widens if a block falls outside.
    """

    def __init__(self, shape: tuple[int, ...], axes: HeatmapAxes, max_cells: int = DEFAULT_MAX_CELLS, *,
                 mapper: CellMapper | None = None, span: tuple[int, int] | None = None) -> None:
        check_axes(shape, axes)
        self.shape, self.axes = shape, axes
        self.mapper = mapper or CellMapper(shape, axes, max_cells)
        self.count = self.mapper.cells[0] * self.mapper.cells[1]
        low, high = (0, self.count) if span is None else self.mapper.cell_range(*span)
        self.cells = _Cells(low, high - low)

    def update(self, start: int, fused: np.ndarray, origin: np.ndarray, key: np.ndarray,
               scratch: Scratch | None = None) -> None:
        """Add one block of both sides (flat indices from `start`) with its error key (|err|, NaN as Inf)."""
        scratch = scratch or Scratch()
        ids = self.mapper.cell_ids(start, fused.size, scratch)
        low, high = self.mapper.cell_range(start, start + fused.size)
        self._cover(low, high)
        # Ids relative to the cells the block can touch (usually a band): the per-block counts and
        # maxima below have that many bins, not one per cell of the heatmap.
        np.subtract(ids, low, out=ids)
        cells, block = self.cells, _BlockCells(ids, high - low)
        at = slice(low - cells.low, high - cells.low)
        cells.elements[at] += block.counts()
        for side, values in enumerate((fused, origin)):
            finite = np.isfinite(values)
            if finite.all():
                cells.sums[side, at] += block.sums(values)
            else:
                cells.sums[side, at] += np.bincount(ids[finite], weights=values[finite], minlength=block.width)
                cells.nonfinite_counts()[side, at] += np.bincount(ids[~finite], minlength=block.width)
        self._update_worst(start, block, at, fused, origin, key, scratch)

    def cell_arrays(self, start: int, count: int, scratch: Scratch) -> tuple[np.ndarray, list[np.ndarray]]:
        """For the native kernel: a block's cell ids as indices into the window, and the window's arrays.

        The arrays (elements, fused and origin sums, fused and origin non-finite counts, worst key,
        worst flat index, worst fused and origin values) are the accumulator's own: the kernel adds the
        block to them in place.
        """
        ids = self.mapper.cell_ids(start, count, scratch)
        self._cover(*self.mapper.cell_range(start, start + count))
        cells = self.cells
        np.subtract(ids, cells.low, out=ids)
        nonfinite = cells.nonfinite_counts()
        return ids, [cells.elements, cells.sums[0], cells.sums[1], nonfinite[0], nonfinite[1], cells.worst_key,
                     cells.worst_flat, cells.worst_values[0], cells.worst_values[1]]

    def _update_worst(self, start: int, block: _BlockCells, at: slice, fused: np.ndarray, origin: np.ndarray,
                      key: np.ndarray, scratch: Scratch) -> None:
        block_max = block.maxima(key)
        worst_key = self.cells.worst_key[at]
        # Strictly greater: on ties the earlier block (smaller flat index) keeps the cell.
        improved = block_max > worst_key
        if not improved.any():
            return
        local, positions = block.first_at_max(key, block_max, improved, scratch)
        worst_key[local] = block_max[local]
        self.cells.worst_flat[at][local] = positions + start
        self.cells.worst_values[0, at][local] = fused[positions]
        self.cells.worst_values[1, at][local] = origin[positions]

    def _cover(self, low: int, high: int) -> None:
        """Widen the window to hold cell ids [low, high)."""
        cells = self.cells
        if cells.low <= low and high <= cells.high:
            return
        if cells.size:
            # Grow by at least half the current size, so a window creeping over the cells is copied a
            # few times, not once per block.
            slack = cells.size // 2
            low = max(0, min(low, cells.low - slack)) if low < cells.low else cells.low
            high = min(self.count, max(high, cells.high + slack)) if high > cells.high else cells.high
        self.cells = cells.covering(low, high)

    def merge(self, other: HeatmapAccumulator) -> None:
        """Pool another accumulator of the same tensor and axes (any part, any order) into this one."""
        if other.count != self.count:
            raise ValueError("cannot merge heatmaps with different cells")
        if other.cells.size:
            self._cover(other.cells.low, other.cells.high)
            self.cells.add(other.cells)

    def result(self) -> Heatmap:
        """The pooled heatmap so far."""
        self._cover(0, self.count)
        cells, shape = self.cells, self.mapper.cells
        with np.errstate(invalid="ignore", divide="ignore"):
            means = [np.where(n > 0, total / np.maximum(n, 1), np.nan)
                     for total, n in zip(cells.sums, (cells.finite(0), cells.finite(1)), strict=True)]
        abs_error = np.where(cells.elements > 0, cells.worst_key, np.nan)
        return Heatmap(
            axes=self.axes, tensor_shape=self.shape, grid=self.mapper.grid,
            row_step=self.mapper.row_step, col_step=self.mapper.col_step,
            fused=means[0].reshape(shape), origin=means[1].reshape(shape), abs_error=abs_error.reshape(shape),
            elements=cells.elements.reshape(shape), worst_flat=cells.worst_flat.reshape(shape),
            worst_fused=cells.worst_values[0].reshape(shape), worst_origin=cells.worst_values[1].reshape(shape),
        )
