"""`att analyze` on a side of many small files: memory and report size stay bounded.

Issue 30, item 13: `att analyze` held ~3 KB per file of a side (200k empty files: 605 MB, 36 s), most of it
in a row per file of report.md and of summary.xlsx's Files sheet. Files without ATT lines are now counted
and listed up to a limit, small files without any marker are not scanned, and a found file is a few ints.
"""

from __future__ import annotations

import json
from pathlib import Path

from openpyxl import load_workbook

from autofuse_studio.core.att.runs.report_md import MAX_FILES_LISTED
from autofuse_studio.core.att.runs.side_scan import MAX_LISTED
from tests.robustness.conftest import run_cli

LOG = "[Op] [PROF]The value of x is {v} in graph0_result0_g0_0.\n"
FILES = 30_000


def _run_root(root: Path, files: int) -> Path:
    for side, value in (("default", 1), ("pgo", 2)):
        (root / side).mkdir(parents=True)
        (root / side / "att.log").write_text(LOG.format(v=value))
    for index in range(files):
        folder = root / "pgo" / f"d{index // 1000}"
        folder.mkdir(exist_ok=True)
        (folder / f"e{index}.log").touch()
    return root


def test_a_side_of_many_empty_files_stays_small(tmp_path: Path) -> None:
    small = run_cli("att", "analyze", "--run-root", _run_root(tmp_path / "small", 0), "--output", tmp_path / "o1")
    assert small.returncode == 0, small.output
    run = run_cli("att", "analyze", "--run-root", _run_root(tmp_path / "big", FILES), "--output", tmp_path / "o2",
                  timeout=120)
    assert run.returncode == 0, run.output
    per_file_kib = (run.peak_mib - small.peak_mib) * 1024 / FILES
    assert per_file_kib < 1.0, f"{per_file_kib:.2f} KiB per file (peak {run.peak_mib:.0f} MiB)"
    report = (tmp_path / "o2" / "report.md").read_text(encoding="utf-8")
    assert len(report) < 50_000
    assert f"| text, no ATT lines | … {FILES - MAX_FILES_LISTED} more | 0 B |  |  |" in report
    book = load_workbook(tmp_path / "o2" / "summary.xlsx", read_only=True)
    try:
        rows = list(book["Files"].iter_rows(values_only=True))
    finally:
        book.close()
    assert len(rows) < MAX_LISTED + 10
    assert ("candidate", "pgo", "text, no ATT lines", f"… {FILES - MAX_LISTED} more", 0, None) in rows
    causes = [json.loads(line) for line in (tmp_path / "o2" / "root-cause.jsonl").read_text().splitlines()]
    assert [c["status"] for c in causes] == ["unchanged"]  # the one real log on each side is still compared
