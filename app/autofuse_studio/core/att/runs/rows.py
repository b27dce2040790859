"""summary.csv's rows: one per (operator, graph, result, group) over both sides."""

from __future__ import annotations

from dataclasses import dataclass

from autofuse_studio.core.att.runs.diff import (
    CHANGED,
    ONLY_CANDIDATE,
    ONLY_DEFAULT,
    UNCHANGED,
    OperatorDiff,
    delta_pct,
    value_changes,
)
from autofuse_studio.core.att.runs.operators import GroupFacts, OperatorFacts


@dataclass
class RowDiff:
    """One group of one schedule result of an operator, on either or both sides."""

    operator: str
    graph: int
    result: int
    group: int
    default: GroupFacts | None
    candidate: GroupFacts | None
    default_perf: float | None
    candidate_perf: float | None
    status: str
    operator_status: str

    @property
    def perf_delta_pct(self) -> float | None:
        """Result performance change in percent (positive: slower)."""
        return delta_pct(self.default_perf, self.candidate_perf)

    @property
    def value_changes(self) -> list[tuple[str, float | None, float | None]]:
        """Tiling values that differ (both sides present), by name."""
        if self.default is None or self.candidate is None:
            return []
        return value_changes(self.default, self.candidate)


def _groups(facts: OperatorFacts | None) -> dict[tuple[int, int, int], GroupFacts]:
    if facts is None:
        return {}
    return {(g.key.graph, g.key.result, g.key.group): g for g in facts.groups.values()}


def _status(a: GroupFacts | None, b: GroupFacts | None, pa: float | None, pb: float | None) -> str:
    if b is None:
        return ONLY_DEFAULT
    if a is None:
        return ONLY_CANDIDATE
    same = a.key.case == b.key.case and a.tiling_key == b.tiling_key and pa == pb
    return UNCHANGED if same else CHANGED


def row_diffs(diffs: list[OperatorDiff]) -> list[RowDiff]:
    """The rows of every operator, in the operators' report order, then by (graph, result, group)."""
    rows = []
    for diff in diffs:
        left, right = _groups(diff.default), _groups(diff.candidate)
        for key in sorted(set(left) | set(right)):
            a, b = left.get(key), right.get(key)
            pa = diff.default.result_perf if a is not None and diff.default else None
            pb = diff.candidate.result_perf if b is not None and diff.candidate else None
            rows.append(RowDiff(diff.name, *key, a, b, pa, pb, _status(a, b, pa, pb), diff.status))
    return rows
