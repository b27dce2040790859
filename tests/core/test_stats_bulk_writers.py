"""Statistics comparisons spelled in bulk (stats_table, json_stats, stats_cells) write what the per-row code did.

Random comparisons vary every knob the bulk path branches on: one usual item layout or several, rows in odd
layouts (other items, another order, a name twice, no items), rows without statistics, NaN/±Inf/-0.0/subnormal
and huge values, ints (counts) and ints beyond 2**53, count and shape mismatches, problems, texts to escape,
shapes and one-sided lists, and limits of zero. The files must equal the reference writers' bytes (the
json.dumps / csv.writer / openpyxl code they replaced), and the bulk worst items StatsComparison.worst_item's.
"""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.stats import ItemComparison, StatsComparison, StatsLimits, StatsThresholds
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports import json_rows, row_join, stats_cells, stats_table
from autofuse_studio.core.reports.precision_files import write_precision
from autofuse_studio.core.reports.stats_cells import comparison_cells, stats_cell_columns
from autofuse_studio.core.reports.stats_table import worst_items
from tests.core.test_result_files_identity import reference_csv, reference_json, reference_xlsx, xlsx_contents
from tests.synth.result_rows import HOSTILE_NAMES

NAMES = ("count", "max", "min", "avg", "l2norm", "nan_count", "neg_inf_count", "pos_inf_count")
SPECIAL = (math.nan, math.inf, -math.inf, -0.0, 0.0, 5e-324, 1.7976931348623157e308, 1e-7, 1.5e-5, 1e16, 2.5e22)
THRESHOLDS = StatsThresholds(StatsLimits(0.01, 1e-3, 0), {
    "float16": StatsLimits(0.05, 0.0, 2), "DT_BF16": StatsLimits(0.0, 0.5, 0), "int32": StatsLimits(0.0, 0.0, 1)})
DTYPES = ("DT_FLOAT16", "float16", "DT_FLOAT", "bfloat16", "int32", "")


def _number(rng: random.Random, name: str, wild: float) -> Any:
    """A statistic's value: counts are ints, the rest floats of every spelling (sometimes an odd one)."""
    if name in ("count", "nan_count", "neg_inf_count", "pos_inf_count") and rng.random() > wild:
        return rng.choice((0, 1, 3, 2048, 10**9))
    if rng.random() < wild:
        return rng.choice(SPECIAL)
    return rng.uniform(-100, 100) * 10 ** rng.randint(-6, 6)


def _item(rng: random.Random, name: str, wild: float) -> ItemComparison:
    """As compare_stats makes them (same values, small drifts, non-finite sides), or with any values at all."""
    fused = _number(rng, name, wild)
    origin = fused if rng.random() < 0.3 else fused * (1 + rng.random() * 0.1) if rng.random() < 0.4 else \
        _number(rng, name, wild)
    if rng.random() < 0.1:
        return ItemComparison(name, fused, origin, _number(rng, name, wild), _number(rng, name, wild))
    same = fused == origin or (math.isnan(fused) and math.isnan(origin))
    if same:
        return ItemComparison(name, fused, origin, 0 if isinstance(fused, int) else 0.0, 0.0)
    diff = fused - origin
    if not (math.isfinite(fused) and math.isfinite(origin)):
        return ItemComparison(name, fused, origin, diff, math.inf)
    return ItemComparison(name, fused, origin, diff, abs(diff) / max(abs(fused), abs(origin), 1e-300))


def _text(rng: random.Random, hostile: bool, plain: tuple[str, ...]) -> str:
    return rng.choice((*HOSTILE_NAMES, "", "a\"b")) if hostile and rng.random() < 0.2 else rng.choice(plain)


def _comparison(rng: random.Random, layout: tuple[str, ...], hostile: bool, wild: float) -> StatsComparison:
    return StatsComparison(
        kind=_text(rng, hostile, ("input", "output")), index=rng.choice((0, 1, 7)) if rng.random() > 0.05 else 2**40,
        fused_dtype=rng.choice(DTYPES), origin_dtype=rng.choice(DTYPES),
        fused_shape=rng.choice((None, (), (32, 64), (1,) * 5)), origin_shape=rng.choice((None, (32, 64), (2048,))),
        items=tuple(_item(rng, name, wild) for name in layout),
        one_sided=rng.choice(((), ("l2norm",), ("max", "min"), (_text(rng, hostile, ("avg",)),))),
        shape_mismatch=rng.random() < 0.1, count_mismatch=rng.random() < 0.05,
        problem=None if rng.random() > 0.05 else _text(rng, hostile, ("Not compared because of x",)))


