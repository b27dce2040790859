"""The native tensor-view kernel gives the numpy path's view: counts, extremes, bins, top-K and worst cells exactly.

Every generated pair is viewed twice, with the kernel and with AUTOFUSE_STUDIO_NO_NATIVE=1 (the numpy
path, the reference), and both against brute force on the whole arrays. Means, standard deviations
and heatmap cell means may differ by summation order only: a relative 1e-12 of the values' magnitude.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import heatmap_grid, native, segmented, view_kernel
from autofuse_studio.core.precision.heatmap import Heatmap, HeatmapAxes, default_axes
from autofuse_studio.core.precision.tensor_stats import HistogramAccumulator, error_key, log_edges, uniform_edges
from autofuse_studio.core.precision.tensor_view import (
    TensorPair,
    TensorView,
    ViewOptions,
    compute_heatmap,
    compute_tensor_view,
    open_pair,
)
from tests.synth.layouts import to_nc1hwc0

pytestmark = pytest.mark.skipif(native.kernel_library() is None, reason="native kernel not built (no C compiler)")

REL = 1e-12


def _save(tmp_path: Path, name: str, array: np.ndarray) -> Path:
    path = tmp_path / f"{name}.npy"
    np.save(path, array)
    return path


def _both(pair: TensorPair, options: ViewOptions, monkeypatch: pytest.MonkeyPatch,
          native_blocks: bool = True) -> tuple[TensorView, TensorView]:
    """The view with the kernel (checking it ran on every block of both passes, or on none) and without."""
    calls = {"first": 0, "hist": 0}
    first, hist = view_kernel.first_block, view_kernel.histogram_block

    def counted_first(*args: Any, **kwargs: Any) -> view_kernel.FirstBlock:
        calls["first"] += 1
        return first(*args, **kwargs)

    def counted_hist(*args: Any, **kwargs: Any) -> None:
        calls["hist"] += 1
        hist(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(view_kernel, "first_block", counted_first)
        patch.setattr(view_kernel, "histogram_block", counted_hist)
        patch.setenv(native.DISABLE_ENV, "")
        fast = compute_tensor_view(pair, options)
    blocks = -(-pair.size // options.block_elements)
    if native_blocks:
        assert calls["first"] >= blocks and calls["hist"] >= blocks, calls
    else:
        assert calls == {"first": 0, "hist": 0}
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    reference = compute_tensor_view(pair, options)
    monkeypatch.setenv(native.DISABLE_ENV, "")
    return fast, reference


def _values(tensor: LazyTensor) -> np.ndarray:
    return tensor.materialize().astype(np.float64).reshape(-1)


def _close(left: object, right: object, scale: float) -> None:
    np.testing.assert_allclose(left, right, rtol=REL, atol=REL * scale, equal_nan=True)


def _scale(values: np.ndarray) -> float:
    finite = np.abs(values[np.isfinite(values)])
    return float(finite.max()) if finite.size else 0.0


def _assert_same_heatmap(fast: Heatmap, reference: Heatmap, scale: float) -> None:
    assert (fast.cells, fast.row_step, fast.col_step) == (reference.cells, reference.row_step, reference.col_step)
    for name in ("elements", "abs_error", "worst_flat", "worst_fused", "worst_origin"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(reference, name), err_msg=name)
    _close(fast.fused, reference.fused, scale)
    _close(fast.origin, reference.origin, scale)


def _assert_same_view(fast: TensorView, reference: TensorView, pair: TensorPair) -> None:
    fused, origin = _values(pair.fused), _values(pair.origin)
    scale = max(_scale(fused), _scale(origin))
    for mine, theirs, values in ((fast.fused_stats, reference.fused_stats, fused),
                                 (fast.origin_stats, reference.origin_stats, origin)):
        assert (mine.dtype, mine.elements, mine.finite, mine.nan, mine.inf) == (
            theirs.dtype, theirs.elements, theirs.finite, theirs.nan, theirs.inf)
        np.testing.assert_array_equal([mine.min, mine.max], [theirs.min, theirs.max])
        _close([mine.mean, mine.std], [theirs.mean, theirs.std], scale)
        finite = values[np.isfinite(values)]
        assert mine.nan == int(np.isnan(values).sum()) and mine.finite == finite.size
        if finite.size:  # brute force on the whole array
            assert (mine.min, mine.max) == (finite.min(), finite.max())
            np.testing.assert_allclose([mine.mean, mine.std], [finite.mean(), finite.std()], rtol=1e-9,
                                       atol=1e-9 * scale)
    for mine_hist, theirs_hist in zip(
            (fast.fused_histogram, fast.origin_histogram, fast.error_histogram, fast.abs_error_histogram),
            (reference.fused_histogram, reference.origin_histogram, reference.error_histogram,
             reference.abs_error_histogram), strict=True):
        np.testing.assert_array_equal(mine_hist.edges, theirs_hist.edges)
        np.testing.assert_array_equal(mine_hist.counts, theirs_hist.counts)
        assert mine_hist.nonfinite == theirs_hist.nonfinite
        assert mine_hist.total == pair.size
    assert [(top.flat_index, top.index) for top in fast.top] == [(top.flat_index, top.index) for top in reference.top]
    np.testing.assert_array_equal([(top.fused, top.origin, top.error) for top in fast.top],
                                  [(top.fused, top.origin, top.error) for top in reference.top])
    with np.errstate(invalid="ignore", over="ignore"):
        key = error_key(fused - origin)
    assert [top.flat_index for top in fast.top] == list(np.lexsort((np.arange(key.size), -key))[:len(fast.top)])
    assert fast.error_nonfinite == reference.error_nonfinite == int((~np.isfinite(key)).sum())
    _assert_same_heatmap(fast.heatmap, reference.heatmap, scale)


def _sprinkle(rng: np.random.Generator, array: np.ndarray, count: int) -> None:
    """NaN, +-Inf and -0.0 at random places (some on both sides of the pair, by the shared seed)."""
    flat = array.reshape(-1)
    for value in (np.nan, np.inf, -np.inf, -0.0):
        flat[rng.integers(0, flat.size, count)] = value


def _floats(rng: np.random.Generator, size: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    origin = rng.standard_normal(size) * 10.0 ** rng.integers(-3, 4)
    if kind == "ties":  # small integer errors: many equal keys
        origin = np.round(origin)
        fused = origin + rng.integers(-2, 3, size)
    elif kind == "constant":
        origin = np.full(size, 1.5)
        fused = origin.copy()
    else:
        fused = origin * (1 + 1e-3 * rng.standard_normal(size))
    return fused, origin


DTYPES = ["float16", "bfloat16", "float32", "float64", "int32", "int8", "uint16", "bool", "float16/float32"]


def _pair(tmp_path: Path, rng: np.random.Generator, shape: tuple[int, ...], dtype: str, kind: str,
          special: bool) -> TensorPair:
    size = math.prod(shape)
    fused, origin = _floats(rng, size, kind)
    arrays = []
    for number, values in enumerate((fused, origin)):
        name = dtype.split("/")[number % len(dtype.split("/"))]
        if name in ("int32", "int8", "uint16", "bool"):
            info = np.iinfo(np.int8 if name == "bool" else name)
            array = np.clip(np.round(values * 3), info.min, info.max).astype(name)
        elif name == "bfloat16":
            single = values.astype(np.float32)
            if special:
                _sprinkle(np.random.default_rng(size + number), single, 2)  # NaN, Inf, -0.0 survive the cut
            array = (single.view(np.uint32) >> 16).astype(np.uint16).view("V2")
        else:
            array = values.astype(name)
            if special:
                _sprinkle(np.random.default_rng(size + number), array, 2)
        arrays.append(array.reshape(shape))
    return open_pair(_save(tmp_path, "f", arrays[0]), _save(tmp_path, "o", arrays[1]))


CASES = [  # shape, block elements, jobs
    ((1,), 97, 1),
    ((2,), 1, 2),
    ((13,), 5, 3),
    ((1000,), 97, 2),
    ((37, 41), 64, 3),
    ((3, 20, 6, 5), 47, 2),
    ((2, 3, 5, 7), 1 << 18, 1),
    ((7, 37, 7), 50, 5),
    ((5, 64, 33), 1000, 2),
]


@pytest.mark.parametrize(("shape", "block", "jobs"), CASES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_native_view_equals_numpy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: tuple[int, ...],
                                  block: int, jobs: int, dtype: str, simd: str) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{shape}{dtype}".encode()))
    for kind, special, top_k in (("noise", False, 7), ("noise", True, 11), ("ties", True, 5), ("constant", False, 3),
                                 ("ties", False, 0)):
        pair = _pair(tmp_path, rng, shape, dtype, kind, special)
        options = ViewOptions(bins=int(rng.choice([1, 2, 16, 256])), top_k=top_k, block_elements=block,
                              max_cells=int(rng.choice([3, 8, 512])), jobs=jobs)
        fast, reference = _both(pair, options, monkeypatch)
        _assert_same_view(fast, reference, pair)


@pytest.mark.parametrize("tile_limit", [1 << 18, 40])  # 40: cell ids from tiles, not separable
@pytest.mark.parametrize("per_job", [1, 8])
def test_axes_layouts_and_segments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tile_limit: int,
                                   per_job: int, simd: str) -> None:
    monkeypatch.setattr(heatmap_grid, "_TILE_LIMIT", tile_limit)
    monkeypatch.setattr(segmented, "SEGMENTS_PER_JOB", per_job)
    rng = np.random.default_rng(7)
    n, c, h, w = 2, 21, 3, 5
    origin = np.round(rng.standard_normal((n, c, h, w)) * 4).astype(np.float16)
    fused = (origin + rng.integers(-1, 2, origin.shape)).astype(np.float16)
    _sprinkle(rng, fused, 2)
    device = to_nc1hwc0(fused, np.full((n, 11, h, w), 1e4, dtype=np.float16))
    infos = LayoutInfo("NC1HWC0", "NCHW", (n, c, h, w)), LayoutInfo("NCHW", "NCHW", (n, c, h, w))
    five_hd = open_pair(_save(tmp_path, "f5", device), _save(tmp_path, "o5", origin), *infos)
    flattened = open_pair(_save(tmp_path, "fl", fused), _save(tmp_path, "ol", origin.reshape(-1)))
    for pair in (five_hd, flattened):
        for axes in (None, HeatmapAxes((0, 1), (2, 3)), HeatmapAxes((3,), (0, 2)), HeatmapAxes((1,), (0,))):
            if axes is not None and max(axes.rows + axes.cols) >= len(pair.shape):
                continue
            options = ViewOptions(bins=32, top_k=9, axes=axes, block_elements=29, max_cells=4, jobs=3)
            fast, reference = _both(pair, options, monkeypatch)
            _assert_same_view(fast, reference, pair)
    wrapped = TensorPair(LazyTensor.plain(fused.reshape(-1)), LazyTensor.plain(origin.reshape(-1)))
    axes = default_axes(wrapped.shape)
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    reference_heat = compute_heatmap(wrapped, axes, 6, block_elements=37, jobs=2)
    monkeypatch.setenv(native.DISABLE_ENV, "")
    _assert_same_heatmap(compute_heatmap(wrapped, axes, 6, block_elements=37, jobs=2), reference_heat, 1e4)


def test_bins_at_their_bounds_are_numpys(simd: str) -> None:
    """Values on and one ulp around every bin bound land where numpy's formula puts them."""
    log = HistogramAccumulator(log_edges(3e-7, 12.5, 64), log_bins=True)
    lower = view_kernel._log_lower(log._origin, log._scale, log.bins)
    bounds = np.concatenate((lower[1:-1], uniform_edges(-2.0, 2.0, 64)))
    values = np.concatenate([bounds, np.nextafter(bounds, np.inf), np.nextafter(bounds, -np.inf),
                             [0.0, -0.0, 5e-324, 1e-310, 1e300, 12.5, 3e-7]])
    fused, origin = values, np.zeros_like(values)  # error == value exactly
    edges = (uniform_edges(-2.0, 2.0, 64), uniform_edges(-2.0, 2.0, 64), uniform_edges(-12.5, 12.5, 64))

    def histograms() -> tuple[HistogramAccumulator, ...]:
        return (*(HistogramAccumulator(edge) for edge in edges),
                HistogramAccumulator(log_edges(3e-7, 12.5, 64), log_bins=True))

    fast, reference = histograms(), histograms()
    codes = view_kernel.type_codes(fused, origin)
    assert codes is not None
    view_kernel.histogram_block(fused, origin, codes, fast)
    with np.errstate(invalid="ignore", over="ignore"):
        for histogram, block in zip(reference, (fused, origin, fused - origin, np.abs(fused - origin)), strict=True):
            histogram.update(block)
    for mine, theirs in zip(fast, reference, strict=True):
        np.testing.assert_array_equal(mine.counts, theirs.counts)
        assert mine.nonfinite == theirs.nonfinite


def test_unsupported_dtypes_take_the_numpy_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    origin = np.arange(60, dtype=">f4").reshape(6, 10)  # big-endian: the kernel does not read it
    fused = origin + np.float32(0.5)
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    assert view_kernel.type_codes(pair.fused.materialize(), pair.origin.materialize()) is None
    fast, reference = _both(pair, ViewOptions(top_k=4, block_elements=16), monkeypatch, native_blocks=False)
    _assert_same_view(fast, reference, pair)


def test_disabled_kernel_is_not_called(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    origin = np.linspace(-1, 1, 300, dtype=np.float32)
    pair = open_pair(_save(tmp_path, "f", origin + np.float32(1e-3)), _save(tmp_path, "o", origin))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the native kernel ran although disabled")

    monkeypatch.setattr(view_kernel, "first_block", refuse)
    monkeypatch.setattr(view_kernel, "histogram_block", refuse)
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    view = compute_tensor_view(pair, replace(ViewOptions(), block_elements=64))
    assert view.fused_stats.elements == 300
