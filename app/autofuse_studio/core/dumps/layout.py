"""Bring a device-layout tensor (5HD, 6HD, FRACTAL_NZ, FRACTAL_Z ...) to its origin layout without copying.

Every supported layout is described the same way: a free reshape of the raw view, then for each
logical axis ("letter", e.g. N, C, H, W) the device axes that merge into it, in order. C of
NC1HWC0 is the merge of (C1, C0); H of FRACTAL_NZ is (N1, N0). The target order of the letters gives
a transpose, the merges become LazyTensor groups and the real extents (from origin_shape) the crop
that drops the padding. Plain -> plain permutations are the special case of one axis per letter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.errors import FormatConversionError, FormatUnsupported

# Plain layouts whose name spells the axis order, one letter per axis.
LETTERED_FORMATS = frozenset({"NCHW", "NHWC", "HWCN", "CHWN", "NDHWC", "NCDHW", "DHWCN", "DHWNC"})
PLAIN_FORMATS = LETTERED_FORMATS | {"ND", "NC", "CN", "NCL", "MD"}
_NO_FORMAT = frozenset({"", "RESERVED", "UNDEFINED", "ALL", "NULL"})
_ALIASES = {
    "NC1HWC0_C04": "NC1HWC0",
    "FRACTAL_Z_C04": "FRACTAL_Z",
    "FRACTAL_NZ_C0_2": "FRACTAL_NZ",
    "FRACTAL_NZ_C0_4": "FRACTAL_NZ",
    "FRACTAL_NZ_C0_8": "FRACTAL_NZ",
    "FRACTAL_NZ_C0_16": "FRACTAL_NZ",
    "FRACTAL_NZ_C0_32": "FRACTAL_NZ",
}
# When the origin order is unknown (ND or missing) this is what the tensor's letters are assumed to be;
# NC1HWC0 -> NHWC is what the reference nwa tool assumes.
_DEFAULT_ORIGIN = {"NC1HWC0": "NHWC", "NDC1HWC0": "NDHWC", "FRACTAL_Z": "NCHW", "FRACTAL_Z_3D": "NCDHW"}

_DEVICE_RANKS = {
    "NC1HWC0": "5",
    "NDC1HWC0": "6",
    "FRACTAL_NZ": "4 or more",
    "FRACTAL_Z": "4",
    "FRACTAL_Z_3D": "4",
}
_Letters = dict[str, list[int]]  # letter -> device axes merged into it, outer first


@dataclass(frozen=True)
class LayoutInfo:
    """A tensor's layout in the dump and its logical (origin) format and shape from the graph."""

    layout: str | None
    origin_format: str | None
    origin_shape: tuple[int, ...] | None


def normalize_format(name: str | None) -> str | None:
    """Canonical layout name ('FORMAT_NCHW' -> 'NCHW', aliases folded); None for absent/reserved."""
    if name is None:
        return None
    text = name.strip().upper()
    text = text.removeprefix("FORMAT_")
    if text in _NO_FORMAT:
        return None
    return _ALIASES.get(text, text)


def is_private_format(layout: str | None) -> bool:
    """True for device-private layouts (5HD, NZ, FRACTAL_Z ...), False for plain or absent ones."""
    name = normalize_format(layout)
    return name is not None and name not in PLAIN_FORMATS


def _shape_error(what: str, raw: tuple[int, ...], info: LayoutInfo) -> FormatConversionError:
    origin_shape = list(info.origin_shape) if info.origin_shape is not None else None
    return FormatConversionError.of("layout_shape_mismatch", layout=info.layout, shape=str(list(raw)),
                                    origin=info.origin_format, origin_shape=str(origin_shape), problem=what)


def _origin_letters(source: str, rank: int, info: LayoutInfo, target: str | None) -> str:
    """The letters naming origin_shape's axes: origin_format, else the target's, else the default."""
    for candidate in (normalize_format(info.origin_format), target, _DEFAULT_ORIGIN.get(source)):
        if candidate in LETTERED_FORMATS and len(candidate) == rank:
            return candidate
    return "".join(chr(ord("a") + axis) for axis in range(rank))  # anonymous axes in origin order


