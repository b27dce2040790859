"""The statistics columns of the tabular exports (stat_worst, stat_fused ... stat_avg_origin), row by row or in bulk.

stats_cells spells one row (the API's records, csv.writer's fallback); stats_cell_columns spells a block of rows
column by column, the rows in the block's usual item layout through stats_table (numpy finds their worst items),
the others through stats_cells: the same values either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from autofuse_studio.core.precision.columns import STATS_KEYS
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.stats import ItemComparison, StatsComparison, StatsLimits, StatsThresholds
from autofuse_studio.core.reports.row_join import native_joiner
from autofuse_studio.core.reports.stats_table import StatsTable, mostly_statistics, stats_table, worst_items

_NO_STATS: dict[str, Any] = dict.fromkeys(STATS_KEYS)
_SHOWN_ITEMS = (("max", "stat_max_fused", "stat_max_origin"), ("min", "stat_min_fused", "stat_min_origin"),
                ("avg", "stat_avg_fused", "stat_avg_origin"))
BLOCK_ROWS = 16384  # rows read at a time
_WORST_PARTS = (("stat_fused", "fused"), ("stat_origin", "origin"), ("stat_rel_diff", "rel_diff"))


def stats_cells(row: PrecisionRow, thresholds: StatsThresholds) -> dict[str, Any]:
    """The STATS_KEYS values of a row: None for tensor rows and for what one side's statistics lack.

    The worst statistic is judged under the limits of the row's dtype, as its verdict is; it is empty when no
    statistic differs at all. Values stay floats (inf and nan included: they are what the dump said).
    """
    if row.stats is None:
        return dict(_NO_STATS)
    return comparison_cells(row.stats, thresholds.limits_for(row.stats.dtype))


def comparison_cells(stats: StatsComparison, limits: StatsLimits) -> dict[str, Any]:
    """stats_cells of a row's statistics under its dtype's `limits`."""
    cells = dict(_NO_STATS)
    named: dict[str, ItemComparison] = {}
    for compared in stats.items:  # the first of a name, as StatsComparison.item finds it
        named.setdefault(compared.name, compared)
    worst_name = stats.worst_item(limits)
    worst = named.get(worst_name) if worst_name is not None else None
    if worst is not None:
        cells.update(stat_worst=worst.name, stat_fused=worst.fused, stat_origin=worst.origin,
                     stat_rel_diff=worst.rel_diff)
    for name, fused_key, origin_key in _SHOWN_ITEMS:
        item = named.get(name)
        if item is not None:
            cells[fused_key], cells[origin_key] = item.fused, item.origin
    return cells


def stats_cell_columns(stats: Sequence[StatsComparison | None], thresholds: StatsThresholds
                       ) -> dict[str, list[Any]]:
    """The STATS_KEYS columns of rows with these statistics (None: a tensor row) under `thresholds`."""
    limits_of = _LimitsByDtype(thresholds)
    if len(stats) <= BLOCK_ROWS:
        return _block_columns(list(stats), limits_of)
    columns: dict[str, list[Any]] = {key: [] for key in STATS_KEYS}
    for start in range(0, len(stats), BLOCK_ROWS):  # a block's lists stay in cache (100k rows at once: 1.4x)
        for key, values in _block_columns(list(stats[start:start + BLOCK_ROWS]), limits_of).items():
            columns[key] += values
    return columns


def _block_columns(stats: list[StatsComparison | None], limits_of: _LimitsByDtype) -> dict[str, list[Any]]:
    # Without the C item reader, reading the items in Python costs more than the per-row cells.
    table = stats_table(stats) if native_joiner() is not None and mostly_statistics(stats) else None
    if table is None:
        columns: dict[str, list[Any]] = {key: [None] * len(stats) for key in STATS_KEYS}
        odd = [place for place, found in enumerate(stats) if found is not None]
    else:
        columns = _table_columns(table, limits_of)
        odd = table.odd
    for place in odd:
        found = stats[place]
        if found is not None:
            for key, value in comparison_cells(found, limits_of[found.dtype]).items():
                columns[key][place] = value
    return columns


class _LimitsByDtype(dict[str, StatsLimits]):
    """Each dtype's limits, looked up once."""

    def __init__(self, thresholds: StatsThresholds) -> None:
        super().__init__()
        self._thresholds = thresholds

    def __missing__(self, dtype: str) -> StatsLimits:
        found = self[dtype] = self._thresholds.limits_for(dtype)
        return found


def _table_columns(table: StatsTable, limits_of: _LimitsByDtype) -> dict[str, list[Any]]:
    """The regular rows' columns at their places, None elsewhere."""
    fields = table.read(("origin_dtype", "fused_dtype", "count_mismatch"))
    dtypes = [origin or fused for origin, fused in zip(fields["origin_dtype"], fields["fused_dtype"],
                                                       strict=True)]  # StatsComparison.dtype
    names, worst = worst_items(table, list(map(limits_of.__getitem__, dtypes)))
    found = worst >= 0  # a count mismatch names "count" even when no count item is there: no cells then
    columns = {"stat_worst": table.spread([name if ok else None for name, ok in zip(names, found.tolist(),
                                                                                       strict=True)])}
    # Each row's worst item's values: its place among the flat values, -1 (None) for rows without one.
    at = np.where(found, np.arange(len(table.positions)) * len(table.layout) + worst, -1)
    for key, part in _WORST_PARTS:
        columns[key] = table.gather(table.flat[part], at)
    for name, fused_key, origin_key in _SHOWN_ITEMS:
        if name in table.layout:
            number = table.layout.index(name)
            columns[fused_key] = table.column("fused", number)
            columns[origin_key] = table.column("origin", number)
        else:
            columns[fused_key], columns[origin_key] = [None] * table.size, [None] * table.size
    return {key: columns[key] for key in STATS_KEYS}
