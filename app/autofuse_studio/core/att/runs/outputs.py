"""The four report files of an analysis, rendered once as bytes and written atomically into REPORT_DIR."""

from __future__ import annotations

import logging
from pathlib import Path

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.report_md import report_markdown
from autofuse_studio.core.att.runs.tables import root_cause_jsonl, summary_csv
from autofuse_studio.core.errors import InputError, OutputError
from autofuse_studio.core.reports.atomic import atomic_write_bytes, check_output_folder, make_folder

log = logging.getLogger(__name__)
REPORT_MD, SUMMARY_CSV, ROOT_CAUSE, SUMMARY_XLSX = "report.md", "summary.csv", "root-cause.jsonl", "summary.xlsx"
REPORT_FILES = (REPORT_MD, SUMMARY_CSV, ROOT_CAUSE, SUMMARY_XLSX)


def render_reports(analysis: RunAnalysis, lang: str, command: list[str]) -> dict[str, bytes]:
    """File name -> bytes; summary.xlsx is left out (with a log line) when openpyxl is missing."""
    files = {
        REPORT_MD: report_markdown(analysis, lang, command).encode("utf-8"),
        SUMMARY_CSV: summary_csv(analysis).encode("utf-8-sig"),
        ROOT_CAUSE: root_cause_jsonl(analysis).encode("utf-8"),
    }
    try:
        from autofuse_studio.core.att.runs.report_xlsx import summary_xlsx

        files[SUMMARY_XLSX] = summary_xlsx(analysis)
    except ImportError:
        log.warning("openpyxl is not installed: summary.xlsx was not written")
    return files


def inside(path: Path, root: Path) -> bool:
    """True when `path` is `root` or below it (both resolved)."""
    return path == root or root in path.parents


def check_not_in_run_root(target: str | Path, run_root: Path, what: str) -> None:
    """InputError when `target` would lie in the run root (the analysis never writes there)."""
    resolved = Path(target).resolve()
    if inside(resolved, run_root):
        raise InputError.of("att_output_in_run_root", what=what, path=target, root=run_root)


def check_report_dir(report_dir: str | Path, run_root: Path, force: bool) -> None:
    """REPORT_DIR must not exist, or be an empty folder, unless `force` (then only our four files are replaced)."""
    folder = Path(report_dir)
    check_not_in_run_root(folder, run_root, "output folder")
    if folder.exists() and not folder.is_dir():
        raise OutputError.of("att_report_folder_is_file", path=folder)
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise InputError.of("att_output_not_empty", path=folder)
    check_output_folder(folder)


def write_reports(files: dict[str, bytes], report_dir: str | Path) -> list[Path]:
    """Write the rendered files into the folder (created if needed); returns the paths written."""
    folder = make_folder(report_dir)
    written = []
    for name, data in files.items():
        atomic_write_bytes(folder / name, data)
        written.append(folder / name)
    return written
