"""`att summary`: one row per operator, schedule result and group, plus FINAL_TILING rows."""

from __future__ import annotations

from dataclasses import dataclass, field

from autofuse_studio.core.att.model import CaseKey, FileScan, FinalTiling, OperatorLog, SourceRef

OK = "ok"
INFERRED_GRAPH_RESULT = "inferred_graph_result"
MISSING_GRAPH_RESULT = "missing_graph_result"
MISSING_GROUP_CASE = "missing_group_case"
MISSING_RESULT_PERFORMANCE = "missing_result_performance"
CANDIDATE = "candidate"
PIPE_VALUE_NAMES = ("AIV_MTE2", "AIV_MTE3")
TRAILING_VALUE_NAMES = ("ub_size", "block_dim")


@dataclass
class SummaryRow:
    """One summary line: the selected tiling case of a group and what the log says about it."""

    operator: str
    graph: int
    result: int
    group: int
    case: int
    objective: float | None = None
    result_perf: float | None = None
    tiling_values: dict[str, float] = field(default_factory=dict)
    status: str = OK
    source: SourceRef | None = None
    final: FinalTiling | None = None

    @property
    def aiv_mte2(self) -> float | None:
        """The AIV_MTE2 pipe estimate (a tiling value)."""
        return self.tiling_values.get("AIV_MTE2")

    @property
    def aiv_mte3(self) -> float | None:
        """The AIV_MTE3 pipe estimate (a tiling value)."""
        return self.tiling_values.get("AIV_MTE3")


@dataclass
class Summary:
    """Legacy rows (from [PROF] lines) and FINAL_TILING rows of every file."""

    legacy_rows: list[SummaryRow]
    final_rows: list[SummaryRow]
    export_rows: list[SummaryRow]  # per file: its final rows if any, else its legacy rows

    @property
    def has_final(self) -> bool:
        """True when any file held FINAL_TILING records."""
        return bool(self.final_rows)

    @property
    def file_rows(self) -> list[SummaryRow]:
        """The rows of `att summary`'s CSV and xlsx files, as att.py writes them: once any log has FINAL_TILING
        records, the FINAL_TILING rows of every log (legacy rows of logs without them are left out), else the
        legacy rows. (`export_rows`, per log its FINAL_TILING rows or else its legacy rows, is what the GUI
        shows and exports.)"""
        return self.final_rows if self.final_rows else self.legacy_rows

    @property
    def left_out(self) -> list[SummaryRow]:
        """Rows of `export_rows` that `file_rows` leaves out (legacy rows of logs without FINAL_TILING records)."""
        if not self.final_rows:
            return []
        return [row for row in self.export_rows if row.final is None]


def graph_status(op: OperatorLog) -> str:
    """How the operator's schedule result is known: best-result line, template line, or not at all."""
    if op.best_result is not None:
        return OK
    return INFERRED_GRAPH_RESULT if op.selections else MISSING_GRAPH_RESULT


def _observed_results(op: OperatorLog) -> list[tuple[int, int]]:
    keys = set(op.values) | set(op.objectives)
    return sorted({(k.graph, k.result) for k in keys})


def chosen_results(op: OperatorLog, all_results: bool) -> list[tuple[int, int]]:
    """The (graph, result) pairs reported for an operator."""
    if all_results:
        pairs = set(op.result_perfs) | {(g, r) for g, r, _ in op.selections}
        if pairs:
            return sorted(pairs)
    if op.best_result is not None:
        return [(op.best_result.graph, op.best_result.result)]
    if op.selections:
        first = next(iter(op.selections.values()))
        return [(first.key.graph, first.key.result)]
    return _observed_results(op) or [(0, 0)]


def with_result_perf_status(status: str, op: OperatorLog, graph: int, result: int) -> str:
    """Append `;missing_result_performance` to a selected row's status when it applies."""
    if status in (MISSING_GROUP_CASE, CANDIDATE) or (graph, result) in op.result_perfs:
        return status
    return f"{status};{MISSING_RESULT_PERFORMANCE}"


