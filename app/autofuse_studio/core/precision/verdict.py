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
    """Answers 'is anything feeding this port known to be wrong?' for one step, memoised."""

    def __init__(self, producers: ProducerIndex, output_fails: dict[Port, bool]) -> None:
        self._producers = producers
        self._output_fails = output_fails
        self._op_tainted: dict[str, bool] = {}

    def port_fails(self, port: Port | None) -> bool:
        """True when the tensor at `port` is known to be wrong."""
        if port is None:
            return False
        if port in self._output_fails:
            return self._output_fails[port]
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
            if port in self._output_fails:
                if self._output_fails[port]:
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


def _port_fails(rows: list[PrecisionRow], fails: dict[int, bool | None], kind: str) -> dict[Port, bool]:
    """Whether each compared (op, index) of `kind` fails; a tensor dumped several times fails if any dump does."""
    found: dict[Port, bool] = {}
    for row in rows:
        failed = fails[id(row)]
        if row.kind == kind and failed is not None:
            port = (row.fused_op, row.fused_index)
            found[port] = found.get(port, False) or failed
    return found


def _verdicts_for_step(rows: list[PrecisionRow], thresholds: Thresholds, producers: ProducerIndex) -> None:
    fails = {id(row): row_fails(row, thresholds) for row in rows}
    output_fails = _port_fails(rows, fails, OUTPUT)
    input_fails = _port_fails(rows, fails, INPUT)
    taint = _Taint(producers, output_fails)

    def input_known_bad(op_name: str, index: int, port: Port | None) -> bool:
        if (op_name, index) in input_fails:
            return input_fails[(op_name, index)]
        return taint.port_fails(port)

    for row in rows:
        failed = fails[id(row)]
        if failed is None:
            row.verdict = VERDICT_UNKNOWN
            continue
        if not failed:
            row.verdict = VERDICT_OK
            continue
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
    groups: dict[tuple[str | None, str], list[PrecisionRow]] = {}
    for row in rows:
        groups.setdefault((row.rank, row.step), []).append(row)
    for group in groups.values():
        _verdicts_for_step(group, thresholds, producers)
    culprits = [row for group in groups.values() for row in group if row.verdict == VERDICT_CULPRIT]
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
