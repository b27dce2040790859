"""TensorPair: both sides of a tensor comparison, as the tensor view and its segmented passes read them."""

from __future__ import annotations

from dataclasses import dataclass

from autofuse_studio.core.dumps.lazy import LazyTensor


@dataclass(frozen=True)
class TensorPair:
    """Both sides of a comparison as LazyTensors of equal size, in the origin layout."""

    fused: LazyTensor
    origin: LazyTensor
    layout: str | None = None
    fused_label: str = "fused"
    origin_label: str = "origin"

    @property
    def shape(self) -> tuple[int, ...]:
        """The logical shape (the origin side's): indices in reports refer to it."""
        return self.origin.shape

    @property
    def size(self) -> int:
        """Number of compared elements."""
        return self.origin.size

    def axis_names(self) -> list[str]:
        """Layout letters (N, C, H, W ...) when the layout spells the axes, else d0, d1 ..."""
        if self.layout is not None and len(self.layout) == len(self.shape):
            return list(self.layout)
        return [f"d{axis}" for axis in range(len(self.shape))]
