"""Kernels of the original op types and dtype rounding (fp16, bf16, int32) in numpy float32."""

from __future__ import annotations

import numpy as np

from tests.synth.dag import Array, Kernel

# Relative noise of a fused kernel that computes in higher precision (one fp16 ulp is 2**-11).
FUSED_NOISE = 2.0**-12

NPY_DTYPES = {"float16": np.float16, "float32": np.float32, "int32": np.int32}
GE_DTYPES = {"float16": "DT_FLOAT16", "float32": "DT_FLOAT", "bfloat16": "DT_BF16", "int32": "DT_INT32"}


def binary(fn: str) -> Kernel:
    """Kernel applying a numpy binary ufunc (broadcasting) to inputs 0 and 1."""
    ufunc = getattr(np, fn)
    return lambda xs: np.asarray(ufunc(xs[0], xs[1]), dtype=np.float32)


def unary(fn: str) -> Kernel:
    """Kernel applying a numpy unary ufunc to input 0."""
    ufunc = getattr(np, fn)
    return lambda xs: np.asarray(ufunc(xs[0]), dtype=np.float32)


def relu() -> Kernel:
    """max(x, 0)."""
    return lambda xs: np.maximum(xs[0], np.float32(0))


def identity() -> Kernel:
    """Cast/Reshape-like kernels: the value is unchanged (rounding comes from the output dtype)."""
    return lambda xs: xs[0].astype(np.float32)


def reshape(shape: tuple[int, ...]) -> Kernel:
    """Reshape input 0."""
    return lambda xs: xs[0].reshape(shape).astype(np.float32)


def transpose() -> Kernel:
    """Swap the last two axes."""
    return lambda xs: np.ascontiguousarray(np.swapaxes(xs[0], -1, -2))


def reduce_sum() -> Kernel:
    """Sum over the last axis, keepdims."""
    return lambda xs: xs[0].sum(axis=-1, keepdims=True, dtype=np.float32)


def conv1x1() -> Kernel:
    """1x1 Conv2D: out[n,k,h,w] = sum_c w[k,c] * x[n,c,h,w] (x NCHW, w [K, C])."""
    return lambda xs: np.einsum("kc,nchw->nkhw", xs[1], xs[0]).astype(np.float32)


def bf16_bits(x: Array) -> Array:
    """Round float32 values to bf16 (nearest even) and return the 16-bit patterns as uint16."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    rounded = bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    return (rounded >> np.uint32(16)).astype(np.uint16)


def bf16_to_float32(bits: Array) -> Array:
    """Expand bf16 bit patterns (uint16) back to float32."""
    widened: Array = bits.astype(np.uint32) << np.uint32(16)
    return widened.view(np.float32)


def quantize(x: Array, dtype: str) -> Array:
    """What an op output of `dtype` holds, as float32 (or int32 for int32)."""
    if dtype == "float16":
        return x.astype(np.float16).astype(np.float32)
    if dtype == "bfloat16":
        return bf16_to_float32(bf16_bits(x))
    if dtype == "int32":
        truncated: Array = np.trunc(x)
        return truncated.astype(np.int32)
    return x.astype(np.float32)


def add_noise(x: Array, rng: np.random.Generator) -> Array:
    """Legitimate fused-kernel noise: a relative error of about one fp16 rounding step."""
    if x.dtype.kind not in "fc" or x.size == 0:
        return x
    noise: Array = rng.standard_normal(x.shape, dtype=np.float32) * np.float32(FUSED_NOISE)
    return (x * (np.float32(1) + noise)).astype(np.float32)


def cosine(a: Array, b: Array) -> float:
    """Cosine of two equally sized tensors in float64, over positions where both are finite."""
    x = a.astype(np.float64).ravel()
    y = b.astype(np.float64).ravel()
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    denom = float(np.linalg.norm(x) * np.linalg.norm(y))
    if denom == 0.0:
        return 1.0 if not (x.any() or y.any()) else 0.0
    return float(np.dot(x, y) / denom)


def wrong_constant(value: Array, reference: Array, target: float) -> float:
    """The bias error delta such that cosine(value + delta, reference) is about `target`.

    Why bisection: cosine falls monotonically when delta has the opposite sign of the mean.
    """
    sign = -1.0 if float(np.nanmean(value.astype(np.float64))) > 0 else 1.0
    scale = float(np.nanstd(value.astype(np.float64))) + 1e-3
    lo, hi = 0.0, scale
    while cosine(value + np.float32(sign * hi), reference) > target and hi < 1e6:
        hi *= 2.0
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if cosine(value + np.float32(sign * mid), reference) > target:
            lo = mid
        else:
            hi = mid
    return sign * hi
