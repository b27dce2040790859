"""The heatmap grid: which tensor axes become rows and columns, and the mapping of elements to pooled cells."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.dumps.layout import LETTERED_FORMATS
from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.precision.tensor_stats import Scratch

_TILE_LIMIT = 1 << 18  # trailing-axes positions tabulated once, so cell ids cost a few ops per element
_CHUNK = 1 << 16  # the general cell-id mapping runs this many at a time, so its temporaries stay small
_IOTA = np.arange(_CHUNK, dtype=np.int64)
_IOTA.flags.writeable = False  # shared by all threads


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
        raise UsageError.of("heatmap_wrap_not_1d", shape=str(list(shape)))
    ndim = len(grid_shape(shape, axes))
    used = axes.rows + axes.cols
    if not axes.rows or not axes.cols:
        raise UsageError.of("heatmap_needs_axes")
    if len(set(used)) != len(used) or not all(0 <= axis < ndim for axis in used):
        raise UsageError.of("heatmap_axes_invalid", rows=str(axes.rows), cols=str(axes.cols), ndim=ndim)


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
        # The usual case (row axes before the tile, column axes inside it, e.g. NC x HW): a row comes
        # from the outer position alone and a column from the tile position alone, so cell ids take
        # a few whole-block operations and no per-element division.
        self.separable = (self.split > 0 and all(axis < self.split for axis in self.rows)
                          and all(axis >= self.split for axis in self.cols))
        self.tile_col_cells = self.tile_cols // self.col_step

    def cell_range(self, start: int, stop: int) -> tuple[int, int]:
        """Cell ids [low, high) that flat indices start .. stop - 1 fall into: a bound, exact for bands.

        Axes before the first one whose index changes over the range are fixed, that one spans its
        two end indices, the later ones everything; grid rows and columns grow with each axis index.
        """
        first = [int(index) for index in np.unravel_index(start, self.shape)]
        last = [int(index) for index in np.unravel_index(stop - 1, self.shape)]
        lows, highs, varying = [], [], False
        for low, high, extent in zip(first, last, self.shape, strict=True):
            if varying:
                low, high = 0, extent - 1
            varying = varying or low != high
            lows.append(low)
            highs.append(high)
        row_low, row_high = (self._ravel(self.rows, index) for index in (lows, highs))
        col_low, col_high = (self._ravel(self.cols, index) for index in (lows, highs))
        return (row_low // self.row_step * self.cells[1] + col_low // self.col_step,
                row_high // self.row_step * self.cells[1] + col_high // self.col_step + 1)

    def _ravel(self, axes: tuple[int, ...], index: list[int]) -> int:
        """Grid row (or column) of a multi-index: its `axes` raveled in the given order."""
        position = 0
        for axis in axes:
            position = position * self.shape[axis] + index[axis]
        return position

    def cell_ids(self, start: int, count: int, scratch: Scratch | None = None) -> np.ndarray:
        """Cell ids of flat indices start .. start + count - 1, in the "work" slot of `scratch`."""
        scratch = scratch or Scratch()
        ids = scratch.get("work", count, np.int64)
        if count == 0:
            return ids
        first = start // self.tile
        outer_rows = outer_cols = _IOTA[:0]
        if self.split > 0:
            last = (start + count - 1) // self.tile
            outer_rows, outer_cols = _contributions(
                self.shape, range(self.split), self.rows, self.cols, np.arange(first, last + 1))
        if self.separable:
            self._separable_ids(start, outer_rows // self.row_step * self.cells[1], ids)
            return ids
        for low in range(0, count, _CHUNK):
            self._chunk_ids(start + low, first, outer_rows, outer_cols, ids[low:low + _CHUNK], scratch)
        return ids

    def _separable_ids(self, start: int, row_cells: np.ndarray, out: np.ndarray) -> None:
        """Cell ids when rows come from outer positions only and columns from the tile only.

        The block is the end of one tile, whole tiles and the start of another: each tile's ids are
        its row cell (`row_cells`, one per outer position of the block) plus the tile's column cells,
        so three broadcast additions fill `out` without temporaries or per-element divisions.
        """
        tile, count = self.tile, out.size
        offset = start % tile
        head = min(count, tile - offset) if offset else 0
        if head:
            np.add(self.tile_col_cells[offset:offset + head], row_cells[0], out=out[:head])
        first_whole = 1 if head else 0
        whole = (count - head) // tile
        if whole:
            np.add(row_cells[first_whole:first_whole + whole, None], self.tile_col_cells,
                   out=out[head:head + whole * tile].reshape(whole, tile))
        tail = count - head - whole * tile
        if tail:
            np.add(self.tile_col_cells[:tail], row_cells[first_whole + whole], out=out[count - tail:])

    def _chunk_ids(self, start: int, first: int, outer_rows: np.ndarray, outer_cols: np.ndarray, out: np.ndarray,
                   scratch: Scratch) -> None:
        """Cell ids of flat indices start .. start + out.size - 1 into `out`, without fresh temporaries."""
        count = out.size
        inner = scratch.get("work2", count, np.int64)
        part = scratch.get("cell_part", count, np.int64)
        np.add(_IOTA[:count], start, out=inner)
        if self.split > 0:
            outer = scratch.get("cell_outer", count, np.int64)
            np.divmod(inner, self.tile, out=(outer, inner))
        # mode="clip": the indices are in range by construction, and "raise" would copy through a buffer.
        np.take(self.tile_rows, inner, out=out, mode="clip")
        np.take(self.tile_cols, inner, out=part, mode="clip")
        if self.split > 0:
            np.subtract(outer, first, out=outer)
            np.take(outer_rows, outer, out=inner, mode="clip")
            np.add(out, inner, out=out)
            np.take(outer_cols, outer, out=inner, mode="clip")
            np.add(part, inner, out=part)
        np.floor_divide(out, self.row_step, out=out)
        np.multiply(out, self.cells[1], out=out)
        np.floor_divide(part, self.col_step, out=part)
        np.add(out, part, out=out)