def fill_row(op: OperatorLog, key: CaseKey, status: str) -> SummaryRow:
    """A row for one case key with the values, objective and result perf the log holds."""
    values = op.values.get(key, {})
    objective = op.objectives.get(key)
    perf = op.result_perfs.get((key.graph, key.result))
    selection = op.selections.get((key.graph, key.result, key.group))
    line = op.first_mentions.get(key) or (selection.source.line if selection else None)
    return SummaryRow(
        op.name, key.graph, key.result, key.group, key.case,
        objective=objective.value if objective else None,
        result_perf=perf.value if perf else None,
        tiling_values={name: v.value for name, v in values.items()},
        status=with_result_perf_status(status, op, key.graph, key.result),
        source=SourceRef(op.first_source.path, line) if line else op.first_source,
    )


def operator_rows(op: OperatorLog, all_results: bool) -> list[SummaryRow]:
    """Rows of one operator: selected case per group; unselected groups list their cases."""
    status = graph_status(op)
    rows = []
    observed = set(op.values) | set(op.objectives)
    for graph, result in chosen_results(op, all_results):
        selected = {p: s.key.case for (g, r, p), s in op.selections.items() if (g, r) == (graph, result)}
        seen_cases: dict[int, set[int]] = {}
        for key in observed:
            if (key.graph, key.result) == (graph, result):
                seen_cases.setdefault(key.group, set()).add(key.case)
        for group in sorted(set(selected) | set(seen_cases)):
            if group in selected:
                rows.append(fill_row(op, CaseKey(graph, result, group, selected[group]), status))
                continue
            # No template line for this group: every case the log shows is listed, none chosen.
            for case in sorted(seen_cases[group]):
                rows.append(fill_row(op, CaseKey(graph, result, group, case), MISSING_GROUP_CASE))
        if not selected and not seen_cases:
            lone = status if status != OK else MISSING_GROUP_CASE
            rows.append(fill_row(op, CaseKey(graph, result, -1, 0), lone))
    return rows


def legacy_rows(scan: FileScan, all_results: bool) -> list[SummaryRow]:
    """Rows built from the [PROF] lines of one file, operators in first-seen order."""
    rows: list[SummaryRow] = []
    for op in scan.operators.values():
        if op.prof_lines:
            rows.extend(operator_rows(op, all_results))
    return rows


def final_rows(scan: FileScan, legacy: list[SummaryRow]) -> list[SummaryRow]:
    """One row per FINAL_TILING record, joined to the legacy row of the same (op, graph, result, group)."""
    by_group: dict[tuple[str, int | None, int | None, int | None], SummaryRow] = {
        (r.operator, r.graph, r.result, r.group): r for r in legacy}
    rows = []
    for record in scan.final_records:
        joined = by_group.get((record.operator, record.graph, record.result, record.group))
        row = SummaryRow(
            record.operator, _int(record.graph), _int(record.result), _int(record.group),
            _int(record.case_id), status=record.status, source=record.origin, final=record,
        )
        if joined is not None:
            row.objective, row.result_perf = joined.objective, joined.result_perf
            row.tiling_values = dict(joined.tiling_values)
        rows.append(row)
    return rows


def _int(value: int | None) -> int:
    return -1 if value is None else value


def build_summary(scans: list[FileScan], all_results: bool = False) -> Summary:
    """The summary of every scanned file (best result per operator, or all results with `-a`)."""
    legacy_all: list[SummaryRow] = []
    final_all: list[SummaryRow] = []
    export: list[SummaryRow] = []
    for scan in scans:
        legacy = legacy_rows(scan, all_results)
        finals = final_rows(scan, legacy)
        legacy_all += legacy
        final_all += finals
        export += finals or legacy
    return Summary(legacy_all, final_all, export)


def tiling_columns(rows: list[SummaryRow]) -> list[str]:
    """Tiling value names as the reference orders them: sorted, then ub_size and block_dim."""
    names = {name for row in rows for name in row.tiling_values}
    middle = sorted(names - set(TRAILING_VALUE_NAMES) - set(PIPE_VALUE_NAMES))
    return [*middle, *TRAILING_VALUE_NAMES]
