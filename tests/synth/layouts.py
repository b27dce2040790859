"""Device storage of logical tensors: NC1HWC0 and FRACTAL_NZ with (garbage) padding, bf16 as 'V2'."""

from __future__ import annotations

import math

import numpy as np

from tests.synth.dag import Array
from tests.synth.numerics import bf16_bits

C0 = 16  # cube size for 2- and 4-byte dtypes (GetCubeSizeByDataType)


def nc1hwc0_shape(nchw: tuple[int, ...]) -> tuple[int, ...]:
    """Origin NCHW -> device (N, ceil(C/16), H, W, 16)."""
    n, c, h, w = nchw
    return (n, math.ceil(c / C0), h, w, C0)


def to_nc1hwc0(x: Array, pad: Array | None) -> Array:
    """NCHW -> NC1HWC0; padded channels hold `pad` values (garbage) or zeros."""
    n, c, h, w = x.shape
    c1 = math.ceil(c / C0)
    full = np.zeros((n, c1 * C0, h, w), dtype=x.dtype)
    if pad is not None:
        full[:, c:] = pad.reshape(n, c1 * C0 - c, h, w)
    full[:, :c] = x
    return np.ascontiguousarray(full.reshape(n, c1, C0, h, w).transpose(0, 1, 3, 4, 2))


def nz_shape(nd: tuple[int, ...]) -> tuple[int, ...]:
    """Origin ND (..., H, W) -> device (..., ceil(W/16), ceil(H/16), 16, 16)."""
    *batch, h, w = nd
    return (*batch, math.ceil(w / C0), math.ceil(h / C0), C0, C0)


def to_nz(x: Array, garbage: Array) -> Array:
    """ND (..., H, W) -> FRACTAL_NZ; padded rows/columns hold values from `garbage` (same shape as out)."""
    *batch, h, w = x.shape
    w1, h1 = math.ceil(w / C0), math.ceil(h / C0)
    full = garbage.reshape(*batch, h1 * C0, w1 * C0).astype(x.dtype)
    full[..., :h, :w] = x
    # (..., H1*16, W1*16) -> (..., W1, H1, 16, 16)
    nb = len(batch)
    grid = full.reshape(*batch, h1, C0, w1, C0)
    axes = (*range(nb), nb + 2, nb, nb + 1, nb + 3)
    return np.ascontiguousarray(grid.transpose(axes))


def padding_mask_nc1hwc0(shape: tuple[int, ...], channels: int) -> Array:
    """Boolean mask of the padded (c >= channels) elements of an NC1HWC0 array."""
    c1, c0 = shape[1], shape[4]
    channel = (np.arange(c1)[:, None] * c0 + np.arange(c0)[None, :]).reshape(1, c1, 1, 1, c0)
    return np.broadcast_to(channel >= channels, shape)


def garbage(rng: np.random.Generator, count: int, dtype: str) -> Array:
    """Values a kernel may leave in padding: large, non-zero, never a neutral element."""
    values = rng.uniform(100.0, 900.0, size=count).astype(np.float32)
    return values.astype(np.int32) if dtype == "int32" else values


def to_v2(x: Array) -> Array:
    """bf16 values as a numpy void 'V2' array (what np.save writes for ml_dtypes.bfloat16)."""
    return bf16_bits(x).view(np.dtype("V2"))