def random_stats(count: int, seed: int, layouts: int = 1, odd: float = 0.05, none: float = 0.1,
                 hostile: bool = False, wild: float = 0.1) -> list[StatsComparison | None]:
    """`count` comparisons: `layouts` usual layouts (random subsets of NAMES, in order), `odd` of the rows in a
    shuffled or repeated layout, `none` of them without statistics."""
    rng = random.Random(seed)
    usual = [tuple(name for name in NAMES if rng.random() < 0.8) or ("max",) for _ in range(layouts)]
    found: list[StatsComparison | None] = []
    for _ in range(count):
        roll = rng.random()
        if roll < none:
            found.append(None)
            continue
        layout = rng.choice(usual)
        if roll < none + odd:
            layout = rng.choice((tuple(rng.sample(NAMES, rng.randint(0, 8))), layout + layout[:1], ("count",),
                                 layout[::-1], ()))
        found.append(_comparison(rng, layout, hostile, wild))
    return found


def _result(stats: list[StatsComparison | None]) -> PrecisionResult:
    rows = []
    for number, found in enumerate(stats):
        row = PrecisionRow("output", f"op{number}", 0, f"origin{number}", 0, "OK", step="0", order=number,
                           table_position=number)
        row.stats = found
        rows.append(row)
    return PrecisionResult(rows, Thresholds(stats=THRESHOLDS))


def _spelled(values: list[Any]) -> list[str]:
    """Each value with its type (an int and the equal float are spelled apart in the files)."""
    return [f"{type(value).__name__}:{value!r}" for value in values]


KNOBS = [  # (count, seed, layouts, odd, none, hostile, wild)
    (1, 1, 1, 0.0, 0.0, False, 0.1), (40, 2, 1, 0.0, 0.0, False, 0.0), (300, 3, 1, 0.05, 0.1, False, 0.1),
    (300, 4, 3, 0.2, 0.3, True, 0.3), (500, 5, 2, 0.5, 0.0, False, 0.6), (200, 6, 1, 0.0, 0.9, True, 0.2),
    (300, 7, 1, 1.0, 0.0, True, 0.1), (200, 8, 4, 0.0, 0.0, False, 1.0),
    # Few rows with statistics (a tensor run's): the JSON spells them over those rows alone (_sparse_statistics).
    (400, 9, 2, 0.3, 0.85, True, 0.5), (300, 10, 1, 0.0, 0.97, False, 0.3), (250, 11, 3, 0.1, 0.8, True, 1.0),
]


@pytest.mark.parametrize(("count", "seed", "layouts", "odd", "none", "hostile", "wild"), KNOBS)
def test_random_statistics_write_the_same_bytes(count: int, seed: int, layouts: int, odd: float, none: float,
                                                hostile: bool, wild: float, tmp_path: Path) -> None:
    result = _result(random_stats(count, seed, layouts, odd, none, hostile, wild))
    assert write_precision(result, tmp_path / "r.json").read_bytes() == reference_json(result)
    assert write_precision(result, tmp_path / "r.csv").read_bytes() == reference_csv(result)
    if count <= 300:  # openpyxl's reference is slow
        reference_xlsx(result, tmp_path / "reference.xlsx")
        assert xlsx_contents(write_precision(result, tmp_path / "r.xlsx")) == xlsx_contents(
            tmp_path / "reference.xlsx")


@pytest.mark.parametrize("seed", range(6))
def test_bulk_columns_are_the_per_row_cells(seed: int) -> None:
    rng = random.Random(seed)
    stats = random_stats(rng.choice((1, 50, 2000)), seed, layouts=rng.randint(1, 3), odd=rng.random() * 0.3,
                         none=rng.random() * 0.5, wild=rng.random())
    columns = stats_cell_columns(stats, THRESHOLDS)
    for key, values in columns.items():
        expected = [None if found is None else comparison_cells(found, THRESHOLDS.limits_for(found.dtype))[key]
                    for found in stats]
        assert _spelled(values) == _spelled(expected), key


@pytest.mark.parametrize("seed", range(8))
def test_bulk_worst_items_are_worst_item(seed: int) -> None:
    rng = random.Random(seed)
    stats = random_stats(3000, seed, layouts=1, odd=0.0, none=0.0, wild=rng.random())
    table = stats_table.stats_table(stats)
    assert table is not None
    chosen = [rng.choice([*THRESHOLDS.per_dtype.values(), THRESHOLDS.default]) for _ in table.positions]
    names, places = worst_items(table, chosen)
    comparisons = [stats[place] for place in table.positions]
    assert names == [found.worst_item(limits) for found, limits in zip(comparisons, chosen, strict=True)]  # type: ignore[union-attr]
    assert [table.layout[at] if at >= 0 else None for at in places.tolist()] == [
        name if name in table.layout else None for name in names]


