"""Partial: the running sums of the precision metrics over blocks, filled by numpy or the native kernel."""

from __future__ import annotations

import math
from dataclasses import dataclass, field


def _nan_max(left: float, right: float) -> float:
    """max() that propagates NaN like np.max does."""
    if math.isnan(left) or math.isnan(right):
        return math.nan
    return max(left, right)


@dataclass
class Partial:
    """Running sums; squared sums are stored in units of 2**(2*exp) for their scale exponents."""

    count: int = 0
    dot_ab: float = 0.0
    sum_aa: float = 0.0
    sum_bb: float = 0.0
    sum_dd: float = 0.0
    exp_a: int = 0
    exp_b: int = 0
    exp_d: int = 0
    max_abs: float = 0.0
    max_rel: float = 0.0
    sum_abs: float = 0.0
    passes: list[int] = field(default_factory=lambda: [0, 0])
    nan_a: int = 0
    inf_a: int = 0
    nan_b: int = 0
    inf_b: int = 0
    nonfinite_mismatch: int = 0

    def merge(self, other: Partial) -> None:
        """Add another block's partial sums into this one (rescaling to the larger exponents)."""
        exp_a, exp_b, exp_d = (max(self.exp_a, other.exp_a), max(self.exp_b, other.exp_b),
                               max(self.exp_d, other.exp_d))
        self.dot_ab = (math.ldexp(self.dot_ab, self.exp_a + self.exp_b - exp_a - exp_b)
                       + math.ldexp(other.dot_ab, other.exp_a + other.exp_b - exp_a - exp_b))
        self.sum_aa = math.ldexp(self.sum_aa, 2 * (self.exp_a - exp_a)) + math.ldexp(
            other.sum_aa, 2 * (other.exp_a - exp_a))
        self.sum_bb = math.ldexp(self.sum_bb, 2 * (self.exp_b - exp_b)) + math.ldexp(
            other.sum_bb, 2 * (other.exp_b - exp_b))
        self.sum_dd = math.ldexp(self.sum_dd, 2 * (self.exp_d - exp_d)) + math.ldexp(
            other.sum_dd, 2 * (other.exp_d - exp_d))
        self.exp_a, self.exp_b, self.exp_d = exp_a, exp_b, exp_d
        self.count += other.count
        self.max_abs = _nan_max(self.max_abs, other.max_abs)
        self.max_rel = _nan_max(self.max_rel, other.max_rel)
        self.sum_abs += other.sum_abs
        self.passes = [mine + theirs for mine, theirs in zip(self.passes, other.passes, strict=True)]
        self.nan_a += other.nan_a
        self.inf_a += other.inf_a
        self.nan_b += other.nan_b
        self.inf_b += other.inf_b
        self.nonfinite_mismatch += other.nonfinite_mismatch
