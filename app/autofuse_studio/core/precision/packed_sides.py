"""Pair sides as plain values (path text, layout fields, label, graph dtype): what crosses to another process."""

from __future__ import annotations

from pathlib import Path

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.precision.pair import PairSide

Pair = tuple[PairSide, PairSide]
# A third of a pickled PairSide and much cheaper to encode (no Path or dataclass objects); msgspec decodes it
# strictly into exactly these types on the other side.
PackedLayout = tuple[str | None, str | None, tuple[int, ...] | None]
PackedSide = tuple[str | None, PackedLayout | None, str, str | None]
PackedPair = tuple[PackedSide, PackedSide]


def pack(pair: Pair) -> PackedPair:
    """A pair of sides as plain values."""
    return pack_side(pair[0]), pack_side(pair[1])


def pack_side(side: PairSide) -> PackedSide:
    """One side as plain values (a side without a file has no path)."""
    layout = side.layout
    shape = None if layout is None else (layout.layout, layout.origin_format, layout.origin_shape)
    return None if side.path is None else str(side.path), shape, side.label, side.graph_dtype


def unpack_side(side: PackedSide, path: str | None = None) -> PairSide:
    """The PairSide of packed values; `path` replaces the packed path (a worker's own name for the file)."""
    packed_path, layout, label, dtype = side
    text = packed_path if path is None else path
    return PairSide(None if text is None else Path(text), None if layout is None else LayoutInfo(*layout), label,
                    dtype)