def test_the_usual_layout_takes_the_columns_and_only_odd_rows_the_nested_path(monkeypatch: pytest.MonkeyPatch) -> None:
    stats = random_stats(1000, 11, layouts=1, odd=0.1, none=0.1)
    spelled: list[int] = []
    nested = json_rows._object_cells
    monkeypatch.setattr(json_rows, "_object_cells", lambda prefix, values: spelled.append(len(values)) or nested(
        prefix, values))
    table = stats_table.stats_table(stats)
    assert table is not None and len(table.positions) > 700
    columns = json_rows._statistics_columns(stats)
    assert len(columns) > 20  # the fields and each item's numbers
    assert sum(spelled) == len(table.odd) > 0


@pytest.mark.parametrize(("value", "usable"), [(2**53, True), (2**53 + 1, False), (-(2**60), False), (10**400, False),
                                               (True, False), (np.float64(0.5), False), ("0.5", False), (None, False),
                                               (0.5, True), (math.nan, True)])
def test_values_that_floats_do_not_hold_exactly_leave_the_block_to_the_per_row_path(value: Any, usable: bool,
                                                                                  native: bool) -> None:
    stats: list[StatsComparison | None] = [
        StatsComparison("output", 0, "", "", None, None, (ItemComparison("max", 1.0, 2.0, -1.0, 0.5),
                                                          ItemComparison("avg", value, 1.0, 0.0, 0.0)))]
    assert (stats_table.stats_table(stats) is not None) is usable
    # The columns are the per-row cells either way.
    expected = comparison_cells(stats[0], THRESHOLDS.default)  # type: ignore[arg-type]
    assert {key: values[0] for key, values in stats_cell_columns(stats, THRESHOLDS).items()} == expected


