"""A block of rows' statistics comparisons as columns: each item's values, and each row's worst item, in bulk.

A statistics-mode result has a StatsComparison on most of its 100k rows, each holding about seven ItemComparison
objects. Spelling them row by row (as_dict, worst_item: a Python severity per item) cost ~10 us a row, more than
writing the file. Here the comparisons that share the block's usual item layout (the same item names in the same
order, as every row of a statistics dump has) are read in a few C passes (row_join.attribute_columns), their worst
item found by numpy in one go, with StatsComparison.worst_item's rules; the other rows ("odd" ones) are left to
the caller's per-row path. None is returned when the values are not plain ints and floats numpy holds exactly.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_not, itemgetter
from typing import Any

import numpy as np

from autofuse_studio.core.dumps.stats_csv import COUNT_ITEMS
from autofuse_studio.core.precision.stats import StatsComparison, StatsLimits
from autofuse_studio.core.reports.row_join import (
    ATTRIBUTE_CHUNK,
    EXACT_INTS,
    attribute_columns,
    column_kinds,
    native_joiner,
)

ITEM_PARTS = ("fused", "origin", "diff", "rel_diff")
FIELDS = ("kind", "index", "fused_dtype", "origin_dtype", "fused_shape", "origin_shape", "one_sided",
          "shape_mismatch", "count_mismatch", "problem")
_READ = ("name", *ITEM_PARTS)
_NOT_A_NUMBER, _INEXACT_INT = 1, 4  # item_values' flags
_PLAIN_NUMBERS = frozenset({int, float})


@dataclass(frozen=True)
class StatsTable:
    """The regular rows of a block: those with statistics in `layout` (item names, in order)."""

    size: int  # rows in the block
    positions: list[int]  # each regular row's place in the block
    odd: list[int]  # places of rows with statistics in another layout
    layout: tuple[str, ...]
    comparisons: list[StatsComparison]  # the regular rows' own
    fields: dict[str, list[Any]]  # FIELDS of the regular rows read so far (read())
    flat: dict[str, list[Any]]  # ITEM_PARTS: every item's values, row after row (len(layout) a row)
    numbers: dict[str, np.ndarray]  # ITEM_PARTS as floats, one row per regular row, one column per item
    # Where `numbers` held ints (1, else 0), laid out alike; None when the C module did not say (an older build).
    int_kinds: dict[str, np.ndarray] | None = None
    _spreader: Callable[[list[Any]], list[Any]] | None = None  # the regular rows' values put in place (_spreader)

    def read(self, names: Sequence[str]) -> dict[str, list[Any]]:
        """The fields with these `names` of the regular rows (read on first use, one pass for those not yet read)."""
        wanted = tuple(name for name in names if name not in self.fields)
        if wanted:
            self.fields.update(zip(wanted, attribute_columns(self.comparisons, wanted), strict=True))
        return self.fields

    def spread(self, values: Sequence[Any]) -> list[Any]:
        """The regular rows' `values` at their places in the block, None at every other place."""
        listed = values if isinstance(values, list) else list(values)
        if self._spreader is None:
            return listed
        return self._spreader(listed)

    @functools.cached_property
    def position_array(self) -> np.ndarray:
        """`positions` as an array."""
        return np.asarray(self.positions, dtype=np.intp)

    def gather(self, values: list[Any], at: np.ndarray) -> list[Any]:
        """values[at[i]] at the place of regular row i in the block (None where at[i] is -1), None at every other
        place: spread([values[k] for k in at]) in one C pass."""
        native = native_joiner()
        if native is None or not hasattr(native, "spread_values"):  # an older build of the module
            return self.spread([values[place] if place >= 0 else None for place in at.tolist()])
        if len(self.positions) == self.size:
            places = at.astype(np.int64, copy=False)
        else:
            places = np.full(self.size, -1, dtype=np.int64)
            places[self.position_array] = at
        gathered: list[Any] = native.spread_values(values, places.tobytes())
        return gathered

    def column(self, part: str, number: int) -> list[Any]:
        """Item `number`'s values in ITEM_PARTS `part` (every len(layout)-th of `flat`) at the regular rows' places,
        None at every other place: a new list."""
        # A list's strided slice is one C pass; the gather by numpy places cost ~3 numpy calls a column (28 a block).
        return self.spread(self.flat[part][number::len(self.layout)])


def mostly_statistics(stats: list[StatsComparison | None]) -> bool:
    """True when at least a quarter of the rows have statistics: the columns cost a few ms a block whatever the
    rows, the per-row path ~5-10 us a row with statistics (the CSV and xlsx spell a tensor run's few such rows
    row by row; the JSON spells them by columns of their own rows: json_rows._sparse_statistics)."""
    # Counted by identity: list.count(None) calls each comparison's dataclass __eq__ (~0.5 us a row).
    present = sum(map(is_not, stats, repeat(None)))
    return (len(stats) - present) * 4 < len(stats) * 3


