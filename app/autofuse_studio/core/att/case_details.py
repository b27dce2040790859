"""Everything the logs say about one tiling case, each fact with the file:line it came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from autofuse_studio.core.att.model import CaseKey, FileScan, PerfNode, SourceRef


@dataclass(frozen=True)
class CaseFact:
    """One fact: kind ("tiling", "objective", "result-perf", "selection", "perf"), name, value, origin."""

    kind: str
    name: str
    value: float | None
    text: str
    source: SourceRef


@dataclass
class CaseDetails:
    """The tiling values, objective, result performance and [PERF] nodes of one case."""

    operator: str
    key: CaseKey
    facts: list[CaseFact] = field(default_factory=list)
    selected: bool = False

    def value(self, kind: str) -> float | None:
        """The value of the first fact of a kind (e.g. "objective"), None when the log lacks it."""
        return next((f.value for f in self.facts if f.kind == kind), None)


def node_formula(node: PerfNode) -> str:
    """The node's formula with its values: `Load_0[Load]: AIV_MTE2 = a=1 + b=2 = 3`."""
    terms = " + ".join(f"{item.name}={item.value:g}" for item in node.items) or "(no terms)"
    return f"{node.node}[{node.node_type}]: {node.pipe} = {terms} = {node.total:g}"


def case_details(scans: list[FileScan], operator: str, key: CaseKey) -> CaseDetails:
    """Collect the case's facts over every file, in file order (the last file's value is listed last)."""
    details = CaseDetails(operator, key)
    for scan in scans:
        op = scan.operators.get(operator)
        if op is None:
            continue
        for name, value in sorted(op.values.get(key, {}).items()):
            details.facts.append(CaseFact("tiling", name, value.value, f"{name} = {value.value:g}", value.source))
        objective = op.objectives.get(key)
        if objective is not None:
            details.facts.append(CaseFact("objective", "objective", objective.value,
                                          f"objective = {objective.value:g}", objective.source))
        perf = op.result_perfs.get((key.graph, key.result))
        if perf is not None:
            details.facts.append(CaseFact("result-perf", f"graph{key.graph}_result{key.result}", perf.value,
                                          f"result performance = {perf.value:g}", perf.source))
        selection = op.selections.get((key.graph, key.result, key.group))
        if selection is not None and selection.key == key:
            details.selected = True
            details.facts.append(CaseFact("selection", "template", None, "selected by the template search",
                                          selection.source))
        for node in op.perf_nodes:
            if node.key == key:
                details.facts.append(CaseFact("perf", node.node, node.total, node_formula(node), node.source))
    return details
