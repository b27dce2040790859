"""Statistics-mode precision: per-tensor statistics and the pass/fail rule for two statistic sets.

When only statistics were dumped (CANN `dump_data: stats`), a fused tensor is judged by comparing its
statistics with those of the origin tensor, not element by element.

Verdict rule. A stats row (fused tensor vs origin tensor) FAILS when any of these holds:
  * a value statistic present on both sides (Max, Min, Avg, L2 norm) differs beyond its limit:
    |a - b| > abs_floor AND |a - b| / max(|a|, |b|) > max_rel; a non-finite value (inf, nan) only equals
    the same non-finite value;
  * a non-finite count present on both sides (NaN, -Inf, +Inf) differs by more than max_nonfinite_diff
    (0 by default: NaN appearing on one side only fails).
It PASSES when every compared statistic is within its limits. It has NO verdict (fails() is None) when
either row is unusable (a failure row, a parse problem), when the element counts differ (the statistics
then cover different data, e.g. a device layout's padding) or when no statistic is present on both sides.
CULPRIT / PROPAGATED then follow from pass/fail exactly as for tensor rows: a fused op whose input rows
agree while an output row fails is the culprit; the verdict code needs only fails().
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import Any

import numpy as np

from autofuse_studio.core.dumps.lazy import DEFAULT_BLOCK_ELEMENTS, LazyTensor, iter_blocks
from autofuse_studio.core.dumps.stats_csv import COUNT_ITEMS, VALUE_ITEMS, TensorStats, json_number

# Default limits. 1% relative: one ulp of a bf16 value is at most 0.78% of it (fp16: 0.1%), so Max/Min of
# the same data rounded differently pass, while a 10% shift of an average fails. The absolute floor
# keeps statistics near zero (an Avg of 1e-5 vs 3e-5 over data of magnitude 1) from failing on rounding
# noise; it assumes activations of magnitude around 1 and hides real differences of tensors whose whole
# scale is below it; lower it per dtype for such data.
DEFAULT_MAX_REL = 1e-2
DEFAULT_ABS_FLOOR = 1e-3
# Only for the division in rel_diff: both values zero means no difference at all.
_TINY = 1e-300
# Blocks whose largest finite magnitude has a binary exponent beyond this are scaled by a power of two
# before summing squares, so float64 neither overflows (1e200**2) nor underflows (1e-200**2);
# ordinary data is summed unscaled and matches numpy bit for bit.
_SCALE_EXPONENT_LIMIT = 480

# CANN spellings that lower-casing 'DT_' names does not turn into numpy names.
_DTYPE_ALIASES = {"float": "float32", "double": "float64", "bf16": "bfloat16", "fp16": "float16",
                  "half": "float16", "fp32": "float32", "fp64": "float64"}


def canonical_dtype(name: str) -> str:
    """The numpy-style name of a dtype written either way: DT_FLOAT16 -> float16, DT_BF16 -> bfloat16."""
    text = name.strip().lower()
    text = text[3:] if text.startswith("dt_") else text
    return _DTYPE_ALIASES.get(text, text)


@dataclass
class _Running:
    """Running statistics of finite values, non-finite counts and a scaled sum of squares."""

    finite: int = 0
    nan: int = 0
    neg_inf: int = 0
    pos_inf: int = 0
    low: float = math.inf
    high: float = -math.inf
    mean: float = 0.0
    squares: float = 0.0  # the sum of squares in units of 2**(2 * exponent)
    exponent: int = 0

    def update(self, values: np.ndarray, may_be_nonfinite: bool) -> None:
        """Add a float64 block."""
        if may_be_nonfinite:
            finite_mask = np.isfinite(values)
            finite_count = int(np.count_nonzero(finite_mask))
            if finite_count < values.size:
                nan = int(np.count_nonzero(np.isnan(values)))
                pos_inf = int(np.count_nonzero(values == math.inf))
                self.nan += nan
                self.pos_inf += pos_inf
                self.neg_inf += int(values.size) - finite_count - nan - pos_inf
                values = values[finite_mask]
        if values.size == 0:
            return
        low, high = float(values.min()), float(values.max())
        self.low, self.high = min(self.low, low), max(self.high, high)
        exponent = math.frexp(max(-low, high))[1]
        if abs(exponent) <= _SCALE_EXPONENT_LIMIT:
            exponent, scaled = 0, values
        else:
            scaled = np.ldexp(values, -exponent)  # exact: a power of two
        block_mean = math.ldexp(float(np.mean(scaled)), exponent) if exponent else float(np.mean(values))
        # Not np.dot: multi-threaded BLAS is slow on a busy machine (see tensor_stats.py).
        self._add_squares(float(np.square(scaled).sum()), exponent)
        # Merging block means (Chan et al.) rather than summing: no overflow, exact up to rounding.
        count = int(values.size)
        total = self.finite + count
        self.mean = block_mean if self.finite == 0 else self.mean + (block_mean - self.mean) * count / total
        self.finite = total

    def _add_squares(self, squares: float, exponent: int) -> None:
        if squares == 0:
            return  # adding zeros must not rescale (and so round away) tiny earlier sums
        if self.squares == 0:
            self.squares, self.exponent = squares, exponent
            return
        target = max(self.exponent, exponent)
        self.squares = (math.ldexp(self.squares, 2 * (self.exponent - target))
                        + math.ldexp(squares, 2 * (exponent - target)))
        self.exponent = target

    def l2norm(self) -> float:
        """sqrt(sum of squares), inf when it is beyond float64."""
        try:
            return math.ldexp(math.sqrt(self.squares), self.exponent)
        except OverflowError:
            return math.inf


def _float_blocks_allowed(dtype: np.dtype[Any]) -> str | None:
    """Why values of `dtype` cannot become float64 statistics, or None when they can."""
    if dtype.kind in "biuf":
        return None
    if dtype.kind == "V":  # ml_dtypes' bfloat16 and float8 types are 'V' but convert; raw bytes do not
        try:
            np.zeros(1, dtype=dtype).astype(np.float64)
        except (TypeError, ValueError):
            return f"values of dtype {dtype} are raw bytes, not numbers"
        return None
    return f"values of dtype {dtype} have no statistics here (only real numbers and bool do)"


def tensor_statistics(tensor: LazyTensor, kind: str, index: int, *, data_format: str = "ND",
                      block_elements: int = DEFAULT_BLOCK_ELEMENTS) -> TensorStats:
    """The statistics CANN's stats dump reports, computed from a tensor block by block in float64.

    Max, Min, Avg and the L2 norm are taken over the FINITE values only, NaN and +-Inf being counted
    apart (CANN's device writer's exact treatment is not documented; AICPU's Avg can become +-Inf). With
    no finite value they are None. Integers above 2**53 round to float64. `count` is the element count.
    """
    dtype = tensor.dtype
    base = TensorStats(kind, index, data_size=tensor.size * tensor.view.dtype.itemsize, dtype=tensor.dtype_name,
                       format=data_format, shape=tuple(tensor.shape), count=tensor.size)
    reason = _float_blocks_allowed(dtype)
    if reason:
        return replace(base, problem=f"{kind} {index}: {reason}.")
    running = _Running()
    may_be_nonfinite = dtype.kind not in "biu"
    for block in iter_blocks(tensor, block_elements):
        running.update(block.astype(np.float64, copy=False), may_be_nonfinite)
    empty = running.finite == 0
    return TensorStats(
        kind, index, base.data_size, base.dtype, base.format, base.shape, base.count,
        max=None if empty else running.high, min=None if empty else running.low,
        avg=None if empty else running.mean, l2norm=None if empty else running.l2norm(),
        nan_count=running.nan, neg_inf_count=running.neg_inf, pos_inf_count=running.pos_inf,
    )


@dataclass(frozen=True)
class StatsLimits:
    """Limits for one stats row (defaults: see DEFAULT_MAX_REL and DEFAULT_ABS_FLOOR above).

    A value statistic breaks them when |a - b| > abs_floor AND |a - b| / max(|a|, |b|) > max_rel; a
    non-finite count when it differs by more than max_nonfinite_diff (0: any new NaN or Inf fails).
    """

    max_rel: float = DEFAULT_MAX_REL
    abs_floor: float = DEFAULT_ABS_FLOOR
    max_nonfinite_diff: int = 0

    def __post_init__(self) -> None:
        for name in ("max_rel", "abs_floor", "max_nonfinite_diff"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
                raise ValueError(f"stats limit {name} must be a finite number of 0 or more, not {value!r}")

    def describe(self) -> str:
        """'Max/Min/Avg/L2 norm within 1% (or 0.001), NaN/Inf counts equal'."""
        counts = ("NaN/Inf counts equal" if self.max_nonfinite_diff == 0
                  else f"NaN/Inf counts within {self.max_nonfinite_diff}")
        return f"Max/Min/Avg/L2 norm within {self.max_rel:.4g} relative (or {self.abs_floor:g} absolute), {counts}"

    def as_dict(self) -> dict[str, float | int]:
        """JSON-friendly form."""
        return {"max_rel": self.max_rel, "abs_floor": self.abs_floor, "max_nonfinite_diff": self.max_nonfinite_diff}


@dataclass(frozen=True, slots=True)
class ItemComparison:
    """One statistic on both sides: diff = fused - origin, rel_diff = |diff| / max(|fused|, |origin|)."""

    name: str
    fused: float
    origin: float
    diff: float  # 0.0 when equal (also inf == inf, nan vs nan); nan for inf vs inf of the other sign
    rel_diff: float  # 0.0 when equal, inf when only one side is non-finite

    @property
    def is_count(self) -> bool:
        """True for the element count and the NaN/Inf counts."""
        return self.name not in VALUE_ITEMS

    def breaks(self, limits: StatsLimits) -> bool:
        """True when this statistic breaks `limits` (the element count is never judged here)."""
        # Each field read once (the verdicts and the console table judge 100k+ rows of seven statistics).
        name, diff = self.name, self.diff
        if name in COUNT_ITEMS:
            return abs(diff) > limits.max_nonfinite_diff
        if name not in VALUE_ITEMS or diff == 0:  # the element count, or no difference
            return False
        if not (math.isfinite(self.fused) and math.isfinite(self.origin)):
            return True
        return abs(diff) > limits.abs_floor and self.rel_diff > limits.max_rel

    def severity(self, limits: StatsLimits) -> float:
        """How far beyond its limit this statistic is (above 1: broken), for ranking the worst one."""
        name, diff = self.name, self.diff
        if diff == 0 or name == "count":
            return 0.0
        if name in COUNT_ITEMS:
            size = abs(diff)
            return math.inf if size > limits.max_nonfinite_diff else size / (limits.max_nonfinite_diff + 1)
        if not (math.isfinite(self.fused) and math.isfinite(self.origin)):
            return math.inf
        by_floor = abs(self.diff) / limits.abs_floor if limits.abs_floor else math.inf
        by_rel = self.rel_diff / limits.max_rel if limits.max_rel else math.inf
        return min(by_floor, by_rel)

    def describe(self) -> str:
        """'avg 0.55 vs 0.5 (10% apart)' or 'nan_count 3 vs 0'."""
        if self.is_count:
            return f"{self.name} {self.fused:g} vs {self.origin:g}"
        return f"{self.name} {self.fused:.6g} vs {self.origin:.6g} ({self.rel_diff:.3g} relative)"

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (non-finite numbers as 'nan', 'inf', '-inf')."""
        # Finite numbers as they are, the rest through json_number: result files spell 100k of these (issue 29),
        # and a sum is NaN or ±Inf when one of its terms is (an overflowing sum only takes the slower path).
        fused, origin, diff, rel_diff = self.fused, self.origin, self.diff, self.rel_diff
        try:
            total = fused + origin + diff + rel_diff
        except (TypeError, OverflowError):  # None, or an int beyond a float's range
            total = math.nan
        if total - total == 0:
            return {"fused": fused, "origin": origin, "diff": diff, "rel_diff": rel_diff}
        return {"fused": json_number(fused), "origin": json_number(origin), "diff": json_number(diff),
                "rel_diff": json_number(rel_diff)}


def _slot_setters(kind: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The __set__ of each field's slot of a slots dataclass, in field order (what its __init__ sets, without the
    frozen class's setattr check)."""
    return tuple(kind.__dict__[found.name].__set__ for found in dataclass_fields(kind))


_ITEM_SLOTS = _slot_setters(ItemComparison)


def item_comparison(name: str, fused: float, origin: float, diff: float, rel_diff: float) -> ItemComparison:
    """ItemComparison(name, fused, origin, diff, rel_diff), made without __init__: its five frozen setattr calls
    cost more than the rest of a statistic's comparison (seven a row, 100k+ rows in a statistics run, again
    where helper processes' results are decoded). ItemComparison has no __post_init__ (a test checks both equal).
    Slots, not a __dict__: 140k of them held 25 MB less, a statistics run's peak the NPY run's."""
    made = object.__new__(ItemComparison)
    set_name, set_fused, set_origin, set_diff, set_rel_diff = _ITEM_SLOTS
    set_name(made, name)
    set_fused(made, fused)
    set_origin(made, origin)
    set_diff(made, diff)
    set_rel_diff(made, rel_diff)
    return made


def _item(name: str, fused: float, origin: float) -> ItemComparison:
    same = fused == origin or (math.isnan(fused) and math.isnan(origin))
    if same:
        return item_comparison(name, fused, origin, 0 if isinstance(fused, int) else 0.0, 0.0)
    diff = fused - origin  # Python floats: inf - inf is nan, never an exception
    if not (math.isfinite(fused) and math.isfinite(origin)):
        return item_comparison(name, fused, origin, diff, math.inf)
    return item_comparison(name, fused, origin, diff, abs(diff) / max(abs(fused), abs(origin), _TINY))


@dataclass(frozen=True, slots=True)
class StatsComparison:
    """A fused tensor's statistics against the origin tensor's: the statistics both have, and mismatches."""

    kind: str
    index: int
    fused_dtype: str
    origin_dtype: str
    fused_shape: tuple[int, ...] | None
    origin_shape: tuple[int, ...] | None
    items: tuple[ItemComparison, ...]  # the statistics present on both sides, in STAT_ITEMS order
    one_sided: tuple[str, ...] = ()  # statistics only one side has (not compared)
    shape_mismatch: bool = False  # both shapes known and different (compared anyway when the counts agree)
    count_mismatch: bool = False  # both element counts known and different: no verdict
    problem: str | None = None  # either row unusable: no verdict

    @property
    def dtype(self) -> str:
        """The dtype that picks the limits: the origin side's, else the fused side's."""
        return self.origin_dtype or self.fused_dtype

    def item(self, name: str) -> ItemComparison | None:
        """The comparison of one statistic, None when not both sides have it."""
        for item in self.items:  # a loop, not next() of a generator (asked for 100k+ rows)
            if item.name == name:
                return item
        return None

    @property
    def mismatch(self) -> str | None:
        """A sentence about a count or shape mismatch, None when there is none."""
        count = self.item("count")
        if self.count_mismatch and count is not None:
            return (f"The element counts differ ({count.fused:g} fused vs {count.origin:g} origin): the statistics "
                    "cover different data (a device layout's padding?), so they are not judged.")
        if self.shape_mismatch:
            return (f"The shapes differ ({_shape_text(self.fused_shape)} fused vs {_shape_text(self.origin_shape)} "
                    "origin) but the element counts agree: the statistics are compared.")
        return None

    @property
    def comparable(self) -> bool:
        """True when a verdict can be given (no problem, same element count, some statistic on both sides)."""
        return (self.problem is None and not self.count_mismatch
                and any(item.name != "count" for item in self.items))

    def violations(self, limits: StatsLimits) -> list[str]:
        """Each broken statistic as 'avg 0.55 vs 0.5 (0.0909 relative)' (empty when it passes or is not comparable)."""
        if not self.comparable:
            return []
        return [item.describe() for item in self.items if item.breaks(limits)]

    def fails(self, limits: StatsLimits) -> bool | None:
        """True when a statistic breaks `limits`, False when none does, None when nothing is comparable."""
        if not self.comparable:
            return None
        for item in self.items:  # noqa: SIM110 - a loop: any() of a generator cost 0.8 us more a row (100k+ rows)
            if item.breaks(limits):
                return True
        return False

    def worst_item(self, limits: StatsLimits | None = None) -> str | None:
        """The statistic that diverged most relative to its limit (a broken NaN/Inf count first); None if none did."""
        if self.count_mismatch:
            return "count"
        limits = limits or _DEFAULT_LIMITS  # made once: the console table asks for 100k rows' worst item
        best, worst = 0.0, None
        for item in self.items:
            severity = item.severity(limits)
            if severity > best:
                best, worst = severity, item.name
        return worst

    def as_dict(self, limits: StatsLimits | None = None) -> dict[str, Any]:
        """JSON-friendly form: numbers as numbers, non-finite ones as 'nan'/'inf'/'-inf', None as null.

        Strings keep inf and nan apart from null (not available) and let json.dumps(allow_nan=False) work.
        With `limits`, the verdict ("fails": true/false/null) and the violations are included.
        """
        result: dict[str, Any] = {
            "kind": self.kind, "index": self.index, "fused_dtype": self.fused_dtype,
            "origin_dtype": self.origin_dtype,
            "fused_shape": list(self.fused_shape) if self.fused_shape is not None else None,
            "origin_shape": list(self.origin_shape) if self.origin_shape is not None else None,
            "items": {item.name: item.as_dict() for item in self.items}, "one_sided": list(self.one_sided),
            "shape_mismatch": self.shape_mismatch, "count_mismatch": self.count_mismatch,
            "problem": self.problem,
            # Without either mismatch the sentence is None: not worked out (result files spell 100k of these).
            "mismatch": self.mismatch if self.count_mismatch or self.shape_mismatch else None,
            "worst_item": self.worst_item(limits or _DEFAULT_LIMITS),  # worst_item's own default, made once
        }
        if limits is not None:
            result["fails"] = self.fails(limits)
            result["violations"] = self.violations(limits)
        return result


_DEFAULT_LIMITS = StatsLimits()


def _shape_text(shape: tuple[int, ...] | None) -> str:
    return "unknown" if shape is None else "x".join(map(str, shape)) or "scalar"


def compare_stats(fused: TensorStats, origin: TensorStats) -> StatsComparison:
    """Compare a fused tensor's statistics with the origin's; mismatches are reported, never raised."""
    items: list[ItemComparison] = []
    one_sided: list[str] = []
    # The fields as attributes (TensorStats.item checks the name first: 16 calls a pair, 100k+ pairs a run).
    for name in _COMPARED_ITEMS:
        left, right = getattr(fused, name), getattr(origin, name)
        if left is not None and right is not None:
            items.append(_item(name, left, right))
        elif left is not None or right is not None:
            one_sided.append(name)
    problem = None
    if fused.problem or origin.problem:
        problems = [f"the fused row: {fused.problem}" if fused.problem else "",
                    f"the origin row: {origin.problem}" if origin.problem else ""]
        problem = " ".join(f"Not compared because of {text}" for text in problems if text)
    return stats_comparison(
        kind=fused.kind, index=fused.index, fused_dtype=fused.dtype, origin_dtype=origin.dtype,
        fused_shape=fused.shape, origin_shape=origin.shape, items=tuple(items), one_sided=tuple(one_sided),
        shape_mismatch=fused.shape is not None and origin.shape is not None and fused.shape != origin.shape,
        count_mismatch=fused.count is not None and origin.count is not None and fused.count != origin.count,
        problem=problem,
    )


_COMPARED_ITEMS = ("count", *VALUE_ITEMS, *COUNT_ITEMS)


_COMPARISON_SLOTS = _slot_setters(StatsComparison)


def stats_comparison(kind: str, index: int, fused_dtype: str, origin_dtype: str,
                     fused_shape: tuple[int, ...] | None, origin_shape: tuple[int, ...] | None,
                     items: tuple[ItemComparison, ...], one_sided: tuple[str, ...], shape_mismatch: bool,
                     count_mismatch: bool, problem: str | None) -> StatsComparison:
    """StatsComparison(...) with every field given, made without __init__ (its eleven frozen setattr calls were a
    third of a comparison of statistics; StatsComparison has no __post_init__: a test checks both equal)."""
    made = object.__new__(StatsComparison)
    (set_kind, set_index, set_fused_dtype, set_origin_dtype, set_fused_shape, set_origin_shape, set_items,
     set_one_sided, set_shape_mismatch, set_count_mismatch, set_problem) = _COMPARISON_SLOTS
    set_kind(made, kind)
    set_index(made, index)
    set_fused_dtype(made, fused_dtype)
    set_origin_dtype(made, origin_dtype)
    set_fused_shape(made, fused_shape)
    set_origin_shape(made, origin_shape)
    set_items(made, items)
    set_one_sided(made, one_sided)
    set_shape_mismatch(made, shape_mismatch)
    set_count_mismatch(made, count_mismatch)
    set_problem(made, problem)
    return made


@dataclass(frozen=True)
class StatsThresholds:
    """Default stats limits plus overrides keyed by dtype, written as in the CSV (DT_FLOAT16) or numpy (float16)."""

    default: StatsLimits = field(default_factory=StatsLimits)
    per_dtype: dict[str, StatsLimits] = field(default_factory=dict)

    def limits_for(self, dtype: str) -> StatsLimits:
        """The limits for a row whose origin-side dtype is `dtype` (DT_BF16 and bfloat16 are the same)."""
        if not self.per_dtype:  # the usual case: no canonical_dtype() per row
            return self.default
        exact = self.per_dtype.get(dtype)
        if exact is not None:
            return exact
        wanted = canonical_dtype(dtype)
        return next((limits for name, limits in self.per_dtype.items() if canonical_dtype(name) == wanted),
                    self.default)

    def fails(self, comparison: StatsComparison) -> bool | None:
        """The row's verdict input under its dtype's limits (None: not comparable)."""
        return comparison.fails(self.limits_for(comparison.dtype))

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form, as written into --output files."""
        return {"default": self.default.as_dict(),
                "per_dtype": {name: limits.as_dict() for name, limits in sorted(self.per_dtype.items())}}