def _private_axes(
    source: str, raw: np.ndarray, info: LayoutInfo, target: str | None
) -> tuple[np.ndarray, _Letters, str]:
    """(reshaped view, letter -> device axes, origin letters) for a private layout."""
    if source == "NC1HWC0" and raw.ndim == 5:
        return raw, {"N": [0], "C": [1, 4], "H": [2], "W": [3]}, _origin_letters(source, 4, info, target)
    if source == "NDC1HWC0" and raw.ndim == 6:
        if info.origin_shape is not None and len(info.origin_shape) == 4:
            # A 4-D origin has D=1 on the device; the hidden D axis is dropped by _build.
            letters = {"N": [0], "_D": [1], "C": [2, 5], "H": [3], "W": [4]}
            return raw, letters, _origin_letters("NC1HWC0", 4, info, target)
        letters = {"N": [0], "D": [1], "C": [2, 5], "H": [3], "W": [4]}
        return raw, letters, _origin_letters(source, 5, info, target)
    if source == "FRACTAL_NZ" and raw.ndim >= 4:
        return _nz_axes(raw, info, target)
    if source in ("FRACTAL_Z", "FRACTAL_Z_3D") and raw.ndim == 4:
        return _fractal_z_axes(source, raw, info, target)
    if source in _DEVICE_RANKS:
        raise _shape_error(
            f"{source} tensors have rank {_DEVICE_RANKS[source]}, not {raw.ndim}", raw.shape, info
        )
    raise FormatUnsupported.of("layout_no_conversion", layout=info.layout, target=target or info.origin_format)


def _nz_axes(raw: np.ndarray, info: LayoutInfo, target: str | None) -> tuple[np.ndarray, _Letters, str]:
    """FRACTAL_NZ (..., C1, N1, N0, C0) -> origin (..., H, W); a 1-D origin lives in row 0."""
    origin = info.origin_shape
    if origin is not None and len(origin) == 1:
        if raw.ndim != 4:
            raise _shape_error("a 1-D origin needs a 4-D FRACTAL_NZ tensor", raw.shape, info)
        # The hidden H axis (extent 1) is dropped by _build because no target letter names it.
        return raw, {"a": [0, 3], "_H": [1, 2]}, "a"
    rank = raw.ndim - 2
    if origin is not None and len(origin) != rank:
        raise _shape_error(f"FRACTAL_NZ of rank {raw.ndim} needs an origin of rank {rank}", raw.shape, info)
    letters = _origin_letters("FRACTAL_NZ", rank, info, target)
    axes = {letter: [axis] for axis, letter in enumerate(letters[:-2])}
    batch = rank - 2
    axes[letters[-2]] = [batch + 1, batch + 2]  # H = (N1, N0)
    axes[letters[-1]] = [batch, batch + 3]  # W = (C1, C0)
    return raw, axes, letters


def _fractal_z_axes(
    source: str, raw: np.ndarray, info: LayoutInfo, target: str | None
) -> tuple[np.ndarray, _Letters, str]:
    """FRACTAL_Z (C1·H·W, N1, N0, C0) and FRACTAL_Z_3D (C1·D·H·W, ...) split with H, W (D) from origin."""
    origin = info.origin_shape
    if origin is not None and len(origin) == 2 and source == "FRACTAL_Z":
        return raw, {"a": [0, 3], "b": [1, 2]}, "ab"  # matrix (K, N): (ceil(K/C0), N1, N0, C0)
    rank = 4 if source == "FRACTAL_Z" else 5
    if origin is None or len(origin) != rank:
        raise _shape_error(f"{source} needs a {rank}-D origin_shape to split its first axis", raw.shape, info)
    letters = _origin_letters(source, rank, info, target)
    spatial = [origin[letters.index(letter)] for letter in "DHW" if letter in letters]
    if any(extent <= 0 for extent in spatial):
        raise _shape_error("the spatial extents must be known and positive", raw.shape, info)
    c1, remainder = divmod(raw.shape[0], math.prod(spatial))
    if remainder:
        raise _shape_error(
            f"the first axis is not a multiple of {'*'.join(map(str, spatial))}", raw.shape, info
        )
    view = raw.reshape(c1, *spatial, *raw.shape[1:])
    names = [letter for letter in "DHW" if letter in letters]
    axes = {letter: [axis + 1] for axis, letter in enumerate(names)}
    n1 = len(names) + 1
    axes.update({"N": [n1, n1 + 1], "C": [0, n1 + 2]})
    return view, axes, letters


def _extent(
    letter: str, axes: list[int], view: np.ndarray, origin: int | None, raw: tuple[int, ...], info: LayoutInfo
) -> int:
    """The real extent of a letter: origin_shape's value, checked against the padded device extent."""
    sizes = [int(view.shape[axis]) for axis in axes]
    padded = math.prod(sizes)
    if origin is None:
        return padded
    block = math.prod(sizes[1:])
    if origin < 0:
        if block == 1:
            return padded  # not padded: the device shape holds the exact extent
        raise _shape_error(f"{letter} is {origin} in origin_shape and padded on the device side", raw, info)
    if origin != padded and not padded - block < origin <= padded:
        raise _shape_error(
            f"{letter}={origin} does not fit the device extent {padded} (block {block})", raw, info
        )
    return origin


