"""Pairs made from a random origin by one known fault per signature code (issue 31), two-fault pairs and identical ones.

Each case holds the two arrays as stored (float16, bfloat16 values in float32, float32; a wider origin where a
fault needs values the fused dtype cannot hold), their dtype names, the expected code and the params that must
match. Shapes have 1–5 axes, magnitudes 1e-2, 1 and 1e2, tail tiles of several lengths.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DTYPES = ("float16", "bfloat16", "float32")
SHAPES = ((300,), (24, 40), (4, 6, 40), (2, 4, 6, 32), (2, 2, 3, 4, 24))
MAGNITUDES = (1e-2, 1.0, 1e2)
TILES = (1, 4, 8, 16)
STORED = {"float16": np.float16, "bfloat16": np.float32, "float32": np.float32, "float64": np.float64}
WIDER = {"float16": "float32", "bfloat16": "float64", "float32": "float64"}
EPS = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23}
TINY = {"float16": 2.0**-14, "bfloat16": 2.0**-126, "float32": 2.0**-126}
MAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38, "float32": 3.4028234663852886e38}


@dataclass
class Case:
    """A pair and what its signature must be (code None: no signature)."""

    name: str
    fused: np.ndarray
    origin: np.ndarray
    fused_dtype: str
    origin_dtype: str
    code: str | None
    params: dict[str, Any] = field(default_factory=dict)
    parts: tuple[str, ...] = ()  # the codes a mixed signature lists


def to_bf16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even), kept in float32."""
    bits = np.asarray(values, dtype=np.float32).copy().view(np.uint32)
    bits += ((bits >> 16) & 1) + np.uint32(0x7FFF)
    bits &= np.uint32(0xFFFF0000)
    return bits.view(np.float32)


def cast(values: np.ndarray, dtype: str) -> np.ndarray:
    """Values rounded to `dtype`, in its stored form."""
    with np.errstate(over="ignore"):
        if dtype == "bfloat16":
            return to_bf16(np.asarray(values, dtype=np.float32))
        return np.asarray(values).astype(STORED[dtype])


Fault = Callable[[np.random.Generator, np.ndarray, str, float], Case | None]


def _case(name: str, x: np.ndarray, y: np.ndarray, dtype: str, code: str | None,
          params: dict[str, Any] | None = None, origin_dtype: str | None = None) -> Case:
    return Case(name, x, y, dtype, origin_dtype or dtype, code, params or {})


