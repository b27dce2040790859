"""Verdicts: which failing row introduced the error (CULPRIT) and which only inherited it (PROPAGATED).

Verdicts are assigned within each (rank, step): ranks and steps are independent computations.

A failing row is PROPAGATED when one of its fused op's data inputs is already known to be wrong: from
the input's own row (with --compare-input), or else from the nearest compared fused outputs upstream,
walking back through ops that were not compared (unfused ops, skipped rows, subgraph boundaries).
Verdicts depend only on the rows, the thresholds and the producer index, so changing a threshold
re-runs this in milliseconds without recomputing any metric.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from autofuse_studio.core.precision.failing import Group, RowTable, row_table
from autofuse_studio.core.precision.rows import (
    INPUT,
    OUTPUT,
    VERDICT_CULPRIT,
    VERDICT_OK,
    VERDICT_PROPAGATED,
    VERDICT_UNKNOWN,
    PrecisionRow,
)
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.sorting import natural_key

Port = tuple[str, int]
# op name -> the producer (op, port) of each data input, None when unconnected or unknown.
ProducerIndex = Mapping[str, Sequence[Port | None]]


def row_fails(row: PrecisionRow, thresholds: Thresholds) -> bool | None:
    """True/False for compared rows, None when the row has no metrics."""
    if row.metrics is None:
        return None
    return thresholds.fails(row.metrics, row.origin_dtype or row.fused_dtype)


class _Taint:
    """Answers 'is anything feeding this port known to be wrong?' for one (rank, step), memoised."""

    def __init__(self, producers: ProducerIndex, compared: set[Port], failing: set[Port]) -> None:
        self._producers = producers
        self._compared = compared  # compared output ports: the walk stops at them
        self._failing = failing
        self._op_tainted: dict[str, bool] = {}

    def port_fails(self, port: Port | None) -> bool:
        """True when the tensor at `port` is known to be wrong."""
        if port is None:
            return False
        if port in self._compared:
            return port in self._failing
        return self.op_tainted(port[0])

    def op_tainted(self, op_name: str) -> bool:
        """True when any input of an op (walking back through uncompared ops) is known to be wrong."""
        if op_name in self._op_tainted:
            return self._op_tainted[op_name]
        # Iterative post-order walk: graphs are deep (100k-op chains) and may hold loops.
        stack: list[tuple[str, int]] = [(op_name, 0)]
        self._op_tainted[op_name] = False  # provisional value breaks cycles
        while stack:
            name, next_input = stack[-1]
            inputs = self._producers.get(name, ())
            if next_input >= len(inputs) or self._op_tainted[name]:
                stack.pop()
                continue
            stack[-1] = (name, next_input + 1)
            port = inputs[next_input]
            if port is None:
                continue
            if port in self._compared:
                if port in self._failing:
                    self._mark_stack(stack)
                continue
            upstream = port[0]
            if upstream not in self._op_tainted:
                self._op_tainted[upstream] = False
                stack.append((upstream, 0))
            elif self._op_tainted[upstream]:
                self._mark_stack(stack)
        return self._op_tainted[op_name]

    def _mark_stack(self, stack: list[tuple[str, int]]) -> None:
        # A failing port taints every op on the current path down to it.
        for name, _ in stack:
            self._op_tainted[name] = True


def _verdicts_for_group(table: RowTable, group: Group, failing: np.ndarray, producers: ProducerIndex) -> None:
    rows = table.rows
    # A tensor dumped several times (loop occurrences) is known to be wrong when any of its dumps is.
    failing_positions = [position for position in group.positions if failing[position]]
    failed_outputs = {(rows[p].fused_op, rows[p].fused_index) for p in failing_positions if rows[p].kind == OUTPUT}
    failed_inputs = {(rows[p].fused_op, rows[p].fused_index) for p in failing_positions if rows[p].kind == INPUT}
    taint = _Taint(producers, group.compared_outputs, failed_outputs)

    def input_known_bad(op_name: str, index: int, port: Port | None) -> bool:
        if (op_name, index) in group.compared_inputs:
            return (op_name, index) in failed_inputs
        return taint.port_fails(port)

    compared = table.compared
    for position in group.positions:
        rows[position].verdict = VERDICT_OK if compared[position] else VERDICT_UNKNOWN
    for position in failing_positions:
        row = rows[position]
        inputs = producers.get(row.fused_op, ())
        if row.kind == INPUT:
            port = inputs[row.fused_index] if row.fused_index < len(inputs) else None
            upstream_bad = taint.port_fails(port)
        else:
            upstream_bad = any(input_known_bad(row.fused_op, index, port) for index, port in enumerate(inputs))
        row.verdict = VERDICT_PROPAGATED if upstream_bad else VERDICT_CULPRIT


def _first_key(row: PrecisionRow) -> tuple[Any, ...]:
    """Execution order over a whole result: lowest step, then graph order, inputs before outputs, then rank."""
    return (natural_key(row.step), row.order, row.kind == OUTPUT, row.fused_index, natural_key(row.rank),
            row.occurrence or 0)


def assign_verdicts(
    rows: Iterable[PrecisionRow], thresholds: Thresholds, producers: ProducerIndex
) -> PrecisionRow | None:
    """Set every row's verdict within its (rank, step); return the first divergence over all ranks."""
    table = row_table(rows if isinstance(rows, list) else list(rows))
    failing = table.failing(thresholds)
    for group in table.groups.values():
        _verdicts_for_group(table, group, failing, producers)
    culprits = [table.rows[position] for position in np.flatnonzero(failing).tolist()
                if table.rows[position].verdict == VERDICT_CULPRIT]
    return min(culprits, key=_first_key) if culprits else None


def first_divergence_by_rank(rows: Iterable[PrecisionRow]) -> dict[str, PrecisionRow | None]:
    """The first CULPRIT of every rank (None for a rank without one); {} when the rows carry no rank."""
    firsts: dict[str, PrecisionRow | None] = {}
    for row in rows:
        if row.rank is None:
            continue
        current = firsts.setdefault(row.rank, None)
        if row.verdict == VERDICT_CULPRIT and (current is None or _first_key(row) < _first_key(current)):
            firsts[row.rank] = row
    return {rank: firsts[rank] for rank in sorted(firsts, key=natural_key)}
