"""Compare inputs for the GUI: a summary CSV as is, or a log (file/folder) summarised first."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from autofuse_studio.core.att.compare import Comparison, CsvTable, compare_tables, read_csv
from autofuse_studio.core.att.scanner import scan_logs_by_bytes
from autofuse_studio.core.att.summary import build_summary
from autofuse_studio.core.att.summary_output import write_summary_csv
from autofuse_studio.core.att.workspace import find_all_logs
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress


def is_summary_csv(path: Path) -> bool:
    """A run given as a CSV file (anything else is read as logs)."""
    return path.is_file() and path.suffix.lower() == ".csv"


def load_run(path: str | Path, progress: Progress = no_progress,
             cancel: CancelToken = NEVER_CANCELLED) -> CsvTable:
    """The run's summary table: read from a CSV, or built from logs exactly as `att summary -f csv` would."""
    source = Path(path)
    if is_summary_csv(source):
        return read_csv(source)
    scan = scan_logs_by_bytes(find_all_logs([source]), progress, cancel)
    summary = build_summary(scan.files)
    if not summary.export_rows:
        raise InputError.of("att_no_records", path=source)
    # Through the CSV writer and reader, so a log compares exactly like its exported summary CSV.
    with tempfile.TemporaryDirectory(prefix="att-compare-") as folder:
        csv_path = Path(folder) / "summary.csv"
        write_summary_csv(summary, csv_path)
        table = read_csv(csv_path)
    return dataclasses.replace(table, path=str(source))


def compare_runs(path1: str | Path, path2: str | Path, progress: Progress = no_progress,
                 cancel: CancelToken = NEVER_CANCELLED) -> Comparison:
    """Compare two runs (logs or summary CSVs), baseline first."""
    table1 = load_run(path1, progress, cancel)
    table2 = load_run(path2, progress, cancel)
    return compare_tables(table1, table2)
