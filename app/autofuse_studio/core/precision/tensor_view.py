"""The tensor view of one compared pair: statistics, shared-bin histograms, heatmaps and the worst elements.

Everything comes from two chunked passes over the memory-mapped pair (the second only bins values
into ranges the first one found), each split over the worker threads by core/precision/segmented.py,
so 100M+ element tensors need a few MB per worker besides the page cache. The pair is opened exactly
like the precision engine opens it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autofuse_studio.core.dumps.layout import LETTERED_FORMATS, LayoutInfo, is_private_format, normalize_format
from autofuse_studio.core.dumps.lazy import DEFAULT_BLOCK_ELEMENTS
from autofuse_studio.core.dumps.mapped import changed_since_mapped
from autofuse_studio.core.dumps.tensors import open_dump_tensor
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision import pair as pair_module
from autofuse_studio.core.precision import view_kernel
from autofuse_studio.core.precision.heatmap import (
    DEFAULT_MAX_CELLS,
    CellMapper,
    Heatmap,
    HeatmapAccumulator,
    HeatmapAxes,
    check_axes,
    default_axes,
)
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.segmented import (
    Block,
    Plan,
    Segment,
    SharedProgress,
    default_jobs,
    float64_block,
    raw_blocks,
)
from autofuse_studio.core.precision.tensor_pair import TensorPair as TensorPair  # re-exported
from autofuse_studio.core.precision.tensor_stats import (
    Histogram,
    HistogramAccumulator,
    Scratch,
    SideStats,
    StatsAccumulator,
    TopElement,
    TopKAccumulator,
    error_key,
    log_edges,
    uniform_edges,
)
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress


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
    """Open two dumped tensors (NPY or raw) and convert layouts exactly as compare_pair does (convert_layouts)."""
    fused, fused_stored = open_dump_tensor(fused_path)
    origin, origin_stored = open_dump_tensor(origin_path)
    # A raw dump's header completes the graph's layouts, as compare_pair does.
    fused_layout = pair_module.stored_layout(fused_layout, fused_stored)
    origin_layout = pair_module.stored_layout(origin_layout, origin_stored)
    # Same conversion as compare_pair, so the view shows exactly the elements the metrics compared.
    fused, origin, _converted = pair_module.convert_layouts(fused, origin, fused_layout, origin_layout)
    if fused.size != origin.size:
        raise InputError.of("view_sizes_differ", fused=fused_path, path=origin_path, fused_size=fused.size,
                            fused_shape=str(list(fused.shape)), origin_size=origin.size,
                            origin_shape=str(list(origin.shape)))
    if fused.size == 0:
        raise InputError.of("view_empty", fused=fused_path, path=origin_path)
    layout = _plain_layout(fused_layout, origin_layout)
    return TensorPair(fused, origin, layout, str(fused_path), str(origin_path))


def open_row(row: PrecisionRow, fused_layout: LayoutInfo | None = None,
             origin_layout: LayoutInfo | None = None) -> TensorPair:
    """open_pair for a result-table row (InputError when the row has no files to show)."""
    if row.fused_file is None or row.origin_file is None:
        raise InputError.of("view_row_no_files", op=row.fused_op, index=row.fused_index)
    return open_pair(row.fused_file, row.origin_file, fused_layout, origin_layout)


@dataclass(frozen=True)
class ViewOptions:
    """Knobs of the tensor view (bins per histogram, K worst elements, heatmap axes and size, threads)."""

    bins: int = 256
    top_k: int = 100
    axes: HeatmapAxes | None = None
    max_cells: int = DEFAULT_MAX_CELLS
    block_elements: int = DEFAULT_BLOCK_ELEMENTS
    jobs: int = field(default_factory=default_jobs)


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


class _ErrorRange:
    """Largest finite |error| and smallest positive one: the error histograms' ranges."""

    def __init__(self) -> None:
        self.max_abs = 0.0
        self.min_positive = math.inf
        self.nonfinite = 0

    def update(self, abs_error: np.ndarray) -> None:
        finite_mask = np.isfinite(abs_error)
        finite_count = int(np.count_nonzero(finite_mask))
        self.nonfinite += abs_error.size - finite_count
        if finite_count == 0:
            return
        finite = abs_error if finite_count == abs_error.size else abs_error[finite_mask]
        self.max_abs = max(self.max_abs, float(finite.max()))
        # A reduction with `where` instead of a copy of the positive values.
        self.min_positive = min(self.min_positive, float(np.min(finite, where=finite > 0, initial=math.inf)))

    def add(self, max_abs: float, min_positive: float, nonfinite: int) -> None:
        """Widen to a block's range found elsewhere (the native kernel)."""
        self.max_abs = max(self.max_abs, max_abs)
        self.min_positive = min(self.min_positive, min_positive)
        self.nonfinite += nonfinite

    def merge(self, other: _ErrorRange) -> None:
        """Widen to another part's range."""
        self.max_abs = max(self.max_abs, other.max_abs)
        self.min_positive = min(self.min_positive, other.min_positive)
        self.nonfinite += other.nonfinite


