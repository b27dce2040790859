"""`att perf-formula` model: per operator and (graph, result, group, case) the [PERF] pipeline nodes,
the bottleneck pipe, and per group the most case-sensitive formula term."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from autofuse_studio.core.att.case_filter import CaseFilter
from autofuse_studio.core.att.model import CaseKey, FileScan, PerfNode, TemplateSelection


@dataclass
class PerfCase:
    """The nodes of one tiling case and its bottleneck (the node with the largest total)."""

    key: CaseKey
    nodes: list[PerfNode]
    bottleneck_index: int | None
    bottleneck_pipe: str | None
    selected: bool


@dataclass
class Sensitivity:
    """The term (node + item) whose value varies most across the group's cases."""

    parameter: str
    node: str
    item: str
    variance: float
    values: list[tuple[CaseKey, float | None]]  # one per case of the group, in case order


@dataclass
class PerfGroup:
    """One schedule group: its cases, the selected case id, and the sensitive term."""

    graph: int
    result: int
    group: int
    cases: list[PerfCase]
    selected_case: int | None
    sensitivity: Sensitivity | None

    @property
    def shown_case(self) -> PerfCase:
        """The case drawn in full: the selected one, else the first."""
        return next((c for c in self.cases if c.selected), self.cases[0])


@dataclass
class PerfOperator:
    """One operator section of the picture."""

    name: str
    graph: int
    result: int
    selected: CaseKey | None
    groups: list[PerfGroup]


@dataclass
class PerfFormulaModel:
    """The whole perf-formula picture, also written as perf_formula.json."""

    source_dir: str | None
    operators: list[PerfOperator] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass
class _Merged:
    nodes: list[PerfNode] = field(default_factory=list)
    selections: dict[tuple[int, int, int], TemplateSelection] = field(default_factory=dict)
    best: tuple[int, int] | None = None


def _merge(scans: list[FileScan]) -> dict[str, _Merged]:
    merged: dict[str, _Merged] = {}
    for scan in scans:
        for op in scan.operators.values():
            if not (op.prof_lines or op.perf_entries):
                continue
            entry = merged.setdefault(op.name, _Merged())
            entry.nodes += op.perf_nodes
            entry.selections.update(op.selections)
            if op.best_result is not None:
                entry.best = (op.best_result.graph, op.best_result.result)
    return merged


def _chosen_result(entry: _Merged) -> tuple[int, int]:
    if entry.best is not None:
        return entry.best
    if entry.selections:
        first = next(iter(entry.selections.values())).key
        return first.graph, first.result
    return (entry.nodes[0].key.graph, entry.nodes[0].key.result) if entry.nodes else (0, 0)


def bottleneck(nodes: list[PerfNode]) -> int | None:
    """Index of the node with the largest total (the first one on ties)."""
    if not nodes:
        return None
    return max(range(len(nodes)), key=lambda i: (nodes[i].total, -i))


def sensitivity(cases: list[PerfCase]) -> Sensitivity | None:
    """The (node, item) term with the largest sample variance across cases; None if nothing varies."""
    if len(cases) < 2:
        return None
    per_term: dict[tuple[str, str], dict[CaseKey, float]] = {}
    for case in cases:
        for node in case.nodes:
            for item in node.items:
                per_term.setdefault((node.node, item.name), {})[case.key] = item.value
    best: tuple[float, tuple[str, str]] | None = None
    for term, values in per_term.items():
        if len(values) >= 2:
            variance = statistics.variance(values.values())
            if variance > 0 and (best is None or variance > best[0]):
                best = (variance, term)
    if best is None:
        return None
    variance, (term_node, term_item) = best
    same_item = sum(1 for _, name in per_term if name == term_item)
    label = term_item if same_item == 1 else f"{term_node}.{term_item}"
    values = per_term[(term_node, term_item)]
    return Sensitivity(label, term_node, term_item, variance, [(c.key, values.get(c.key)) for c in cases])


def _keep(nodes: list[PerfNode], selected: set[CaseKey], case_filter: CaseFilter | None) -> list[PerfNode]:
    if case_filter is not None:
        return [n for n in nodes if case_filter.matches(n.key.result, n.key.group, n.key.case)]
    chosen = [n for n in nodes if n.key in selected]
    return chosen or nodes


def build_operator(name: str, entry: _Merged, case_filter: CaseFilter | None) -> PerfOperator | None:
    """The section of one operator; None when it has no [PERF] lines left to draw."""
    graph, result = _chosen_result(entry)
    selected = {s.key for (g, r, _), s in entry.selections.items() if (g, r) == (graph, result)}
    nodes = _keep(entry.nodes, selected, case_filter)
    if not nodes:
        return None
    by_case: dict[CaseKey, list[PerfNode]] = {}
    for node in nodes:
        by_case.setdefault(node.key, []).append(node)
    groups: dict[tuple[int, int, int], list[PerfCase]] = {}
    for key in sorted(by_case):
        case_nodes = by_case[key]
        index = bottleneck(case_nodes)
        pipe = case_nodes[index].pipe if index is not None else None
        groups.setdefault((key.graph, key.result, key.group), []).append(
            PerfCase(key, case_nodes, index, pipe, key in selected))
    perf_groups = []
    for (g, r, p), cases in sorted(groups.items()):
        chosen = entry.selections.get((g, r, p))
        perf_groups.append(PerfGroup(g, r, p, cases, chosen.key.case if chosen else None, sensitivity(cases)))
    return PerfOperator(name, graph, result, min(selected, key=lambda k: k.group) if selected else None,
                        perf_groups)


def build_perf_model(scans: list[FileScan], case_filter: CaseFilter | None = None,
                     source_dir: str | None = None) -> PerfFormulaModel:
    """The model for every operator; operators without [PERF] lines are listed in `skipped`."""
    model = PerfFormulaModel(source_dir)
    active = case_filter if case_filter is not None and case_filter != CaseFilter() else None
    for name, entry in _merge(scans).items():
        section = build_operator(name, entry, active)
        if section is None:
            model.skipped.append(name)
        else:
            model.operators.append(section)
    return model


def build_all_cases_model(scans: list[FileScan], source_dir: str | None = None) -> PerfFormulaModel:
    """Every case of each operator's chosen schedule result (the GUI's per-operator view).

    build_perf_model keeps only the selected cases unless a filter is given, like the reference; the GUI
    shows all of them side by side. Operators whose chosen result has no [PERF] line keep all results.
    """
    model = PerfFormulaModel(source_dir)
    for name, entry in _merge(scans).items():
        graph, result = _chosen_result(entry)
        nodes = [n for n in entry.nodes if (n.key.graph, n.key.result) == (graph, result)] or entry.nodes
        section = build_operator(name, _Merged(nodes, entry.selections, entry.best), CaseFilter())
        if section is None:
            model.skipped.append(name)
        else:
            model.operators.append(section)
    return model
