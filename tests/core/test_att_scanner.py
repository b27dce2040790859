"""The streaming scanner: files, folders, .gz, invalid UTF-8, CRLF, long lines, line numbers."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from autofuse_studio.core.att import scanner
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.scanner import find_logs, scan_file, scan_logs
from autofuse_studio.core.errors import InputError

LINES = [
    "noise",
    "[Add] [PROF]The value of s0t_size is 128 in graph0_result0_g0_0.",
    "[Add] [PROF]The objective value of the tiling data is 10 in graph0_result0_g0_0.",
    "[Add] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.",
    "[Add] [PROF]Among all schedule results, graph0_result0 is the best choice.",
    "[Add] The value of graph0_result0 is 10.",
]


def test_records_keep_path_and_line(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("\n".join(LINES) + "\n")
    scan = scan_file(log)
    op = scan.operators["Add"]
    value = op.values[CaseKey(0, 0, 0, 0)]["s0t_size"]
    assert (value.value, value.source.path, value.source.line) == (128.0, str(log), 2)
    assert op.objectives[CaseKey(0, 0, 0, 0)].source.line == 3
    assert op.result_perfs[(0, 0)].source.line == 6
    assert scan.line_count == 6


def test_crlf_gz_and_invalid_utf8(tmp_path: Path) -> None:
    payload = ("\r\n".join(LINES) + "\r\n").encode() + b"[Add] bad \xff\xfe byte\r\n" + LINES[1].encode()
    gz = tmp_path / "b.log.gz"
    gz.write_bytes(gzip.compress(payload))
    scan = scan_file(gz)
    assert scan.operators["Add"].values[CaseKey(0, 0, 0, 0)]["s0t_size"].value == 128.0
    assert scan.decode_issue_count == 1
    assert scan.decode_issues[0].source.line == 7
    assert scan.line_count == 8


def test_blocks_split_long_lines_correctly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scanner, "BLOCK_SIZE", 64)  # force lines across many blocks
    log = tmp_path / "c.log"
    long_noise = "x" * 1000
    log.write_text("\n".join([long_noise, *LINES, long_noise, LINES[1].replace("128", "256")]))
    scan = scan_file(log)
    value = scan.operators["Add"].values[CaseKey(0, 0, 0, 0)]["s0t_size"]
    assert (value.value, value.source.line) == (256.0, 9)  # the last duplicate wins


def test_folder_is_searched_recursively(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "z.log").write_text(LINES[1])
    (tmp_path / "a.log.gz").write_bytes(gzip.compress(LINES[1].encode()))
    (tmp_path / "notes.txt").write_text(LINES[1])
    found = find_logs(tmp_path)
    assert [p.name for p in found] == ["a.log.gz", "z.log"]
    assert len(scan_logs(found).files) == 2


def test_missing_and_corrupt_inputs_raise_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        find_logs(tmp_path / "nope")
    broken = tmp_path / "x.log.gz"
    broken.write_bytes(b"not gzip at all")
    with pytest.raises(InputError, match=r"x\.log\.gz"):
        scan_file(broken)
