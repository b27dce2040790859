"""What a set of logs holds when it has no [PERF] lines (core/att/found.py)."""

from __future__ import annotations

from pathlib import Path

from autofuse_studio.core.att.found import log_findings
from autofuse_studio.core.att.scanner import scan_file


def test_junk_and_tiling_only_logs(tmp_path: Path) -> None:
    junk = tmp_path / "junk.log"
    junk.write_bytes(b"hello\nworld\n\xff\xfe broken\n")
    found = log_findings([scan_file(junk)])
    assert (found.files, found.lines, found.operators, found.has_att_lines) == (1, 3, [], False)
    tiling = tmp_path / "tiling.log"
    tiling.write_text("[Add] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.\n",
                      encoding="utf-8")
    found = log_findings([scan_file(junk), scan_file(tiling)])
    assert found.files == 2 and found.operators == ["Add"] and found.has_att_lines
