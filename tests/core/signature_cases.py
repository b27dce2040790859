"""Pairs made from a random origin by one known fault per signature code (issue 31), two-fault pairs and identical ones.

Each case holds the two arrays as stored (float16, bfloat16 values in float32, float32; a wider origin where a
fault needs values the fused dtype cannot hold), their dtype names, the expected code and the params that must
match. Shapes have 1–5 axes, magnitudes 1e-2, 1 and 1e2, tail tiles of several lengths, C0 of 8, 16 and 32.
FAULTS is keyed by fault (a code, or c0_blocks: a layout_permutation naming blocks of C0 exchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DTYPES = ("float16", "bfloat16", "float32")
SHAPES = ((300,), (24, 40), (4, 6, 40), (2, 4, 6, 32), (2, 2, 3, 4, 24))
MAGNITUDES = (1e-2, 1.0, 1e2)
TILES: tuple[int, ...] = (1, 4, 8, 16)
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


C0_SIZES = (8, 16, 32)


def _coarser(perm: np.ndarray, c0: int, length: int) -> bool:
    """True when a permutation of c0 blocks also moves whole blocks of a larger C0 (which the check names first)."""
    for bigger in C0_SIZES:
        m = bigger // c0
        if bigger > c0 and length % bigger == 0 and length // bigger >= 2:
            groups = perm.reshape(-1, m)
            if np.all(groups % m == np.arange(m)) and np.all(groups - groups[:, :1] == np.arange(m)):
                return True
    return False


def _block_perm(rng: np.random.Generator, count: int) -> np.ndarray:
    """Two neighbouring blocks exchanged, or a random reordering of 3 or more of them (never a rotation)."""
    while True:
        perm = np.arange(count)
        if count < 4 or rng.integers(2) == 0:
            j = int(rng.integers(count - 1))
            perm[[j, j + 1]] = perm[[j + 1, j]]
        else:
            chosen = np.sort(rng.choice(count, size=int(rng.integers(3, count + 1)), replace=False))
            perm[chosen] = rng.permutation(chosen)
        rotation = any(np.array_equal(perm, np.roll(np.arange(count), k)) for k in range(count))  # k=0: identity
        if not rotation and not np.array_equal(perm, np.arange(count)[::-1]):  # a reversal: named reverse
            return perm


def c0_blocks(rng: np.random.Generator, base: np.ndarray, dtype: str, mag: float) -> Case:
    """Blocks of C0 (8, 16 or 32) exchanged: along the last axis split into >= 3 blocks, or (3+ axes, one in two)
    the C0 vectors of an NC1HWC0-like layout (last axis C0 long) permuted along another axis of 3 or more."""
    c0 = int(rng.choice(C0_SIZES))
    lead = base.shape[:-1]
    along = [axis for axis, length in enumerate(lead) if length >= 3]
    if base.ndim >= 3 and along and rng.integers(2) == 0:
        axis = int(rng.choice(along))
        y = cast(rng.standard_normal((*lead, c0)) * mag, dtype)
        perm = _block_perm(rng, y.shape[axis])
        x = np.ascontiguousarray(np.take(y, perm, axis=axis))
        name = "c0_layout"
    else:
        count = int(rng.integers(3, 7))
        length = count * c0
        y = cast(rng.standard_normal((*lead, length)) * mag, dtype)
        while True:
            perm = _block_perm(rng, count)
            if not _coarser(perm, c0, length):
                break
        axis = y.ndim - 1
        x = np.ascontiguousarray(y.reshape(*lead, count, c0)[..., perm, :].reshape(y.shape))
        name = "c0_last_axis"
    moved = np.flatnonzero(perm != np.arange(perm.size))
    params = {"transform": "c0_blocks", "axis": axis, "c0": c0, "moved": int(moved.size), "count": int(perm.size),
              "blocks": [[int(j), int(perm[j])] for j in moved[:16]]}  # the signature lists 16
    return _case(f"{name}-c0={c0}", x, y, dtype, "layout_permutation", params)


def _garbage(rng: np.random.Generator, shape: tuple[int, ...], mag: float, dtype: str) -> np.ndarray:
    """Finite garbage (clipped to half the dtype's range: at 1e4 in float16 it would overflow to Inf)."""
    values = rng.standard_normal(shape) * mag * 3 + mag
    return cast(np.clip(values, -MAX[dtype] / 2, MAX[dtype] / 2), dtype)


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
    if factor > 1 and factor * float(np.max(np.abs(y))) >= MAX[dtype]:  # a scale, not an overflow
        factor = 1 / factor
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
# Each fault's seed index: the sorted first faults, then the later ones (so adding one changes no other's pairs).
SEED_INDEX = {fault: index for index, fault in enumerate([*sorted(FAULTS), "c0_blocks"])}
FAULTS["c0_blocks"] = c0_blocks


def cases(fault: str, seed: int = 31) -> Iterator[Case]:
    """Every dtype × shape × magnitude of one fault (a fixed seed per fault, so runs repeat)."""
    rng = np.random.default_rng([seed, SEED_INDEX[fault]])
    for dtype in DTYPES:
        for shape in SHAPES:
            for mag in MAGNITUDES:
                base = rng.standard_normal(shape) * mag
                case = FAULTS[fault](rng, base, dtype, mag)
                if case is not None:
                    case.name = f"{case.name}-{dtype}-{'x'.join(map(str, shape))}-{mag:g}"
                    yield case


def matches(case: Case, found: Any) -> bool:
    """True when `found` (a Signature or None) is what the case expects: its code, a mixed one's parts in order,
    and the case's params (floats within 5%)."""
    if case.code is None or found is None:
        return found is None and case.code is None
    if found.code != case.code:
        return False
    if case.code == "mixed":
        return tuple(part["code"] for part in found.params["parts"]) == case.parts
    return all(same(found.params.get(key), value) for key, value in case.params.items())


def same(found: Any, expected: Any) -> bool:
    """A param as expected (floats within 5%)."""
    if isinstance(expected, float):
        return found is not None and bool(np.isclose(found, expected, rtol=0.05))
    return bool(found == expected)
