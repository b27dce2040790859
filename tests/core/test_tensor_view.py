"""Tensor view: stats equal numpy's, histograms sum to element counts, top-K equals a brute-force sort."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.errors import Cancelled, InputError
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.core.precision.tensor_view import (
    TensorPair,
    ViewOptions,
    compute_tensor_view,
    open_pair,
    open_row,
    view_files,
)
from autofuse_studio.core.progress import CancelToken
from tests.synth.layouts import to_nc1hwc0


def _save(tmp_path: Path, name: str, array: np.ndarray) -> Path:
    path = tmp_path / f"{name}.npy"
    np.save(path, array)
    return path


def _pair_arrays(shape: tuple[int, ...], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    origin = rng.standard_normal(shape).astype(np.float32)
    fused = (origin + rng.normal(0, 1e-3, shape)).astype(np.float32)
    flat_f, flat_o = fused.reshape(-1), origin.reshape(-1)
    if flat_f.size >= 8:
        flat_f[1], flat_o[3], flat_f[5], flat_o[5] = np.nan, np.inf, -np.inf, np.nan
        flat_f[-1] = 50.0  # one spike
    return fused, origin


def _brute_top(fused: np.ndarray, origin: np.ndarray, k: int) -> list[int]:
    with np.errstate(invalid="ignore"):
        key = np.abs(fused.astype(np.float64).reshape(-1) - origin.astype(np.float64).reshape(-1))
    key[np.isnan(key)] = np.inf
    return [int(i) for i in np.lexsort((np.arange(key.size), -key))[:k]]


def _check_view(fused: np.ndarray, origin: np.ndarray, pair: TensorPair, block: int = 97) -> None:
    view = compute_tensor_view(pair, ViewOptions(bins=32, top_k=7, block_elements=block, max_cells=8))
    for stats, array in ((view.fused_stats, fused), (view.origin_stats, origin)):
        values = array.astype(np.float64).reshape(-1)
        finite = values[np.isfinite(values)]
        assert stats.elements == values.size
        assert stats.nan == np.isnan(values).sum()
        assert stats.inf == np.isinf(values).sum()
        np.testing.assert_allclose([stats.min, stats.max, stats.mean, stats.std],
                                   [finite.min(), finite.max(), finite.mean(), finite.std()], rtol=1e-9, atol=1e-12)
    for histogram in (view.fused_histogram, view.origin_histogram, view.error_histogram, view.abs_error_histogram):
        assert histogram.counts.dtype == np.int64
        assert histogram.total == fused.size
    np.testing.assert_array_equal(view.fused_histogram.edges, view.origin_histogram.edges)
    assert [top.flat_index for top in view.top] == _brute_top(fused, origin, 7)
    first = view.top[0]
    assert first.index == tuple(int(i) for i in np.unravel_index(first.flat_index, fused.shape))
    assert int(view.heatmap.elements.sum()) == fused.size


@pytest.mark.parametrize("shape", [(1,), (13,), (1000,), (37, 41), (2, 3, 5, 7), (3, 20, 6, 5)])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_plain_pairs_match_numpy(tmp_path: Path, shape: tuple[int, ...], dtype: type) -> None:
    fused, origin = (array.astype(dtype) for array in _pair_arrays(shape))
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    _check_view(fused, origin, pair)


def test_bf16_v2_pair(tmp_path: Path) -> None:
    fused, origin = _pair_arrays((6, 50))
    bits = [(array.view(np.uint32) >> 16).astype(np.uint16) for array in (fused, origin)]
    decoded = [(b.astype(np.uint32) << 16).view(np.float32) for b in bits]
    pair = open_pair(_save(tmp_path, "f", bits[0].view("V2")), _save(tmp_path, "o", bits[1].view("V2")))
    assert pair.fused.dtype_name == "bfloat16"
    _check_view(decoded[0], decoded[1], pair)


def test_int_pair_exact(tmp_path: Path) -> None:
    origin = np.arange(-500, 500, dtype=np.int32).reshape(10, 100)
    fused = origin.copy()
    fused[4, 7] += 3
    pair = open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin))
    view = compute_tensor_view(pair, ViewOptions(top_k=3, block_elements=64))
    assert view.fused_stats.dtype == "int32"
    assert view.top[0].index == (4, 7) and view.top[0].error == 3.0
    assert view.abs_error_histogram.counts[0] == origin.size - 1  # bin 0 holds the exact zeros


def test_5hd_padding_is_cropped(tmp_path: Path) -> None:
    n, c, h, w = 2, 20, 3, 4
    fused, origin = _pair_arrays((n, c, h, w), seed=3)
    garbage = np.full((n, 12, h, w), 1e30, dtype=np.float32)  # padding a missing crop would expose
    device = to_nc1hwc0(fused, garbage)
    fused_info = LayoutInfo("NC1HWC0", "NCHW", (n, c, h, w))
    origin_info = LayoutInfo("NCHW", "NCHW", (n, c, h, w))
    pair = open_pair(_save(tmp_path, "f", device), _save(tmp_path, "o", origin), fused_info, origin_info)
    assert pair.shape == (n, c, h, w) and pair.layout == "NCHW"
    assert pair.axis_names() == ["N", "C", "H", "W"]
    _check_view(fused, origin, pair, block=50)


def test_open_row_and_errors(tmp_path: Path) -> None:
    fused_path = _save(tmp_path, "f", np.zeros((4, 4), np.float32))
    other = _save(tmp_path, "o", np.zeros(5, np.float32))
    row = PrecisionRow(OUTPUT, "fused", 0, "orig", 0, "OK", fused_file=str(fused_path), origin_file=str(fused_path))
    assert open_row(row).shape == (4, 4)
    with pytest.raises(InputError, match="16 elements"):
        open_pair(fused_path, other)
    with pytest.raises(InputError, match="no fused/origin file"):
        open_row(PrecisionRow(OUTPUT, "fused", 0, None, None, "NO_MAPPING"))


def test_progress_and_cancel(tmp_path: Path) -> None:
    fused, origin = _pair_arrays((40, 40))
    paths = _save(tmp_path, "f", fused), _save(tmp_path, "o", origin)
    reports: list[tuple[int, int]] = []
    view_files(*paths, options=ViewOptions(block_elements=100), progress=lambda d, t, m="": reports.append((d, t)))
    assert reports[-1] == (3200, 3200)
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        view_files(*paths, cancel=token)


def test_all_nan_side(tmp_path: Path) -> None:
    fused = np.full((3, 3), np.nan, dtype=np.float32)
    origin = np.ones((3, 3), dtype=np.float32)
    view = compute_tensor_view(open_pair(_save(tmp_path, "f", fused), _save(tmp_path, "o", origin)))
    assert view.fused_stats.nan == 9 and np.isnan(view.fused_stats.mean)
    assert view.error_nonfinite == 9 and view.error_histogram.total == 9
    assert np.isinf(view.heatmap.abs_error).all()