@pytest.fixture(params=[True, False], ids=["native", "python"])
def native(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The C item reader, or the Python one it falls back to (without the C module)."""
    if not request.param:
        monkeypatch.setattr(stats_table, "native_joiner", lambda: None)
        monkeypatch.setattr(row_join, "native_joiner", lambda: None)
        monkeypatch.setattr(stats_cells, "native_joiner", lambda: None)
    elif row_join.native_joiner() is None:
        pytest.skip("the C row joiner is not built")
    return bool(request.param)


@pytest.mark.parametrize("seed", range(3))
def test_the_python_item_reader_reads_what_the_c_one_does(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    if row_join.native_joiner() is None:
        pytest.skip("the C row joiner is not built")
    stats = random_stats(500, seed, layouts=2, odd=0.1, none=0.2, wild=0.5)
    native_table = stats_table.stats_table(stats)
    monkeypatch.setattr(stats_table, "native_joiner", lambda: None)
    python_table = stats_table.stats_table(stats)
    assert native_table is not None and python_table is not None
    assert native_table.positions == python_table.positions and native_table.odd == python_table.odd
    assert native_table.flat == python_table.flat
    for part, numbers in native_table.numbers.items():
        np.testing.assert_array_equal(numbers, python_table.numbers[part])


def test_the_c_item_reader_refuses_what_it_cannot_read() -> None:
    native = row_join.native_joiner()
    if native is None:
        pytest.skip("the C row joiner is not built")
    item = ItemComparison("max", 1.0, 2, -1.0, 0.5)
    names = ("name", "fused", "origin", "diff", "rel_diff")
    into = [[None] * 2 for _ in names]
    floats = np.zeros((4, 2))
    assert native.item_values([(item, item)], 2, names, into, floats, 0, 1) == 2  # an int among the numbers
    assert into[0] == ["max", "max"] and floats[1].tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="tuple of `width`"):
        native.item_values([(item,)], 2, names, into, floats, 0, 1)
    with pytest.raises(ValueError, match="sizes"):
        native.item_values([(item, item)], 2, names, into, np.zeros((4, 1)), 0, 1)
    with pytest.raises(ValueError, match="full-length"):
        native.item_values([(item, item)], 2, names, [[None]] * 5, floats, 0, 1)
    with pytest.raises(AttributeError):
        native.item_values([(item, item)], 2, ("name", "nothing"), into[:2], np.zeros((1, 2)), 0, 1)
    with pytest.raises(TypeError):
        native.item_values([(item, item)], 2, names, into, np.zeros((4, 2)).T.copy().T[:, ::1][::-1], 0, 1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_spread_puts_the_regular_rows_values_at_their_places_in_c_and_in_python(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    pick = random.Random(seed)
    size = pick.choice([1, 2, 7, 4096])
    places = sorted(pick.sample(range(size), pick.randint(0, size)))
    values: list[Any] = [object() for _ in places]
    expected: list[Any] = [None] * size
    for place, value in zip(places, values, strict=True):
        expected[place] = value
    spread = [stats_table._spreader(places, size)]
    monkeypatch.setattr(stats_table, "native_joiner", lambda: None)
    spread.append(stats_table._spreader(places, size))
    for made in spread:
        found = values if made is None else made(values)  # None: every row of the block is regular
        assert len(found) == size and all(got is want for got, want in zip(found, expected, strict=True))


def test_spread_values_takes_int64_places_only() -> None:
    native = row_join.native_joiner()
    if native is None or not hasattr(native, "spread_values"):
        pytest.skip("the C row joiner is not built")
    assert native.spread_values(["a", "b"], np.array([1, -1, 2, 0], dtype=np.int64).tobytes()) == ["b", None, None, "a"]
    with pytest.raises(ValueError, match="int64"):
        native.spread_values(["a"], b"\x00" * 7)
    with pytest.raises(TypeError):
        native.spread_values(("a",), b"")


@pytest.mark.parametrize(("size", "width", "kept"), [(1, 1, 1.0), (1, 7, 0.0), (3, 7, 0.5), (4096, 7, 0.9),
                                                     (4096, 1, 1.0), (4096, 7, 0.1)])
def test_a_gather_puts_the_picked_values_at_the_regular_rows_places_in_c_and_in_python(
        size: int, width: int, kept: float, monkeypatch: pytest.MonkeyPatch) -> None:
    pick = random.Random(size * width)
    places = sorted(pick.sample(range(size), round(size * kept)))
    flat: list[Any] = [object() for _ in range(len(places) * width)]

    def table() -> stats_table.StatsTable:
        return stats_table.StatsTable(size=size, positions=places, odd=[], layout=tuple(f"i{n}" for n in range(width)),
                                      comparisons=[], fields={}, flat={"fused": flat}, numbers={},
                                      _spreader=stats_table._spreader(places, size))

    at = np.array([pick.choice([-1, *range(len(flat))]) if flat else -1 for _ in places], dtype=np.intp)
    number = pick.randrange(width)
    made = []
    for native in (True, False):
        if not native:
            monkeypatch.setattr(stats_table, "native_joiner", lambda: None)
        found = table()
        made.append((found.gather(flat, at), found.column("fused", number),
                     found.spread([flat[k] if k >= 0 else None for k in at.tolist()]), found.spread(flat[number::width])))
    for gathered, column, gathered_expected, column_expected in made:
        assert len(gathered) == len(column) == size
        assert all(got is want for got, want in zip(gathered, gathered_expected, strict=True))
        assert all(got is want for got, want in zip(column, column_expected, strict=True))


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("odd_dim", [True, 1.0])
def test_a_shape_equal_to_another_but_not_of_ints_is_spelled_as_the_references_do(
        native: bool, odd_dim: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (True, 16) == (1, 16): a look-up of each distinct shape's spelling would give it "[1, 16]".
    if not native:
        monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    stats = random_stats(40, 12, none=0.0, odd=0.0)
    result = _result(stats)
    for number, row in enumerate(result.rows):
        row.fused_shape = (1, 16) if number % 2 else (odd_dim, 16) if number == 20 else (4, 4)
        found = row.stats
        assert found is not None
        row.stats = dataclasses.replace(found, fused_shape=(odd_dim, 16) if number == 30 else (1, 16))
    written = write_precision(result, tmp_path / "r.json").read_bytes()
    assert written == reference_json(result)
    assert written.count(b"[\n        true" if odd_dim is True else b"[\n        1.0") == 1  # the row's own
    assert written.count(b"[\n          true" if odd_dim is True else b"[\n          1.0") == 1  # its statistics'
    # The CSV and xlsx spell shapes "1x16" from a look-up of distinct shapes too.
    written = write_precision(result, tmp_path / "r.csv").read_bytes()
    assert written == reference_csv(result)
    assert written.count(b"Truex16" if odd_dim is True else b"1.0x16") == 1
    reference_xlsx(result, tmp_path / "reference.xlsx")
    assert xlsx_contents(write_precision(result, tmp_path / "r.xlsx")) == xlsx_contents(tmp_path / "reference.xlsx")


@pytest.mark.parametrize("native", [True, False])
def test_int_tuples_accepts_only_none_and_tuples_of_exact_ints(native: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not native:
        monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")

    class Dim(int):
        """An int subclass: json.dumps may spell it otherwise."""

    assert row_join.int_tuples([None, (), (1, 16), (2**70,)])
    for odd in ((True, 16), (1.0,), [1, 16], (Dim(3),), (np.int64(3),), "16", 16, ((1,),)):
        assert not row_join.int_tuples([(1, 16), None, odd]), odd
