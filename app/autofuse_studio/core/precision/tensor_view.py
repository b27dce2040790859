"""The tensor view of one compared pair: statistics, shared-bin histograms, heatmaps and the worst elements.

Everything comes from two chunked passes over the memory-mapped pair (the second only bins values
into ranges the first one found), with float64 work buffers of one block, so 100M+ element tensors
need a few MB besides the page cache. The pair is opened exactly like the precision engine opens it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autofuse_studio.core.dumps.layout import LETTERED_FORMATS, LayoutInfo, is_private_format, normalize_format
from autofuse_studio.core.dumps.lazy import DEFAULT_BLOCK_ELEMENTS, LazyTensor, iter_aligned_pairs
from autofuse_studio.core.dumps.npy import open_npy
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision import pair as pair_module
from autofuse_studio.core.precision.heatmap import (
    DEFAULT_MAX_CELLS,
    Heatmap,
    HeatmapAccumulator,
    HeatmapAxes,
    default_axes,
)
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.tensor_stats import (
    Histogram,
    HistogramAccumulator,
    SideStats,
    StatsAccumulator,
    TopElement,
    TopKAccumulator,
    error_key,
    log_edges,
    uniform_edges,
)
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress


@dataclass(frozen=True)
class TensorPair:
    """Both sides of a comparison as LazyTensors of equal size, in the origin layout."""

    fused: LazyTensor
    origin: LazyTensor
    layout: str | None = None
    fused_label: str = "fused"
    origin_label: str = "origin"

    @property
    def shape(self) -> tuple[int, ...]:
        """The logical shape (the origin side's): indices in reports refer to it."""
        return self.origin.shape

    @property
    def size(self) -> int:
        """Number of compared elements."""
        return self.origin.size

    def axis_names(self) -> list[str]:
        """Layout letters (N, C, H, W ...) when the layout spells the axes, else d0, d1 ..."""
        if self.layout is not None and len(self.layout) == len(self.shape):
            return list(self.layout)
        return [f"d{axis}" for axis in range(len(self.shape))]


def _plain_layout(fused_info: LayoutInfo | None, origin_info: LayoutInfo | None) -> str | None:
    """The lettered layout the converted pair is in, when we can tell."""
    candidates = []
    for info in (origin_info, fused_info):
        if info is not None:
            if not is_private_format(info.layout):
                candidates.append(info.layout)
            candidates.append(info.origin_format)
    for candidate in candidates:
        name = normalize_format(candidate)
        if name in LETTERED_FORMATS:
            return name
    return None


def open_pair(fused_path: str | Path, origin_path: str | Path, fused_layout: LayoutInfo | None = None,
              origin_layout: LayoutInfo | None = None) -> TensorPair:
    """Open two NPY files and convert layouts exactly as the precision engine does (pair._convert)."""
    fused = open_npy(fused_path)
    origin = open_npy(origin_path)
    # Same conversion as compare_pair, so the view shows exactly the elements the metrics compared.
    fused, origin, _converted = pair_module._convert(fused, origin, fused_layout, origin_layout)
    if fused.size != origin.size:
        raise InputError(
            f"Cannot view {fused_path} against {origin_path}: {fused.size} elements {list(fused.shape)} "
            f"vs {origin.size} elements {list(origin.shape)}.", origin_path)
    if fused.size == 0:
        raise InputError(f"Cannot view {fused_path} against {origin_path}: the tensors are empty.", origin_path)
    layout = _plain_layout(fused_layout, origin_layout)
    return TensorPair(fused, origin, layout, str(fused_path), str(origin_path))


def open_row(row: PrecisionRow, fused_layout: LayoutInfo | None = None,
             origin_layout: LayoutInfo | None = None) -> TensorPair:
    """open_pair for a result-table row (InputError when the row has no files to show)."""
    if row.fused_file is None or row.origin_file is None:
        raise InputError(f"Row {row.fused_op}:{row.fused_index} has no fused/origin file pair to show.")
    return open_pair(row.fused_file, row.origin_file, fused_layout, origin_layout)


@dataclass(frozen=True)
class ViewOptions:
    """Knobs of the tensor view (bins per histogram, K worst elements, heatmap axes and size)."""

    bins: int = 256
    top_k: int = 100
    axes: HeatmapAxes | None = None
    max_cells: int = DEFAULT_MAX_CELLS
    block_elements: int = DEFAULT_BLOCK_ELEMENTS


@dataclass(frozen=True)
class TensorView:
    """Everything the tensor panel shows for one pair."""

    shape: tuple[int, ...]
    axis_names: list[str]
    fused_stats: SideStats
    origin_stats: SideStats
    fused_histogram: Histogram
    origin_histogram: Histogram
    error_histogram: Histogram
    abs_error_histogram: Histogram
    heatmap: Heatmap
    top: list[TopElement]
    error_nonfinite: int = field(default=0)


def _blocks(pair: TensorPair, block_elements: int, progress: Progress, cancel: CancelToken, done: int,
            total: int, message: str) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """(start, fused, origin, fused - origin) as float64 blocks, with progress and cancellation per block."""
    start = 0
    with np.errstate(invalid="ignore", over="ignore"):
        for fused_raw, origin_raw in iter_aligned_pairs(pair.fused, pair.origin, block_elements):
            cancel.check()
            fused = fused_raw.astype(np.float64)
            origin = origin_raw.astype(np.float64)
            yield start, fused, origin, fused - origin
            start += fused.size
            progress(done + start, total, message)


class _ErrorRange:
    """Largest finite |error| and smallest positive one: the error histograms' ranges."""

    def __init__(self) -> None:
        self.max_abs = 0.0
        self.min_positive = math.inf
        self.nonfinite = 0

    def update(self, abs_error: np.ndarray) -> None:
        finite = abs_error[np.isfinite(abs_error)]
        self.nonfinite += abs_error.size - finite.size
        if finite.size:
            self.max_abs = max(self.max_abs, float(finite.max()))
            positive = finite[finite > 0]
            if positive.size:
                self.min_positive = min(self.min_positive, float(positive.min()))


def compute_tensor_view(pair: TensorPair, options: ViewOptions | None = None, *,
                        progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> TensorView:
    """Stats, heatmap and top-K in a first pass; histograms on the ranges found, in a second pass."""
    options = options or ViewOptions()
    axes = options.axes or default_axes(pair.shape, pair.layout)
    stats = [StatsAccumulator(pair.fused.dtype_name), StatsAccumulator(pair.origin.dtype_name)]
    heat = HeatmapAccumulator(pair.shape, axes, options.max_cells)
    top = TopKAccumulator(options.top_k)
    errors = _ErrorRange()
    total = 2 * pair.size
    for start, fused, origin, error in _blocks(pair, options.block_elements, progress, cancel, 0, total,
                                               "statistics, heatmap and worst elements"):
        stats[0].update(fused)
        stats[1].update(origin)
        key = error_key(error)
        errors.update(key)  # finite exactly where |error| is
        top.update(start, key, fused, origin, error)
        heat.update(start, fused, origin, key)
    fused_stats, origin_stats = stats[0].result(), stats[1].result()
    value_edges = uniform_edges(min(fused_stats.min, origin_stats.min), max(fused_stats.max, origin_stats.max),
                                options.bins)
    histograms = [
        HistogramAccumulator(value_edges), HistogramAccumulator(value_edges),
        HistogramAccumulator(uniform_edges(-errors.max_abs, errors.max_abs, options.bins)),
        HistogramAccumulator(log_edges(errors.min_positive, errors.max_abs, options.bins), log_bins=True),
    ]
    for _start, fused, origin, error in _blocks(pair, options.block_elements, progress, cancel, pair.size,
                                                total, "histograms"):
        for histogram, values in zip(histograms, (fused, origin, error, np.abs(error)), strict=True):
            histogram.update(values)
    progress(total, total, "done")
    fused_hist, origin_hist, error_hist, abs_hist = (histogram.result() for histogram in histograms)
    return TensorView(
        shape=pair.shape, axis_names=pair.axis_names(), fused_stats=fused_stats, origin_stats=origin_stats,
        fused_histogram=fused_hist, origin_histogram=origin_hist, error_histogram=error_hist,
        abs_error_histogram=abs_hist, heatmap=heat.result(), top=top.result(pair.shape),
        error_nonfinite=errors.nonfinite,
    )


def compute_heatmap(pair: TensorPair, axes: HeatmapAxes, max_cells: int = DEFAULT_MAX_CELLS, *,
                    block_elements: int = DEFAULT_BLOCK_ELEMENTS, progress: Progress = no_progress,
                    cancel: CancelToken = NEVER_CANCELLED) -> Heatmap:
    """Only the heatmap, for other axes (one pass)."""
    heat = HeatmapAccumulator(pair.shape, axes, max_cells)
    for start, fused, origin, error in _blocks(pair, block_elements, progress, cancel, 0, pair.size, "heatmap"):
        heat.update(start, fused, origin, error_key(error))
    return heat.result()


def view_files(fused_path: str | Path, origin_path: str | Path, fused_layout: LayoutInfo | None = None,
               origin_layout: LayoutInfo | None = None, options: ViewOptions | None = None, *,
               progress: Progress = no_progress,
               cancel: CancelToken = NEVER_CANCELLED) -> tuple[TensorPair, TensorView]:
    """open_pair + compute_tensor_view in one call: what a background task runs."""
    pair = open_pair(fused_path, origin_path, fused_layout, origin_layout)
    return pair, compute_tensor_view(pair, options, progress=progress, cancel=cancel)
