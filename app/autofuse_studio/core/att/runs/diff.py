"""Compares the two sides operator by operator: status, perf delta, and causes with the lines that show them.

An operator is `changed` when its selection (best result, a group's case or FINAL_TILING key) or its result
performance differs. Tiling values, objectives, the [PERF] bottleneck pipe and parse statuses that differ are
causes too, but on their own they leave the operator `unchanged`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from autofuse_studio.core.att.model import SourceRef
from autofuse_studio.core.att.runs.operators import GroupFacts, OperatorFacts
from autofuse_studio.core.att.runs.sides import CANDIDATE, DEFAULT

CHANGED, UNCHANGED, ONLY_DEFAULT, ONLY_CANDIDATE = "changed", "unchanged", "only_default", "only_candidate"
STATUSES = (CHANGED, ONLY_DEFAULT, ONLY_CANDIDATE, UNCHANGED)  # also the report's order
MAX_VALUE_EVIDENCE = 4  # tiling values per group whose lines are cited (all are named)
MAX_EVIDENCE = 24  # lines per operator


@dataclass(frozen=True)
class EvidenceRef:
    """A log line backing a cause: the side's role and file:line."""

    side: str
    source: SourceRef


@dataclass
class Cause:
    """One difference: a kind (see texts.cause_text), its values, and the lines on both sides that show it."""

    kind: str
    params: dict[str, Any]
    evidence: list[EvidenceRef] = field(default_factory=list)
    selection: bool = False  # a selection or performance change: makes the operator `changed`


@dataclass
class OperatorDiff:
    """The comparison of one operator."""

    name: str
    status: str
    default: OperatorFacts | None
    candidate: OperatorFacts | None
    perf_delta_pct: float | None
    causes: list[Cause]
    anchors: list[EvidenceRef]  # the lines showing each side's selection and performance

    def side(self, role: str) -> OperatorFacts | None:
        """The facts of one side (None when the operator is not in that run)."""
        return self.default if role == DEFAULT else self.candidate

    @property
    def evidence(self) -> list[EvidenceRef]:
        """The causes' lines, then the anchors, each once, at most MAX_EVIDENCE."""
        refs = [ref for cause in self.causes for ref in cause.evidence] + self.anchors
        return list(dict.fromkeys(refs))[:MAX_EVIDENCE]


def delta_pct(reference: float | None, candidate: float | None) -> float | None:
    """(candidate - reference) / reference in percent; positive is slower (a regression). None when unknown."""
    if reference is None or candidate is None or not (math.isfinite(reference) and math.isfinite(candidate)):
        return None
    if reference == 0:
        return 0.0 if candidate == 0 else None
    return round((candidate - reference) / reference * 100.0, 6)


def _refs(pairs: list[tuple[str, SourceRef | None]]) -> list[EvidenceRef]:
    return [EvidenceRef(side, source) for side, source in pairs if source is not None]


def _both(kind: str, params: dict[str, Any], a: SourceRef | None, b: SourceRef | None,
          selection: bool = False) -> Cause:
    return Cause(kind, params, _refs([(DEFAULT, a), (CANDIDATE, b)]), selection)


def _group_causes(group: int, a: OperatorFacts, b: OperatorFacts) -> list[Cause]:
    """What differs in one group. Values and objectives of two different schedule results always differ, so
    they are compared only when both sides chose the same result; a pipe is compared only when both are known."""
    ga, gb = a.groups[group], b.groups[group]
    causes = []
    if ga.key.case != gb.key.case:
        causes.append(_both("group_case", {"group": group, "default": ga.key.case, "candidate": gb.key.case},
                            a.selection_line(group), b.selection_line(group), selection=True))
    if ga.tiling_key != gb.tiling_key:
        causes.append(_both("tiling_key", {"group": group, "default": ga.tiling_key, "candidate": gb.tiling_key},
                            ga.source, gb.source, selection=True))
    if a.chosen == b.chosen:
        causes += _value_causes(group, a, b)
    pipe_a = ga.bottleneck.pipe if ga.bottleneck else None
    pipe_b = gb.bottleneck.pipe if gb.bottleneck else None
    if ga.bottleneck and gb.bottleneck and pipe_a != pipe_b:
        causes.append(_both("bottleneck", {"group": group, "default": pipe_a, "candidate": pipe_b},
                            ga.bottleneck.source, gb.bottleneck.source))
    return causes


