"""Colour ranges of the tensor heatmaps, chosen so that colours mean the same thing from panel to panel.

* fused and origin values: one shared range by default (the same colour is the same value on both
  sides), or each side its own;
* signed error (cell mean of fused − cell mean of origin): symmetric around 0, so 0 is the middle
  colour of a diverging map and a constant bias shows as one flat colour, not as noise;
* |error| (cell maximum): from 0 to the largest error, so equal errors look equal and small ones dark.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.precision.heatmap import Heatmap

Levels = tuple[float, float]


@dataclass(frozen=True)
class HeatmapScales:
    """The (low, high) colour range of each heatmap panel."""

    fused: Levels
    origin: Levels
    signed_error: Levels
    abs_error: Levels


def finite_range(*arrays: np.ndarray) -> Levels | None:
    """(min, max) over the finite values of all arrays, or None when there are none."""
    finite = [array[np.isfinite(array)] for array in arrays]
    finite = [values for values in finite if values.size]
    if not finite:
        return None
    return float(min(values.min() for values in finite)), float(max(values.max() for values in finite))


def _widen(levels: Levels | None, fallback: Levels = (0.0, 1.0)) -> Levels:
    """A usable range: a constant value gets ±0.5 around it (or ±|value|/2), nothing gets `fallback`."""
    if levels is None:
        return fallback
    low, high = levels
    if high > low:
        return low, high
    half = abs(low) / 2 or 0.5
    return low - half, high + half


def signed_error(heatmap: Heatmap) -> np.ndarray:
    """Per cell: mean of the fused values − mean of the origin values (NaN where either mean is missing)."""
    with np.errstate(invalid="ignore"):
        difference: np.ndarray = heatmap.fused - heatmap.origin
    return difference


def heatmap_scales(heatmap: Heatmap, shared_values: bool = True) -> HeatmapScales:
    """Colour ranges of the four panels (see the module docstring)."""
    fused, origin = finite_range(heatmap.fused), finite_range(heatmap.origin)
    if shared_values:
        both = _widen(finite_range(heatmap.fused, heatmap.origin))
        fused_levels = origin_levels = both
    else:
        fused_levels, origin_levels = _widen(fused), _widen(origin)
    signed = finite_range(signed_error(heatmap))
    bound = max(abs(signed[0]), abs(signed[1])) if signed is not None else 0.0
    abs_range = finite_range(heatmap.abs_error)
    largest = abs_range[1] if abs_range is not None else 0.0
    return HeatmapScales(
        fused=fused_levels, origin=origin_levels,
        signed_error=(-bound, bound) if bound > 0 else (-1.0, 1.0),
        abs_error=(0.0, largest) if largest > 0 else (0.0, 1.0),
    )
