"""Per side and operator what is compared: the chosen schedule result and, per group, the selected case.

Built from the summary rows of each log (`build_summary`, as `att summary` prints them) plus the records
of the same scan for the [PERF] bottleneck and the exact lines that back every fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autofuse_studio.core.att.model import CaseKey, OperatorLog, PerfNode, SourceRef
from autofuse_studio.core.att.perf_model import bottleneck
from autofuse_studio.core.att.runs.side_scan import SideLog, SideScan
from autofuse_studio.core.att.summary import SummaryRow, build_summary

EXAMPLES = 5


@dataclass
class GroupFacts:
    """The selected case of one group and what the log says about it."""

    key: CaseKey
    objective: float | None
    values: dict[str, float]
    status: str
    tiling_key: int | None
    template: str | None
    bottleneck: PerfNode | None
    source: SourceRef | None  # the row's anchor: first mention of the case, or its FINAL_TILING line


@dataclass
class OperatorFacts:
    """One operator of one side."""

    name: str
    relpath: str  # the log it was read from, relative to the run root
    log: OperatorLog | None  # None when the log only has FINAL_TILING records for it
    chosen: tuple[int, int]
    groups: dict[int, GroupFacts]
    result_perf: float | None
    statuses: list[str]

    @property
    def best_label(self) -> str:
        """`graph<G>_result<R>` of the chosen schedule result."""
        return f"graph{self.chosen[0]}_result{self.chosen[1]}"

    @property
    def best_line(self) -> SourceRef | None:
        """The best-result line, else the first template line (how the result was inferred)."""
        if self.log is None:
            return None
        if self.log.best_result is not None:
            return self.log.best_result.source
        first = next(iter(self.log.selections.values()), None)
        return first.source if first else None

    @property
    def perf_line(self) -> SourceRef | None:
        """The result-performance line of the chosen result."""
        perf = self.log.result_perfs.get(self.chosen) if self.log else None
        return perf.source if perf else None

    def selection_line(self, group: int) -> SourceRef | None:
        """The template-selection line of a group (or the FINAL_TILING line that chose its case)."""
        facts = self.groups.get(group)
        if self.log is not None and facts is not None:
            selection = self.log.selections.get((facts.key.graph, facts.key.result, group))
            if selection is not None:
                return selection.source
        return facts.source if facts else None

    def value_line(self, group: int, name: str) -> SourceRef | None:
        """The line that set a tiling value of a group's selected case (the last one: last wins)."""
        facts = self.groups.get(group)
        if self.log is None or facts is None:
            return None
        value = self.log.values.get(facts.key, {}).get(name)
        return value.source if value else None

    def objective_line(self, group: int) -> SourceRef | None:
        """The objective line of a group's selected case."""
        facts = self.groups.get(group)
        objective = self.log.objectives.get(facts.key) if self.log and facts else None
        return objective.source if objective else None


@dataclass
class SideOperators:
    """The operators of one side in first-seen order, and notes about operators logged more than once."""

    operators: dict[str, OperatorFacts] = field(default_factory=dict)
    repeated: dict[str, list[str]] = field(default_factory=dict)  # operator -> every log that had it


def _pick(rows: list[SummaryRow]) -> dict[int, SummaryRow]:
    """One row per group: the first `ok` one (FINAL_TILING logs may repeat a group), else the first."""
    chosen: dict[int, SummaryRow] = {}
    for row in rows:
        current = chosen.get(row.group)
        if current is None or (current.status != "ok" and row.status == "ok"):
            chosen[row.group] = row
    return dict(sorted(chosen.items()))


def _facts(name: str, log: SideLog, rows: list[SummaryRow]) -> OperatorFacts:
    op = log.scan.operators.get(name)
    nodes: dict[CaseKey, list[PerfNode]] = {}
    for node in op.perf_nodes if op else ():
        nodes.setdefault(node.key, []).append(node)
    groups = {}
    for group, row in _pick(rows).items():
        key = CaseKey(row.graph, row.result, row.group, row.case)
        case_nodes = nodes.get(key, [])
        index = bottleneck(case_nodes)
        final = row.final
        groups[group] = GroupFacts(key, row.objective, dict(row.tiling_values), row.status,
                                   final.tiling_key if final else None, final.template if final else None,
                                   case_nodes[index] if index is not None else None, row.source)
    if op is not None and op.best_result is not None:
        chosen = (op.best_result.graph, op.best_result.result)
    else:
        chosen = (rows[0].graph, rows[0].result)
    perf = next((row.result_perf for row in rows if row.result_perf is not None), None)
    statuses = list(dict.fromkeys(row.status for row in rows))
    return OperatorFacts(name, log.file.relpath, op, chosen, groups, perf, statuses)


def side_operators(side: SideScan) -> SideOperators:
    """Every operator of the side's summary rows; an operator in several logs keeps the last log's facts."""
    result = SideOperators()
    for log in side.logs:
        rows_by_op: dict[str, list[SummaryRow]] = {}
        for row in build_summary([log.scan]).export_rows:
            rows_by_op.setdefault(row.operator, []).append(row)
        for name, rows in rows_by_op.items():
            if name in result.operators:
                result.repeated.setdefault(name, [result.operators[name].relpath]).append(log.file.relpath)
            result.operators[name] = _facts(name, log, rows)
    return result


def repeated_note(label: str, repeated: dict[str, list[str]]) -> str | None:
    """A sentence about operators found in several logs of a side (None when there are none)."""
    if not repeated:
        return None
    examples = ", ".join(f"{name} ({', '.join(paths[:3])})" for name, paths in list(repeated.items())[:EXAMPLES])
    more = f" and {len(repeated) - EXAMPLES} more" if len(repeated) > EXAMPLES else ""
    return (f"{len(repeated)} operator(s) of '{label}' appear in more than one log; the last log in path order is "
            f"used for each: {examples}{more}.")
