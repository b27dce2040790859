"""Where a signature puts its error on a heatmap: the cells of its tail range, slices or first flagged element.

Pure numpy on the Heatmap's geometry (which axes are rows and columns, how many grid positions a cell pools), so
the rectangles can be checked without drawing; TensorHeatmaps outlines them on its four images.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from autofuse_studio.core.precision.heatmap import Heatmap
from autofuse_studio.core.precision.signature import Signature

# (x0, y0, x1, y1) in cell units of the pooled image: x along its columns, y along its rows (row 0 at the top).
Rect = tuple[int, int, int, int]
# Axis -> the indices the signature names along it; an element is one index on every axis.
Region = dict[int, list[int]]
# The codes that flag single elements: the first one is outlined.
ELEMENT_CODES = ("nonfinite_introduced", "overflow", "underflow")
# Beyond this many rectangles (slices along an inner axis make stripes) the outline would hide the image.
MAX_RECTS = 256


def signature_regions(signature: Signature | None) -> list[Region]:
    """The regions a signature names (a mixed one: each part's); [] for codes without a place."""
    if signature is None:
        return []
    if signature.code == "mixed":
        parts = signature.params.get("parts")
        return [region for part in parts if isinstance(part, dict)
                for region in _regions(str(part.get("code")), part.get("params") or {})] \
            if isinstance(parts, list) else []
    return _regions(signature.code, signature.params)


def _regions(code: str, params: dict[str, Any]) -> list[Region]:
    try:
        if code == "tail_block":
            axis, first = int(params["axis"]), int(params["first_index"])
            return [{axis: list(range(first, first + int(params["tile"])))}]
        if code == "localised":
            return [{int(params["axis"]): [int(index) for index in params["indices"]]}]
        if code in ELEMENT_CODES:
            return [{axis: [int(index)] for axis, index in enumerate(params["first_index"])}]
    except (KeyError, TypeError, ValueError):  # params of another version: nothing to outline
        return []
    return []


def _axis_marks(shape: tuple[int, ...], axes: Sequence[int], region: Region) -> np.ndarray:
    """For each grid index raveled over `axes`: whether its indices on the region's axes are all named."""
    marks = np.ones(tuple(shape[axis] for axis in axes), dtype=bool)
    for place, axis in enumerate(axes):
        if axis in region:
            chosen = np.zeros(shape[axis], dtype=bool)
            chosen[region[axis]] = True
            view = [1] * len(axes)
            view[place] = shape[axis]
            marks &= chosen.reshape(view)
    flat: np.ndarray = marks.reshape(-1)
    return flat


def _pool(marks: np.ndarray, step: int, cells: int) -> np.ndarray:
    """A cell is marked when any grid position it pools is."""
    padded = np.zeros(cells * step, dtype=bool)
    padded[:marks.size] = marks
    pooled: np.ndarray = np.any(padded.reshape(cells, step), axis=1)
    return pooled


def cell_mask(heatmap: Heatmap, region: Region) -> np.ndarray | None:
    """The cells (rows x columns of the image) holding the region; None when it does not fit the tensor."""
    shape = heatmap.tensor_shape
    if not region or any(not 0 <= axis < len(shape) or not all(0 <= i < shape[axis] for i in indices)
                         for axis, indices in region.items()):
        return None
    rows, cols = heatmap.cells
    axes = heatmap.axes
    if axes.wrap:  # a 1-D tensor in rows of `wrap` elements: flat index f sits at (f // wrap, f % wrap)
        flat = np.zeros(rows * heatmap.row_step * axes.wrap, dtype=bool)
        flat[region[0]] = True
        grid = flat.reshape(-1, axes.wrap)
        by_rows = np.pad(grid, ((0, 0), (0, cols * heatmap.col_step - axes.wrap)))
        pooled: np.ndarray = np.any(by_rows.reshape(rows, heatmap.row_step, cols, heatmap.col_step), axis=(1, 3))
        return pooled
    row_marks = _pool(_axis_marks(shape, axes.rows, region), heatmap.row_step, rows)
    col_marks = _pool(_axis_marks(shape, axes.cols, region), heatmap.col_step, cols)
    return np.outer(row_marks, col_marks)


def _runs(line: np.ndarray) -> list[tuple[int, int]]:
    """[start, stop) of each run of True."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], line.astype(np.int8), [0]))))
    return [(int(start), int(stop)) for start, stop in zip(edges[::2], edges[1::2], strict=True)]


def mask_rects(mask: np.ndarray) -> list[Rect]:
    """The marked cells as few rectangles: runs along each row, merged down while the next row repeats them."""
    rects: list[Rect] = []
    open_runs: dict[tuple[int, int], int] = {}  # run -> the row it started in
    for row in range(mask.shape[0] + 1):
        runs = set(_runs(mask[row])) if row < mask.shape[0] else set()
        for run in [run for run in open_runs if run not in runs]:
            rects.append((run[0], open_runs.pop(run), run[1], row))
        for run in runs:
            open_runs.setdefault(run, row)
    return sorted(rects, key=lambda rect: (rect[1], rect[0]))


def overlay_rects(heatmap: Heatmap, signature: Signature | None) -> list[Rect]:
    """The rectangles to outline for `signature` on `heatmap` ([] when it names no place in this view, when the
    place covers the whole image, e.g. a tail along a pooled axis, or when it would take over MAX_RECTS)."""
    rects: list[Rect] = []
    whole = (0, 0, heatmap.cells[1], heatmap.cells[0])
    for region in signature_regions(signature):
        mask = cell_mask(heatmap, region)
        if mask is None or mask.all():
            continue
        rects += mask_rects(mask)
    return [] if len(rects) > MAX_RECTS or rects == [whole] else list(dict.fromkeys(rects))