def stats_table(stats: Sequence[StatsComparison | None]) -> StatsTable | None:
    """The block's statistics as columns (None when no row has statistics in a layout it can hold)."""
    # Found by C-level iteration (compress, map): a comprehension over a block's rows cost ~4x as much.
    places = list(compress(range(len(stats)), map(is_not, stats, repeat(None))))
    if not places:
        return None
    with_statistics = len(places)
    present: list[StatsComparison] = list(compress(stats, map(is_not, stats, repeat(None))))  # type: ignore[arg-type]
    items_of = attribute_columns(present, ("items",))[0]
    layout = _usual_layout(items_of)
    if not layout:
        return None
    width = len(layout)
    if list(map(len, items_of)).count(width) != len(items_of):
        sized = [len(items) == width for items in items_of]
        present, items_of, places = _kept(sized, present, items_of, places)
    read = _item_values(items_of, width)
    if read is None:
        return None
    names, columns, floats, kinds = read
    named = _named_alike(names, layout, len(present))
    if not all(named):
        present, items_of, places = _kept(named, present, items_of, places)
        columns = [list(np.fromiter(values, dtype=object, count=len(values)).reshape(-1, width)[named].ravel())
                   for values in columns]
        floats = floats.reshape(len(ITEM_PARTS), len(named), width)[:, named, :]
        kinds = None if kinds is None else kinds.reshape(len(ITEM_PARTS), len(named), width)[:, named, :]
    numbers = {part: floats[number].reshape(len(present), width) for number, part in enumerate(ITEM_PARTS)}
    int_kinds = None if kinds is None else {
        part: kinds[number].reshape(len(present), width) for number, part in enumerate(ITEM_PARTS)}
    return StatsTable(
        size=len(stats), positions=places, odd=_odd_places(stats, places) if len(places) < with_statistics else [],
        layout=layout, comparisons=present, fields={},
        flat=dict(zip(ITEM_PARTS, columns, strict=True)), numbers=numbers, int_kinds=int_kinds,
        _spreader=_spreader(places, len(stats)))


def _odd_places(stats: Sequence[StatsComparison | None], places: list[int]) -> list[int]:
    """The places of the rows with statistics that are not at `places` (another layout)."""
    taken = set(places)
    return [place for place, found in enumerate(stats) if found is not None and place not in taken]


def _kept(keep: list[bool], *lists: list[Any]) -> list[list[Any]]:
    """Each of `lists` without the entries `keep` says False of."""
    return [[value for value, kept in zip(values, keep, strict=True) if kept] for values in lists]


def _spreader(places: list[int], size: int) -> Callable[[list[Any]], list[Any]] | None:
    """A function that puts the values of the rows at `places` at their places in a list of `size`, None elsewhere
    (None when every row of the block is there)."""
    if len(places) == size:
        return None
    found = np.full(size, len(places), dtype=np.int64)  # one past the values: None
    found[np.asarray(places, dtype=np.intp)] = np.arange(len(places), dtype=np.int64)
    native = native_joiner()
    if native is not None and hasattr(native, "spread_values"):  # ~4x itemgetter's 15 ns a value
        spread_values, packed = native.spread_values, found.tobytes()
        return lambda values: spread_values(values, packed)
    at: list[int] = found.tolist()
    getter = itemgetter(*at) if size > 1 else lambda values: (values[at[0]],)
    return lambda values: list(getter([*values, None]))


def _usual_layout(items_of: list[Any]) -> tuple[str, ...]:
    """The item names of the most rows (of the first such row when several layouts tie); () when that is no
    layout at all (no items, a name twice, not a tuple of items)."""
    if not items_of or set(map(type, items_of)) != {tuple}:
        return ()
    sizes = list(map(len, items_of))
    width = sizes[0] if sizes.count(sizes[0]) == len(sizes) else Counter(sizes).most_common(1)[0][0]
    first = next(items for items in items_of if len(items) == width)
    try:
        layout = tuple(item.name for item in first)
    except AttributeError:
        return ()
    if not layout or len(set(layout)) != width or not all(name.__class__ is str for name in layout):
        return ()
    return layout


def _named_alike(names: list[Any], layout: tuple[str, ...], rows: int) -> list[bool]:
    """Which of `rows` rows (len(layout) names each, in a row) name their items as `layout` does."""
    width = len(layout)
    if all(names[number::width].count(name) == rows for number, name in enumerate(layout)):
        return [True] * rows  # the usual case: every row of the layout's size names its items alike
    found: list[bool] = (np.array(names, dtype=object).reshape(rows, width) == np.array(layout, dtype=object)).all(
        axis=1).tolist()
    return found


ItemValues = tuple[list[Any], list[list[Any]], np.ndarray, np.ndarray | None]


