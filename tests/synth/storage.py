"""What each run stores for a tensor: the graph desc (layout, dtype, device shape) and the NPY array."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tests.synth.dag import Array, Dag, Ref
from tests.synth.evaluate import seeded
from tests.synth.layouts import garbage, nc1hwc0_shape, nz_shape, to_nc1hwc0, to_nz, to_v2
from tests.synth.numerics import NPY_DTYPES

CLOSE, OPEN = "af_close", "af_open"
UNSUPPORTED_LAYOUT = "FRACTAL_ZN_LSTM"


@dataclass(frozen=True)
class Desc:
    """A tensor desc as the graph JSON states it."""

    layout: str
    dtype: str  # float16 | float32 | bfloat16 | int32
    shape: tuple[int, ...]
    origin_format: str
    origin_shape: tuple[int, ...]

    @property
    def loaded_dtype(self) -> str:
        """The dtype a loader sees after decoding (bf16 NPYs become float32 on both sides)."""
        return "float32" if self.dtype == "bfloat16" else self.dtype


def fused_storage(dag: Dag, side: str, ref: Ref) -> str:
    """The af-open storage mode of a fused output; "close" when the tensor is stored like af-close."""
    if side == OPEN and ref.op in dag.group_of:
        return dag.info(ref).open_storage
    return "close"


def desc_of(dag: Dag, side: str, ref: Ref) -> Desc:
    """The desc of `ref` in the graph of `side`."""
    info = dag.info(ref)
    shape, fmt = info.shape, info.origin_format
    storage = fused_storage(dag, side, ref)
    if storage == "close":
        layout = info.close_layout or fmt
        device = nc1hwc0_shape(shape) if layout == "NC1HWC0" else shape
        return Desc(layout, info.dtype, device, fmt, shape)
    table = {
        "plain": (fmt, info.dtype, shape),
        "nc1hwc0": ("NC1HWC0", info.dtype, nc1hwc0_shape(shape) if len(shape) == 4 else shape),
        "nz": ("FRACTAL_NZ", info.dtype, nz_shape(shape)),
        "fp32": (fmt, "float32", shape),
        "flatten": (fmt, info.dtype, (int(np.prod(shape)),)),
        "truncate": (fmt, info.dtype, (*shape[:-1], shape[-1] - 2)),
        "lstm": (UNSUPPORTED_LAYOUT, info.dtype, shape),
        "bad5hd": ("NC1HWC0", info.dtype, shape),
    }
    layout, dtype, device = table[storage]
    return Desc(layout, dtype, device, fmt, shape)


def _npy_dtype(x: Array, dtype: str, side: str) -> Array:
    """Cast to the NPY dtype msaccucmp writes (bf16: float32 on af-close, raw 'V2' on af-open)."""
    if dtype == "bfloat16":
        return to_v2(x) if side == OPEN else x.astype(np.float32)
    return x.astype(NPY_DTYPES[dtype])


def device_array(dag: Dag, side: str, ref: Ref, value: Array, seed: int, step: int) -> Array:
    """The NPY content of `ref` on `side` (device layout, garbage in fused padding)."""
    desc = desc_of(dag, side, ref)
    storage = fused_storage(dag, side, ref)
    rng = seeded(seed, step, f"pad:{side}:{ref.op}:{ref.port}")
    x = value
    if desc.layout == "NC1HWC0" and len(desc.shape) == 5:
        n, c1, h, w, c0 = desc.shape
        pad_count = n * (c1 * c0 - desc.origin_shape[1]) * h * w
        pad = garbage(rng, pad_count, desc.dtype) if storage == "nc1hwc0" else None
        x = to_nc1hwc0(value, pad)
    elif desc.layout == "FRACTAL_NZ":
        x = to_nz(value, garbage(rng, int(np.prod(desc.shape)), desc.dtype))
    elif storage == "flatten":
        x = value.reshape(-1)
    elif storage == "truncate":
        x = value[..., :-2]
    return np.ascontiguousarray(_npy_dtype(x, desc.dtype, side))


def stale_array(array: Array, seed: int, step: int, name: str) -> Array:
    """What an older, stale dump of the same tensor holds: unrelated values of the same shape/dtype."""
    rng = seeded(seed, step, "stale:" + name)
    if array.dtype.kind == "V":
        return rng.integers(0, 2**16, array.shape, dtype=np.uint16).view(array.dtype)
    return (rng.standard_normal(array.shape) * 3.0).astype(array.dtype)
