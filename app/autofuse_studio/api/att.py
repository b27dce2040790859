"""summarize_att(): the ATT log summary behind `att summary`, for scripts and notebooks."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autofuse_studio.core.att.model import FileScan, FinalTiling
from autofuse_studio.core.att.scanner import scan_file
from autofuse_studio.core.att.summary import (
    PIPE_VALUE_NAMES,
    Summary,
    SummaryRow,
    build_summary,
    tiling_columns,
)
from autofuse_studio.core.att.workspace import find_all_logs
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.gc_pause import gc_paused

if TYPE_CHECKING:
    import pandas as pd

PathLike = str | os.PathLike[str]
KEY_COLUMNS = ("operator", "graph", "result", "group", "case")
FINAL_FIELDS = tuple(item.name for item in fields(FinalTiling))


def row_dict(row: SummaryRow) -> dict[str, Any]:
    """One summary row as plain JSON types: coordinates, objective, result perf, tiling values, status, source."""
    final = None
    if row.final is not None:
        final = {key: value for key, value in asdict(row.final).items() if key != "origin"}
        final["origin"] = str(row.final.origin)
    return {"operator": row.operator, "graph": row.graph, "result": row.result, "group": row.group,
            "case": row.case, "objective": row.objective, "result_perf": row.result_perf,
            "tiling_values": dict(row.tiling_values), "status": row.status,
            "source": None if row.source is None else str(row.source), "final": final}


class AttSummary:
    """What summarize_att() found: the rows `att summary` exports, the logs read and their warnings."""

    def __init__(self, logs: list[Path], scans: list[FileScan], summary: Summary, failures: list[str]) -> None:
        self.logs = logs
        self.scans = scans
        self.summary = summary
        self.failures = failures

    @property
    def rows(self) -> list[SummaryRow]:
        """Per log file its FINAL_TILING rows when it has any, else its [PROF] rows (as `att summary` exports)."""
        return self.summary.export_rows

    @property
    def warnings(self) -> list[str]:
        """Logs that could not be read, then over-long lines and invalid UTF-8 per log."""
        notes = list(self.failures)
        for scan in self.scans:
            notes += scan.warnings
            if scan.warning_count > len(scan.warnings):
                notes.append(f"... and {scan.warning_count - len(scan.warnings)} more in {scan.path}.")
            if scan.decode_issue_count:
                notes.append(f"{scan.path}: {scan.decode_issue_count} line(s) with invalid UTF-8 were replaced.")
        return notes

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        operators = len({row.operator for row in self.rows})
        return f"<AttSummary {len(self)} rows, {operators} operator(s), {len(self.logs)} log(s)>"

    def to_dict(self) -> dict[str, Any]:
        """{"logs": [...], "rows": [row_dict(row), ...], "warnings": [...]}."""
        return {"logs": [str(path) for path in self.logs], "rows": [row_dict(row) for row in self.rows],
                "warnings": self.warnings}

    def to_json(self, indent: int | None = 2) -> str:
        """to_dict() as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def to_dataframe(self) -> pd.DataFrame:
        """One pandas row per summary row, in `att summary`'s CSV column order (operator ... case, AIV_MTE2,
        AIV_MTE3, objective, result_perf, the tiling values, status), then source and the final_* fields of
        FINAL_TILING records when any log has them. Missing values are NaN."""
        import pandas as pd  # lazy: pandas costs ~0.3 s and only this method needs it

        values = [*PIPE_VALUE_NAMES, *tiling_columns(self.rows)]
        columns = [*KEY_COLUMNS, *PIPE_VALUE_NAMES, "objective", "result_perf", *values[2:], "status", "source"]
        records = []
        for row in self.rows:
            plain = row_dict(row)
            record = {key: plain[key] for key in (*KEY_COLUMNS, "objective", "result_perf", "status", "source")}
            record.update({name: row.tiling_values.get(name) for name in values})
            final = plain["final"] or {}
            record.update({f"final_{name}": final.get(name) for name in FINAL_FIELDS})
            records.append(record)
        finals = [f"final_{name}" for name in FINAL_FIELDS] if self.summary.has_final else []
        return pd.DataFrame.from_records(records, columns=[*columns, *finals])


def summarize_att(log_path_or_folder: PathLike | Iterable[PathLike], *, all_results: bool = False) -> AttSummary:
    """Scan ATT logs (a file, a folder searched for *.log / *.log.gz, or several) and summarise them like
    `att summary`; `all_results` lists every schedule result, not only the best. InputError when none is found."""
    inputs = [log_path_or_folder] if isinstance(log_path_or_folder, str | os.PathLike) else list(log_path_or_folder)
    logs = find_all_logs([Path(item) for item in inputs])
    scans: list[FileScan] = []
    failures: list[str] = []
    # As `att summary`: the scans are acyclic and freed by reference counting, so no collection needs to walk them.
    with gc_paused():
        for path in logs:
            try:
                scans.append(scan_file(path))
            except InputError as error:
                failures.append(f"Failed to parse {path}: {error}")
        summary = build_summary(scans, all_results=all_results)
    return AttSummary(logs, scans, summary, failures)
