"""Heatmaps of a tensor pair: chosen axes become rows and columns, the rest is pooled, big grids shrink.

A tensor is seen as a 2-D grid: row index = the row axes' indices raveled in the given order, column
index likewise; axes in neither are reduced. Grids bigger than `max_cells` per side are pooled into
cells of `row_step` x `col_step` grid positions: values by the mean of finite values, the error by
its MAXIMUM, so a single bad element stays visible. Each cell remembers its worst element for hovers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.dumps.layout import LETTERED_FORMATS
from autofuse_studio.core.errors import UsageError

DEFAULT_MAX_CELLS = 512
_TILE_LIMIT = 1 << 18  # trailing-axes positions tabulated once, so cell ids cost a few ops per element


@dataclass(frozen=True)
class HeatmapAxes:
    """Tensor axes raveled into grid rows and columns; `wrap` > 0 wraps a 1-D tensor into rows of that width."""

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    wrap: int = 0


def default_axes(shape: tuple[int, ...], layout: str | None = None) -> HeatmapAxes:
    """NCHW-like -> rows N*C, cols H*W (by letters when known); 2-D as is; 1-D wrapped near-square."""
    ndim = len(shape)
    if ndim <= 1:
        size = math.prod(shape)
        return HeatmapAxes((0,), (1,), wrap=max(1, math.ceil(math.sqrt(size))))
    if ndim == 2:
        return HeatmapAxes((0,), (1,))
    if layout in LETTERED_FORMATS and len(layout) == ndim:
        rows = tuple(axis for axis, letter in enumerate(layout) if letter in "NCD")
        cols = tuple(axis for axis, letter in enumerate(layout) if letter in "HW")
        if rows and cols:
            return HeatmapAxes(rows, cols)
    half = math.ceil(ndim / 2) if ndim > 3 else ndim - 1
    return HeatmapAxes(tuple(range(half)), tuple(range(half, ndim)))


def grid_shape(shape: tuple[int, ...], axes: HeatmapAxes) -> tuple[int, ...]:
    """The shape the axes refer to: the tensor's, or (rows, wrap) for a wrapped 1-D tensor."""
    if axes.wrap:
        size = math.prod(shape)
        return (max(1, math.ceil(size / axes.wrap)), axes.wrap)
    return shape


def check_axes(shape: tuple[int, ...], axes: HeatmapAxes) -> None:
    """Raise UsageError unless rows and columns are disjoint, non-empty and inside the tensor."""
    if axes.wrap and len(shape) > 1:
        raise UsageError(f"Only a 1-D tensor can be wrapped; this one has shape {list(shape)}.")
    ndim = len(grid_shape(shape, axes))
    used = axes.rows + axes.cols
    if not axes.rows or not axes.cols:
        raise UsageError("A heatmap needs at least one row axis and one column axis.")
    if len(set(used)) != len(used) or not all(0 <= axis < ndim for axis in used):
        raise UsageError(f"Heatmap axes {axes.rows} x {axes.cols} must be distinct axes of a {ndim}-D grid.")


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


