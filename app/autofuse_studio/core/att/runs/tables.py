"""summary.csv and root-cause.jsonl of a run-root analysis (the xlsx uses the same cells)."""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.diff import OperatorDiff
from autofuse_studio.core.att.runs.operators import GroupFacts, OperatorFacts
from autofuse_studio.core.att.runs.rows import RowDiff
from autofuse_studio.core.att.runs.sides import CANDIDATE, DEFAULT
from autofuse_studio.core.att.runs.texts import EN, cause_text, number

SUMMARY_COLUMNS = [
    "Operator", "Graph", "Result", "Group", "Default Case", "Candidate Case", "Default Objective",
    "Candidate Objective", "Default Result Perf", "Candidate Result Perf", "Perf Delta (%)",
    "Tiling Values Differing", "Default Bottleneck", "Candidate Bottleneck", "Status", "Operator Status",
    "Default Source", "Candidate Source",
]
NUMBER_COLUMNS = frozenset(SUMMARY_COLUMNS[1:11])


def finite(value: float | None) -> float | None:
    """The value, or None when it is not a finite number (JSON has no inf/NaN; Excel cannot store them)."""
    return value if value is None or math.isfinite(value) else None


def _source(analysis: RunAnalysis, facts: GroupFacts | None) -> str:
    if facts is None or facts.source is None:
        return ""
    return f"{analysis.relpath(facts.source)}:{facts.source.line}"


def summary_cells(analysis: RunAnalysis, row: RowDiff) -> dict[str, Any]:
    """One summary row as typed cells: ints and floats stay numbers, missing values are None."""
    a, b = row.default, row.candidate
    changes = "; ".join(f"{name}: {number(x)} → {number(y)}" for name, x, y in row.value_changes)
    return {
        "Operator": row.operator, "Graph": row.graph, "Result": row.result, "Group": row.group,
        "Default Case": a.key.case if a else None, "Candidate Case": b.key.case if b else None,
        "Default Objective": finite(a.objective) if a else None,
        "Candidate Objective": finite(b.objective) if b else None,
        "Default Result Perf": finite(row.default_perf), "Candidate Result Perf": finite(row.candidate_perf),
        "Perf Delta (%)": row.perf_delta_pct, "Tiling Values Differing": changes,
        "Default Bottleneck": a.bottleneck.pipe if a and a.bottleneck else None,
        "Candidate Bottleneck": b.bottleneck.pipe if b and b.bottleneck else None,
        "Status": row.status, "Operator Status": row.operator_status,
        "Default Source": _source(analysis, a), "Candidate Source": _source(analysis, b),
    }


def _csv_text(value: Any) -> str:
    if value is None:
        return ""
    return number(value) if isinstance(value, float) else str(value)


def summary_csv(analysis: RunAnalysis) -> str:
    """summary.csv's text (the writer adds a BOM, as `att summary` does, so Excel reads UTF-8)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(SUMMARY_COLUMNS)
    for row in analysis.rows:
        cells = summary_cells(analysis, row)
        writer.writerow([_csv_text(cells[c]) for c in SUMMARY_COLUMNS])
    return buffer.getvalue()


def side_record(analysis: RunAnalysis, role: str, facts: OperatorFacts | None) -> dict[str, Any] | None:
    """What one side says about an operator (None when the operator is not in that run)."""
    if facts is None:
        return None
    groups = []
    for group, g in facts.groups.items():
        groups.append({
            "group": group, "case": g.key.case, "objective": finite(g.objective),
            "tiling_values": {name: finite(v) for name, v in sorted(g.values.items())},
            "bottleneck_pipe": g.bottleneck.pipe if g.bottleneck else None,
            "tiling_key": g.tiling_key, "parse_status": g.status,
        })
    return {"run": analysis.sides.side(role).label, "log": facts.relpath, "best_result": facts.best_label,
            "result_performance": finite(facts.result_perf), "parse_status": facts.statuses, "groups": groups}


def root_cause_record(analysis: RunAnalysis, diff: OperatorDiff) -> dict[str, Any]:
    """One line of root-cause.jsonl (keys in the issue's order; causes in English)."""
    evidence = [{"side": ref.side, "source_path": analysis.relpath(ref.source), "source_line": ref.source.line,
                 "text": analysis.texts.get(ref.source, "")} for ref in diff.evidence]
    return {
        "operator": diff.name, "status": diff.status,
        DEFAULT: side_record(analysis, DEFAULT, diff.default),
        CANDIDATE: side_record(analysis, CANDIDATE, diff.candidate),
        "perf_delta_pct": diff.perf_delta_pct,
        "causes": [cause_text(cause, EN) for cause in diff.causes],
        "evidence": evidence,
    }


def root_cause_jsonl(analysis: RunAnalysis) -> str:
    """root-cause.jsonl: one JSON object per operator, in report order (never NaN or Infinity)."""
    return "".join(json.dumps(root_cause_record(analysis, diff), ensure_ascii=False, allow_nan=False) + "\n"
                   for diff in analysis.diffs)