def identical(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    y = cast(base, dtype)
    return _case("identical", y.copy(), y, dtype, None)


def rounding(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    y = cast(base, dtype)
    wobble = base * (1 + rng.uniform(-2, 2, base.shape) * EPS[dtype])  # 2 ulps + the cast's half ulp
    x = cast(wobble, dtype)
    if np.array_equal(x, y):
        x = cast(base * (1 + 2 * EPS[dtype]), dtype)
    return _case("rounding", x, y, dtype, "rounding")


def nonfinite(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    y = cast(base, dtype)
    x = y.copy().reshape(-1)
    where = rng.choice(x.size, size=3, replace=False)
    x[where] = [np.nan, np.inf, -np.inf]
    return _case("nonfinite", x.reshape(y.shape), y, dtype, "nonfinite_introduced", {"count": 3})


def overflow(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    wide = WIDER[dtype]
    y = base.astype(np.float64).reshape(-1)
    where = rng.choice(y.size, size=5, replace=False)
    y[where] = np.sign(rng.standard_normal(5)) * MAX[dtype] * 4
    y = cast(y.reshape(base.shape), wide)
    x = cast(y, dtype)
    return _case("overflow", x, y, dtype, "overflow", {"count": 5}, origin_dtype=wide)


def underflow(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    wide = WIDER[dtype]
    y = base.astype(np.float64).reshape(-1)
    count = max(1, y.size // 20)
    where = rng.choice(y.size, size=count, replace=False)
    y[where] = TINY[dtype] * rng.uniform(0.1, 0.9, count)  # subnormal in the fused dtype
    y = cast(y.reshape(base.shape), wide)
    x = cast(y, dtype).reshape(-1)
    x[where] = 0
    return _case("underflow", x.reshape(base.shape), y, dtype, "underflow", {"count": count}, origin_dtype=wide)


def permutation(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case | None:
    y = cast(base, dtype)
    shape = y.shape
    options: list[tuple[dict[str, Any], np.ndarray]] = []
    for axis, length in enumerate(shape):
        if length >= 2:
            options.append(({"transform": "reverse", "axis": axis}, np.flip(y, axis)))
        if length >= 3:
            s = int(rng.integers(1, length))
            options.append(({"transform": "shift", "axis": axis, "shift": s}, np.roll(y, s, axis)))
    for first in range(len(shape)):
        for second in range(first + 1, len(shape)):
            if shape[first] == shape[second] > 1:
                options.append(({"transform": "swap_axes", "axes": [first, second]}, np.swapaxes(y, first, second)))
    params, x = options[int(rng.integers(len(options)))]
    return _case(f"permutation_{params['transform']}", np.ascontiguousarray(x), y, dtype, "layout_permutation",
                 params)


def _garbage(rng: np.random.Generator, shape: tuple[int, ...], mag: float, dtype: str) -> np.ndarray:
    return cast(rng.standard_normal(shape) * mag * 3 + mag, dtype)


def tail_block(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float, most: float = 1.0) -> Case | None:
    """Garbage in the last tile of an axis (`most`: the largest share of the axis the tile may take)."""
    y = cast(base, dtype)
    axes = [axis for axis, length in enumerate(y.shape) if length > 4]
    axis = int(rng.choice(axes))
    length = y.shape[axis]
    tile = int(rng.choice([t for t in TILES if t < length * most]))
    first = length - tile
    x = y.copy()
    region = [slice(None)] * y.ndim
    region[axis] = slice(first, length)
    x[tuple(region)] = _garbage(rng, x[tuple(region)].shape, mag, dtype)
    return _case("tail_block", x, y, dtype, "tail_block", {"axis": axis, "first_index": first, "tile": tile})


def localised(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case | None:
    y = cast(base, dtype)
    axes = [axis for axis, length in enumerate(y.shape) if length >= 8]
    axis = int(rng.choice(axes))
    length = y.shape[axis]
    count = int(rng.integers(1, 3))
    indices = sorted(int(i) for i in rng.choice(length - 2, size=count, replace=False))  # never the last slice
    x = y.copy()
    region = [slice(None)] * y.ndim
    region[axis] = indices  # type: ignore[call-overload]
    x[tuple(region)] = _garbage(rng, x[tuple(region)].shape, mag, dtype)
    return _case("localised", x, y, dtype, "localised", {"axis": axis, "indices": indices})


def bias(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    y = cast(base, dtype)
    offset = float(rng.choice([-1, 1])) * mag * 0.5
    x = cast(y.astype(np.float64) + offset, dtype)
    return _case("bias", x, y, dtype, "bias", {"offset": offset})


def scale(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    y = cast(base, dtype)
    factor = float(rng.choice([0.5, 2.0, 1 / 3, 1 / 64, 1.5]))
    x = cast(y.astype(np.float64) * factor, dtype)
    return _case("scale", x, y, dtype, "scale", {"factor": factor})


def uncorrelated(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    y = cast(base, dtype)
    x = cast(rng.standard_normal(base.shape) * mag, dtype)
    return _case("uncorrelated", x, y, dtype, "uncorrelated")


def _second(first: Case, extra: Case, name: str, parts: tuple[str, ...]) -> Case:
    return Case(name, extra.fused, first.origin, first.fused_dtype, first.origin_dtype, "mixed", {}, parts)


def mixed(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case | None:
    """Two faults on one pair: a value fault (bias, scale, non-finite, overflow) plus a region (tail, slices)."""
    kind = int(rng.integers(4))
    if kind == 0:  # bias everywhere, garbage in the last tile
        shifted = bias(rng, base, dtype, mag)
        tail = tail_block(rng, shifted.fused.astype(np.float64), dtype, mag, most=0.5)  # the bias is the majority
        assert tail is not None
        return Case("bias+tail", tail.fused, shifted.origin, dtype, dtype, "mixed", {}, ("bias", "tail_block"))
    if kind == 1:  # scale everywhere, a few slices wrong
        scaled = scale(rng, base, dtype, mag)
        local = localised(rng, scaled.fused.astype(np.float64), dtype, mag)
        assert local is not None
        return Case("scale+localised", local.fused, scaled.origin, dtype, dtype, "mixed", {}, ("scale", "localised"))
    if kind == 2:  # NaNs plus a bias
        shifted = bias(rng, base, dtype, mag)
        x = shifted.fused.copy().reshape(-1)
        x[rng.choice(x.size, size=2, replace=False)] = np.nan
        return Case("nonfinite+bias", x.reshape(base.shape), shifted.origin, dtype, dtype, "mixed", {},
                    ("nonfinite_introduced", "bias"))
    over = overflow(rng, base, dtype, mag)
    tail = tail_block(rng, over.fused.astype(np.float64), dtype, mag, most=0.5)
    assert tail is not None
    x = tail.fused
    return Case("overflow+tail", x, over.origin, dtype, over.origin_dtype, "mixed", {}, ("overflow", "tail_block"))


FAULTS: dict[str, Fault] = {
    "identical": identical, "rounding": rounding, "nonfinite_introduced": nonfinite, "overflow": overflow,
    "underflow": underflow, "layout_permutation": permutation, "tail_block": tail_block, "localised": localised,
    "bias": bias, "scale": scale, "uncorrelated": uncorrelated, "mixed": mixed,
}


def cases(fault: str, seed: int = 31) -> Iterator[Case]:
    """Every dtype × shape × magnitude of one fault (a fixed seed per fault, so runs repeat)."""
    rng = np.random.default_rng([seed, sorted(FAULTS).index(fault)])
    for dtype in DTYPES:
        for shape in SHAPES:
            for mag in MAGNITUDES:
                base = rng.standard_normal(shape) * mag
                case = FAULTS[fault](rng, base, dtype, mag)
                if case is not None:
                    case.name = f"{case.name}-{dtype}-{'x'.join(map(str, shape))}-{mag:g}"
                    yield case
