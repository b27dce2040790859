"""Verdicts and everything drawn from them in one go: first divergences, verdict counts, the rank × step overview.

A threshold edit in the GUI re-assigns 100k verdicts and then needs the counts for the legend, the overview
grid and the first divergence of every rank. Walking the rows once more for each of them cost more than the
verdicts themselves; here they all come from the verdict codes with a few numpy reductions, and the results
equal those of first_divergence_by_rank, PrecisionResult.counts and build_overview (tests compare them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.precision.failing import RowTable
from autofuse_studio.core.precision.overview import Overview, OverviewCell
from autofuse_studio.core.precision.rows import VERDICTS, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import (
    ProducerIndex,
    assign_verdict_codes,
    culprits_in_order,
)
from autofuse_studio.core.sorting import natural_key


@dataclass
class VerdictSummary:
    """What a verdict assignment yields besides the verdicts on the rows."""

    first_divergence: PrecisionRow | None
    first_divergence_by_rank: dict[str, PrecisionRow | None]
    verdict_counts: dict[str, int]  # in first-seen row order, as PrecisionResult.counts("verdict")
    overview: Overview


def _first_of_each(labels: np.ndarray, ordered: np.ndarray) -> dict[int, int]:
    """label -> the first position in `ordered` carrying it."""
    found, first = np.unique(labels, return_index=True)
    return dict(zip(found.tolist(), ordered[first].tolist(), strict=True))


def _counts(codes: np.ndarray) -> dict[str, int]:
    found, first, counted = np.unique(codes, return_index=True, return_counts=True)
    order = np.argsort(first)
    return {VERDICTS[int(found[i])]: int(counted[i]) for i in order}


def _min_cosines(table: RowTable, groups: int) -> list[float | None]:
    cosine = table.cosine
    valid = ~np.isnan(cosine)
    if groups == 1:
        return [float(cosine[valid].min()) if valid.any() else None]
    lowest = np.full(groups, np.inf)
    np.minimum.at(lowest, table.group_of[valid], cosine[valid])
    seen = np.bincount(table.group_of[valid], minlength=groups) > 0
    return [float(value) if has else None for value, has in zip(lowest.tolist(), seen.tolist(), strict=True)]


def _overview(table: RowTable, codes: np.ndarray, ordered: np.ndarray) -> Overview:
    keys = list(table.groups)
    per_cell = np.bincount(table.group_of.astype(np.int64) * len(VERDICTS) + codes,
                           minlength=len(keys) * len(VERDICTS)).reshape(len(keys), len(VERDICTS))
    first_in_cell = _first_of_each(table.group_of[ordered], ordered)
    cells: dict[tuple[str | None, str], OverviewCell] = {}
    for number, (key, min_cosine) in enumerate(zip(keys, _min_cosines(table, len(keys)), strict=True)):
        counted = per_cell[number].tolist()
        first = first_in_cell.get(number)
        cells[key] = OverviewCell(key[0], key[1], rows=len(table.groups[key].positions),
                                  verdicts=dict(zip(VERDICTS, counted, strict=True)), min_cosine=min_cosine,
                                  first_divergence=None if first is None else table.rows[first])
    ranks = sorted({rank for rank, _ in cells}, key=natural_key)
    steps = sorted({step for _, step in cells}, key=natural_key)
    return Overview(ranks, steps, cells)


def _by_rank(table: RowTable, ordered: np.ndarray) -> dict[str, PrecisionRow | None]:
    ranks = sorted({rank for rank, _ in table.groups if rank is not None}, key=natural_key)
    if not ranks:
        return {}
    number = {rank: place for place, rank in enumerate(ranks)}
    # Rows without a rank (a mixed result) get -1: they belong to no rank's first divergence.
    rank_of_group = np.array([-1 if rank is None else number[rank] for rank, _ in table.groups], dtype=np.int64)
    first = _first_of_each(rank_of_group[table.group_of[ordered]], ordered)
    return {rank: table.rows[first[place]] if place in first else None for rank, place in number.items()}


def assign_with_summary(
    rows: Iterable[PrecisionRow], thresholds: Thresholds, producers: ProducerIndex
) -> VerdictSummary:
    """Set every row's verdict (as assign_verdicts) and summarise them for the legend, overview and status."""
    table, codes = assign_verdict_codes(rows, thresholds, producers)
    ordered = culprits_in_order(table, codes)
    first = table.rows[int(ordered[0])] if len(ordered) else None
    return VerdictSummary(first, _by_rank(table, ordered), _counts(codes) if len(codes) else {},
                          _overview(table, codes, ordered))