def _build(
    tensor: LazyTensor, view: np.ndarray, axes: _Letters, extents: dict[str, int], order: str
) -> LazyTensor:
    """The LazyTensor of `view` with the letters in `order`; letters left out must have extent 1."""
    dropped = [letter for letter in axes if letter not in order]
    if any(extents[letter] != 1 for letter in dropped):
        raise FormatUnsupported.of("layout_cannot_reorder", axes="".join(axes), order=order)
    perm = [axis for letter in order for axis in axes[letter]]
    tail = [axis for letter in dropped for axis in axes[letter]]
    moved = view.transpose(perm + tail)
    # Dropping an axis of extent 1 (after the crop) is taking its index 0: still a view.
    moved = moved[(slice(None),) * len(perm) + (0,) * len(tail)]
    groups = tuple(len(axes[letter]) for letter in order)
    shape = tuple(extents[letter] for letter in order)
    return LazyTensor(moved, groups, shape, tensor.decode, tensor.logical_dtype)


def _target_order(target: str | None, origin_letters: str, axes: _Letters, info: LayoutInfo) -> str:
    """The target letters: the target's own when it names the same axes, else the origin order."""
    named = sorted(letter for letter in axes if not letter.startswith("_"))
    if target is None:
        return origin_letters
    if sorted(target) == named:
        return target
    if all(letter.isupper() for letter in named):
        raise FormatUnsupported.of("layout_no_conversion", layout=info.layout, target=target)
    return origin_letters  # anonymous (ND) origin axes of another rank: keep the origin order


def _resolve_target(target_format: str | None, info: LayoutInfo) -> str | None:
    """The lettered layout to reach; None means the origin order (ND, NC, private or unknown targets)."""
    target = normalize_format(target_format)
    if target is None or target == "ND" or is_private_format(target):
        target = normalize_format(info.origin_format)  # ND means "origin_format order"
    return target if target in LETTERED_FORMATS else None


def _require_raw(tensor: LazyTensor, info: LayoutInfo) -> None:
    """Conversions start from the raw dump view, not from an already merged/cropped tensor."""
    if tensor.groups != (1,) * tensor.view.ndim:
        raise FormatConversionError.of("layout_already_converted", layout=info.layout)


def _permute_plain(
    tensor: LazyTensor, source: str, target: str | None, info: LayoutInfo
) -> tuple[LazyTensor, bool]:
    """NCHW <-> NHWC, HWCN -> NCHW/NHWC, NDHWC <-> NCDHW ...: a transpose view."""
    if source not in LETTERED_FORMATS or target is None or target == source:
        return tensor, False
    if sorted(target) != sorted(source):
        raise FormatUnsupported.of("layout_no_conversion", layout=info.layout, target=target)
    _require_raw(tensor, info)
    if tensor.ndim != len(source):
        raise _shape_error(f"{source} tensors have rank {len(source)}, not {tensor.ndim}", tensor.shape, info)
    axes = {letter: [axis] for axis, letter in enumerate(source)}
    extents = dict(zip(source, tensor.shape, strict=True))
    return _build(tensor, tensor.view, axes, extents, target), True


def to_origin_layout(
    tensor: LazyTensor, info: LayoutInfo, target_format: str | None
) -> tuple[LazyTensor, bool]:
    """Convert a tensor to the plain layout `target_format` (None/ND -> origin order) as a lazy view."""
    source = normalize_format(info.layout)
    target = _resolve_target(target_format, info)
    if source is None or source == normalize_format(target_format):
        return tensor, False
    if source in PLAIN_FORMATS:
        return _permute_plain(tensor, source, target, info)
    _require_raw(tensor, info)
    raw = tensor.view
    view, axes, origin_letters = _private_axes(source, raw, info, target)
    extents = {}
    for letter, letter_axes in axes.items():
        origin = _origin_extent(letter, origin_letters, info, raw)
        extents[letter] = _extent(letter, letter_axes, view, origin, raw.shape, info)
    return _build(tensor, view, axes, extents, _target_order(target, origin_letters, axes, info)), True


def _origin_extent(letter: str, origin_letters: str, info: LayoutInfo, raw: np.ndarray) -> int | None:
    """The letter's extent in origin_shape (1 for hidden axes), None when unknown."""
    if letter.startswith("_"):
        return 1
    origin = info.origin_shape
    if origin is None:
        return None
    if len(origin) != len(origin_letters):
        raise _shape_error(
            f"origin_shape has rank {len(origin)} but {info.layout} needs rank {len(origin_letters)}",
            raw.shape,
            info,
        )
    return int(origin[origin_letters.index(letter)])
