"""Name what kind of error a failing pair holds (issue 31): overflow, layout permutation, tail block, bias, ….

`signature(fused, origin, fused_dtype, origin_dtype)` looks at the two tensors as the metrics see them (same
layout and element count, see pair.prepare_pair) and returns a Signature, or None when they are identical (or
bigger than MAX_ELEMENTS, which are not examined: the cost stays bounded and signatures run for failing rows only).

Tolerance. An element differs when |fused - origin| > tol with
    tol = ROUNDING_ULPS * eps * max(|fused|, |origin|) + ROUNDING_ULPS * min_subnormal
where eps and min_subnormal are those of the lower-precision dtype of the two (the one with the larger eps).

Checks, in this fixed order (each later check looks only at what the earlier ones left unexplained):
 1. nonfinite_introduced — fused NaN/±Inf where the origin is finite (and not an overflow, check 2);
 2. overflow — fused ±Inf or ±max of the fused dtype where |origin| exceeds that max;
 3. underflow — fused exact zero where the origin lies in the fused dtype's subnormal range (flushed);
 4. layout_permutation — (only when 1–3 found nothing) the sorted values agree within tol, positions do not;
    the transform is named when it is two axes swapped, an axis reversed, a shift along an axis or blocks of
    C0 exchanged (see _c0_blocks: the last axis's C0 blocks reordered, or a C0 layout's vectors along one axis);
    with the _transform extension (_transform.c) the candidates are tested in C, each to its first wrong element;
 5. tail_block — the differing elements all lie in the range [first, n) of one axis, first > 0 (at least
    TAIL_MIN_DENSITY of those slices wrong);
 6. localised — they all lie in at most a quarter of the slices of one axis;
 7. bias — fused - origin minus its median is within tol everywhere (or everywhere outside a region that
    checks 5–6 name: then bias plus that region); the median is the model sample's (MODEL_SAMPLE elements
    spread over the tensor), the fit is counted on every element;
 8. scale — fused - k*origin is within tol everywhere (same rule), k the median ratio on the model sample,
    |k - 1| > ROUNDING_ULPS*eps;
 9. uncorrelated — the Pearson correlation (on CORRELATION_SAMPLE elements spread the same way) is below
    UNCORRELATED_R (or, on few elements, within UNCORRELATED_SIGMAS standard errors 1/sqrt(n) of zero);
10. unclassified — differences beyond rounding that none of the above describes.
When nothing differs beyond tol the code is `rounding` (benign); when more than one check fires, `mixed` with
params {"parts": [{"code", "params"}, …]}.

Native path (signature_native.py, _kernel.c), same answers as numpy's. classify() makes one kernel call,
sign_classify (the GIL released), and builds the Signature from its compact tuple. The call sweeps the raw
values once (af_sign_survey's sweep): identical or not, the counts and first indices of checks 1–3, the count of
the elements they leave unexplained (rest) and on which indices of each axis those lie, the rounding params and
the extremes. When rest is not empty and checks 1–3 found nothing, the permutation gate is decided from those
extremes (af_sign_gate's sums only when they agree); when it may hold (or its sums are too close to call: the
kernel's summation order is not numpy's) numpy's permutation search runs on the pair as is, then the kernel
again without the gate. Then the marks name the region (checks 5–6); without a region, the value models'
stages run on the model sample classified once (the same medians, fits and regions as numpy's; the whole pass of
a model four elements at a time) and the correlation sample is gathered (and centred, when the kernel's pairwise
sum is numpy's): numpy's dots compute the correlation (their summation order is BLAS's), and only `unclassified`
makes a second call, for its median relative error.
A NaN among a median's values sends the pair to numpy's _classify. Big pairs: af_sign_scan replaces
array_equal, _special and _candidates with one sweep (in vectors, a float64 side too) that stops testing the
candidates' tolerance beyond SCAN_CANDIDATES of them (af_sign_whole lists them all when the sample shows nothing
beyond rounding), and when it finds neither a special value nor a candidate the answer is rounding at once (the
sample could hold no differing element); a pair whose whole the C search finds moved bit for bit by a transform
that maps the grid onto itself is named without classifying the grid (_closed_search: the same answer). Without
the kernel (AUTOFUSE_STUDIO_NO_NATIVE=1) numpy does all of it; tests/core/test_signature_native.py holds the two
equal.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.native_switch import load_extension, native_disabled
from autofuse_studio.core.precision import signature_native
from autofuse_studio.core.precision.signature_native import Whole

# "A few units of rounding": a fused kernel rounds each operand and its accumulation, so several half-ulps add
# up; 4 ulps of the lower-precision dtype is the allowance (half an ulp is the best a single cast can do).
ROUNDING_ULPS = 4.0
# Tensors above this are not examined (4M elements: 16 MB per float32 side, the size pair.READ_BELOW_BYTES reads
# whole; 3-100 ms of numpy work per pair, tests/bench/test_bench_signature.py).
MAX_ELEMENTS = 4 << 20
# Bigger tensors (above WHOLE_ELEMENTS) are examined on a grid of SAMPLE_ELEMENTS: whole short axes, evenly spaced
# indices (first and last kept) of the longest ones; params then say "sampled": true (counts are the sample's) and a
# tail's first index is found again on the whole tensor. A few fused NaN/Inf/max values join the grid (_special);
# when the sample shows nothing beyond rounding, the elements a cheap whole pass finds (_candidates) join it (sparse
# errors fall between the grid's points). 64K elements: a few ms of numpy, about one metrics pass of 4M elements.
SAMPLE_ELEMENTS = 1 << 16
# Pairs up to this size are classified whole all the same: there the grid would hold half the pair, and its fixed
# costs (the first whole sweep, the grid's copy, the slices' surveys) made the sampled path dearer than the whole
# one (tests/bench/test_bench_signature.py at 100K: tail_block, underflow, localised 1.6-2.2x sampled, 1.2-1.6x whole).
WHOLE_ELEMENTS = 2 * SAMPLE_ELEMENTS
# When the sample shows nothing beyond rounding, a pass over the whole tensors marks the elements beyond
# CANDIDATE_SHARE of the tolerance (a superset of classify's) and the grid gains their indices on every axis; up to
# AUGMENTED_ELEMENTS that grid is classified, beyond it the whole tensors are.
CANDIDATE_SHARE = 0.9
AUGMENTED_ELEMENTS = 4 * SAMPLE_ELEMENTS
# A big pair's first sweep (af_sign_scan) stops looking for candidates once it found more than this many (a dense
# error, which the sample grid sees); up to this many it lists them all, and a sample that shows nothing beyond
# rounding takes them from there (more: af_sign_whole's sweep lists them).
SCAN_CANDIDATES = 1024
# Up to this many fused NaN/Inf/max values join the sample grid of a big pair (more: the sample sees them anyway).
MAX_SPECIAL = 256
# The whole-tensor candidate pass works on chunks of this many elements (1 MB of float32 per temporary).
CHUNK_ELEMENTS = 1 << 18
# "Near zero" correlation: |r| < 0.1 means the origin explains under 1% (r^2) of the fused variance. On few
# elements independent values correlate by chance (r's standard error is 1/sqrt(n)): below UNCORRELATED_SIGMAS
# standard errors r is near zero too (above 900 elements the 0.1 decides).
UNCORRELATED_R = 0.1
UNCORRELATED_SIGMAS = 3.0
# What a sample of a permuted big pair may look like: then the whole tensors are checked for a permutation.
PERMUTATION_LOOKALIKES = ("uncorrelated", "unclassified", "tail_block", "localised", "layout_permutation")
# "A few slices": the localised error covers at most this share of one axis's slices.
LOCALISED_MAX_SHARE = 0.25
# A value model (bias, scale) next to a region: it must fit at least this share of the elements.
MODEL_MAJORITY = 0.5
# The value models' estimates (the medians of checks 7-8) come from a sample of about this many elements: the
# flat positions 0, s, 2s, … with s the least step >= size / MODEL_SAMPLE that shares no factor with the
# innermost axis longer than 1 (so the positions run through all its indices, not one column, and s is no
# multiple of a row of any length). A median of 1024 values sits within a few
# hundredths of the spread of its population, well inside the rounding band a bias or scale must fit (whether
# it fits is counted on every element). The correlation (check 9) takes a sample of CORRELATION_SAMPLE the same
# way: r's standard error is 1/64 there (on 1024 elements, 1/32, a few garbage pairs came out above 0.1).
MODEL_SAMPLE = 1024
CORRELATION_SAMPLE = 4096
# When more than this share of the sample's positions are off a value model, the model does not fit (it fits
# only on at least MODEL_MAJORITY of all elements): the count over every element is skipped.
MODEL_REJECT = 0.75
# A tail tile of garbage may hold a few values that happen to match: the tail's slices must be at least this
# share wrong (3 in 4), so two wrong slices near the end with a good one between stay `localised`.
TAIL_MIN_DENSITY = 0.75
# How many indices a localised signature lists.
MAX_LISTED = 16
# C0, the innermost block of Ascend's NC1HWC0 and fractal layouts: 32 bytes of the dtype (16 for fp16/bf16, 8 for
# fp32) and 32 (int8, or two fp16 blocks); the permutation check looks for blocks of these exchanged, largest first.
C0_SIZES = (32, 16, 8)
# A block permutation is looked for on this many rows (evenly spaced) before the whole check, and on at most this
# many blocks along the axis (blocks² candidate comparisons per probe: 256K at 512).
BLOCK_PROBES = 4
MAX_BLOCKS = 512
# A named transform (reverse, swap, shift) is tried on this many random positions before the whole check; the
# shifts (every one along every axis) on FIRST_PROBES of them first, which leave few to try on the others.
PROBES = 64
FIRST_PROBES = 8
# An unknown order is checked on the sorted values (_sorted_match); a sorted rank beyond the least tol it can have
# is decided by the tol at the positions holding its origin value, one pass each: up to this many ranks, beyond
# them (or with ties too close to call) the argsort check decides as before.
SORTED_RANKS = 16
# The named transforms in C (_transform.c): each candidate stops at its first wrong element, so the right one costs
# about one pass and the wrong ones a few elements; numpy's search below gives the same answers without it.
_TRANSFORM = load_extension("autofuse_studio.core.precision._transform", "the transforms are searched in numpy",
                            logging.getLogger(__name__))
_TRANSFORM_DTYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))
# _native_transform's answer: the winner's params (None: no named transform), whether it moved every value bit for
# bit, and a C0 winner's sources of the blocks (perm[j]: the origin block fused block j holds).
Searched = tuple[dict[str, Any] | None, bool, tuple[int, ...] | None]
# A big pair whose whole is a bitwise permutation mapping the grid onto itself skips the grid's classify when one of
# the grid's first this many points differs beyond tol (_closed_search; else the classify decides, as before).
GRID_PROBES = 4096
# Up to this many elements _closed_search's look for flushed zeros reads the whole pair (a superset of the grid's, a
# few µs); beyond it the grid's points only (a bounded cost).
WHOLE_FLUSHED = 4 * SAMPLE_ELEMENTS


@dataclass(frozen=True)
class DtypeLimits:
    """What a dtype can hold: spacing at 1, smallest normal and subnormal, largest finite value."""

    eps: float
    tiny: float
    min_subnormal: float
    max: float


def _float_limits(dtype: type[np.floating[Any]]) -> DtypeLimits:
    info = np.finfo(dtype)
    return DtypeLimits(float(info.eps), float(info.tiny), float(info.smallest_subnormal), float(info.max))


# bfloat16 has float32's exponent and 8 significant bits (ml_dtypes-free constants).
_BF16 = DtypeLimits(eps=2.0**-7, tiny=2.0**-126, min_subnormal=2.0**-133, max=(2 - 2.0**-7) * 2.0**127)
_INTEGER = DtypeLimits(eps=0.0, tiny=0.0, min_subnormal=0.0, max=math.inf)  # integers are exact, never overflow
LIMITS: dict[str, DtypeLimits] = {
    "float16": _float_limits(np.float16), "bfloat16": _BF16, "float32": _float_limits(np.float32),
    "float64": _float_limits(np.float64),
}


def dtype_limits(name: str) -> DtypeLimits:
    """The limits of a dtype name as pair results report it (integers exact; unknown names as float32)."""
    if name in LIMITS:
        return LIMITS[name]
    if name.startswith(("int", "uint", "bool")):
        return _INTEGER
    return LIMITS["float32"]


@dataclass(frozen=True)
class Signature:
    """What kind of error a pair holds: a code, how sure, its parameters (JSON-friendly) and an English sentence."""

    code: str
    confidence: float
    params: dict[str, Any] = field(default_factory=dict)
    sentence: str = ""

    def as_dict(self) -> dict[str, Any]:
        """{code, confidence, params, sentence} for JSON."""
        return {"code": self.code, "confidence": self.confidence, "params": self.params, "sentence": self.sentence}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Signature:
        """The inverse of as_dict."""
        return Signature(str(data["code"]), float(data["confidence"]), dict(data.get("params") or {}),
                         str(data.get("sentence") or ""))


Finding = tuple[str, dict[str, Any]]


def signature(fused: LazyTensor, origin: LazyTensor, fused_dtype: str, origin_dtype: str) -> Signature | None:
    """The signature of a pair prepared by pair.prepare_pair; None when identical or above MAX_ELEMENTS."""
    size = fused.size
    if size != origin.size or size == 0 or size > MAX_ELEMENTS:
        return None
    y_all = origin.materialize().reshape(origin.shape)
    x_all = fused.materialize().reshape(origin.shape)
    if size <= WHOLE_ELEMENTS:
        return classify(x_all, y_all, fused_dtype, origin_dtype)
    return _sampled(x_all, y_all, fused_dtype, origin_dtype)


def _grid(shape: tuple[int, ...]) -> list[np.ndarray]:
    """Per axis the indices of the sample grid: halve the longest axis until the grid holds SAMPLE_ELEMENTS."""
    return list(_shape_grid(shape))


@functools.lru_cache(maxsize=64)
def _shape_grid(shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """_grid's indices, worked out once per shape (read-only arrays: a fixed cost of every big pair)."""
    kept = list(shape)
    while math.prod(kept) > SAMPLE_ELEMENTS:
        axis = int(np.argmax(kept))
        kept[axis] = max(2, kept[axis] // 2)
    grid = tuple(_sorted_unique(np.linspace(0, length - 1, count).round().astype(np.int64))
                 for length, count in zip(shape, kept, strict=True))
    for indices in grid:
        indices.setflags(write=False)
    return grid


def _on_grid(flat: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether one of the flat indices lies on the shape's sample grid (each coordinate among its axis's); only
    the coordinates along the axes the grid thins are worked out."""
    on: np.ndarray | None = None
    outer, stride = 1, math.prod(shape)
    for kept, length in zip(_grid_masks(shape), shape, strict=True):
        stride //= length
        if kept is not None:
            coords = flat // stride
            if outer > 1:
                coords %= length
            on = kept[coords] if on is None else on & kept[coords]
        outer *= length
    return bool(flat.size) if on is None else bool(on.any())


@functools.lru_cache(maxsize=64)
def _grid_masks(shape: tuple[int, ...]) -> tuple[np.ndarray | None, ...]:
    """Per axis a mask of the grid's indices (None: the grid keeps the axis whole), worked out once per shape."""
    masks: list[np.ndarray | None] = []
    for indices, length in zip(_shape_grid(shape), shape, strict=True):
        if indices.size == length:
            masks.append(None)
            continue
        kept = np.zeros(length, dtype=bool)
        kept[indices] = True
        kept.setflags(write=False)
        masks.append(kept)
    return tuple(masks)


def _grid_with(grid: list[np.ndarray], indices: tuple[np.ndarray, ...], shape: tuple[int, ...]) -> list[np.ndarray]:
    """Per axis the grid's indices and the given ones, sorted and unique (np.union1d's answer): marked on a mask of
    the axis, a fraction of union1d's sort or hash on the few thousand indices of a big pair's axes."""
    united = []
    for axis_grid, index, length in zip(grid, indices, shape, strict=True):
        kept = np.zeros(length, dtype=bool)
        kept[axis_grid] = True
        kept[index] = True
        united.append(np.flatnonzero(kept))
    return united


def _cells(values: np.ndarray, grid: list[np.ndarray]) -> np.ndarray:
    """values[np.ix_(*grid)], taken one axis at a time (the axes the grid keeps whole are not copied; taking
    whole rows of the longest axes first is a fraction of the cost of the open-mesh fancy index)."""
    taken = values
    for axis in sorted(range(values.ndim), key=lambda a: len(grid[a]) / max(1, values.shape[a])):
        if len(grid[axis]) != values.shape[axis]:
            taken = np.take(taken, grid[axis], axis=axis)
    return np.ascontiguousarray(taken)


def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """np.unique of an ascending array (one comparison pass instead of a sort or a hash)."""
    keep = np.empty(values.size, dtype=bool)
    keep[:1] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def _sampled(x_all: np.ndarray, y_all: np.ndarray, fused_dtype: str, origin_dtype: str) -> Signature | None:
    """The signature of a big pair from its sample grid (a permutation is looked for on the whole tensors)."""
    low = max(dtype_limits(fused_dtype), dtype_limits(origin_dtype), key=lambda limits: limits.eps)
    # None: the numpy passes below. More than SCAN_CANDIDATES candidates are listed only when the sample asks.
    swept = _whole_sweep(x_all, y_all, dtype_limits(fused_dtype), low, until_candidate=True)
    if swept.not_equal == 0 if swept is not None else np.array_equal(x_all, y_all):
        return None  # one fast pass; identical tensors holding NaN end in classify's check
    if swept is not None and not swept.special_count and not swept.candidate_count:
        # No NaN/Inf/max value and nothing beyond CANDIDATE_SHARE of the tolerance anywhere: the sample holds no
        # differing element either (the candidates are a superset of classify's), so the sample's answer would be
        # None or rounding and the steps below would end in this rounding signature of the whole.
        params = {"ulps": ROUNDING_ULPS, "eps": low.eps, "max_abs_err": swept.max_abs, "max_rel_err": swept.max_rel}
        return _build([("rounding", params)], 1.0)
    grid = _grid(y_all.shape)
    searched: Searched | None = None  # the C transform search on the whole pair, once _closed_search ran it
    with np.errstate(all="ignore"):
        special = _special(x_all, dtype_limits(fused_dtype)) if swept is None else _swept_special(swept, x_all)
    if special is not None:  # a few NaN/Inf/max values: the grid holds them (a sample would miss them)
        grid = _grid_with(grid, special, y_all.shape)
    if special is None and swept is not None and swept.complete and swept.special_count == 0 \
            and not _on_grid(swept.candidates, y_all.shape):
        # Every candidate (a superset of classify's differing elements) falls between the grid's points: the
        # grid's answer would be None or rounding, so the candidates' grid below is classified at once.
        found = None
    else:
        closed, searched = (None, None) if special is not None or swept is None \
            else _closed_search(x_all, y_all, grid, low, dtype_limits(fused_dtype), swept)
        if closed is not None:  # what the grid's classify and _whole_permutation below would name
            return _build([("layout_permutation", closed)], 1.0)
        found = classify(_cells(x_all, grid), _cells(y_all, grid), fused_dtype, origin_dtype)
    permuted = None if special is not None else _grid_permutation(found, x_all, y_all, low, swept, searched)
    if permuted is not None:
        return permuted
    if found is None or found.code == "rounding":
        # The differences may fall between the grid's points (a few elements, a slice): one cheap pass over the
        # whole tensors finds the candidates; the grid plus their indices on every axis is classified instead.
        if swept is not None and not swept.complete:  # the first sweep stopped at SCAN_CANDIDATES
            swept = _whole_sweep(x_all, y_all, dtype_limits(fused_dtype), low)
        if swept is None:
            with np.errstate(all="ignore"):
                candidates, max_abs, max_rel = _candidates(x_all, y_all, low)
            count = candidates.size
        else:
            candidates, count, max_abs, max_rel = swept.candidates, swept.candidate_count, swept.max_abs, swept.max_rel
        if not count:
            params = {"ulps": ROUNDING_ULPS, "eps": low.eps, "max_abs_err": max_abs, "max_rel_err": max_rel}
            return _build([("rounding", params)], 1.0)
        if count <= AUGMENTED_ELEMENTS:
            where = np.unravel_index(candidates, x_all.shape)
            grid = _grid_with(grid, where, y_all.shape)
        if count > AUGMENTED_ELEMENTS or math.prod(len(axis_grid) for axis_grid in grid) > AUGMENTED_ELEMENTS:
            return classify(x_all, y_all, fused_dtype, origin_dtype)
        found = classify(_cells(x_all, grid), _cells(y_all, grid), fused_dtype, origin_dtype)
        if found is None or found.code == "rounding":
            return found
        return _mapped(found, grid, x_all, y_all, low, whole=True)
    return _mapped(found, grid, x_all, y_all, low, special=special is not None)


def _grid_permutation(found: Signature | None, x_all: np.ndarray, y_all: np.ndarray, low: DtypeLimits,
                      swept: Whole | None, searched: Searched | None) -> Signature | None:
    """A big pair's layout_permutation when its grid's signature (`found`, no NaN/Inf/max value added to the
    grid) may be a permutation seen on a sample, else None; `searched`: _closed_search's C search, if it ran."""
    if found is None or found.code not in PERMUTATION_LOOKALIKES:
        return None
    # Moved values look like garbage, a region, or (a sample of every other element) another permutation in a
    # sample: the whole tensors are checked for a permutation (gated by their extremes and sums).
    with np.errstate(all="ignore"):
        permutation = _whole_permutation(x_all, y_all, low, swept, searched)
    if permutation is not None:
        return _build([("layout_permutation", permutation)], 1.0)
    if found.code == "layout_permutation":  # the sample's transform is not the whole's
        return _build([("layout_permutation", {"transform": None, "sampled": True})], 1.0)
    return None


def _whole_sweep(x_all: np.ndarray, y_all: np.ndarray, fused: DtypeLimits, low: DtypeLimits,
                 until_candidate: bool = False) -> Whole | None:
    """array_equal, _special and _candidates of a big pair in one native sweep (their exact answers; with
    `until_candidate` the candidates stop beyond SCAN_CANDIDATES: Whole.complete); None when the kernel
    cannot (absent, disabled, not floats)."""
    wide64, special_limit, scale, floor = _sweep_params(x_all.dtype, y_all.dtype, fused, low)
    # The first sweep lists up to SCAN_CANDIDATES (sparse errors: all of them, the sample may need them) and stops
    # looking beyond: no 2 MB index buffer to allocate and fault in, no tolerance test on a dense error's rest.
    return signature_native.whole(
        x_all, y_all, wide64=wide64, special_limit=special_limit, scale=scale, floor=floor, special_cap=MAX_SPECIAL,
        candidate_cap=SCAN_CANDIDATES if until_candidate else AUGMENTED_ELEMENTS, until_candidate=until_candidate)


@functools.lru_cache(maxsize=64)
def _sweep_params(x_dtype: np.dtype[Any], y_dtype: np.dtype[Any], fused: DtypeLimits, low: DtypeLimits
                  ) -> tuple[bool, float | None, float, float]:
    """_whole_sweep's figures for a pair's stored dtypes, worked out once: whether a side is float64, the fused
    max as x stores it (as _special: None for integers), and the candidates' scale and floor in the sweep's
    precision (as _candidates)."""
    wide64 = np.float64 in (x_dtype.type, y_dtype.type)
    wide: type[np.floating[Any]] = np.float64 if wide64 else np.float32
    special_limit = None
    if x_dtype.kind == "f":
        with np.errstate(over="ignore"):
            special_limit = float(np.array(fused.max, dtype=x_dtype))
    return (wide64, special_limit, float(wide(CANDIDATE_SHARE * ROUNDING_ULPS * low.eps)),
            float(wide(ROUNDING_ULPS * low.min_subnormal)))


def _swept_special(swept: Whole, x_all: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """_special's answer from the sweep: the indices of a few (1 to MAX_SPECIAL) fused NaN/Inf/max values."""
    if 0 < swept.special_count <= MAX_SPECIAL:
        return tuple(np.unravel_index(swept.specials, x_all.shape))
    return None


def _special(x_all: np.ndarray, fused: DtypeLimits) -> tuple[np.ndarray, ...] | None:
    """The indices of the fused NaN/±Inf/±max values (checks 1-2) when there are a few (at most MAX_SPECIAL);
    None when there are none or many (a sample sees many). Floats are looked at as the unsigned integers of their
    bits without the sign (NaN and Inf above every finite value; numpy's float16 reductions are slow): one AND
    and one integer max when there are none."""
    if x_all.dtype.kind != "f":
        return None
    unsigned = np.dtype(f"u{x_all.dtype.itemsize}")
    magnitude_bits = unsigned.type((1 << (8 * x_all.itemsize - 1)) - 1)
    with np.errstate(over="ignore"):
        limit = np.array(fused.max, dtype=x_all.dtype)  # the fused max as stored (Inf when it does not fit)
    bits = x_all.view(unsigned) & magnitude_bits
    if bits.max() >= limit.view(unsigned):
        mask = bits >= limit.view(unsigned)
        count = int(np.count_nonzero(mask))
        if 0 < count <= MAX_SPECIAL:
            return tuple(np.nonzero(mask))
    return None


def _candidates(x_all: np.ndarray, y_all: np.ndarray, low: DtypeLimits) -> tuple[np.ndarray, float, float]:
    """The flat indices of the elements that may differ beyond rounding (a CANDIDATE_SHARE narrower tolerance,
    computed in float32 for float16 and float32 pairs: a superset of classify's), and the largest absolute and
    relative differences of the finite ones. In chunks of CHUNK_ELEMENTS (the temporaries stay in cache)."""
    wide: type[np.floating[Any]] = np.float64 if np.float64 in (x_all.dtype.type, y_all.dtype.type) else np.float32
    scale, floor = wide(CANDIDATE_SHARE * ROUNDING_ULPS * low.eps), wide(ROUNDING_ULPS * low.min_subnormal)
    flat_x, flat_y = x_all.reshape(-1), y_all.reshape(-1)
    found: list[np.ndarray] = []
    max_abs = max_rel = 0.0
    for start in range(0, flat_x.size, CHUNK_ELEMENTS):
        x: np.ndarray[Any, np.dtype[np.floating[Any]]] = flat_x[start:start + CHUNK_ELEMENTS].astype(wide)
        y: np.ndarray[Any, np.dtype[np.floating[Any]]] = flat_y[start:start + CHUNK_ELEMENTS].astype(wide)
        diff = np.abs(x - y)
        abs_y = np.abs(y)
        tol = np.maximum(np.abs(x), abs_y)
        tol *= scale
        tol += floor
        wrong = ~(diff <= tol) | ~np.isfinite(tol)  # NaN/Inf on a side too; equal ones are taken back below
        if wrong.any():
            index = np.flatnonzero(wrong)
            same = (x[index] == y[index]) | (np.isnan(x[index]) & np.isnan(y[index]))
            found.append(index[~same] + start)
        finite = np.isfinite(diff)
        if not finite.all():
            diff[~finite] = 0
        max_abs = max(max_abs, float(diff.max()))
        np.divide(diff, abs_y, out=diff, where=abs_y > 0)
        diff[abs_y == 0] = 0
        max_rel = max(max_rel, float(diff.max()))
    return (np.concatenate(found) if found else np.zeros(0, np.int64)), max_abs, max_rel


def _mapped(found: Signature, grid: list[np.ndarray], x_all: np.ndarray, y_all: np.ndarray, low: DtypeLimits,
            whole: bool = False, special: bool = False) -> Signature:
    """A signature classified on the grid, in the whole tensors' indices (`whole`: the grid holds every
    differing element, `special`: every NaN/Inf/max one; their counts are the whole's and their shares are
    recomputed on the whole size)."""
    parts: list[dict[str, Any]] = (found.params["parts"] if found.code == "mixed"
                                   else [{"code": found.code, "params": found.params}])
    findings: list[Finding] = []
    for part in parts:
        params: dict[str, Any] = dict(part["params"])
        if "first_index" in params and isinstance(params["first_index"], list):
            params["first_index"] = [int(grid[axis][i]) for axis, i in enumerate(params["first_index"])]
        if part["code"] == "tail_block":
            axis = params["axis"]
            first = _tail_start(x_all, y_all, axis, grid[axis], params["first_index"], low)
            params.update(first_index=first, tile=y_all.shape[axis] - first, length=y_all.shape[axis])
        if part["code"] == "localised":
            axis = params["axis"]
            params["indices"] = [int(grid[axis][i]) for i in params["indices"]]
            params["length"] = y_all.shape[axis]
        complete = whole or (special and part["code"] in ("nonfinite_introduced", "overflow"))
        if complete and "count" in params and "share" in params:
            params["share"] = params["count"] / x_all.size
        params["sampled"] = True
        findings.append((str(part["code"]), params))
    return _build(findings, found.confidence)


def _wrong_slice(x_all: np.ndarray, y_all: np.ndarray, axis: int, index: int, low: DtypeLimits) -> bool:
    """Whether a slice holds an element beyond rounding (a NaN or Inf matching itself is not)."""
    x, y = np.take(x_all, index, axis=axis), np.take(y_all, index, axis=axis)
    # The kernel's survey counts _classify's bad elements; where every element is finite on both sides those
    # are exactly the ones below (the same tol, |x - y| > tol): one native sweep instead of a dozen numpy passes.
    surveyed = signature_native.survey(x, y, (ROUNDING_ULPS * low.eps, ROUNDING_ULPS * low.min_subnormal,
                                              math.inf, 0.0, 0.0))
    if surveyed is not None and not surveyed.not_both_finite:
        return surveyed.bad > 0
    x, y = x.astype(np.float64), y.astype(np.float64)
    tol = ROUNDING_ULPS * low.eps * np.maximum(np.abs(x), np.abs(y)) + ROUNDING_ULPS * low.min_subnormal
    with np.errstate(all="ignore"):
        return bool(np.any(~(np.abs(x - y) <= tol) & ~(np.isnan(x) & np.isnan(y)) & ~((x == y) & np.isinf(x))))


def _tail_start(x_all: np.ndarray, y_all: np.ndarray, axis: int, index: np.ndarray, position: int,
                low: DtypeLimits) -> int:
    """A tail's first wrong index on the whole tensor (`position`: the first wrong one in the grid's `index`):
    the slices between the last good grid point and the first wrong one are checked from the wrong one down."""
    start = int(index[position])
    floor = int(index[position - 1]) + 1 if position > 0 else 0
    while start - 1 >= floor and _wrong_slice(x_all, y_all, axis, start - 1, low):
        start -= 1
    return start


def _whole_permutation(x_all: np.ndarray, y_all: np.ndarray, low: DtypeLimits, swept: Whole | None = None,
                       searched: Searched | None = None) -> dict[str, Any] | None:
    """Check 4 on whole tensors, gated by the extremes and the sum of the values (a permutation keeps them);
    `swept`: af_sign_whole's figures of the pair, whose extremes decide the first gate without another pass;
    `searched`: _whole_search's answer when _closed_search worked it out already."""
    if swept is not None and swept.not_equal and swept.nan >= 0 and _extremes_differ(swept, low):
        return None
    single = np.float64 not in (x_all.dtype.type, y_all.dtype.type)
    if searched is None:
        searched = _whole_search(x_all, y_all, low, swept)
    named = None if searched is None else searched[0]
    if named is not None and searched is not None and _holds_gate(x_all, y_all, low, searched):
        return named
    # The native sweep next: when its extremes or sums show numpy's gate would fail, no copy is made at all.
    if _gate_fails(x_all, y_all, low):
        return None
    # float32 (float64 pairs: float64): numpy's float16 reductions are slow, and a moved value matches exactly.
    wide = np.float64 if np.float64 in (x_all.dtype.type, y_all.dtype.type) else np.float32
    x, y = x_all.astype(wide, copy=False), y_all.astype(wide, copy=False)
    c1, c2 = wide(ROUNDING_ULPS * low.eps), wide(ROUNDING_ULPS * low.min_subnormal)
    flat_x, flat_y = x.reshape(-1), y.reshape(-1)
    matched = None
    if named is None and searched is not None:
        # No named transform (the C search tried them all): the sorted values decide (_sorted_match), tol worked
        # out only where a rank needs it. Equal finite ones (NaN sorts last) are one multiset, which holds the gate
        # for sure (as an exact winner above); a sure mismatch needs no gate either (both answers are None).
        sorted_values = _sorted_values(x, y)
        if single and (x_all.size + 64) * 2.0**-52 < ROUNDING_ULPS * low.eps \
                and math.isfinite(sorted_values[0][0]) and math.isfinite(sorted_values[0][-1]) \
                and np.array_equal(*sorted_values):
            return {"transform": None}
        matched = _sorted_match(sorted_values, wide, flat_y,
                                lambda at: np.maximum(np.abs(flat_x[at]), np.abs(flat_y[at])) * c1 + c2, c1, c2)
        if matched is False:
            return None
    for pick in (np.max, np.min):
        a, b = float(pick(x)), float(pick(y))
        if not abs(a - b) <= ROUNDING_ULPS * low.eps * max(abs(a), abs(b)) + ROUNDING_ULPS * low.min_subnormal:
            return None
    total_x, total_y = float(np.sum(x, dtype=np.float64)), float(np.sum(y, dtype=np.float64))
    if not (math.isfinite(total_x) and math.isfinite(total_y)):
        return None
    scale = float(np.sum(np.abs(y), dtype=np.float64))
    # Each term carries up to ROUNDING_ULPS ulps of rounding: the sums may differ by that much of the |terms|.
    if abs(total_x - total_y) > ROUNDING_ULPS * low.eps * scale + x.size * low.min_subnormal:
        return None
    if named is not None:
        return named
    if matched:
        return {"transform": None}
    tol = np.maximum(np.abs(x), np.abs(y)) * c1 + c2  # ties too close to call (or no C search): as before
    return _permutation(x, y, tol, np.ones(x.shape, dtype=bool), gated=True, searched=searched is not None)


def _whole_search(x_all: np.ndarray, y_all: np.ndarray, low: DtypeLimits, swept: Whole | None
                  ) -> Searched | None:
    """_native_search on a whole big pair with _classify's tol (in float32 for float16/float32 pairs)."""
    single = np.float64 not in (x_all.dtype.type, y_all.dtype.type)
    return _native_search(x_all, y_all, ROUNDING_ULPS * low.eps, ROUNDING_ULPS * low.min_subnormal, single,
                          native_on=swept is not None)  # a sweep: the kernel ran, the switch is on


def _holds_gate(x_all: np.ndarray, y_all: np.ndarray, low: DtypeLimits, searched: Searched) -> bool:
    """Whether the C search's winner holds _whole_permutation's gate for sure (then it is the answer): it moved
    every value bit for bit (finite), so the same multiset has the same extremes and exact sum, and numpy's two
    float64 sums are each within size units of 2**-53 of sum |y| of it, less than the allowance of ROUNDING_ULPS
    eps sum |y|."""
    single = np.float64 not in (x_all.dtype.type, y_all.dtype.type)
    return searched[1] and single and (x_all.size + 64) * 2.0**-52 < ROUNDING_ULPS * low.eps


def _closed_search(x_all: np.ndarray, y_all: np.ndarray, grid: list[np.ndarray], low: DtypeLimits,
                   fused: DtypeLimits, swept: Whole) -> tuple[dict[str, Any] | None, Searched | None]:
    """The answer of a big pair whose grid is classified as a permutation, without classifying it: the C search
    names a transform of the whole pair that moved every value bit for bit (_holds_gate), which maps the grid
    onto itself (_grid_closed). The grid's x then holds the grid's y values bit for bit, so its classify finds
    no NaN/Inf/max value (the sweep saw none anywhere: checks 1-2), no underflow when no fused zero stands
    where the origin is non-zero below the fused smallest normal (check 3, `flushed`), and when one grid point
    differs beyond tol (`grid_differs`), a permutation of the grid (check 4: its gate holds, as the whole's,
    and its sorted values match): the code layout_permutation, whose whole check (_whole_permutation) returns
    this transform. Returns (that transform's params or None, the search's answer for _whole_permutation to reuse
    after the grid's classify, None when it did not run)."""
    if swept.special_count or not swept.not_equal or swept.nan != 0 or _extremes_differ(swept, low):
        return None, None  # _whole_permutation would stop before its search (or the grid may hold special values)
    searched = _whole_search(x_all, y_all, low, swept)
    if searched is None or searched[0] is None or not _holds_gate(x_all, y_all, low, searched) \
            or not _grid_closed(searched[0], searched[2], grid, x_all.shape):
        return None, searched
    with np.errstate(over="ignore"):
        tiny = np.array(fused.tiny, dtype=y_all.dtype)  # the fused smallest normal as stored, rounded up below
    if float(tiny) < fused.tiny:
        tiny = np.nextafter(tiny, np.array(np.inf, dtype=y_all.dtype))
    below = int(tiny.view(f"u{y_all.itemsize}")) if math.isfinite(float(tiny)) else 1 << (8 * y_all.itemsize - 1)
    assert _TRANSFORM is not None  # the search ran in C
    # The zeros are looked for on the whole (one vectorised pass) up to WHOLE_FLUSHED elements, on the grid beyond.
    if _TRANSFORM.flushed(x_all, y_all, below, None if x_all.size <= WHOLE_FLUSHED else tuple(grid)) \
            or not _TRANSFORM.grid_differs(x_all, y_all, tuple(grid), ROUNDING_ULPS * low.eps,
                                           ROUNDING_ULPS * low.min_subnormal, GRID_PROBES):
        return None, searched
    return searched[0], searched


def _grid_closed(named: dict[str, Any], perm: tuple[int, ...] | None, grid: list[np.ndarray],
                 shape: tuple[int, ...]) -> bool:
    """Whether the transform (a `_native_search` winner; perm: its C0 blocks' sources) maps the grid's points
    onto grid points: every fused grid point reads the origin at a grid point."""
    if named["transform"] == "swap_axes":
        first, second = named["axes"]
        return np.array_equal(grid[first], grid[second])
    axis = int(named["axis"])
    indices, length = grid[axis], shape[axis]
    if indices.size == length:
        return True  # the grid keeps the moving axis whole
    if named["transform"] == "reverse":
        sources = length - 1 - indices
    elif named["transform"] == "shift":
        sources = (indices - int(named["shift"])) % length
    elif perm is not None and axis == len(shape) - 1:  # blocks of c0 along the last axis
        c0 = int(named["c0"])
        sources = np.asarray(perm, dtype=np.int64)[indices // c0] * c0 + indices % c0
    elif perm is not None:  # a C0 layout's vectors along this axis
        sources = np.asarray(perm, dtype=np.int64)[indices]
    else:
        return False
    return np.array_equal(np.sort(sources), indices)


def _extremes_differ(swept: Whole, low: DtypeLimits) -> bool:
    """The gate's extremes test from af_sign_whole's exact extremes: a NaN (numpy's extremes are NaN then) or a
    largest or smallest value that moved by more than the rounding of its magnitude."""
    if swept.nan:
        return True
    for a, b in ((swept.x_max, swept.y_max), (swept.x_min, swept.y_min)):
        if not abs(a - b) <= ROUNDING_ULPS * low.eps * max(abs(a), abs(b)) + ROUNDING_ULPS * low.min_subnormal:
            return True
    return False


def _gate_fails(x_all: np.ndarray, y_all: np.ndarray, low: DtypeLimits) -> bool:
    """True when _whole_permutation's gate fails for sure, from one native sweep: a NaN (numpy's extremes are
    NaN then), extremes that differ (exact), or sums whose difference exceeds the allowance by more than the
    two summation orders can account for ((n + 64) units of 2**-52 of n times the largest |x| plus twice the
    sum of |y|). False when it may hold, or without the kernel: then numpy decides."""
    found = signature_native.gate(x_all, y_all)
    if found is None:
        return False
    if found.nan:
        return True
    for a, b in ((found.x_max, found.y_max), (found.x_min, found.y_min)):
        if not abs(a - b) <= ROUNDING_ULPS * low.eps * max(abs(a), abs(b)) + ROUNDING_ULPS * low.min_subnormal:
            return True
    size = x_all.size
    largest = max(abs(found.x_max), abs(found.x_min))
    error = (size + 64) * 2.0**-52 * (size * largest + 2 * found.sum_abs_y)
    if not math.isfinite(error):
        return False
    excess = abs(found.sum_x - found.sum_y) - (ROUNDING_ULPS * low.eps * found.sum_abs_y + size * low.min_subnormal)
    return excess > error


def classify(x: np.ndarray, y: np.ndarray, fused_dtype: str, origin_dtype: str) -> Signature | None:
    """The signature of two arrays of the same shape (x fused, y origin; values as stored, compared as float64):
    the kernel's one call decides what it can (_classified), numpy on float64 copies the rest."""
    fused_limits, low, params = _native_params(fused_dtype, origin_dtype, x.shape)
    answer = signature_native.classify(x, y, params)
    if answer is not None:
        decided = _classified(answer, x, y, params, fused_limits, low)
        if not isinstance(decided, _Undecided):
            return decided
    return classify_numpy(x, y, fused_dtype, origin_dtype)


@functools.lru_cache(maxsize=256)
def _native_params(fused_dtype: str, origin_dtype: str, shape: tuple[int, ...]
                   ) -> tuple[DtypeLimits, DtypeLimits, tuple[float, ...]]:
    """The fused and lower-precision limits and sign_classify's params for a pair's dtypes and shape: tol's two
    terms as _classify computes them, the fused limits, the value models' eps, ulps, model sample stride and
    rejection share, the correlation sample's stride, TAIL_MIN_DENSITY, LOCALISED_MAX_SHARE and 1.0 when the
    kernel centres the correlation sample (its sums are numpy's: signature_native.centres_like_numpy), else 0.0."""
    fused_limits, origin_limits = dtype_limits(fused_dtype), dtype_limits(origin_dtype)
    low = max(fused_limits, origin_limits, key=lambda limits: limits.eps)
    params = (ROUNDING_ULPS * low.eps, ROUNDING_ULPS * low.min_subnormal, fused_limits.max, fused_limits.tiny,
              fused_limits.min_subnormal, low.eps, ROUNDING_ULPS, float(_model_stride(shape)), MODEL_REJECT,
              float(_model_stride(shape, CORRELATION_SAMPLE)), TAIL_MIN_DENSITY, LOCALISED_MAX_SHARE,
              float(signature_native.centres_like_numpy()))
    return fused_limits, low, params


def classify_numpy(x: np.ndarray, y: np.ndarray, fused_dtype: str, origin_dtype: str) -> Signature | None:
    """classify() by numpy alone (the path without the native kernel, and the reference the tests compare to)."""
    x, y = x.astype(np.float64, copy=False), y.astype(np.float64, copy=False)
    if np.array_equal(x, y, equal_nan=True):
        return None
    fused_limits, origin_limits = dtype_limits(fused_dtype), dtype_limits(origin_dtype)
    low = max(fused_limits, origin_limits, key=lambda limits: limits.eps)
    with np.errstate(all="ignore"):
        return _classify(x, y, fused_limits, low)


class _Undecided:
    """The answer of _classified when the kernel cannot decide (numpy then does)."""


UNDECIDED = _Undecided()


def _classified(answer: signature_native.Classified, x: np.ndarray, y: np.ndarray, params: tuple[float, ...],
                fused_limits: DtypeLimits, low: DtypeLimits) -> Signature | _Undecided | None:
    """_classify's answer from sign_classify's: identical pairs, checks 1–3, a region (checks 5–6), rounding,
    the value models (7–8) and the correlation (9, by numpy on the sample the kernel gathers). When the
    permutation gate may hold, numpy's search runs on the pair as is (_permutation_numpy), then the kernel
    again without the gate. A NaN among a median's values is UNDECIDED."""
    status = answer[0]
    if status == signature_native.IDENTICAL:
        return None
    if status == signature_native.PERMUTATION:  # checks 1-3 are known empty, every element finite
        permutation = _permutation_numpy(x, y, params, gated=answer[10] == 1)
        if permutation is not None:
            return _build([("layout_permutation", permutation)], 1.0)
        answer = signature_native.classify(x, y, params, signature_native.SKIP_GATE) or answer
        status = answer[0]
    if status == signature_native.FALLBACK or status == signature_native.PERMUTATION:
        return UNDECIDED
    shape = x.shape
    size = x.size
    findings: list[Finding] = []
    if answer[3]:
        findings.append(("nonfinite_introduced", {"count": answer[3], "share": answer[3] / size,
                                                  "first_index": _unravel(answer[4], shape)}))
    if answer[5]:
        findings.append(("overflow", {"count": answer[5], "share": answer[5] / size,
                                      "first_index": _unravel(answer[6], shape), "limit": fused_limits.max}))
    if answer[7]:
        findings.append(("underflow", {"count": answer[7], "share": answer[7] / size,
                                       "first_index": _unravel(answer[8], shape)}))
    if answer[11] is not None:
        findings.append(_region_finding(answer[11], shape))
    elif answer[9]:  # differing elements beyond checks 1-3 and no region: the value models or the correlation
        residual = _residual_answer(answer, x, y, params, shape)
        if isinstance(residual, _Undecided):
            return UNDECIDED
        pattern, accounted = residual
        return _build(findings + pattern, accounted)
    if not findings:
        rounding = {"ulps": ROUNDING_ULPS, "eps": low.eps, "max_abs_err": answer[1], "max_rel_err": answer[2]}
        return _build([("rounding", rounding)], 1.0)
    return _build(findings, 1.0)


def _residual_answer(answer: signature_native.Classified, x: np.ndarray, y: np.ndarray, params: tuple[float, ...],
                     shape: tuple[int, ...]) -> tuple[list[Finding], float] | _Undecided:
    """_residual's answer (the region known to be None) from sign_classify's: a value model with the region its
    misfits form, else the correlation of the gathered sample, else unclassified (the kernel's median rel)."""
    model = answer[12]
    if model != signature_native.NO_MODEL:
        found: Finding = ("bias", {"offset": answer[13]}) if model == signature_native.BIAS_MODEL \
            else ("scale", {"factor": answer[13]})
        return ([found] if answer[14] is None else [found, _region_finding(answer[14], shape)]), 1.0
    x_sample, y_sample = signature_native.gathered(answer)
    # The kernel centred the sample as _correlation does when its sums are numpy's (params' last flag).
    r = _centred_correlation(x_sample, y_sample) if params[-1] else _correlation(x_sample, y_sample)
    if r is not None and abs(r) < max(UNCORRELATED_R, UNCORRELATED_SIGMAS / math.sqrt(x_sample.size)):
        return [("uncorrelated", {"correlation": r})], 1 - r * r
    rest = answer[9]
    share = 1 - float(rest) / x.size
    relative = signature_native.classify(x, y, params, signature_native.ONLY_REL)
    if relative is None or relative[0] != signature_native.REL:
        return UNDECIDED
    return [("unclassified", {"correlation": r, "differing_share": 1 - share, "median_rel_err": relative[16]})], share


def _region_finding(region: tuple[Any, ...], shape: tuple[int, ...]) -> Finding:
    """tail_block or localised (as _region_of names them) from a kernel region (code, axis, first, count,
    listed indices)."""
    code, axis, first, count, listed = region
    length = shape[axis]
    if code == signature_native.TAIL:
        return ("tail_block", {"axis": axis, "first_index": first, "tile": length - first, "length": length})
    return ("localised", {"axis": axis, "indices": list(listed), "count": count, "length": length})


def _permutation_numpy(x: np.ndarray, y: np.ndarray, params: tuple[float, ...], gated: bool
                       ) -> dict[str, Any] | None:
    """Check 4 as _classify runs it on a pair whose every element is finite (the survey says so), without the
    masks of checks 1-3 (known empty): _classify's tol, then _permutation (`gated`: its gate holds for sure)."""
    # The C search gated or not: the transform it names is numpy's, and stands once numpy's gate holds (in
    # _permutation, when the kernel's sums were too close to call), as numpy's search after that gate would name it.
    searched = _native_transform(x, y, params[0], params[1], single=False, native_on=True)
    found = None if searched is None else searched[0]
    if gated and found is not None:
        return found
    c1, c2 = params[0], params[1]  # _classify's tol: c1 * max(|x|, |y|), then + c2, in float64
    flat_x, flat_y = x.reshape(-1), y.reshape(-1)
    coefficients: tuple[float, float] | None = (c1, c2)  # for _permutation's _sorted_match
    if gated and searched is not None and x.size >= 2:
        # _permutation's rest (gated, searched) on the sorted values, no float64 copies: tol where a rank needs it.
        matched = _sorted_match(_sorted_values(x, y), np.float64, flat_y,
                                lambda at: c1 * np.maximum(np.abs(flat_x[at].astype(np.float64)),
                                                           np.abs(flat_y[at].astype(np.float64))) + c2, c1, c2)
        if matched is not None:
            return {"transform": None} if matched else None
        coefficients = None  # too close to call: _permutation's argsort check decides (nothing sorted twice)
    x64, y64 = x.astype(np.float64, copy=False), y.astype(np.float64, copy=False)
    tol = c1 * np.maximum(np.abs(x64), np.abs(y64))
    tol += c2
    with np.errstate(all="ignore"):
        return _permutation(x64, y64, tol, np.ones(x.shape, dtype=bool), gated=gated, searched=searched is not None,
                            coefficients=coefficients, sortable=(x, y), found=found)


def _unravel(flat: int, shape: tuple[int, ...]) -> list[int]:
    """np.unravel_index of one flat index, as a list of ints."""
    index = []
    for length in reversed(shape):
        flat, position = divmod(flat, length)
        index.append(position)
    return index[::-1]


def _classify(x: np.ndarray, y: np.ndarray, fused_limits: DtypeLimits, low: DtypeLimits) -> Signature:
    finite_x, finite_y = np.isfinite(x), np.isfinite(y)
    abs_x, abs_y = np.abs(x), np.abs(y)
    tol = ROUNDING_ULPS * low.eps * np.maximum(np.where(finite_x, abs_x, 0), np.where(finite_y, abs_y, 0))
    tol += ROUNDING_ULPS * low.min_subnormal
    diff = np.abs(x - y)
    both = finite_x & finite_y
    # Nonfinite on either side: equal only when both are the same (NaN with NaN, +Inf with +Inf).
    same_special = (~finite_x & ~finite_y) & ((np.isnan(x) & np.isnan(y)) | (x == y))
    bad = np.where(both, diff > tol, ~same_special)
    findings: list[Finding] = []
    explained = np.zeros(x.shape, dtype=bool)

    overflow = (np.isinf(x) | (abs_x >= fused_limits.max)) & finite_y & (abs_y > fused_limits.max)
    nonfinite = ~finite_x & finite_y & ~overflow
    underflow = (x == 0) & (abs_y >= fused_limits.min_subnormal) & (abs_y < fused_limits.tiny) & bad
    for code, mask, extra in (
        ("nonfinite_introduced", nonfinite, {}),
        ("overflow", overflow, {"limit": fused_limits.max}),
        ("underflow", underflow, {}),
    ):
        count = int(mask.sum())
        if count:
            first = [int(i) for i in np.unravel_index(int(np.argmax(mask)), x.shape)]
            params = {"count": count, "share": count / x.size, "first_index": first, **extra}
            findings.append((code, params))
            explained |= mask
    rest = bad & ~explained
    accounted = 1.0
    if rest.any():
        if not findings:
            permutation = _permutation(x, y, tol, both)
            if permutation is not None:
                return _build([("layout_permutation", permutation)], 1.0)
        pattern, accounted = _residual(x, y, rest, tol, both & ~explained, low.eps)
        findings += pattern
    if not findings:
        rel = np.where(both & (abs_y > 0), diff / np.where(abs_y > 0, abs_y, 1), 0)
        params = {"ulps": ROUNDING_ULPS, "eps": low.eps, "max_abs_err": float(np.max(np.where(both, diff, 0))),
                  "max_rel_err": float(np.max(rel))}
        return _build([("rounding", params)], 1.0)
    return _build(findings, accounted)


def _residual(x: np.ndarray, y: np.ndarray, rest: np.ndarray, tol: np.ndarray, usable: np.ndarray, eps: float
              ) -> tuple[list[Finding], float]:
    """What the differing elements left by the special-value checks look like (checks 5–10), and the share
    of the elements the answer accounts for."""
    region = _region(rest)
    if region is not None:
        return [region], 1.0
    d = x - y
    pick = _model_sample(x.shape)
    sampled = usable & pick  # the estimates' elements (MODEL_SAMPLE); the fits are counted on all
    values = d[sampled]
    if values.size:
        # The median of the differences, then again within the rounding band around it: a region of garbage
        # next to the bias pulls the first median to one side of the cluster of offsets.
        offset = float(np.median(values))
        near = np.abs(values - offset) <= float(np.max(tol[sampled]))
        offset = float(np.median(values[near])) if near.any() else offset
        # The added constant is itself rounded in the fused dtype: its own rounding is allowed on top of tol.
        slack = ROUNDING_ULPS * eps * abs(offset)
        fitted = _model_fit(np.abs(d - offset) > tol + slack, rest, usable, pick)
        if fitted is not None and abs(offset) > float(np.median(tol[sampled])):
            return _with_region(("bias", {"offset": offset}), fitted)
        big = sampled & (np.abs(y) > 0)
        if big.any():
            magnitude = np.abs(y[big])
            strong = big.copy()
            strong[big] = magnitude >= np.median(magnitude)
            factor = float(np.median(x[strong] / y[strong]))
            low_eps = float(np.median(tol[sampled] / np.maximum(np.abs(y[sampled]), 1e-300)))
            fitted = _model_fit(np.abs(x - factor * y) > tol * max(1.0, abs(factor)), rest, usable, pick)
            if fitted is not None and abs(factor - 1) > min(low_eps, 1.0):
                return _with_region(("scale", {"factor": factor}), fitted)
    correlated = usable & _model_sample(x.shape, CORRELATION_SAMPLE)
    r = _correlation(x[correlated], y[correlated])
    if r is not None and abs(r) < max(UNCORRELATED_R, UNCORRELATED_SIGMAS / math.sqrt(int(correlated.sum()))):
        return [("uncorrelated", {"correlation": r})], 1 - r * r
    share = 1 - float(rest.sum()) / rest.size
    rel = float(np.median(np.abs(d[rest]) / np.maximum(np.abs(y[rest]), 1e-300))) if rest.any() else 0.0
    return [("unclassified", {"correlation": r, "differing_share": 1 - share, "median_rel_err": rel})], share


def _model_fit(off_model: np.ndarray, rest: np.ndarray, usable: np.ndarray, pick: np.ndarray
               ) -> np.ndarray | None:
    """The elements a value model leaves wrong, when it fits everywhere or at least MODEL_MAJORITY of them
    with the rest forming a region; None when it does not fit (or more than MODEL_REJECT of the sample's
    positions `pick` are left)."""
    left: np.ndarray = off_model & usable | (rest & ~usable)
    if float(np.count_nonzero(left[pick])) > MODEL_REJECT * float(np.count_nonzero(pick)):
        return None
    if not left.any():
        return left
    if float(left.sum()) <= (1 - MODEL_MAJORITY) * left.size and _region(left) is not None:
        return left
    return None


def _with_region(model: Finding, left: np.ndarray) -> tuple[list[Finding], float]:
    if not left.any():
        return [model], 1.0
    region = _region(left)
    assert region is not None
    return [model, region], 1.0


def _model_stride(shape: tuple[int, ...], sample: int = MODEL_SAMPLE) -> int:
    """A model sample's step: 1 up to `sample` elements, else the least step >= size / sample that shares no
    factor with the innermost axis longer than 1."""
    stride = -(-math.prod(shape) // sample)
    if stride <= 1:
        return 1
    inner = next((length for length in reversed(shape) if length > 1), 1)
    while math.gcd(stride, inner) != 1:
        stride += 1
    return stride


def _model_sample(shape: tuple[int, ...], sample: int = MODEL_SAMPLE) -> np.ndarray:
    """A model sample as a mask of shape: the flat positions 0, s, 2s, … (s = _model_stride)."""
    pick = np.zeros(shape, dtype=bool)
    pick.reshape(-1)[::_model_stride(shape, sample)] = True
    return pick


def _region(bad: np.ndarray) -> Finding | None:
    """tail_block or localised when the differing elements sit in part of one axis (checks 5, 6)."""
    if bad.ndim == 0 or not bad.any():
        return None
    hit_indices = []
    for axis, length in enumerate(bad.shape):
        other = tuple(a for a in range(bad.ndim) if a != axis)
        hit_indices.append(np.flatnonzero(bad.any(axis=other) if other else bad) if length >= 2 else None)
    return _region_of(hit_indices, bad.shape)


def _region_of(hit_indices: Sequence[np.ndarray | None], shape: tuple[int, ...]) -> Finding | None:
    """_region from the indices along each axis that hold a differing element (axes shorter than 2: None)."""
    tails: list[tuple[float, int, int]] = []
    local: list[tuple[float, int, list[int]]] = []
    for axis, length in enumerate(shape):
        indices = hit_indices[axis]
        if length < 2 or indices is None:
            continue
        if indices.size == length:
            continue
        first = int(indices[0])
        if first > 0 and indices[-1] == length - 1 and indices.size >= TAIL_MIN_DENSITY * (length - first):
            tails.append((indices.size / length, axis, first))
        if indices.size <= max(1, int(LOCALISED_MAX_SHARE * length)):
            local.append((indices.size / length, axis, indices.tolist()))
    if tails:
        _, axis, first = min(tails)
        return ("tail_block", {"axis": axis, "first_index": first, "tile": shape[axis] - first,
                               "length": shape[axis]})
    if local:
        _, axis, listed = min(local, key=lambda item: (item[0], item[1]))
        return ("localised", {"axis": axis, "indices": listed[:MAX_LISTED], "count": len(listed),
                              "length": shape[axis]})
    return None


def _correlation(a: np.ndarray, b: np.ndarray) -> float | None:
    """Pearson's r of two samples of one size (None below 2 elements or with a constant one); float64 samples are
    scratch, centred in place (both callers pass a gathered sample or a fresh boolean-indexed copy)."""
    if a.size < 2:
        return None
    if a.dtype == np.float64 and b.dtype == np.float64:
        # a.mean() of float64 is add.reduce (the same pairwise sum) over the count: the same value, a third of the
        # cost of ndarray.mean's Python layer (a fixed cost per pair). In place: the same subtraction, no copy.
        a -= float(np.add.reduce(a)) / a.size
        b -= float(np.add.reduce(b)) / b.size
    else:
        a, b = a - a.mean(), b - b.mean()
    return _centred_correlation(a, b)


def _centred_correlation(a: np.ndarray, b: np.ndarray) -> float | None:
    """_correlation of two samples centred already (None below 2 elements or with a constant one)."""
    if a.size < 2:
        return None
    # ndarray.dot is np.dot (the same PyArray_MatrixProduct2, BLAS's ddot) without the dispatch layer.
    norm = math.sqrt(float(a.dot(a)) * float(b.dot(b)))
    return None if norm == 0 else float(a.dot(b)) / norm


def _close(a: np.ndarray, b: np.ndarray, tol: np.ndarray) -> bool:
    return bool(np.all(np.abs(a - b) <= tol))


def _permutation(x: np.ndarray, y: np.ndarray, tol: np.ndarray, both: np.ndarray, gated: bool = False,
                 searched: bool = False, coefficients: tuple[float, float] | None = None,
                 sortable: tuple[np.ndarray, np.ndarray] | None = None, found: dict[str, Any] | None = None
                 ) -> dict[str, Any] | None:
    """Check 4: the same values in other places; the transform when it is a simple one (`gated`: the caller
    compared the extremes and sums already; `searched`: the native search ran and named `found` or none;
    `coefficients`: c1, c2 of tol = c1 max(|x|, |y|) + c2 in float64, which let _sorted_match decide from sorted
    values, `sortable`: x and y as stored, sorted in their own dtype)."""
    if not both.all() or x.size < 2:
        return None
    # A permutation keeps the extremes and (within each element's rounding) the sum: a cheap gate for the rest.
    for a, b, allowed in () if gated else ((x.max(), y.max(), tol.max()), (x.min(), y.min(), tol.max()),
                                           (x.sum(), y.sum(), 2 * tol.sum())):
        if not abs(float(a) - float(b)) <= float(allowed):
            return None
    # The named transforms first: one that holds is a permutation, so the sort (the costly part: n log n) is left
    # for the unknown orders only.
    named = found if searched else _named_transform(x, y, tol)
    if named is not None:
        return named
    if coefficients is not None:
        flat_tol = tol.reshape(-1)
        matched = _sorted_match(_sorted_values(*(sortable or (x, y))), x.dtype.type, y.reshape(-1),
                                lambda at: flat_tol[at], *coefficients)
        if matched is not None:
            return {"transform": None} if matched else None
    order = np.argsort(y, axis=None)
    if not _close(np.sort(x, axis=None), y.reshape(-1)[order], tol.reshape(-1)[order]):
        return None
    return {"transform": None}


def _sorted_match(sorted_values: tuple[np.ndarray, np.ndarray], wide: type[np.floating[Any]], flat_y: np.ndarray,
                  tol_at: Callable[[np.ndarray], np.ndarray], c1: Any, c2: Any) -> bool | None:
    """_permutation's argsort check (sort(x)[k] within tol[order[k]] of y[order[k]], order = argsort(y), in the
    `wide` dtype) decided from the sorted values of x and y, without argsort; None when ties in y leave the
    answer to argsort's order. tol_at(mask): tol where mask (over flat_y) holds, tol = c1 max(|x|, |y|) + c2 (c1
    and c2 as the caller's tol uses them: Python floats for float64, wide scalars for float32). At rank k that
    max is at least |sy[k]|, so tol is at least c1 |sy[k]| + c2 (a rounded product and sum, both monotone):
    ranks within it match for sure. A rank beyond it is decided by the tol at the positions holding its y value
    (order[k] is one of them): beyond their largest it fails for sure, within their smallest it matches; up to
    SORTED_RANKS such ranks are looked at, one pass each (which ones first changes the speed, not the answer)."""
    sorted_x, sorted_y = sorted_values
    found = _beyond_ranks(sorted_x, sorted_y, wide, c1, c2)
    if found is None:
        return True
    beyond, ranks = found
    undecided = beyond > SORTED_RANKS
    for rank in dict.fromkeys(ranks):
        diff = abs(wide(sorted_x[rank]) - wide(sorted_y[rank]))  # as numpy's wide arrays subtract
        holding = tol_at(_holding(flat_y, sorted_y[rank]))
        if not holding.size:  # a NaN's bits changed by the casts (the caller's gate rejects NaN anyway)
            return None
        if diff > holding.max():
            return False
        undecided |= not diff <= holding.min()
    return None if undecided else True


def _beyond_ranks(sorted_x: np.ndarray, sorted_y: np.ndarray, wide: type[np.floating[Any]], c1: Any, c2: Any
                  ) -> tuple[int, list[int]] | None:
    """How many ranks k have |sx[k] - sy[k]| beyond c1 |sy[k]| + c2 (in `wide`), and which to look at: the one
    most beyond among those whose sy[k] is not tied (its tol is known: the likeliest sure failure), the one most
    beyond of all, the first SORTED_RANKS; None when there is none. One C pass with the extension (the same
    arithmetic), else numpy's."""
    if _TRANSFORM is not None and not native_disabled():
        beyond, most, alone, first = _TRANSFORM.sorted_ranks(
            sorted_x, sorted_y, float(c1), float(c2), wide is np.float32, SORTED_RANKS)
        if not beyond:
            return None
        return beyond, ([alone] if alone >= 0 else []) + [most, *first]
    if np.array_equal(sorted_x, sorted_y):
        return None  # every difference is 0 (±0 included)
    sorted_x, sorted_y = sorted_x.astype(wide, copy=False), sorted_y.astype(wide, copy=False)
    diff = np.abs(np.subtract(sorted_x, sorted_y))  # not in place: the caller reads sorted_x's ranks afterwards
    least = np.abs(sorted_y)
    least *= c1  # the caller's tol of max(|x|, |y|) = |sy|: c1 * m, then + c2
    least += c2
    beyond = np.flatnonzero(~(diff <= least))
    if not beyond.size:
        return None
    excess = diff[beyond] - least[beyond]
    tied = np.zeros(sorted_y.size + 1, dtype=bool)
    np.equal(sorted_y[1:], sorted_y[:-1], out=tied[1:-1])
    alone = ~(tied[beyond] | tied[beyond + 1])
    ranks = [int(beyond[np.argmax(excess)]), *beyond[:SORTED_RANKS].tolist()]
    if alone.any():
        ranks.insert(0, int(beyond[alone][np.argmax(excess[alone])]))
    return int(beyond.size), ranks


def _holding(flat_y: np.ndarray, value: np.floating[Any]) -> np.ndarray:
    """flat_y == value (a value flat_y holds, finite): a non-zero one compared as the stored bits (one integer
    pass; a float16 comparison converts every element), zero as values (-0 equals +0)."""
    if value == 0 or flat_y.dtype.kind != "f":
        return np.asarray(flat_y == value)
    stored = np.array(value, dtype=flat_y.dtype)  # exact: flat_y holds it
    unsigned = np.dtype(f"u{flat_y.itemsize}")
    return np.asarray(flat_y.view(unsigned) == stored.view(unsigned))


def _sorted_values(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The values of x and y sorted (flat copies sorted in place); float16 as float32, several times faster in
    numpy (the cast is exact and keeps the order, so the values are those of sorting in any wider dtype)."""
    x_sorted, y_sorted = (values.astype(np.float32).reshape(-1) if values.dtype == np.float16
                          else values.reshape(-1).copy() for values in (x, y))
    x_sorted.sort()
    y_sorted.sort()
    return x_sorted, y_sorted


def _named_transform(x: np.ndarray, y: np.ndarray, tol: np.ndarray) -> dict[str, Any] | None:
    """The first simple transform mapping y onto x within tol: an axis reversed, two axes swapped (each gated by
    PROBES positions, then checked whole), a shift, blocks of C0 exchanged; None when none holds."""
    rng = np.random.default_rng(0)
    probe = np.unravel_index(rng.integers(0, x.size, size=min(PROBES, x.size)), x.shape)
    for axis in range(x.ndim):
        if x.shape[axis] > 1 and _probed(x, y, tol, probe, np.flip(y, axis)):
            return {"transform": "reverse", "axis": axis}
    for first in range(x.ndim):
        for second in range(first + 1, x.ndim):
            if x.shape[first] == x.shape[second] > 1 and _probed(x, y, tol, probe, np.swapaxes(y, first, second)):
                return {"transform": "swap_axes", "axes": [first, second]}
    shift = _shift(x, y, tol)
    if shift is not None:
        return {"transform": "shift", "axis": shift[0], "shift": shift[1]}
    return _c0_blocks(x, y, tol)


def _native_transform(x: np.ndarray, y: np.ndarray, c1: float, c2: float, single: bool, native_on: bool = False
                      ) -> tuple[dict[str, Any] | None, bool] | None:
    """_named_transform by the C search (_transform.find) on x, y and tol = c1 max(|x|, |y|) + c2 (in float32
    when `single`, as numpy's float32 arrays compute it, else float64): (its params or None, True when the winner
    moved every value bit for bit); None when the extension is absent, disabled or cannot read the pair.
    `native_on`: the caller knows the native paths are on (the kernel just answered), so the switch is not read."""
    searched = _native_search(x, y, c1, c2, single, native_on)
    return None if searched is None else searched[:2]


def _native_search(x: np.ndarray, y: np.ndarray, c1: float, c2: float, single: bool, native_on: bool = False
                   ) -> Searched | None:
    """_native_transform's answer and a C0 winner's perm (the origin block each fused block holds; None for
    the other transforms or none)."""
    if _TRANSFORM is None or x.dtype not in _TRANSFORM_DTYPES or y.dtype not in _TRANSFORM_DTYPES \
            or x.shape != y.shape or not 1 <= x.ndim <= 32 or x.size < 2 or (not native_on and native_disabled()):
        return None
    found = _TRANSFORM.find(np.ascontiguousarray(x), np.ascontiguousarray(y), c1, c2, single)
    if found is None:
        return None, False, None
    kind, first, second, perm, exact = found
    if kind == "reverse":
        return {"transform": "reverse", "axis": first}, exact, None
    if kind == "swap_axes":
        return {"transform": "swap_axes", "axes": [first, second]}, exact, None
    if kind == "shift":
        return {"transform": "shift", "axis": first, "shift": second}, exact, None
    moved = [j for j, source in enumerate(perm) if source != j]  # _c0_params's, without numpy's fixed costs
    return {"transform": "c0_blocks", "axis": first, "c0": second, "moved": len(moved), "count": len(perm),
            "blocks": [[j, perm[j]] for j in moved[:MAX_LISTED]]}, exact, perm


def _probed(x: np.ndarray, y: np.ndarray, tol: np.ndarray, probe: tuple[np.ndarray, ...], moved: np.ndarray
            ) -> bool:
    """x == moved (a view of y) within tol: on the probe positions first, then whole."""
    return bool(np.all(np.abs(x[probe] - moved[probe]) <= tol[probe])) and _close(x, moved, tol)


def _c0_blocks(x: np.ndarray, y: np.ndarray, tol: np.ndarray) -> dict[str, Any] | None:
    """Blocks of C0 exchanged (checked after reverse, swap and shift, so a rotation of the blocks is a shift):
     a. the last axis splits into >= 2 blocks of c0 contiguous elements (c0 in C0_SIZES, the largest that fits
        first) and fused[..., block j] == origin[..., block perm[j]] in every row, perm not the identity;
     b. a layout whose last axis is C0 long (NC1HWC0, fractal): the C0 vectors along another axis a (C1, …)
        are permuted the same way at every other index: fused[..., j, …, :] == origin[..., perm[j], …, :].
    Params: axis (whose blocks move), c0, moved (how many blocks), blocks ([fused block, origin block] pairs,
    at most MAX_LISTED), count (blocks along the axis)."""
    if x.ndim == 0:
        return None
    last = x.shape[-1]
    for c0 in C0_SIZES:
        if last % c0 == 0 and last // c0 >= 2:
            view = (-1, last // c0, c0)
            perm = _block_perm(x.reshape(view), y.reshape(view), tol.reshape(view))
            if perm is not None:
                return _c0_params(x.ndim - 1, c0, perm)
    if last in C0_SIZES and x.ndim >= 2:
        for axis in range(x.ndim - 1):
            if x.shape[axis] < 2:
                continue
            view = (math.prod(x.shape[:axis]), x.shape[axis], -1)
            perm = _block_perm(x.reshape(view), y.reshape(view), tol.reshape(view))
            if perm is not None:
                return _c0_params(axis, last, perm)
    return None


def _c0_params(axis: int, c0: int, perm: np.ndarray) -> dict[str, Any]:
    moved = np.flatnonzero(perm != np.arange(perm.size))
    return {"transform": "c0_blocks", "axis": axis, "c0": c0, "moved": int(moved.size), "count": int(perm.size),
            "blocks": [[int(j), int(perm[j])] for j in moved[:MAX_LISTED]]}


def _block_perm(x: np.ndarray, y: np.ndarray, tol: np.ndarray) -> np.ndarray | None:
    """perm with x[:, j, :] == y[:, perm[j], :] within tol (arrays (outer, blocks, inner)), not the identity.
    Candidates come from BLOCK_PROBES rows and the first two elements of each block (blocks² small numbers,
    skipped beyond MAX_BLOCKS); the one candidate is then checked on the whole arrays (one linear pass)."""
    blocks = x.shape[1]
    if blocks < 2 or blocks > MAX_BLOCKS or x.size == 0:
        return None
    rows = np.unique(np.linspace(0, x.shape[0] - 1, min(BLOCK_PROBES, x.shape[0])).round().astype(np.int64))
    width = min(2, x.shape[2])
    # match[j, i]: fused block j agrees with origin block i on every probe (rows × first elements).
    match = np.ones((blocks, blocks), dtype=bool)
    for row in rows:
        for k in range(width):
            match &= np.abs(x[row, :, k][:, None] - y[row, :, k][None, :]) <= tol[row, :, k][:, None]
    if not match.any(axis=1).all():
        return None
    identity = np.arange(blocks)
    # Prefer the block itself when it matches (repeated values), else the first matching block.
    perm = np.where(match[identity, identity], identity, np.argmax(match, axis=1))
    if not match[identity, perm].all() or np.unique(perm).size != blocks or np.array_equal(perm, identity):
        return None
    return perm if _close(x, y[:, perm, :], tol) else None


def _shift(x: np.ndarray, y: np.ndarray, tol: np.ndarray) -> tuple[int, int] | None:
    """(axis, s) with fused == roll(origin, s, axis); candidates tried on 64 positions (the first FIRST_PROBES
    of them on every shift, the others on the shifts those leave), the match checked whole."""
    rng = np.random.default_rng(0)
    probe = rng.integers(0, x.size, size=min(PROBES, x.size))
    coords = np.unravel_index(probe, x.shape)
    seen, allowed = x[coords], tol[coords]
    for axis, length in enumerate(x.shape):
        if length < 2:
            continue
        steps = np.arange(1, length)
        for part in (slice(0, FIRST_PROBES), slice(FIRST_PROBES, None)):
            if not steps.size or not probe[part].size:
                break
            # Every remaining shift at once on these probes: row j holds origin at (coords - steps[j] along axis).
            moved = [c[part] for c in coords]
            moved[axis] = (moved[axis][None, :] - steps[:, None]) % length
            others = [np.broadcast_to(c, moved[axis].shape) if a != axis else moved[axis]
                      for a, c in enumerate(moved)]
            steps = steps[np.all(np.abs(seen[None, part] - y[tuple(others)]) <= allowed[None, part], axis=1)]
        for step in steps:
            if _close(x, np.roll(y, int(step), axis), tol):
                return axis, int(step)
    return None


def _build(findings: list[Finding], confidence: float) -> Signature:
    if len(findings) == 1:
        code, params = findings[0]
        return Signature(code, round(confidence, 4), _plain(params), _sentence(code, params))
    parts = [{"code": code, "params": _plain(params)} for code, params in findings]
    sentence = "mixed: " + "; ".join(_sentence(code, params) for code, params in findings)
    return Signature("mixed", round(confidence, 4), {"parts": parts}, sentence)


_AS_IS = frozenset({int, str})  # _plain returns these unchanged


def _plain(value: Any) -> Any:
    """JSON-friendly: numpy numbers become Python ones, NaN/Inf stay floats only when finite (else None)."""
    kind = type(value)
    # The usual values (the kernel's answers are Python floats, ints and strings) without the isinstance chain.
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is int or kind is str:
        return value
    # Containers: their ints and strings as they are (a C0 permutation lists its blocks as pairs of ints).
    if isinstance(value, dict):
        return {str(key): item if type(item) in _AS_IS else _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [item if type(item) in _AS_IS else _plain(item) for item in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        return number if math.isfinite(number) else None
    return value


def _sentence(code: str, params: dict[str, Any]) -> str:
    """One English sentence per code (the console, reports and docs use it as is)."""
    if code == "nonfinite_introduced":
        return (f"non-finite values introduced: {params['count']} NaN/Inf where the origin is finite "
                f"(first at {params['first_index']})")
    if code == "overflow":
        return (f"overflow: {params['count']} values beyond the fused dtype's limit {_num(params['limit'], 'g')} "
                f"became Inf/max (accumulate in a wider dtype)")
    if code == "underflow":
        return (f"underflow: {_num(params['share'], '.2%')} of the values flushed to zero below the fused dtype's "
                f"smallest normal, the rest rounding-level")
    if code == "layout_permutation":
        return (f"layout permutation: the same values in other places ({_transform_words(params)}): "
                "an index or layout bug")
    if code == "tail_block":
        return (f"tail block: axis {params['axis']} from index {params['first_index']} (last tile of "
                f"{params['tile']}) wrong, rest rounding-level")
    if code == "localised":
        return (f"localised: {params['count']} slice(s) of axis {params['axis']} wrong "
                f"(indices {params['indices']}), rest rounding-level")
    if code == "bias":
        return f"bias: fused = origin {_num(params['offset'], '+.6g')} (a wrong constant or a missing term)"
    if code == "scale":
        factor = params["factor"]
        hint = f", about 1/{1 / factor:.4g}" if factor and math.isfinite(factor) and abs(factor) < 1 else ""
        return f"scale: fused = {_num(factor, '.6g')} × origin{hint} (a missing or extra factor such as 1/N)"
    if code == "rounding":
        return (f"rounding: every difference within {_num(params['ulps'], 'g')} units of rounding "
                f"(eps {_num(params['eps'], 'g')}), benign; max_rel_err <= {_above(params['max_rel_err'])} "
                "would pass it")
    if code == "uncorrelated":
        return f"uncorrelated: correlation {_num(params['correlation'], '.3f')} (garbage or uninitialised memory)"
    return (f"unclassified: {_num(params['differing_share'], '.2%')} of the values differ beyond rounding "
            f"(median relative error {_num(params['median_rel_err'], '.3g')})")


def _transform_words(params: dict[str, Any]) -> str:
    """How a layout_permutation moved its values, as its sentence says it (only the named transform is worded)."""
    transform = params.get("transform")
    if transform == "reverse":
        return f"axis {params.get('axis')} reversed"
    if transform == "swap_axes":
        return f"axes {params.get('axes')} swapped"
    if transform == "shift":
        return f"shifted by {params.get('shift')} along axis {params.get('axis')}"
    if transform == "c0_blocks":
        return (f"blocks of C0={params.get('c0')} exchanged along axis {params.get('axis')}: {params.get('moved')} of "
                f"{params.get('count')} moved, fused ← origin {_pairs(params.get('blocks'))}")
    return "an unknown order"


def _num(value: float | None, spec: str) -> str:
    """A number of a sentence in `spec`; a value that was NaN or Inf, stored as None in the params (_plain) when a
    grid's signature is mapped onto the whole, reads as nan, as the NaN itself does."""
    return format(math.nan if value is None else value, spec)


def _pairs(blocks: Any) -> str:
    """'1←2, 2←1' for a C0 permutation's [fused block, origin block] pairs."""
    return ", ".join(f"{pair[0]}←{pair[1]}" for pair in blocks or [])


def _above(value: float | None) -> str:
    """A round threshold just above value (one significant digit up)."""
    if value is None or value <= 0 or not math.isfinite(value):
        return "0"
    power = 10.0 ** math.floor(math.log10(value))
    return f"{math.ceil(value / power) * power:.1g}"
