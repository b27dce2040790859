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

from autofuse_studio.core.notices import Notice, plural, shorten
from autofuse_studio.core.precision.failing import Group, RowTable, row_table
from autofuse_studio.core.precision.rows import (
    OUTPUT,
    VERDICT_CULPRIT,
    VERDICT_OK,
    VERDICT_PROPAGATED,
    VERDICT_UNKNOWN,
    VERDICTS,
    PrecisionRow,
)
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.sorting import natural_key

Port = tuple[str, int]
# op name -> the producer (op, port) of each data input, None when unconnected or unknown.
ProducerIndex = Mapping[str, Sequence[Port | None]]


def row_fails(row: PrecisionRow, thresholds: Thresholds) -> bool | None:
    """True/False for compared rows, None when the row has no metrics (or statistics that can be judged)."""
    if row.metrics is None:
        return thresholds.stats.fails(row.stats) if row.stats is not None else None
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


CULPRIT_CODE, PROPAGATED_CODE, OK_CODE, UNKNOWN_CODE = (VERDICTS.index(verdict) for verdict in (
    VERDICT_CULPRIT, VERDICT_PROPAGATED, VERDICT_OK, VERDICT_UNKNOWN))
_VERDICT_NAMES = np.array(VERDICTS, dtype=object)
FEW_CULPRITS = 64  # below this, sorting the culprits in Python beats ranking every row


def _failing_verdicts(table: RowTable, group: Group, failing_positions: list[int],
                      producers: ProducerIndex, codes: np.ndarray) -> None:
    ports = table.ports
    outputs = table.is_output[failing_positions].tolist()
    # A tensor dumped several times (loop occurrences) is known to be wrong when any of its dumps is.
    failed_outputs = {ports[p] for p, output in zip(failing_positions, outputs, strict=True) if output}
    failed_inputs = {ports[p] for p, output in zip(failing_positions, outputs, strict=True) if not output}
    taint = _Taint(producers, group.compared_outputs, failed_outputs)

    def input_known_bad(op_name: str, index: int, port: Port | None) -> bool:
        if (op_name, index) in group.compared_inputs:
            return (op_name, index) in failed_inputs
        return taint.port_fails(port)

    propagated: list[int] = []
    for position, output in zip(failing_positions, outputs, strict=True):
        op_name, index = ports[position]
        inputs = producers.get(op_name)
        if not inputs:
            continue  # nothing upstream: a culprit
        if not output:
            port = inputs[index] if index < len(inputs) else None
            upstream_bad = not _is_self(op_name, port) and taint.port_fails(port)
        else:
            # An input that is the op's own output (a self-reference) cannot be the cause of its error: counted,
            # it made every failing such op PROPAGATED and hid the culprit (see self_reference_notice).
            upstream_bad = any(input_known_bad(op_name, number, port) for number, port in enumerate(inputs)
                               if not _is_self(op_name, port))
        if upstream_bad:
            propagated.append(position)
    codes[failing_positions] = CULPRIT_CODE
    codes[propagated] = PROPAGATED_CODE


def _is_self(op_name: str, port: Port | None) -> bool:
    return port is not None and port[0] == op_name


def self_reference_notice(producers: ProducerIndex, ops: Iterable[str]) -> Notice | None:
    """The notice naming the fused ops among `ops` whose data inputs include their own output, else None.

    A graph that feeds an op its own output is broken (or a loop written without its subgraph); such an input
    is not counted when the op's verdict is decided, so the op can still be the CULPRIT.
    """
    items = [{"fused_op": name, "input": number, "output": port[1]}
             for name in dict.fromkeys(ops) for number, port in enumerate(producers.get(name, ()))
             if port is not None and port[0] == name]
    if not items:
        return None
    names = list(dict.fromkeys(str(item["fused_op"]) for item in items))
    first = items[0]
    verb = "takes" if len(names) == 1 else "take"
    message = (f"{plural(len(names), 'fused operator')} {verb} {'its' if len(names) == 1 else 'their'} own output "
               f"as an input (a self-reference in the af-open graph), e.g. {shorten(str(first['fused_op']))} input "
               f"{first['input']} is its output {first['output']}: such an input is not counted as the cause of the "
               "operator's error, so a failing one is still a CULPRIT; check the graph.")
    params = {"op": shorten(str(first["fused_op"])), "input": first["input"], "output": first["output"]}
    return Notice("self_reference", message, len(names), items, side="af-open", params=params)


def _failing_by_group(table: RowTable, failing: np.ndarray) -> list[list[int]]:
    """The failing positions of each group (in the order of table.groups), ascending."""
    positions = np.flatnonzero(failing)
    if not table.groups:
        return []
    if len(table.groups) == 1:
        return [positions.tolist()]
    by_group = table.group_of[positions]
    order = np.argsort(by_group, kind="stable")
    bounds = np.searchsorted(by_group[order], np.arange(1, len(table.groups)))
    return [chunk.tolist() for chunk in np.split(positions[order], bounds)]


def _first_key(row: PrecisionRow) -> tuple[Any, ...]:
    """Execution order over a whole result: lowest step, then graph order, inputs before outputs, then rank."""
    return (natural_key(row.step), row.order, row.kind == OUTPUT, row.fused_index, natural_key(row.rank),
            row.occurrence or 0)


def assign_verdict_codes(
    rows: Iterable[PrecisionRow], thresholds: Thresholds, producers: ProducerIndex
) -> tuple[RowTable, np.ndarray]:
    """Set every row's verdict within its (rank, step); return the row table and each row's verdict code.

    A code is the verdict's index in VERDICTS. Only failing rows need Python work: the rest are OK or UNKNOWN
    by whether they were compared, set for all rows at once.
    """
    table = row_table(rows if isinstance(rows, list) else list(rows))
    failing = table.failing(thresholds)
    codes = np.where(table.compared, OK_CODE, UNKNOWN_CODE).astype(np.int8)
    for group, positions in zip(table.groups.values(), _failing_by_group(table, failing), strict=True):
        if positions:
            _failing_verdicts(table, group, positions, producers, codes)
    for row, verdict in zip(table.rows, _VERDICT_NAMES[codes].tolist(), strict=True):
        row.verdict = verdict
    return table, codes


def culprits_in_order(table: RowTable, codes: np.ndarray) -> np.ndarray:
    """The positions of the CULPRIT rows in execution order (see _first_key; ties keep row order)."""
    culprits = np.flatnonzero(codes == CULPRIT_CODE)
    if len(culprits) < FEW_CULPRITS:
        rows = table.rows
        return np.array(sorted(culprits.tolist(), key=lambda position: _first_key(rows[position])), dtype=np.int64)
    return culprits[np.argsort(table.execution_rank()[culprits], kind="stable")]


def assign_verdicts(
    rows: Iterable[PrecisionRow], thresholds: Thresholds, producers: ProducerIndex
) -> PrecisionRow | None:
    """Set every row's verdict within its (rank, step); return the first divergence over all ranks."""
    table, codes = assign_verdict_codes(rows, thresholds, producers)
    ordered = culprits_in_order(table, codes)
    return table.rows[int(ordered[0])] if len(ordered) else None


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