class _FirstPass:
    """The first pass's accumulators of one segment: both sides' stats, heatmap, top-K and error range."""

    def __init__(self, pair: TensorPair, mapper: CellMapper, axes: HeatmapAxes, top_k: int,
                 span: tuple[int, int] | None) -> None:
        self.stats = (StatsAccumulator(pair.fused.dtype_name), StatsAccumulator(pair.origin.dtype_name))
        self.heat = HeatmapAccumulator(pair.shape, axes, mapper=mapper, span=span)
        self.top = TopKAccumulator(top_k)
        self.errors = _ErrorRange()

    def update(self, block: Block, scratch: Scratch) -> None:
        """Add one block; its error becomes the error key in place."""
        start, fused, origin, error = block
        self.stats[0].update(fused, scratch)
        self.stats[1].update(origin, scratch)
        key = error_key(error, out=error)
        self.errors.update(key)  # finite exactly where |error| is
        self.top.update(start, key, fused, origin, scratch)
        self.heat.update(start, fused, origin, key, scratch)

    def update_raw(self, start: int, fused: np.ndarray, origin: np.ndarray, scratch: Scratch) -> None:
        """Add one block as stored: in the native kernel when it reads both dtypes, else as float64."""
        codes = view_kernel.type_codes(fused, origin)
        if codes is None:
            self.update(float64_block(start, fused, origin, scratch), scratch)
            return
        ids, cell_arrays = self.heat.cell_arrays(start, fused.size, scratch)
        top = self.top
        # Until K are kept, the kernel hands back every key (the numpy partition picks the block's best)
        # and no candidates; afterwards only the positions above the K-th key.
        want_keys = top.k > 0 and not top.full
        block = view_kernel.first_block(fused, origin, codes, start, ids, cell_arrays,
                                        math.inf if want_keys else top.threshold, want_keys, scratch)
        for stats, (finite, nan, low, high, mean, m2) in zip(self.stats, block.sides, strict=True):
            stats.add_summary(fused.size, finite, nan, low, high, mean, m2)
        self.errors.add(block.max_abs, block.min_positive, block.nonfinite)
        positions = block.candidates if block.keys is None else top.candidates(block.keys, scratch)
        if positions.size:
            # The few candidates again as float64, exactly as the numpy path converts them.
            chosen_fused, chosen_origin = fused[positions].astype(np.float64), origin[positions].astype(np.float64)
            with np.errstate(invalid="ignore", over="ignore"):
                keys = error_key(chosen_fused - chosen_origin)
            top.offer(start, positions, keys, chosen_fused, chosen_origin)

    def merge(self, other: _FirstPass) -> None:
        """Pool a later segment into this one."""
        for mine, theirs in zip(self.stats, other.stats, strict=True):
            mine.merge(theirs)
        self.heat.merge(other.heat)
        self.top.merge(other.top)
        self.errors.merge(other.errors)