def _value_causes(group: int, a: OperatorFacts, b: OperatorFacts) -> list[Cause]:
    ga, gb = a.groups[group], b.groups[group]
    causes = []
    changes = value_changes(ga, gb)
    if changes:
        refs = [ref for name, _, _ in changes[:MAX_VALUE_EVIDENCE]
                for ref in _refs([(DEFAULT, a.value_line(group, name)), (CANDIDATE, b.value_line(group, name))])]
        causes.append(Cause("tiling_values", {"group": group, "changes": changes}, refs))
    if ga.objective != gb.objective:
        causes.append(_both("objective", {"group": group, "default": ga.objective, "candidate": gb.objective},
                            a.objective_line(group), b.objective_line(group)))
    return causes


def value_changes(a: GroupFacts, b: GroupFacts) -> list[tuple[str, float | None, float | None]]:
    """(name, default, candidate) for every tiling value that differs or is on one side only, by name."""
    names = sorted(set(a.values) | set(b.values))
    return [(n, a.values.get(n), b.values.get(n)) for n in names if a.values.get(n) != b.values.get(n)]


def _causes(a: OperatorFacts, b: OperatorFacts) -> list[Cause]:
    causes = []
    if a.chosen != b.chosen:
        causes.append(_both("best_result", {"default": a.best_label, "candidate": b.best_label},
                            a.best_line, b.best_line, selection=True))
    for group in sorted(set(a.groups) | set(b.groups)):
        if group in a.groups and group in b.groups:
            causes += _group_causes(group, a, b)
            continue
        role, facts = (DEFAULT, a) if group in a.groups else (CANDIDATE, b)
        causes.append(Cause("group_only", {"group": group, "side": role, "case": facts.groups[group].key.case},
                            _refs([(role, facts.selection_line(group))]), selection=True))
    if a.result_perf != b.result_perf:
        causes.append(_both("result_perf", {"default": a.result_perf, "candidate": b.result_perf,
                                            "delta_pct": delta_pct(a.result_perf, b.result_perf)},
                            a.perf_line, b.perf_line, selection=True))
    if a.statuses != b.statuses:
        causes.append(Cause("parse_status", {"default": a.statuses, "candidate": b.statuses}))
    return causes


def _anchors(role: str, facts: OperatorFacts) -> list[EvidenceRef]:
    lines = [facts.best_line, *(facts.selection_line(g) for g in facts.groups), facts.perf_line]
    return _refs([(role, line) for line in lines])


def compare_operator(name: str, a: OperatorFacts | None, b: OperatorFacts | None) -> OperatorDiff:
    """The diff of one operator present on at least one side."""
    anchors = (_anchors(DEFAULT, a) if a else []) + (_anchors(CANDIDATE, b) if b else [])
    if a is None or b is None:
        role = DEFAULT if b is None else CANDIDATE
        facts = a or b
        assert facts is not None
        cause = Cause("only_side", {"side": role}, _anchors(role, facts)[:1])
        return OperatorDiff(name, ONLY_DEFAULT if b is None else ONLY_CANDIDATE, a, b, None, [cause], anchors)
    causes = _causes(a, b)
    status = CHANGED if any(c.selection for c in causes) else UNCHANGED
    return OperatorDiff(name, status, a, b, delta_pct(a.result_perf, b.result_perf), causes, anchors)


def _order(diff: OperatorDiff) -> tuple[int, float]:
    """Changed first, largest regression first (unknown deltas after the known ones), then the other statuses."""
    rank = STATUSES.index(diff.status)
    if diff.status != CHANGED:
        return rank, 0.0
    return rank, -diff.perf_delta_pct if diff.perf_delta_pct is not None else math.inf


def compare_sides(default: dict[str, OperatorFacts], candidate: dict[str, OperatorFacts]) -> list[OperatorDiff]:
    """Every operator of either side, in report order (first-seen order within a status)."""
    names = list(dict.fromkeys([*default, *candidate]))
    diffs = [compare_operator(name, default.get(name), candidate.get(name)) for name in names]
    return sorted(diffs, key=_order)  # stable: ties keep first-seen order
