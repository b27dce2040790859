"""The summary and ranks sheets' facts (status/verdict counts, the rank × step overview, the culprit rows) from the
columns the precision sheet already read, instead of more passes over 100k row objects.

Counts come from collections.Counter (one C loop, first-seen order as PrecisionResult.counts keeps), the overview's
row and verdict counts from numpy over each row's rank, step and verdict numbered (no tuple a row), its minimum
cosines from numpy per cell and its first divergences from the culprit rows alone (a few percent of the rows),
compared as build_overview compares them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from autofuse_studio.core.precision.overview import Overview, OverviewCell, build_overview, divergence_order
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, PrecisionResult, PrecisionRow
from autofuse_studio.core.sorting import natural_key

_COSINE_KINDS = frozenset({float, int, type(None)})


@dataclass(frozen=True)
class TableFacts:
    """What the summary and ranks sheets need of every row, worked out once."""

    status_counts: dict[Any, int]
    verdict_counts: dict[Any, int]
    overview: Overview
    culprits: list[PrecisionRow]  # the CULPRIT rows, in table order


FACT_KEYS = ("status", "verdict", "step", "cosine", "rank")  # the table columns table_facts reads


def table_facts(result: PrecisionResult, values: dict[str, Sequence[Any]]) -> TableFacts:
    """The facts of `result` from its table columns `values` (by key, one value per row, as table_records holds
    them); the columns they lack are read from the rows as before."""
    rows = result.rows
    statuses = values.get("status")
    verdicts = values.get("verdict")
    if verdicts is None or len(verdicts) != len(rows):
        return TableFacts(result.counts("status"), result.counts("verdict"), build_overview(rows),
                          [row for row in rows if row.verdict == VERDICT_CULPRIT])
    verdicts_coded = _codes(verdicts)
    codes, distinct = verdicts_coded
    culprit = next((number for number, verdict in enumerate(distinct) if verdict == VERDICT_CULPRIT), None)
    culprits = [] if culprit is None else [rows[at] for at in np.flatnonzero(codes == culprit).tolist()]
    verdict_counts = dict(zip(distinct, np.bincount(codes, minlength=len(distinct)).tolist(), strict=True))
    return TableFacts(dict(Counter(statuses)) if statuses is not None else result.counts("status"),
                      verdict_counts, _overview(rows, values, verdicts_coded, culprits), culprits)


def _overview(rows: Sequence[PrecisionRow], values: dict[str, Sequence[Any]],
              verdicts_coded: tuple[np.ndarray, list[Any]], culprits: list[PrecisionRow]) -> Overview:
    """build_overview(rows) from the columns (the rows themselves when a column it needs is missing);
    `verdicts_coded`: _codes() of the verdicts."""
    steps, cosines = values.get("step"), values.get("cosine")
    ranks = values.get("rank")
    if ranks is None and "step" in values:
        ranks = [None] * len(rows)  # table_columns drops 'rank' only when no row has one (columns' _has_rank)
    if not rows or steps is None or cosines is None or ranks is None or not set(map(type, cosines)) <= _COSINE_KINDS:
        return build_overview(rows)
    rank_codes, rank_values = _codes(ranks)
    step_codes, step_values = _codes(steps)
    verdict_codes, verdict_values = verdicts_coded
    # Each row's (rank, step) cell, numbered in the order the cells first appear (as Counter's keys came).
    pairs, first_rows, row_pairs = np.unique(rank_codes * len(step_values) + step_codes, return_index=True,
                                             return_inverse=True)
    order = np.argsort(first_rows, kind="stable")
    cell_at = np.empty(len(pairs), dtype=np.intp)
    cell_at[order] = np.arange(len(pairs))
    codes = cell_at[row_pairs.reshape(-1)]
    row_counts = np.bincount(codes, minlength=len(pairs)).tolist()
    verdict_counts = np.bincount(codes * len(verdict_values) + verdict_codes,
                                 minlength=len(pairs) * len(verdict_values)).reshape(len(pairs), -1).tolist()
    cells: dict[tuple[Any, Any], OverviewCell] = {}
    for number, pair in enumerate(pairs[order].tolist()):
        rank, step = rank_values[pair // len(step_values)], step_values[pair % len(step_values)]
        cell = cells[(rank, step)] = OverviewCell(rank, step)
        cell.rows = row_counts[number]
        for verdict, count in zip(verdict_values, verdict_counts[number], strict=True):
            if count:
                cell.verdicts[verdict] = cell.verdicts.get(verdict, 0) + count
    _set_min_cosines(cells, codes, cosines)
    for row in culprits:  # in table order: the first of equal orders stays, as in build_overview
        cell = cells[(row.rank, row.step)]
        if cell.first_divergence is None or divergence_order(row) < divergence_order(cell.first_divergence):
            cell.first_divergence = row
    return Overview(sorted({rank for rank, _ in cells}, key=natural_key),
                    sorted({step for _, step in cells}, key=natural_key), cells)


def _codes(values: Sequence[Any]) -> tuple[np.ndarray, list[Any]]:
    """Each value's number among the distinct values, numbered as first seen, and those values (equal values are
    one, as Counter's keys: the first of them stands)."""
    distinct = list(dict.fromkeys(values))
    numbers = {value: number for number, value in enumerate(distinct)}
    return np.fromiter(map(numbers.__getitem__, values), dtype=np.intp, count=len(values)), distinct


def _set_min_cosines(cells: dict[tuple[Any, Any], OverviewCell], codes: np.ndarray, cosines: Sequence[Any]) -> None:
    """Each cell's smallest cosine that is not NaN (None for none), as build_overview finds it (`codes`: each row's
    cell, numbered in the order of `cells`)."""
    values = np.array(cosines, dtype=np.float64)  # None (a row without metrics) becomes NaN: skipped alike
    order = np.argsort(codes, kind="stable")
    starts = np.searchsorted(codes[order], np.arange(len(cells)))
    smallest = np.fmin.reduceat(values[order], starts).tolist()
    for number, (cell, found) in enumerate(zip(cells.values(), smallest, strict=True)):
        if found != found:  # NaN: every cosine of the cell is NaN or missing
            continue
        if found == 0:  # 0.0 and -0.0 tie: build_overview keeps the first of them, the row loop says which
            found = next(float(value) for code, value in zip(codes.tolist(), cosines, strict=True)
                         if code == number and value is not None and value == 0)
        cell.min_cosine = found