class _SecondPass:
    """Histograms of fused, origin, error and |error| of one segment."""

    def __init__(self, value_edges: np.ndarray, errors: _ErrorRange, bins: int) -> None:
        self.histograms = (
            HistogramAccumulator(value_edges), HistogramAccumulator(value_edges),
            HistogramAccumulator(uniform_edges(-errors.max_abs, errors.max_abs, bins)),
            HistogramAccumulator(log_edges(errors.min_positive, errors.max_abs, bins), log_bins=True),
        )

    def update(self, block: Block, scratch: Scratch) -> None:
        """Add one block, using its buffers for the bin positions once their values are binned."""
        _start, fused, origin, error = block
        fused_hist, origin_hist, error_hist, abs_hist = self.histograms
        fused_hist.update(fused, scratch, work=fused)
        origin_hist.update(origin, scratch, work=origin)
        error_hist.update(error, scratch, work=fused)
        abs_hist.update(np.abs(error, out=error), scratch, work=error)

    def update_raw(self, start: int, fused: np.ndarray, origin: np.ndarray, scratch: Scratch) -> None:
        """Add one block as stored: in the native kernel when it reads both dtypes, else as float64."""
        codes = view_kernel.type_codes(fused, origin)
        if codes is None:
            self.update(float64_block(start, fused, origin, scratch), scratch)
        else:
            view_kernel.histogram_block(fused, origin, codes, self.histograms)

    def merge(self, other: _SecondPass) -> None:
        """Add a later segment's counts."""
        for mine, theirs in zip(self.histograms, other.histograms, strict=True):
            mine.merge(theirs)


def _heat_span(segment: Segment) -> tuple[int, int] | None:
    """The first segment's heatmap holds every cell (the others merge into it); the others their band."""
    return None if segment.start == 0 else (segment.start, segment.stop)


def _first_pass(pair: TensorPair, mapper: CellMapper, axes: HeatmapAxes, top_k: int,
                segment: Segment) -> _FirstPass:
    """Stats, heatmap, top-K and error range of one segment (runs on a worker thread)."""
    part = _FirstPass(pair, mapper, axes, top_k, _heat_span(segment))
    scratch = Scratch()
    with np.errstate(invalid="ignore", over="ignore"):  # per thread: each worker sets its own
        for start, fused, origin in raw_blocks(pair, segment):
            part.update_raw(start, fused, origin, scratch)
    return part


def _second_pass(pair: TensorPair, value_edges: np.ndarray, errors: _ErrorRange, bins: int,
                 segment: Segment) -> _SecondPass:
    """The four histograms of one segment (runs on a worker thread)."""
    part = _SecondPass(value_edges, errors, bins)
    scratch = Scratch()
    with np.errstate(invalid="ignore", over="ignore"):
        for start, fused, origin in raw_blocks(pair, segment):
            part.update_raw(start, fused, origin, scratch)
    return part


