"""Which rows fail the thresholds, for all rows at once: the metrics as arrays, prepared once per result.

A threshold edit in the GUI re-assigns every verdict; with 100k rows, asking each row's Limits in Python
took most of a second. The metrics never change after a run, so they are gathered into arrays once (and
kept for the last row list seen) and each threshold set is applied with a few numpy comparisons.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.sorting import natural_key

Port = tuple[str, int]
GroupKey = tuple[str | None, str]  # (rank, step)


@dataclass
class Group:
    """The rows of one (rank, step): their positions and which output/input ports were compared."""

    positions: list[int] = field(default_factory=list)
    compared_outputs: set[Port] = field(default_factory=set)
    compared_inputs: set[Port] = field(default_factory=set)


@dataclass
class RowTable:
    """Per-row metric arrays (NaN where a row was not compared) and the (rank, step) groups."""

    rows: list[PrecisionRow]
    compared: np.ndarray
    exempt: np.ndarray  # identical tensors, or NaN/Inf at the same positions on both sides: never fail
    cosine: np.ndarray
    max_abs: np.ndarray
    max_rel: np.ndarray
    dtype_index: np.ndarray
    dtypes: list[str]
    groups: dict[GroupKey, Group]
    group_of: np.ndarray  # each row's group, numbered in the order of `groups`
    ports: list[Port]  # each row's (fused op, index)
    is_output: np.ndarray
    metrics: list[object]  # each row's Metrics object when the table was built: tells a stale table apart
    stats_positions: list[int] = field(default_factory=list)  # statistics-mode rows, judged one by one
    _execution_rank: np.ndarray | None = None

    def failing(self, thresholds: Thresholds) -> np.ndarray:
        """A boolean per row: compared and breaking its dtype's limits."""
        fails = np.zeros(len(self.rows), dtype=bool)
        for code, dtype in enumerate(self.dtypes):
            selected = self.dtype_index == code
            fails |= selected & self._breaks(thresholds.limits_for(dtype))
        fails &= self.compared
        fails &= ~self.exempt
        for position in self.stats_positions:
            stats = self.rows[position].stats
            fails[position] = stats is not None and bool(thresholds.stats.fails(stats))
        return fails

    def execution_rank(self) -> np.ndarray:
        """Each row's place in execution order over the whole result (see verdict.first_key), computed once."""
        if self._execution_rank is None:
            self._execution_rank = execution_rank(self.rows)
        return self._execution_rank

    def _breaks(self, limits: Limits) -> np.ndarray:
        broken = np.zeros(len(self.rows), dtype=bool)
        with np.errstate(invalid="ignore"):
            if limits.cosine is not None:
                broken |= np.isnan(self.cosine) | (self.cosine < limits.cosine)
            if limits.max_abs is not None:
                broken |= np.isnan(self.max_abs) | (self.max_abs > limits.max_abs)
            if limits.max_rel is not None:
                broken |= np.isnan(self.max_rel) | (self.max_rel > limits.max_rel)
        return broken


def _build(rows: list[PrecisionRow]) -> RowTable:
    count = len(rows)
    values = np.full((3, count), np.nan)
    compared = np.zeros(count, dtype=bool)
    exempt = np.zeros(count, dtype=bool)
    dtype_index = np.zeros(count, dtype=np.int32)
    group_of = np.zeros(count, dtype=np.int32)
    dtypes: dict[str, int] = {}
    groups: dict[GroupKey, Group] = {}
    numbers: dict[GroupKey, int] = {}
    stats_positions: list[int] = []
    for position, row in enumerate(rows):
        key = (row.rank, row.step)
        group = groups.get(key)
        if group is None:
            group = groups[key] = Group()
            numbers[key] = len(numbers)
        group.positions.append(position)
        group_of[position] = numbers[key]
        metrics = row.metrics
        if metrics is None:
            if row.stats is not None and row.stats.comparable:
                # Judged by its statistics: compared (a walk stops at it), pass/fail decided in failing().
                compared[position] = True
                stats_positions.append(position)
                (group.compared_outputs if row.kind == OUTPUT else group.compared_inputs).add(
                    (row.fused_op, row.fused_index))
            continue
        compared[position] = True
        (group.compared_outputs if row.kind == OUTPUT else group.compared_inputs).add((row.fused_op, row.fused_index))
        values[0, position], values[1, position], values[2, position] = (
            metrics.cosine, metrics.max_abs_err, metrics.max_rel_err)
        exempt[position] = metrics.max_abs_err == 0 or (
            metrics.nonfinite_mismatch == 0 and bool(metrics.nan_fused or metrics.inf_fused))
        dtype = row.origin_dtype or row.fused_dtype
        dtype_index[position] = dtypes.setdefault(dtype, len(dtypes))
    ports = [(row.fused_op, row.fused_index) for row in rows]
    is_output = np.fromiter((row.kind == OUTPUT for row in rows), dtype=bool, count=count)
    return RowTable(rows, compared, exempt, values[0], values[1], values[2], dtype_index, list(dtypes), groups,
                    group_of, ports, is_output, _judged(rows), stats_positions)


def _judged(rows: list[PrecisionRow]) -> list[object]:
    """What each row is judged by (its Metrics, else its statistics): a change of any means a stale table."""
    return [row.metrics if row.metrics is not None else row.stats for row in rows]


def _dense_natural(values: list[str | None]) -> np.ndarray:
    """Each value's place among the distinct natural keys ('2' before '10', None first; '01' ties with '1')."""
    keys = sorted({natural_key(value) for value in set(values)})
    key_place = {key: number for number, key in enumerate(keys)}
    place = {value: key_place[natural_key(value)] for value in set(values)}
    return np.fromiter((place[value] for value in values), dtype=np.int64, count=len(values))


def execution_rank(rows: list[PrecisionRow]) -> np.ndarray:
    """Each row's position when sorted by (natural step, order, inputs first, index, natural rank, occurrence).

    A stable sort: rows with equal keys keep their row order, as min() over the rows would.
    """
    count = len(rows)
    keys = (
        np.fromiter((row.occurrence or 0 for row in rows), dtype=np.int64, count=count),
        _dense_natural([row.rank for row in rows]),
        np.fromiter((row.fused_index for row in rows), dtype=np.int64, count=count),
        np.fromiter((row.kind == OUTPUT for row in rows), dtype=bool, count=count),
        np.fromiter((row.order for row in rows), dtype=np.int64, count=count),
        _dense_natural([row.step for row in rows]),
    )
    ranking = np.empty(count, dtype=np.int64)
    ranking[np.lexsort(keys)] = np.arange(count)
    return ranking


_LOCK = threading.Lock()
_LAST: list[RowTable] = []  # the table of the last row list (the GUI re-assigns the same rows many times)


def row_table(rows: list[PrecisionRow]) -> RowTable:
    """The RowTable of `rows`, reused while the same list with the same Metrics objects is asked for again."""
    with _LOCK:
        last = _LAST[0] if _LAST else None
    # List equality checks identity first: a few ms for 100k unchanged rows.
    if last is not None and last.rows is rows and _judged(rows) == last.metrics:
        return last
    table = _build(rows)
    with _LOCK:
        _LAST[:] = [table]
    return table
