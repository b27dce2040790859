"""Tensor view on several threads: segments merged in order give the single-threaded view.

Counts, min/max, NaN/Inf counts, histograms, the top-K and the heatmap's worst elements must be
identical; means, standard deviations and heatmap cell means may differ only by float summation
order, checked to a relative 1e-12.
"""

from __future__ import annotations

import itertools
import math
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.precision import heatmap_grid, native, segmented
from autofuse_studio.core.precision.heatmap import CellMapper, Heatmap, HeatmapAccumulator, HeatmapAxes
from autofuse_studio.core.precision.segmented import segments
from autofuse_studio.core.precision.tensor_stats import (
    HistogramAccumulator,
    StatsAccumulator,
    TopKAccumulator,
    error_key,
)
from autofuse_studio.core.precision.tensor_view import (
    TensorPair,
    TensorView,
    ViewOptions,
    compute_heatmap,
    compute_tensor_view,
    open_pair,
)
from autofuse_studio.core.progress import CancelToken
from tests.synth.layouts import to_nc1hwc0

REL = 1e-12  # summation order only


def _save(tmp_path: Path, name: str, array: np.ndarray) -> Path:
    path = tmp_path / f"{name}.npy"
    np.save(path, array)
    return path


def _tied_arrays(shape: tuple[int, ...], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Small integer errors (many ties in |error|) plus NaN, +-Inf and Inf - Inf on both sides."""
    rng = np.random.default_rng(seed)
    origin = rng.integers(-4, 5, shape).astype(np.float32)
    fused = origin + rng.integers(-2, 3, shape).astype(np.float32)
    flat_f, flat_o = fused.reshape(-1), origin.reshape(-1)
    for position, fused_value, origin_value in ((3, np.nan, 1.0), (flat_f.size // 2, np.inf, np.inf),
                                                (flat_f.size // 3, -np.inf, 0.0), (flat_f.size - 2, 0.0, np.nan)):
        flat_f[position], flat_o[position] = fused_value, origin_value
    return fused, origin


def _pairs(tmp_path: Path) -> dict[str, TensorPair]:
    """Plain, 5HD-converted, integer and differently shaped pairs, none a multiple of the block sizes."""
    fused, origin = _tied_arrays((7, 37, 7))
    n, c, h, w = 2, 21, 3, 5
    fused_4d, origin_4d = _tied_arrays((n, c, h, w), seed=1)
    device = to_nc1hwc0(fused_4d, np.full((n, 11, h, w), 1e30, dtype=np.float32))
    fused_info, origin_info = LayoutInfo("NC1HWC0", "NCHW", (n, c, h, w)), LayoutInfo("NCHW", "NCHW", (n, c, h, w))
    ints = np.arange(-700, 711, dtype=np.int32).reshape(17, 83)
    return {
        "plain": open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin)),
        "5hd": open_pair(_save(tmp_path, "f5", device), _save(tmp_path, "o5", origin_4d), fused_info, origin_info),
        "int": open_pair(_save(tmp_path, "fi", ints + (ints % 3 == 0)), _save(tmp_path, "oi", ints)),
        "flattened": open_pair(_save(tmp_path, "fl", fused), _save(tmp_path, "ol", origin.reshape(-1))),
    }


def _close(left: np.ndarray | float, right: np.ndarray | float) -> None:
    np.testing.assert_allclose(left, right, rtol=REL, atol=0, equal_nan=True)


def _assert_same_heatmap(left: Heatmap, right: Heatmap) -> None:
    assert (left.cells, left.row_step, left.col_step) == (right.cells, right.row_step, right.col_step)
    for name in ("elements", "abs_error", "worst_flat", "worst_fused", "worst_origin"):
        np.testing.assert_array_equal(getattr(left, name), getattr(right, name), err_msg=name)
    _close(left.fused, right.fused)
    _close(left.origin, right.origin)


def _assert_same_view(left: TensorView, right: TensorView) -> None:
    for mine, theirs in ((left.fused_stats, right.fused_stats), (left.origin_stats, right.origin_stats)):
        assert (mine.elements, mine.finite, mine.nan, mine.inf) == (theirs.elements, theirs.finite, theirs.nan,
                                                                     theirs.inf)
        np.testing.assert_array_equal([mine.min, mine.max], [theirs.min, theirs.max])
        _close([mine.mean, mine.std], [theirs.mean, theirs.std])
    for mine_hist, theirs_hist in zip(
            (left.fused_histogram, left.origin_histogram, left.error_histogram, left.abs_error_histogram),
            (right.fused_histogram, right.origin_histogram, right.error_histogram, right.abs_error_histogram),
            strict=True):
        np.testing.assert_array_equal(mine_hist.edges, theirs_hist.edges)
        np.testing.assert_array_equal(mine_hist.counts, theirs_hist.counts)
        assert mine_hist.nonfinite == theirs_hist.nonfinite
    assert [(top.flat_index, top.index) for top in left.top] == [(top.flat_index, top.index) for top in right.top]
    np.testing.assert_array_equal([(top.fused, top.origin, top.error) for top in left.top],
                                  [(top.fused, top.origin, top.error) for top in right.top])
    assert left.error_nonfinite == right.error_nonfinite
    _assert_same_heatmap(left.heatmap, right.heatmap)


def _flat_values(tensor: LazyTensor) -> np.ndarray:
    return tensor.materialize().astype(np.float64).reshape(-1)


def _brute_keys(pair: TensorPair) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return error_key(_flat_values(pair.fused) - _flat_values(pair.origin))


def _brute_worst(pair: TensorPair, heatmap: Heatmap) -> np.ndarray:
    """Per cell, the smallest flat index with the largest key: the documented tie rule."""
    mapper = CellMapper(pair.shape, heatmap.axes, max(heatmap.cells))
    ids = mapper.cell_ids(0, pair.size)
    key = _brute_keys(pair)
    order = np.lexsort((np.arange(key.size), -key))
    cells, first = np.unique(ids[order], return_index=True)
    worst = np.full(heatmap.cells[0] * heatmap.cells[1], -1)
    worst[cells] = order[first]
    return worst.reshape(heatmap.cells)


@pytest.mark.parametrize(("jobs", "per_job", "block"), [(2, 8, 97), (3, 1, 47), (2, 3, 64), (5, 1, 13)])
@pytest.mark.parametrize("tile_limit", [1 << 18, 40])  # 40: cell ids from tiles, as for big tensors
def test_threads_give_the_sequential_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int, per_job: int,
                                          block: int, tile_limit: int) -> None:
    monkeypatch.setattr(segmented, "SEGMENTS_PER_JOB", per_job)
    monkeypatch.setattr(heatmap_grid, "_TILE_LIMIT", tile_limit)
    for name, pair in _pairs(tmp_path).items():
        assert pair.size % block, name  # the last block of every segment run is a short one
        options = ViewOptions(bins=32, top_k=11, block_elements=block, max_cells=8)
        sequential = compute_tensor_view(pair, replace(options, jobs=1))
        parallel = compute_tensor_view(pair, replace(options, jobs=jobs))
        _assert_same_view(sequential, parallel)
        key = _brute_keys(pair)
        assert [top.flat_index for top in parallel.top] == list(np.lexsort((np.arange(key.size), -key))[:11])
        np.testing.assert_array_equal(parallel.heatmap.worst_flat, _brute_worst(pair, parallel.heatmap))


def test_segments_cover_the_range() -> None:
    assert segments(1000, 1, 64) == [(0, 1000)]
    assert segments(0, 4, 64) == [(0, 0)]
    three = segments(1813, 3, 47)
    assert len(three) == 3 * segmented.SEGMENTS_PER_JOB
    assert three[0][0] == 0 and three[-1][1] == 1813
    assert all(left[1] == right[0] for left, right in itertools.pairwise(three))
    assert segments(100, 8, 64) == [(0, 50), (50, 100)]  # never less than about a block per segment


@pytest.mark.parametrize("axes", [HeatmapAxes((0,), (1,)), HeatmapAxes((1,), (0,)), HeatmapAxes((0, 2), (1,))])
def test_heatmap_threads(tmp_path: Path, axes: HeatmapAxes) -> None:
    fused, origin = _tied_arrays((7, 37, 7), seed=2)
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    sequential = compute_heatmap(pair, axes, 5, block_elements=53, jobs=1)
    parallel = compute_heatmap(pair, axes, 5, block_elements=53, jobs=3)
    _assert_same_heatmap(sequential, parallel)
    np.testing.assert_array_equal(parallel.worst_flat, _brute_worst(pair, parallel))


def test_wrapped_1d_heatmap_threads(tmp_path: Path) -> None:
    fused, origin = _tied_arrays((1001,), seed=3)
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    axes = HeatmapAxes((0,), (1,), wrap=32)
    _assert_same_heatmap(compute_heatmap(pair, axes, 6, block_elements=37, jobs=1),
                         compute_heatmap(pair, axes, 6, block_elements=37, jobs=2))


def test_progress_from_threads_is_monotonic(tmp_path: Path) -> None:
    fused, origin = _tied_arrays((40, 40))
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    reports: list[tuple[int, int]] = []
    compute_tensor_view(pair, ViewOptions(block_elements=30, jobs=2),
                        progress=lambda done, total, message="": reports.append((done, total)))
    assert reports[-1] == (3200, 3200)
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    heat_reports: list[int] = []
    compute_heatmap(pair, HeatmapAxes((0,), (1,)), block_elements=30, jobs=2,
                    progress=lambda done, total, message="": heat_reports.append(done))
    assert heat_reports == sorted(heat_reports) and heat_reports[-1] == 1600


def _no_workers_left() -> bool:
    return not any(thread.name.startswith("tensor-view") for thread in threading.enumerate())


def test_cancel_midway_stops_every_worker(tmp_path: Path) -> None:
    fused, origin = _tied_arrays((64, 100))
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    token = CancelToken()
    reports: list[int] = []

    def progress(done: int, total: int, message: str = "") -> None:
        reports.append(done)
        if len(reports) == 5:
            token.cancel()

    with pytest.raises(Cancelled):
        compute_tensor_view(pair, ViewOptions(block_elements=64, jobs=2), progress=progress, cancel=token)
    # Each worker finishes at most the block it is in: the other one reports once more at most.
    assert len(reports) <= 6
    assert _no_workers_left()


@pytest.mark.parametrize("no_native", ["1", ""])  # the numpy path, and the native kernel when built
def test_a_worker_error_propagates_and_stops_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        no_native: str) -> None:
    monkeypatch.setenv(native.DISABLE_ENV, no_native)
    fused, origin = _tied_arrays((64, 100))
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    original = CellMapper.cell_ids  # both paths map every block to heatmap cells

    def failing(self: CellMapper, start: int, *args: object, **kwargs: object) -> np.ndarray:
        if start >= 3200:
            raise OSError("disk went away")
        return original(self, start, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(CellMapper, "cell_ids", failing)
    reports: list[int] = []
    with pytest.raises(OSError, match="disk went away"):
        compute_tensor_view(pair, ViewOptions(block_elements=64, jobs=2),
                            progress=lambda done, total, message="": reports.append(done))
    assert max(reports) < pair.size  # stopped during the first pass
    assert _no_workers_left()


def _parts(values: np.ndarray, cuts: list[int]) -> list[np.ndarray]:
    return np.split(values, cuts)


def test_stats_merge_is_chan() -> None:
    rng = np.random.default_rng(4)
    values = np.concatenate((rng.normal(1000.0, 1e-3, 5000), [np.nan, np.inf, -np.inf], rng.normal(-3.0, 7.0, 777)))
    whole = StatsAccumulator("float64")
    whole.update(values)
    parts = []
    for part in _parts(values, [1, 2500, 5001, 5003, 5500]):
        accumulator = StatsAccumulator("float64")
        accumulator.update(part)
        parts.append(accumulator)
    merged = StatsAccumulator("float64")
    for accumulator in parts:
        merged.merge(accumulator)
    mine, theirs = merged.result(), whole.result()
    assert (mine.elements, mine.finite, mine.nan, mine.inf, mine.min, mine.max) == (
        theirs.elements, theirs.finite, theirs.nan, theirs.inf, theirs.min, theirs.max)
    finite = values[np.isfinite(values)]
    _close([mine.mean, mine.std], [theirs.mean, theirs.std])
    np.testing.assert_allclose([mine.mean, mine.std], [finite.mean(), finite.std()], rtol=1e-9)
    single = StatsAccumulator("float64")
    single.merge(parts[1])
    assert single.result() == parts[1].result()  # merged into an empty one: copied exactly


def test_top_k_merge_keeps_the_tie_rule() -> None:
    keys = np.array([1.0, 3.0, np.inf, 3.0, 2.0, np.inf, 3.0, 0.0, 3.0, 1.0])
    values = np.arange(keys.size, dtype=np.float64)
    halves = []
    for start, stop in ((0, 4), (4, 10)):
        accumulator = TopKAccumulator(4)
        accumulator.update(start, keys[start:stop], values[start:stop], values[start:stop] * 0)
        halves.append(accumulator)
    forward, backward = TopKAccumulator(4), TopKAccumulator(4)
    for accumulator in halves:
        forward.merge(accumulator)
    for accumulator in reversed(halves):
        backward.merge(accumulator)
    expected = [2, 5, 1, 3]  # Inf first, then the 3s by smaller flat index
    assert [top.flat_index for top in forward.result((10,))] == expected
    assert [top.flat_index for top in backward.result((10,))] == expected


def test_histogram_merge_adds_counts() -> None:
    edges = np.linspace(-1.0, 1.0, 9)
    values = np.array([-1.0, -0.5, 0.0, 0.25, 1.0, np.nan, 0.9])
    whole, left, right = (HistogramAccumulator(edges) for _ in range(3))
    whole.update(values)
    left.update(values[:3])
    right.update(values[3:])
    left.merge(right)
    np.testing.assert_array_equal(left.result().counts, whole.result().counts)
    assert left.result().nonfinite == 1
    with pytest.raises(ValueError, match="different bins"):
        left.merge(HistogramAccumulator(np.linspace(0.0, 1.0, 5)))


def test_heatmap_merge_in_any_order_equals_one_pass() -> None:
    shape, axes = (6, 10, 9), HeatmapAxes((0, 1), (2,))
    rng = np.random.default_rng(5)
    fused = rng.integers(0, 3, math.prod(shape)).astype(np.float64)
    origin = np.zeros_like(fused)
    fused[17] = np.nan
    key = error_key(fused - origin)
    whole = HeatmapAccumulator(shape, axes, 4)
    whole.update(0, fused, origin, key)
    parts = []
    for start, stop in ((0, 101), (101, 333), (333, 540)):
        part = HeatmapAccumulator(shape, axes, 4, span=(start, stop))
        part.update(start, fused[start:stop], origin[start:stop], key[start:stop])
        parts.append(part)
    for order in ((0, 1, 2), (2, 0, 1), (1, 2, 0)):
        merged = HeatmapAccumulator(shape, axes, 4, span=(0, 1))
        for number in order:
            merged.merge(parts[number])
        _assert_same_heatmap(merged.result(), whole.result())