def compute_tensor_view(pair: TensorPair, options: ViewOptions | None = None, *,
                        progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> TensorView:
    """Stats, heatmap and top-K in a first pass; histograms on the ranges found, in a second pass.

    Each pass runs over contiguous segments of the pair on `options.jobs` threads (numpy releases the
    GIL in the per-block work); the segments' accumulators merge in order, so the result equals one
    sequential pass up to the summation order of means and standard deviations.
    """
    options = options or ViewOptions()
    axes = options.axes or default_axes(pair.shape, pair.layout)
    check_axes(pair.shape, axes)
    mapper = CellMapper(pair.shape, axes, options.max_cells)
    plan = Plan.of(pair, options.block_elements, options.jobs, cancel)
    total = 2 * pair.size
    first = plan.run(functools.partial(_first_pass, pair, mapper, axes, options.top_k),
                     SharedProgress(progress, 0, total, "statistics, heatmap and worst elements"))
    fused_stats, origin_stats = first.stats[0].result(), first.stats[1].result()
    value_edges = uniform_edges(min(fused_stats.min, origin_stats.min), max(fused_stats.max, origin_stats.max),
                                options.bins)
    second = plan.run(functools.partial(_second_pass, pair, value_edges, first.errors, options.bins),
                      SharedProgress(progress, pair.size, total, "histograms"))
    progress(total, total, "done")
    check_unchanged(pair)
    fused_hist, origin_hist, error_hist, abs_hist = (histogram.result() for histogram in second.histograms)
    return TensorView(
        shape=pair.shape, axis_names=pair.axis_names(), fused_stats=fused_stats, origin_stats=origin_stats,
        fused_histogram=fused_hist, origin_histogram=origin_hist, error_histogram=error_hist,
        abs_error_histogram=abs_hist, heatmap=first.heat.result(), top=first.top.result(pair.shape),
        error_nonfinite=first.errors.nonfinite,
    )


def _heatmap_pass(pair: TensorPair, mapper: CellMapper, axes: HeatmapAxes, segment: Segment) -> HeatmapAccumulator:
    """The heatmap of one segment (runs on a worker thread)."""
    heat = HeatmapAccumulator(pair.shape, axes, mapper=mapper, span=_heat_span(segment))
    scratch = Scratch()
    with np.errstate(invalid="ignore", over="ignore"):
        for start, fused_raw, origin_raw in raw_blocks(pair, segment):
            codes = view_kernel.type_codes(fused_raw, origin_raw)
            if codes is None:
                _, fused, origin, error = float64_block(start, fused_raw, origin_raw, scratch)
                heat.update(start, fused, origin, error_key(error, out=error), scratch)
            else:  # the first pass's kernel, its statistics unused (no top-K candidates: threshold +Inf)
                ids, cell_arrays = heat.cell_arrays(start, fused_raw.size, scratch)
                view_kernel.first_block(fused_raw, origin_raw, codes, start, ids, cell_arrays, math.inf, False,
                                        scratch)
    return heat


def compute_heatmap(pair: TensorPair, axes: HeatmapAxes, max_cells: int = DEFAULT_MAX_CELLS, *,
                    block_elements: int = DEFAULT_BLOCK_ELEMENTS, jobs: int | None = None,
                    progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> Heatmap:
    """Only the heatmap, for other axes (one pass over segments on `jobs` threads, default one per core)."""
    check_axes(pair.shape, axes)
    mapper = CellMapper(pair.shape, axes, max_cells)
    plan = Plan.of(pair, block_elements, jobs, cancel)
    heat = plan.run(functools.partial(_heatmap_pass, pair, mapper, axes),
                    SharedProgress(progress, 0, pair.size, "heatmap"))
    check_unchanged(pair)
    return heat.result()


def check_unchanged(pair: TensorPair) -> None:
    """InputError when a mapped file of the pair shrank or was rewritten while it was read (see dumps.mapped)."""
    problem = changed_since_mapped(pair.fused.view, pair.origin.view)
    if problem is not None:
        raise InputError.of("view_changed", fused=pair.fused_label, origin=pair.origin_label, problem=problem)


def view_files(fused_path: str | Path, origin_path: str | Path, fused_layout: LayoutInfo | None = None,
               origin_layout: LayoutInfo | None = None, options: ViewOptions | None = None, *,
               progress: Progress = no_progress,
               cancel: CancelToken = NEVER_CANCELLED) -> tuple[TensorPair, TensorView]:
    """open_pair + compute_tensor_view in one call: what a background task runs."""
    pair = open_pair(fused_path, origin_path, fused_layout, origin_layout)
    return pair, compute_tensor_view(pair, options, progress=progress, cancel=cancel)
