"""Statistics from tensors (against numpy) and the pass/fail rule for two statistic sets."""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import DEFAULT_BLOCK_ELEMENTS, LazyTensor, decode_bf16
from autofuse_studio.core.dumps.stats_csv import TensorStats, json_number, read_stats_csv
from autofuse_studio.core.precision.stats import (
    DEFAULT_ABS_FLOOR,
    DEFAULT_MAX_REL,
    ItemComparison,
    StatsComparison,
    StatsLimits,
    StatsThresholds,
    canonical_dtype,
    compare_stats,
    item_comparison,
    stats_comparison,
    tensor_statistics,
)

FLOAT_KINDS = ("float16", "bfloat16", "bf16-bits", "float32", "float64")
MULTI_BLOCK_SHAPES = {
    "rows": (5, 300, 250),  # 375000 elements: blocks of whole rows
    "flat": (2 * DEFAULT_BLOCK_ELEMENTS + 3,),
    "long-rows": (2, DEFAULT_BLOCK_ELEMENTS + 10),  # a row is bigger than a block: split per row
}


def _array(kind: str, shape: tuple[int, ...], nonfinite: bool) -> np.ndarray:
    """Random data of `kind` (a numpy dtype name, 'bfloat16' via ml_dtypes or 'bf16-bits') with NaN/Inf sprinkled."""
    rng = np.random.default_rng(7)
    size = math.prod(shape)
    if kind == "int32":
        return rng.integers(-100_000, 100_000, size, dtype=np.int32).reshape(shape)
    if kind == "bool":
        return (rng.random(size) > 0.3).reshape(shape)
    values = rng.standard_normal(size) * 3 + 0.5
    dtype = ml_dtypes.bfloat16 if kind in ("bfloat16", "bf16-bits") else np.dtype(kind)
    array = values.astype(dtype)
    if nonfinite:
        array[rng.choice(size, 17, replace=False)] = np.nan
        array[[3, size - 1]] = np.inf
        array[[5, 7, size // 2]] = -np.inf
    return array.reshape(shape)


def _tensor(kind: str, array: np.ndarray) -> LazyTensor:
    if kind == "bf16-bits":
        return LazyTensor.plain(array.view(np.uint16), decode=decode_bf16, logical_dtype="bfloat16")
    return LazyTensor.plain(array)


def _expected(array: np.ndarray) -> dict[str, float]:
    values = array.astype(np.float64).reshape(-1)
    finite = values[np.isfinite(values)]
    inf_as_nan = np.where(np.isinf(values), np.nan, values)
    return {
        "nanmax": float(np.nanmax(inf_as_nan)), "nanmin": float(np.nanmin(inf_as_nan)),
        "nanmean": float(np.nanmean(inf_as_nan)), "max": float(finite.max()), "min": float(finite.min()),
        "l2norm": float(np.linalg.norm(finite)), "scale": float(np.abs(finite).max()),
        "nan": int(np.isnan(values).sum()), "pos_inf": int((values == np.inf).sum()),
        "neg_inf": int((values == -np.inf).sum()),
    }


@pytest.fixture
def no_whole_materialize(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any attempt to materialise more than one block at once."""
    original = LazyTensor.materialize

    def guarded(self: LazyTensor) -> np.ndarray:
        assert self.size <= DEFAULT_BLOCK_ELEMENTS, f"materialised {self.size} elements at once"
        values: np.ndarray = original(self)
        return values

    monkeypatch.setattr(LazyTensor, "materialize", guarded)


@pytest.mark.usefixtures("no_whole_materialize")
@pytest.mark.parametrize("shape", MULTI_BLOCK_SHAPES.values(), ids=MULTI_BLOCK_SHAPES.keys())
@pytest.mark.parametrize("kind", [*FLOAT_KINDS, "int32", "bool"])
def test_statistics_agree_with_numpy(kind: str, shape: tuple[int, ...]) -> None:
    nonfinite = kind not in ("int32", "bool")
    array = _array(kind, shape, nonfinite)
    expected = _expected(array)
    stats = tensor_statistics(_tensor(kind, array), "output", 2)
    assert (stats.kind, stats.index, stats.shape, stats.count) == ("output", 2, shape, array.size)
    assert stats.format == "ND" and stats.line is None and stats.problem is None
    assert stats.data_size == array.nbytes
    assert stats.dtype == {"bf16-bits": "bfloat16"}.get(kind, kind)
    # Max/Min are exact: the same float64 values, only the order of reading differs.
    assert stats.max == expected["nanmax"] == expected["max"]
    assert stats.min == expected["nanmin"] == expected["min"]
    assert stats.avg == pytest.approx(expected["nanmean"], rel=1e-12, abs=1e-13 * expected["scale"])
    assert stats.l2norm == pytest.approx(expected["l2norm"], rel=1e-12)
    assert (stats.nan_count, stats.pos_inf_count, stats.neg_inf_count) == (
        expected["nan"], expected["pos_inf"], expected["neg_inf"])
    if nonfinite:
        assert stats.nan_count is not None and stats.nan_count >= 10
        assert (stats.pos_inf_count, stats.neg_inf_count) == (2, 3)


@pytest.mark.parametrize("block", [1, 7, 1000, DEFAULT_BLOCK_ELEMENTS])
def test_block_size_does_not_change_the_result(block: int) -> None:
    array = _array("float32", (40, 50), nonfinite=True)
    whole = tensor_statistics(LazyTensor.plain(array), "input", 0, block_elements=10**6)
    blocked = tensor_statistics(LazyTensor.plain(array), "input", 0, block_elements=block)
    assert (blocked.max, blocked.min, blocked.nan_count, blocked.pos_inf_count, blocked.neg_inf_count) == (
        whole.max, whole.min, whole.nan_count, whole.pos_inf_count, whole.neg_inf_count)
    assert blocked.avg == pytest.approx(whole.avg, rel=1e-12)
    assert blocked.l2norm == pytest.approx(whole.l2norm, rel=1e-12)


def test_bool_statistics() -> None:
    stats = tensor_statistics(LazyTensor.plain(np.array([True, False, True, True])), "input", 1)
    assert (stats.max, stats.min, stats.avg, stats.l2norm, stats.count) == (1.0, 0.0, 0.75, math.sqrt(3), 4)
    assert (stats.nan_count, stats.neg_inf_count, stats.pos_inf_count) == (0, 0, 0)
    assert stats.dtype == "bool" and stats.data_size == 4


def test_integer_statistics_are_exact() -> None:
    array = np.array([[-(2**31), 2**31 - 1], [5, 7]], dtype=np.int64)
    stats = tensor_statistics(LazyTensor.plain(array), "output", 0)
    assert (stats.max, stats.min, stats.count, stats.data_size) == (2**31 - 1, -(2**31), 4, 32)
    assert stats.avg == 2.75


@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e300])
def test_extreme_magnitudes_neither_overflow_nor_underflow(scale: float) -> None:
    unit = np.linspace(-1.0, 1.0, 1001)
    stats = tensor_statistics(LazyTensor.plain(unit * scale), "output", 0, block_elements=100)
    assert stats.l2norm == pytest.approx(float(np.linalg.norm(unit)) * scale, rel=1e-12, abs=0)
    assert stats.avg == pytest.approx(0.0, abs=1e-14 * scale)
    assert stats.max == pytest.approx(scale, rel=1e-15, abs=0)


def test_tiny_and_huge_blocks_combine() -> None:
    values = np.concatenate([np.full(100, 1e-200), np.full(100, 3.0), np.full(100, 1e-200)])
    stats = tensor_statistics(LazyTensor.plain(values), "output", 0, block_elements=100)
    assert stats.l2norm == pytest.approx(30.0, rel=1e-14, abs=0)
    tiny = tensor_statistics(LazyTensor.plain(np.concatenate([np.full(100, 1e-200), np.zeros(100)])), "output",
                             0, block_elements=100)
    assert tiny.l2norm == pytest.approx(1e-199, rel=1e-12, abs=0)  # zeros after tiny values do not round them away


def test_l2norm_beyond_float64_is_inf() -> None:
    stats = tensor_statistics(LazyTensor.plain(np.full(4, 1.5e308)), "output", 0)
    assert stats.l2norm == math.inf and stats.max == 1.5e308


@pytest.mark.parametrize("values", [np.full(5, np.nan, dtype=np.float32), np.array([np.inf, -np.inf, np.nan]),
                                    np.zeros(0, dtype=np.float16)])
def test_no_finite_values(values: np.ndarray) -> None:
    stats = tensor_statistics(LazyTensor.plain(values), "output", 0)
    assert (stats.max, stats.min, stats.avg, stats.l2norm) == (None, None, None, None)
    assert stats.count == values.size and stats.problem is None
    assert stats.nan_count == int(np.isnan(values).sum())


@pytest.mark.parametrize(("array", "reason"), [
    (np.ones(3, dtype=np.complex64), "have no statistics"),
    (np.zeros(3, dtype="V2"), "raw bytes"),
    (np.array(["a", "b"]), "have no statistics"),
])
def test_unsupported_dtypes_are_a_problem(array: np.ndarray, reason: str) -> None:
    stats = tensor_statistics(LazyTensor.plain(array), "input", 3)
    assert stats.problem is not None and reason in stats.problem and stats.problem.startswith("input 3: ")
    assert stats.count == array.size and stats.max is None


# ---------------------------------------------------------------------------------------------- comparison


def _stats(**changes: Any) -> TensorStats:
    base = TensorStats("output", 0, 200, "DT_FLOAT16", "ND", (10, 10), 100, max=4.0, min=-3.0, avg=0.5,
                       l2norm=20.0, nan_count=0, neg_inf_count=0, pos_inf_count=0)
    return replace(base, **changes)


def _scaled(factor: float) -> TensorStats:
    return _stats(max=4.0 * factor, min=-3.0 * factor, avg=0.5 * factor, l2norm=20.0 * factor)


LIMITS = StatsLimits()


def test_defaults() -> None:
    assert (LIMITS.max_rel, LIMITS.abs_floor, LIMITS.max_nonfinite_diff) == (DEFAULT_MAX_REL, DEFAULT_ABS_FLOOR, 0)
    assert (DEFAULT_MAX_REL, DEFAULT_ABS_FLOOR) == (1e-2, 1e-3)
    assert "NaN/Inf counts equal" in LIMITS.describe()


def test_identical_statistics_pass() -> None:
    comparison = compare_stats(_stats(), _stats())
    assert comparison.fails(LIMITS) is False
    assert comparison.worst_item() is None and comparison.violations(LIMITS) == []
    assert [item.name for item in comparison.items] == ["count", "max", "min", "avg", "l2norm", "nan_count",
                                                        "neg_inf_count", "pos_inf_count"]
    assert all(item.diff == 0 and item.rel_diff == 0 for item in comparison.items)
    assert comparison.mismatch is None and comparison.comparable


@pytest.mark.parametrize("factor", [1 + 4.9e-4, 1 - 4.9e-4, 1 + 2**-8, 1 - 2**-7, 1 + 0.0099])
def test_rounding_level_differences_pass(factor: float) -> None:
    comparison = compare_stats(_scaled(factor), _stats())
    assert comparison.fails(LIMITS) is False
    assert comparison.worst_item() in ("max", "min", "avg", "l2norm")  # something moved, within limits


@pytest.mark.parametrize("factor", [1.0103, 0.9899, 1.1, 2.0, -1.0])
def test_shifts_beyond_one_percent_fail(factor: float) -> None:
    assert compare_stats(_scaled(factor), _stats()).fails(LIMITS) is True


def test_ten_percent_avg_shift_fails_and_is_the_worst_item() -> None:
    comparison = compare_stats(_stats(avg=0.55), _stats())
    assert comparison.fails(LIMITS) is True
    assert comparison.worst_item() == "avg"
    (violation,) = comparison.violations(LIMITS)
    assert violation.startswith("avg 0.55 vs 0.5")
    avg = comparison.item("avg")
    assert avg is not None and avg.diff == pytest.approx(0.05) and avg.rel_diff == pytest.approx(0.05 / 0.55)


@pytest.mark.parametrize("item", ["nan_count", "neg_inf_count", "pos_inf_count"])
def test_nonfinite_values_appearing_fail(item: str) -> None:
    comparison = compare_stats(_stats(**{item: 3}), _stats())
    assert comparison.fails(LIMITS) is True
    assert comparison.worst_item() == item
    assert comparison.violations(LIMITS) == [f"{item} 3 vs 0"]
    assert compare_stats(_stats(**{item: 3}), _stats()).fails(StatsLimits(max_nonfinite_diff=3)) is False
    assert compare_stats(_stats(**{item: 3}), _stats()).fails(StatsLimits(max_nonfinite_diff=2)) is True


def test_nan_appearing_beats_a_value_shift_as_worst() -> None:
    comparison = compare_stats(_stats(avg=5.0, nan_count=1), _stats())
    assert comparison.worst_item() == "nan_count"


@pytest.mark.parametrize(("fused", "origin"), [(1e-5, 3e-5), (0.0, 9e-4), (-4e-4, 5e-4), (1e-9, -1e-9)])
def test_near_zero_values_do_not_fail_on_noise(fused: float, origin: float) -> None:
    comparison = compare_stats(_stats(avg=fused), _stats(avg=origin))
    assert comparison.fails(LIMITS) is False
    assert comparison.fails(StatsLimits(abs_floor=0.0)) is True  # the floor is what lets them pass
    assert comparison.worst_item() == "avg"


def test_a_change_of_sign_beyond_the_floor_fails() -> None:
    assert compare_stats(_stats(avg=0.5), _stats(avg=-0.5)).fails(LIMITS) is True


@pytest.mark.parametrize(("fused", "origin", "fails"), [
    (math.inf, math.inf, False), (-math.inf, -math.inf, False), (math.nan, math.nan, False),
    (math.inf, 4.0, True), (4.0, math.nan, True), (math.inf, -math.inf, True), (math.nan, math.inf, True),
])
def test_nonfinite_values(fused: float, origin: float, fails: bool) -> None:
    comparison = compare_stats(_stats(max=fused), _stats(max=origin))
    assert comparison.fails(LIMITS) is fails
    item = comparison.item("max")
    assert item is not None
    assert (item.rel_diff == math.inf) is fails
    if fails:
        assert comparison.worst_item() == "max"


def test_count_mismatch_gives_no_verdict() -> None:
    comparison = compare_stats(_stats(count=128, avg=9.0), _stats())
    assert comparison.count_mismatch and comparison.fails(LIMITS) is None
    assert comparison.worst_item() == "count"
    assert comparison.violations(LIMITS) == []
    assert comparison.mismatch is not None and "element counts differ (128 fused vs 100 origin)" in comparison.mismatch


def test_shape_mismatch_with_equal_counts_is_compared() -> None:
    comparison = compare_stats(_stats(shape=(100,), avg=0.6), _stats())
    assert comparison.shape_mismatch and not comparison.count_mismatch
    assert comparison.fails(LIMITS) is True
    assert comparison.mismatch is not None and "shapes differ (100 fused vs 10x10 origin)" in comparison.mismatch


def test_a_problem_row_gives_no_verdict() -> None:
    broken = _stats(problem="x.csv line 3 (output 0): Max Value is 'oops', not a number.", max=None)
    for comparison in (compare_stats(broken, _stats()), compare_stats(_stats(), broken)):
        assert comparison.fails(LIMITS) is None
        assert comparison.problem is not None and "Max Value is 'oops'" in comparison.problem
    assert "the origin row" in (compare_stats(_stats(), broken).problem or "")


def test_only_statistics_on_both_sides_are_compared() -> None:
    fused = _stats(l2norm=None, avg=99.0)
    origin = _stats(avg=None)
    comparison = compare_stats(fused, origin)
    assert comparison.item("l2norm") is None and comparison.item("avg") is None
    assert comparison.one_sided == ("avg", "l2norm")
    assert comparison.fails(LIMITS) is False


def test_nothing_comparable_gives_no_verdict() -> None:
    bare = TensorStats("output", 0, count=100)
    comparison = compare_stats(bare, _stats())
    assert comparison.fails(LIMITS) is None and not comparison.comparable
    assert "max" in comparison.one_sided


def test_exact_boundaries() -> None:
    # 1% of max(|a|, |b|) and 0.001 absolute: at the limit passes, beyond it fails.
    assert compare_stats(_stats(max=100.0), _stats(max=99.0)).fails(LIMITS) is False
    assert compare_stats(_stats(max=100.0), _stats(max=98.99)).fails(LIMITS) is True
    assert compare_stats(_stats(avg=0.05), _stats(avg=0.049)).fails(LIMITS) is True
    assert compare_stats(_stats(avg=0.05), _stats(avg=0.0491)).fails(LIMITS) is False  # |diff| 9e-4 < 1e-3


def test_as_dict_is_strict_json() -> None:
    comparison = compare_stats(_stats(max=math.inf, avg=math.nan, nan_count=2), _stats())
    data = json.loads(json.dumps(comparison.as_dict(LIMITS), allow_nan=False))
    assert data["items"]["max"] == {"fused": "inf", "origin": 4.0, "diff": "inf", "rel_diff": "inf"}
    assert data["items"]["avg"]["fused"] == "nan" and data["items"]["avg"]["diff"] == "nan"
    assert data["items"]["nan_count"] == {"fused": 2, "origin": 0, "diff": 2, "rel_diff": 1.0}
    assert data["fails"] is True and data["worst_item"] in ("max", "avg", "nan_count")
    assert len(data["violations"]) == 3
    assert data["fused_shape"] == [10, 10] and data["count_mismatch"] is False
    assert "fails" not in comparison.as_dict()


@pytest.mark.parametrize("values", [
    (1.5, 2.5, -1.0, 0.4), (3, 0, 3, 1.0), (math.inf, 4.0, math.inf, math.inf), (-math.inf, math.inf, math.nan, 0.0),
    (1e308, 1e308, 0.0, 0.0), (10**400, 1, 10**400, 1.0), (np.float64(0.5), np.float64(math.nan), 0.5, math.inf),
    (None, 1.0, 0.0, 0.0)])
def test_item_as_dict_spells_each_number_as_json_number(values: tuple[Any, ...]) -> None:
    """The finite fast path and the per-value path agree: overflowing sums, huge ints, None, numpy floats."""
    item = ItemComparison("max", *values)
    assert item.as_dict() == dict(zip(("fused", "origin", "diff", "rel_diff"), map(json_number, values), strict=True))


@pytest.mark.parametrize(("written", "canonical"), [
    ("DT_FLOAT16", "float16"), ("DT_BF16", "bfloat16"), ("DT_BFLOAT16", "bfloat16"), ("DT_FLOAT", "float32"),
    ("DT_DOUBLE", "float64"), ("DT_INT32", "int32"), ("DT_BOOL", "bool"), ("float16", "float16"),
    ("bfloat16", "bfloat16"), ("fp16", "float16"), (" dt_float ", "float32"), ("DT_FLOAT8_E4M3FN", "float8_e4m3fn"),
])
def test_canonical_dtype(written: str, canonical: str) -> None:
    assert canonical_dtype(written) == canonical


@pytest.mark.parametrize(("key", "row_dtype"), [
    ("float16", "DT_FLOAT16"), ("DT_FLOAT16", "float16"), ("DT_FLOAT16", "DT_FLOAT16"), ("bfloat16", "DT_BF16"),
    ("DT_BF16", "bfloat16"), ("float32", "DT_FLOAT"), ("DT_FLOAT", "float32"),
])
def test_per_dtype_limits_accept_both_spellings(key: str, row_dtype: str) -> None:
    strict = StatsLimits(max_rel=1e-4, abs_floor=0.0)
    thresholds = StatsThresholds(per_dtype={key: strict})
    assert thresholds.limits_for(row_dtype) is strict
    assert thresholds.limits_for("DT_INT8") is thresholds.default
    comparison = compare_stats(_scaled(1.001), replace(_stats(), dtype=row_dtype))
    assert thresholds.fails(comparison) is True
    assert StatsThresholds().fails(comparison) is False


def test_thresholds_pick_the_origin_dtype() -> None:
    thresholds = StatsThresholds(per_dtype={"float32": StatsLimits(max_rel=1e-5)})
    comparison = compare_stats(_scaled(1.001), _stats(dtype="DT_FLOAT"))  # fused side DT_FLOAT16
    assert comparison.dtype == "DT_FLOAT" and thresholds.fails(comparison) is True


def test_thresholds_as_dict() -> None:
    thresholds = StatsThresholds(StatsLimits(max_rel=0.05), {"DT_FLOAT": StatsLimits(max_rel=1e-3, abs_floor=1e-6)})
    data = json.loads(json.dumps(thresholds.as_dict()))
    assert data == {"default": {"max_rel": 0.05, "abs_floor": 1e-3, "max_nonfinite_diff": 0},
                    "per_dtype": {"DT_FLOAT": {"max_rel": 1e-3, "abs_floor": 1e-6, "max_nonfinite_diff": 0}}}


@pytest.mark.parametrize("changes", [{"max_rel": -0.1}, {"abs_floor": math.inf}, {"max_rel": math.nan},
                                     {"max_nonfinite_diff": -1}, {"abs_floor": "0.1"}])
def test_bad_limits_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="stats limit"):
        StatsLimits(**changes)


# ---------------------------------------------------------------------------------------------- end to end

HEADER = ("Input/Output,Index,Data Size,Data Type,Format,Shape,Count,Max Value,Min Value,Avg Value,Nan Count,"
          "Negative Inf Count,Positive Inf Count,l2norm")


def _text(value: float | None) -> str:
    return "" if value is None else repr(float(value)) if isinstance(value, float) else str(value)


def _write_csv(path: Path, rows: list[TensorStats]) -> Path:
    lines = [HEADER]
    for stats in rows:
        shape = "x".join(map(str, stats.shape or ()))
        values = [stats.count, stats.max, stats.min, stats.avg, stats.nan_count, stats.neg_inf_count,
                  stats.pos_inf_count, stats.l2norm]
        lines.append(",".join([stats.kind.title(), str(stats.index), str(stats.data_size), "DT_FLOAT16", "ND",
                               shape, *map(_text, values)]))
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def _op_rows(inputs: list[np.ndarray], output: np.ndarray) -> list[TensorStats]:
    rows = [tensor_statistics(LazyTensor.plain(array), "input", index) for index, array in enumerate(inputs)]
    return [*rows, tensor_statistics(LazyTensor.plain(output), "output", 0)]


def _verdicts(fused_csv: Path, origin_csv: Path) -> dict[tuple[str, int], StatsComparison]:
    fused, origin = read_stats_csv(fused_csv), read_stats_csv(origin_csv)
    result = {}
    for tensor in fused.tensors:
        other = origin.tensor(*tensor.key)
        assert other is not None
        result[tensor.key] = compare_stats(tensor, other)
    return result


def test_culprit_pattern_from_csvs(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 64)).astype(np.float16)
    y = rng.standard_normal((64, 64)).astype(np.float16)
    good = (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)
    origin_csv = _write_csv(tmp_path / "origin.csv", _op_rows([x, y], good))
    # Same data, rounded once more differently: passes everywhere.
    rounded = (good.astype(np.float32) * np.float32(1 + 2**-11)).astype(np.float16)
    same = _verdicts(_write_csv(tmp_path / "same.csv", _op_rows([x, y], rounded)), origin_csv)
    assert all(comparison.fails(LIMITS) is False for comparison in same.values())
    # The fused op adds a bias: its inputs agree, its output fails -> it is the culprit.
    biased = (good.astype(np.float32) + np.float32(0.3)).astype(np.float16)
    bad = _verdicts(_write_csv(tmp_path / "fused.csv", _op_rows([x, y], biased)), origin_csv)
    assert bad["input", 0].fails(LIMITS) is False and bad["input", 1].fails(LIMITS) is False
    assert bad["output", 0].fails(LIMITS) is True
    assert bad["output", 0].worst_item() == "avg"


def test_csv_round_trip_keeps_the_statistics(tmp_path: Path) -> None:
    array = _array("float32", (30, 40), nonfinite=True)
    computed = tensor_statistics(LazyTensor.plain(array), "output", 0)
    (read,) = read_stats_csv(_write_csv(tmp_path / "a.csv", [computed])).tensors
    assert compare_stats(read, computed).fails(StatsLimits(max_rel=0.0, abs_floor=0.0)) is False
    assert read.nan_count == computed.nan_count and read.avg == computed.avg


@pytest.mark.parametrize("values", [("max", 1.5, 2.0, -0.5, 0.25), ("count", 4, 4, 0, 0.0),
                                    ("avg", math.nan, 1.0, math.nan, math.inf), ("min", -0.0, 0.0, -0.0, 0.0)])
def test_item_comparison_makes_what_init_makes(values: tuple[Any, ...]) -> None:
    """item_comparison skips ItemComparison.__init__: the same object (no __post_init__ to skip), still frozen."""
    assert not hasattr(ItemComparison, "__post_init__")
    made, expected = item_comparison(*values), ItemComparison(*values)
    assert repr(made) == repr(expected) and made.as_dict() == expected.as_dict()
    assert (made == expected) is (expected == expected)  # NaN fields compare unequal either way
    if not any(isinstance(value, float) and math.isnan(value) for value in values):
        assert hash(made) == hash(expected)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.fused = 0.0  # type: ignore[misc]


def test_stats_comparison_makes_what_init_makes() -> None:
    """stats_comparison skips StatsComparison.__init__: the same object (no __post_init__ to skip), still frozen,
    and compare_stats gives every field."""
    assert not hasattr(StatsComparison, "__post_init__")
    fields = {"kind": "output", "index": 2, "fused_dtype": "DT_FLOAT16", "origin_dtype": "DT_FLOAT",
              "fused_shape": (2, 3), "origin_shape": None, "items": (item_comparison("max", 1.5, 2.0, -0.5, 0.25),),
              "one_sided": ("l2norm",), "shape_mismatch": False, "count_mismatch": True, "problem": "x"}
    made, expected = stats_comparison(**fields), StatsComparison(**fields)
    assert made == expected and repr(made) == repr(expected) and hash(made) == hash(expected)
    assert made.as_dict() == expected.as_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.kind = "input"  # type: ignore[misc]
    fused = TensorStats("output", 0, dtype="DT_FLOAT16", shape=(4,), count=4, max=1.0, avg=0.5, problem="cut off")
    compared = compare_stats(fused, TensorStats("output", 0, shape=(2, 2), count=4, max=2.0, min=0.0))
    values = {field.name: getattr(compared, field.name) for field in dataclasses.fields(StatsComparison)}  # all set
    assert compared == StatsComparison(**values)
    assert compared.one_sided == ("min", "avg") and compared.shape_mismatch and not compared.count_mismatch
    assert compared.problem == "Not compared because of the fused row: cut off"