def _item_values(items_of: list[tuple[Any, ...]], width: int) -> ItemValues | None:
    """Every item's name and ITEM_PARTS, row after row, the parts as floats (one row of the array per part) and
    where they were ints (laid out alike; None without the C module's answer); None when a part is not an int or
    float, or an int that a float would round (its severity could differ from Python's)."""
    total = len(items_of) * width
    native = native_joiner()
    if native is None or not hasattr(native, "item_values"):  # the same in Python (slower)
        return _python_item_values(items_of, total)
    into: list[list[Any]] = [[None] * total for _ in range(1 + len(ITEM_PARTS))]
    floats = np.empty((len(ITEM_PARTS), total), dtype=np.float64)
    says_kinds = "kinds=None" in (native.item_values.__doc__ or "")  # an older build reads no kinds
    kinds = np.zeros((len(ITEM_PARTS), total), dtype=np.uint8) if says_kinds else None
    flags = 0
    try:
        for start in range(0, len(items_of), ATTRIBUTE_CHUNK // width + 1):  # the GIL is free between two chunks
            stop = min(start + ATTRIBUTE_CHUNK // width + 1, len(items_of))
            flags |= (native.item_values(items_of, width, _READ, into, floats, start, stop) if kinds is None else
                      native.item_values(items_of, width, _READ, into, floats, start, stop, kinds))
    except AttributeError:
        return None
    if flags & (_NOT_A_NUMBER | _INEXACT_INT):
        return None
    return into[0], into[1:], floats, kinds


def _python_item_values(items_of: list[tuple[Any, ...]], total: int) -> ItemValues | None:
    try:
        names, *columns = attribute_columns([item for items in items_of for item in items], _READ)
    except AttributeError:
        return None
    floats = np.empty((len(ITEM_PARTS), total), dtype=np.float64)
    for number, values in enumerate(columns):
        kinds, _ = column_kinds(values)
        if not kinds <= _PLAIN_NUMBERS:
            return None
        try:
            floats[number] = values
        except (OverflowError, ValueError, TypeError):
            return None
        if int in kinds and any(value.__class__ is int and abs(value) > EXACT_INTS for value in values):
            return None
    return names, columns, floats, None


def limit_arrays(limits: Sequence[StatsLimits]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """max_rel, abs_floor and max_nonfinite_diff of each regular row, as columns for worst_items."""
    only = limits[0] if limits else StatsLimits()
    if all(found is only for found in limits):  # one dtype's limits (or equal ones looked up once)
        size = len(limits)
        return (np.full(size, float(only.max_rel)), np.full(size, float(only.abs_floor)),
                np.full(size, float(only.max_nonfinite_diff)))
    return (np.array([found.max_rel for found in limits], dtype=np.float64),
            np.array([found.abs_floor for found in limits], dtype=np.float64),
            np.array([found.max_nonfinite_diff for found in limits], dtype=np.float64))


def worst_items(table: StatsTable, limits: Sequence[StatsLimits]) -> tuple[list[str | None], np.ndarray]:
    """Each regular row's worst_item under its `limits`, and that item's place in the layout (-1: none, or
    "count" on a count mismatch without a count item)."""
    max_rel, abs_floor, max_nonfinite = limit_arrays(limits)
    severity = _severities(table, max_rel[:, None], abs_floor[:, None], max_nonfinite[:, None])
    rows = len(table.positions)
    best = severity.argmax(axis=1) if rows else np.zeros(0, dtype=np.intp)
    worst = np.where(severity[np.arange(rows), best] > 0, best, -1)
    flags = table.read(("count_mismatch",))["count_mismatch"]
    mismatch = np.fromiter(map(bool, flags), dtype=bool, count=len(flags))  # as worst_item's `if` reads them
    if mismatch.any():  # worst_item names "count" whenever the counts differ
        worst = np.where(mismatch, table.layout.index("count") if "count" in table.layout else -1, worst)
    names = np.array([None, *table.layout], dtype=object)  # -1 picks None
    found: list[str | None] = names[worst + 1].tolist()
    if mismatch.any():
        found = ["count" if differs else name for name, differs in zip(found, mismatch.tolist(), strict=True)]
    return found, worst


def _severities(table: StatsTable, max_rel: np.ndarray, abs_floor: np.ndarray,
                max_nonfinite: np.ndarray) -> np.ndarray:
    """ItemComparison.severity of every item of every regular row (NaN, never the worst, as 0)."""
    fused, origin = table.numbers["fused"], table.numbers["origin"]
    diff, rel_diff = table.numbers["diff"], table.numbers["rel_diff"]
    size = np.abs(diff)
    kinds = np.array([0 if name == "count" else 1 if name in COUNT_ITEMS else 2 for name in table.layout])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        counted = np.where(size > max_nonfinite, math.inf, size / (max_nonfinite + 1))
        by_floor = np.where(abs_floor != 0, size / np.where(abs_floor != 0, abs_floor, 1.0), math.inf)
        by_rel = np.where(max_rel != 0, rel_diff / np.where(max_rel != 0, max_rel, 1.0), math.inf)
        valued = np.where(by_rel < by_floor, by_rel, by_floor)  # Python's min(by_floor, by_rel), NaN included
        valued = np.where(np.isfinite(fused) & np.isfinite(origin), valued, math.inf)
    severity = np.where(kinds == 1, counted, valued)
    severity = np.where((kinds == 0) | (diff == 0), 0.0, severity)
    return np.where(np.isnan(severity), 0.0, severity)
