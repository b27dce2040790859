"""LazyTensor: a tensor in its logical (origin) layout, materialised block by block from a raw view.

A device-layout tensor (NC1HWC0, FRACTAL_NZ ...) becomes its origin layout by a reshape, a transpose,
merging groups of axes and cropping the padding. Reshape and transpose are free on a memory map; the
merge + crop is what copies. LazyTensor keeps the transposed view and applies merge + crop only to the
block being read, so a 100M-element tensor is compared with a few MB of working memory.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

Decoder = Callable[[np.ndarray], np.ndarray]

DEFAULT_BLOCK_ELEMENTS = 1 << 18


def decode_bf16(raw: np.ndarray) -> np.ndarray:
    """Turn bf16 bit patterns (uint16 or V2) into float32 values."""
    bits = raw.view(np.uint16) if raw.dtype.kind == "V" else raw
    return (bits.astype(np.uint32) << 16).view(np.float32)


@functools.cache
def _dtype_name(dtype: np.dtype[np.generic]) -> str:
    return str(dtype)  # numpy builds the name in Python on every call


@dataclass(frozen=True)
class LazyTensor:
    """A view whose axis groups merge into the target axes, cropped to `shape` and decoded on read."""

    view: np.ndarray
    groups: tuple[int, ...]
    shape: tuple[int, ...]
    decode: Decoder | None = None
    logical_dtype: str | None = None
    note: str = ""  # what reading it decided that a user should know (e.g. FFTS+ thread files merged)

    @staticmethod
    def plain(
        array: np.ndarray, decode: Decoder | None = None, logical_dtype: str | None = None
    ) -> LazyTensor:
        """Wrap an array as is (no layout change)."""
        return LazyTensor(array, (1,) * array.ndim, tuple(array.shape), decode, logical_dtype)

    @property
    def ndim(self) -> int:
        """Number of target axes."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of target elements (after cropping)."""
        return math.prod(self.shape)

    @property
    def dtype(self) -> np.dtype[np.generic]:
        """The dtype of materialised values (after decoding)."""
        if self.decode is None:
            return self.view.dtype
        return self.decode(np.zeros(1, dtype=self.view.dtype)).dtype

    @property
    def dtype_name(self) -> str:
        """The name users know for the stored dtype (e.g. bfloat16 for decoded '<V2')."""
        return self.logical_dtype or _dtype_name(self.view.dtype)

    @property
    def is_identity(self) -> bool:
        """True when no merge, crop or decode is needed: the view is the tensor."""
        return self.decode is None and self.groups == (1,) * self.view.ndim and self.shape == self.view.shape

    def _merged_shape(self, view: np.ndarray, groups: tuple[int, ...]) -> list[int]:
        merged, axis = [], 0
        for count in groups:
            merged.append(math.prod(view.shape[axis : axis + count]))
            axis += count
        return merged

    def _finish(self, view: np.ndarray, groups: tuple[int, ...], shape: tuple[int, ...]) -> np.ndarray:
        merged = np.reshape(view, self._merged_shape(view, groups))
        cropped = merged[tuple(slice(0, extent) for extent in shape)]
        values = np.ascontiguousarray(cropped)
        return self.decode(values) if self.decode is not None else values

    def materialize(self) -> np.ndarray:
        """The whole target tensor as a contiguous array (copies unless the view already is it)."""
        if self.is_identity and self.view.flags.c_contiguous:
            return self.view
        return self._finish(self.view, self.groups, self.shape)

    def sub(self, index: int) -> LazyTensor:
        """The tensor with target axis 0 fixed at `index` (still lazy)."""
        if not 0 <= index < self.shape[0]:
            raise IndexError(f"index {index} out of range for axis of length {self.shape[0]}")
        first = self.groups[0]
        outer = np.unravel_index(index, self.view.shape[:first])
        sub_view = self.view[tuple(int(i) for i in outer)]
        return LazyTensor(sub_view, self.groups[1:], self.shape[1:], self.decode, self.logical_dtype)

    def rows(self, start: int, stop: int) -> np.ndarray:
        """Target[start:stop] along axis 0, materialised."""
        first = self.groups[0]
        inner = math.prod(self.view.shape[1:first])
        outer_start, outer_stop = start // inner, -(-stop // inner)
        sub_view = self.view[outer_start:outer_stop]
        rows_shape = (outer_stop - outer_start) * inner
        block = self._finish(sub_view, self.groups, (rows_shape, *self.shape[1:]))
        offset = start - outer_start * inner
        return block[offset : offset + (stop - start)]


def iter_blocks(tensor: LazyTensor, max_elements: int = DEFAULT_BLOCK_ELEMENTS) -> Iterator[np.ndarray]:
    """Yield the tensor's values in C order as 1-D blocks of at most max_elements (when possible)."""
    if tensor.size == 0:
        return
    if tensor.ndim == 0 or tensor.size <= max_elements:
        yield tensor.materialize().reshape(-1)
        return
    row_elements = tensor.size // tensor.shape[0]
    if row_elements <= max_elements:
        step = max(1, max_elements // row_elements)
        for start in range(0, tensor.shape[0], step):
            yield tensor.rows(start, min(start + step, tensor.shape[0])).reshape(-1)
        return
    for index in range(tensor.shape[0]):
        yield from iter_blocks(tensor.sub(index), max_elements)


def rechunk(blocks: Iterator[np.ndarray], size: int) -> Iterator[np.ndarray]:
    """Re-cut a stream of 1-D blocks into blocks of exactly `size` elements (the last may be shorter)."""
    pending: list[np.ndarray] = []
    pending_count = 0
    for block in blocks:
        while block.size:
            if not pending and block.size >= size:
                yield block[:size]
                block = block[size:]
                continue
            take = min(size - pending_count, block.size)
            pending.append(block[:take])
            pending_count += take
            block = block[take:]
            if pending_count == size:
                yield np.concatenate(pending)
                pending, pending_count = [], 0
    if pending:
        yield np.concatenate(pending)


def iter_aligned_pairs(
    left: LazyTensor, right: LazyTensor, max_elements: int = DEFAULT_BLOCK_ELEMENTS
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield equal-length 1-D blocks of two tensors of the same size, element i against element i."""
    if left.size != right.size:
        raise ValueError(f"tensor sizes differ: {left.size} vs {right.size}")
    if left.shape == right.shape:
        # Same shapes give the same block boundaries: no re-cutting needed.
        yield from zip(iter_blocks(left, max_elements), iter_blocks(right, max_elements), strict=True)
        return
    yield from zip(
        rechunk(iter_blocks(left, max_elements), max_elements),
        rechunk(iter_blocks(right, max_elements), max_elements),
        strict=True,
    )

