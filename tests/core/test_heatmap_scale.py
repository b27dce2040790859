"""Heatmap colour ranges: a shared value range, a signed error centred at 0, |error| from 0."""

from __future__ import annotations

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision.heatmap import Heatmap, HeatmapAxes
from autofuse_studio.core.precision.heatmap_scale import finite_range, heatmap_scales, signed_error
from autofuse_studio.core.precision.tensor_view import TensorPair, compute_heatmap


def _heatmap(fused: np.ndarray, origin: np.ndarray) -> Heatmap:
    pair = TensorPair(LazyTensor.plain(fused), LazyTensor.plain(origin))
    return compute_heatmap(pair, HeatmapAxes((0,), (1,)), max_cells=8, jobs=1)


def test_constant_bias_is_one_flat_colour_on_a_scale_centred_at_zero() -> None:
    rng = np.random.default_rng(3)
    origin = rng.standard_normal((16, 16))
    heatmap = _heatmap(origin - 0.2, origin)
    scales = heatmap_scales(heatmap)
    low, high = scales.signed_error
    assert low == pytest.approx(-high) and high == pytest.approx(0.2)
    np.testing.assert_allclose(signed_error(heatmap), -0.2, atol=1e-12)  # flat: the bias, not noise
    assert scales.abs_error[0] == 0.0 and scales.abs_error[1] == pytest.approx(0.2)


def test_values_share_one_range_unless_asked_otherwise() -> None:
    origin = np.linspace(0.0, 1.0, 64).reshape(8, 8)
    heatmap = _heatmap(origin * 3.0, origin)
    shared = heatmap_scales(heatmap, shared_values=True)
    assert shared.fused == shared.origin == (0.0, pytest.approx(3.0))
    separate = heatmap_scales(heatmap, shared_values=False)
    assert separate.fused == (0.0, pytest.approx(3.0)) and separate.origin == (0.0, pytest.approx(1.0))


@pytest.mark.parametrize("value", [0.0, 5.0, -2.0])
def test_identical_and_constant_tensors_get_usable_ranges(value: float) -> None:
    tensor = np.full((4, 4), value)
    scales = heatmap_scales(_heatmap(tensor, tensor.copy()))
    for low, high in (scales.fused, scales.origin, scales.signed_error, scales.abs_error):
        assert low < high
    assert scales.signed_error == (-1.0, 1.0) and scales.abs_error == (0.0, 1.0)
    assert scales.fused[0] <= value <= scales.fused[1]


def test_nan_and_inf_do_not_stretch_the_ranges() -> None:
    origin = np.ones((4, 4))
    fused = origin.copy()
    fused[0, 0], fused[1, 1] = np.nan, np.inf
    scales = heatmap_scales(_heatmap(fused, origin))
    assert np.isfinite(scales.abs_error).all() and np.isfinite(scales.signed_error).all()
    assert finite_range(np.array([np.nan, np.inf])) is None
