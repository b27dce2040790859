"""Heatmap pooling: cell ids equal a brute-force mapping, max-pooling keeps a single spike visible."""

from __future__ import annotations

import math

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.precision import heatmap_grid
from autofuse_studio.core.precision.heatmap import CellMapper, HeatmapAxes, check_axes, default_axes, grid_shape
from autofuse_studio.core.precision.tensor_view import TensorPair, compute_heatmap


def _brute_cells(shape: tuple[int, ...], axes: HeatmapAxes, mapper: CellMapper) -> np.ndarray:
    grid = grid_shape(shape, axes)
    index = np.unravel_index(np.arange(math.prod(shape)), grid)
    rows = np.ravel_multi_index(tuple(index[a] for a in axes.rows), tuple(grid[a] for a in axes.rows))
    cols = np.ravel_multi_index(tuple(index[a] for a in axes.cols), tuple(grid[a] for a in axes.cols))
    return (rows // mapper.row_step) * mapper.cells[1] + cols // mapper.col_step


@pytest.mark.parametrize(("shape", "axes"), [
    ((6, 7), HeatmapAxes((0,), (1,))),
    ((6, 7), HeatmapAxes((1,), (0,))),
    ((2, 3, 5, 7), HeatmapAxes((0, 1), (2, 3))),
    ((2, 3, 5, 7), HeatmapAxes((3, 0), (1,))),
    ((4, 3, 5, 2), HeatmapAxes((2,), (3, 1))),
    ((101,), HeatmapAxes((0,), (1,), wrap=11)),
])
@pytest.mark.parametrize("tile_limit", [1, 6, 35, 1 << 18])  # 35: rows outside the tile, columns in it
@pytest.mark.parametrize("block", [13, 80])
def test_cell_ids_match_brute_force(shape: tuple[int, ...], axes: HeatmapAxes, tile_limit: int, block: int,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heatmap_grid, "_TILE_LIMIT", tile_limit)
    mapper = CellMapper(shape, axes, max_cells=4)
    expected = _brute_cells(shape, axes, mapper)
    size = math.prod(shape)
    got = np.concatenate([mapper.cell_ids(start, min(block, size - start)) for start in range(0, size, block)])
    np.testing.assert_array_equal(got, expected)
    # The cells a range of flat indices can fall into bound the ones it does (segments' heatmaps).
    for start in range(0, size, 7):
        for stop in range(start + 1, size + 1, 11):
            low, high = mapper.cell_range(start, stop)
            assert 0 <= low <= expected[start:stop].min() and expected[start:stop].max() < high <= (
                mapper.cells[0] * mapper.cells[1])


def test_separable_mapping_is_used_for_the_usual_axes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert CellMapper((61, 64, 160, 160), HeatmapAxes((0, 1), (2, 3)), 512).separable
    monkeypatch.setattr(heatmap_grid, "_TILE_LIMIT", 35)
    assert CellMapper((2, 3, 5, 7), HeatmapAxes((0, 1), (2, 3)), 4).separable
    assert not CellMapper((2, 3, 5, 7), HeatmapAxes((3, 0), (1,)), 4).separable


def test_default_axes() -> None:
    assert default_axes((2, 16, 8, 8), "NCHW") == HeatmapAxes((0, 1), (2, 3))
    assert default_axes((2, 8, 8, 16), "NHWC") == HeatmapAxes((0, 3), (1, 2))
    assert default_axes((5, 9)) == HeatmapAxes((0,), (1,))
    assert default_axes((4, 5, 6)) == HeatmapAxes((0, 1), (2,))
    assert default_axes((100,)) == HeatmapAxes((0,), (1,), wrap=10)
    with pytest.raises(UsageError):
        check_axes((2, 3), HeatmapAxes((0,), (0,)))
    with pytest.raises(UsageError):
        check_axes((2, 3), HeatmapAxes((0,), (2,)))


def test_max_pooling_keeps_a_single_spike() -> None:
    origin = np.zeros((2000, 3000), dtype=np.float32)
    fused = origin.copy()
    fused[1234, 2345] = 1e-3
    pair = TensorPair(LazyTensor.plain(fused), LazyTensor.plain(origin))
    heat = compute_heatmap(pair, HeatmapAxes((0,), (1,)), max_cells=100, block_elements=1 << 16)
    assert heat.cells == (100, 100) and heat.row_step == 20 and heat.col_step == 30
    assert np.count_nonzero(heat.abs_error) == 1
    cell = np.unravel_index(int(np.argmax(heat.abs_error)), heat.cells)
    info = heat.cell_info(*cell)
    assert info is not None and info.index == (1234, 2345)
    assert info.fused == pytest.approx(1e-3) and info.origin == 0.0
    assert info.rows[0] <= 1234 < info.rows[1] and info.cols[0] <= 2345 < info.cols[1]
    assert info.elements == 600
    assert heat.cell_info(100, 0) is None


def test_reduced_axes_and_means() -> None:
    origin = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4)
    fused = origin + 1
    pair = TensorPair(LazyTensor.plain(fused), LazyTensor.plain(origin))
    heat = compute_heatmap(pair, HeatmapAxes((2,), (1,)))  # axis 0 is reduced
    assert heat.cells == (4, 3)
    np.testing.assert_allclose(heat.origin, origin.mean(axis=0).T)
    np.testing.assert_allclose(heat.fused, origin.mean(axis=0).T + 1)
    np.testing.assert_array_equal(heat.elements, np.full((4, 3), 2))
    info = heat.cell_info(1, 2)
    assert info is not None and info.index == (0, 2, 1)  # ties: the smallest flat index wins