def _contributions(shape: tuple[int, ...], axes: range, rows: tuple[int, ...], cols: tuple[int, ...],
                   positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grid row and column contributions of `axes` for C-order positions within shape[axes]."""
    sub = tuple(shape[axis] for axis in axes)
    indices = np.unravel_index(positions, sub) if sub else ()
    row_part = np.zeros(positions.size, dtype=np.int64)
    col_part = np.zeros(positions.size, dtype=np.int64)
    for part, chosen in ((row_part, rows), (col_part, cols)):
        for place, axis in enumerate(chosen):
            if axis in axes:
                # The stride of an axis is the product of the axes after it in the chosen order.
                stride = math.prod(shape[later] for later in chosen[place + 1:])
                part += indices[axis - axes.start].astype(np.int64) * stride
    return row_part, col_part


class CellMapper:
    """Maps C-order flat indices to pooled cell ids (row-major over the cell grid)."""

    def __init__(self, shape: tuple[int, ...], axes: HeatmapAxes, max_cells: int) -> None:
        self.shape = grid_shape(shape, axes)
        self.rows, self.cols = axes.rows, axes.cols
        self.grid = (math.prod(self.shape[a] for a in self.rows), math.prod(self.shape[a] for a in self.cols))
        self.row_step = max(1, math.ceil(self.grid[0] / max_cells))
        self.col_step = max(1, math.ceil(self.grid[1] / max_cells))
        self.cells = (math.ceil(self.grid[0] / self.row_step), math.ceil(self.grid[1] / self.col_step))
        # Tabulate the trailing axes once; only the (few) outer positions of a block are unravelled per block.
        self.split = next(m for m in range(len(self.shape) + 1) if math.prod(self.shape[m:]) <= _TILE_LIMIT)
        self.tile = math.prod(self.shape[self.split:])
        self.tile_rows, self.tile_cols = _contributions(
            self.shape, range(self.split, len(self.shape)), self.rows, self.cols, np.arange(self.tile))

    def cell_ids(self, start: int, count: int) -> np.ndarray:
        """Cell ids of flat indices start .. start + count - 1."""
        flat = np.arange(start, start + count, dtype=np.int64)
        outer, inner = np.divmod(flat, self.tile)
        rows, cols = self.tile_rows[inner], self.tile_cols[inner]
        if self.split > 0:
            first, last = int(outer[0]), int(outer[-1])
            outer_rows, outer_cols = _contributions(
                self.shape, range(self.split), self.rows, self.cols, np.arange(first, last + 1))
            rows = rows + outer_rows[outer - first]
            cols = cols + outer_cols[outer - first]
        ids: np.ndarray = (rows // self.row_step) * self.cells[1] + cols // self.col_step
        return ids


class HeatmapAccumulator:
    """Pools float64 blocks of both sides and their error key into the cells of a CellMapper."""

    def __init__(self, shape: tuple[int, ...], axes: HeatmapAxes, max_cells: int = DEFAULT_MAX_CELLS) -> None:
        check_axes(shape, axes)
        self.shape, self.axes = shape, axes
        self.mapper = CellMapper(shape, axes, max_cells)
        count = self.mapper.cells[0] * self.mapper.cells[1]
        self.elements = np.zeros(count, dtype=np.int64)
        self.sums = [np.zeros(count), np.zeros(count)]
        self.finite = [np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)]
        self.worst_key = np.full(count, -1.0)
        self.worst_flat = np.full(count, -1, dtype=np.int64)
        self.worst_values = [np.full(count, np.nan), np.full(count, np.nan)]
        self._block_max = np.empty(count)

    def update(self, start: int, fused: np.ndarray, origin: np.ndarray, key: np.ndarray) -> None:
        """Add one block of both sides (flat indices from `start`) with its error key (|err|, NaN as Inf)."""
        count = self.elements.size
        ids = self.mapper.cell_ids(start, fused.size)
        block_elements = np.bincount(ids, minlength=count)
        self.elements += block_elements
        for side, values in enumerate((fused, origin)):
            finite = np.isfinite(values)
            if finite.all():
                self.sums[side] += np.bincount(ids, weights=values, minlength=count)
                self.finite[side] += block_elements
            else:
                self.sums[side] += np.bincount(ids[finite], weights=values[finite], minlength=count)
                self.finite[side] += np.bincount(ids[finite], minlength=count)
        self._update_worst(start, ids, fused, origin, key)

    def _update_worst(self, start: int, ids: np.ndarray, fused: np.ndarray, origin: np.ndarray,
                      key: np.ndarray) -> None:
        block_max = self._block_max
        block_max.fill(-1.0)
        np.maximum.at(block_max, ids, key)
        # Strictly greater: on ties the earlier block (smaller flat index) keeps the cell.
        improved = block_max > self.worst_key
        if not improved.any():
            return
        hits = np.flatnonzero(improved[ids] & (key == block_max[ids]))
        cells, first = np.unique(ids[hits], return_index=True)
        positions = hits[first]
        self.worst_key[cells] = block_max[cells]
        self.worst_flat[cells] = positions + start
        self.worst_values[0][cells] = fused[positions]
        self.worst_values[1][cells] = origin[positions]

    def result(self) -> Heatmap:
        """The pooled heatmap so far."""
        shape = self.mapper.cells
        with np.errstate(invalid="ignore", divide="ignore"):
            means = [np.where(n > 0, total / np.maximum(n, 1), np.nan) for total, n in zip(
                self.sums, self.finite, strict=True)]
        abs_error = np.where(self.elements > 0, self.worst_key, np.nan)
        return Heatmap(
            axes=self.axes, tensor_shape=self.shape, grid=self.mapper.grid,
            row_step=self.mapper.row_step, col_step=self.mapper.col_step,
            fused=means[0].reshape(shape), origin=means[1].reshape(shape), abs_error=abs_error.reshape(shape),
            elements=self.elements.reshape(shape), worst_flat=self.worst_flat.reshape(shape),
            worst_fused=self.worst_values[0].reshape(shape), worst_origin=self.worst_values[1].reshape(shape),
        )
