"""The streaming scanner: files, folders, .gz, invalid UTF-8, CRLF, long lines, line numbers."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from autofuse_studio.core.att import scanner
from autofuse_studio.core.att.model import CaseKey, SourceRef
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


TRICKY = (
    b"noise [INFO] [tiling_func.cc:12] x\r\n"
    b"[Add] [PROF]The value of s0t_size is 128 in graph0_result0_g0_0.\r\n"
    b"[INFO] [Add] [PROF]The value of graph0_result0 is 10.\n"  # two markers: one line, one record
    b"[Mul] The value of graph0_result1 is 12.\n"  # only the marker without "["
    b"[PROF] [PROF]The value of x is 1 in graph0_result0_g0_0.\n"  # a reserved tag is no operator
    b"[Add] [PROF][PERF]The value of y is 2 in graph0_result0_g0_0.\n"  # [PERF] takes it elsewhere
    b"[DFX] [Add] [PROF]The value of z is 3 in graph0_result0_g0_1.\n"
    b"[\xe4\xb8\xad] [PROF]The value of w is 4 in graph0_result0_g0_0.\r\r\n"
    b"[Add] bad \xff [PROF]The objective value of the tiling data is 5 in graph0_result0_g0_0.\n"
    b"[Add] [PERF][graph0_result0_g0_0] Load_0[Load]: AIV_MTE2 = (a=1 + b=2) = 3\n"
    b"[DFX]Begin to gen model info for asc graph 0, schedule result 0, schedule group 0, graph name g.\n"
    b"[Add] [ATT][FINAL_TILING] op=Add graph=0 result=0 group=0 case_id=0 tiling_key=1\n"
    b"\n"
    + b"y" * 300 + b" [Add] [PROF]The value of long is 6 in graph0_result0_g0_0.\n"
    b"[Add] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.\n"
    b"[Add] [PROF]The value of last is 7 in graph0_result0_g0_0."  # no newline at the end
)


@pytest.mark.parametrize("block_size", [1, 2, 3, 5, 8, 13, 64, 200, 4 << 20])
def test_block_size_never_changes_the_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           block_size: int) -> None:
    log = tmp_path / "t.log"
    log.write_bytes(TRICKY)
    expected = repr(scan_file(log))  # one block holds the whole file
    monkeypatch.setattr(scanner, "BLOCK_SIZE", block_size)
    assert repr(scan_file(log)) == expected
    blocks = list(scanner.iter_blocks(log))
    assert b"".join(blocks) == TRICKY
    assert all(block.endswith(b"\n") for block in blocks[:-1])


def test_marker_split_across_two_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    head = b"noise line\n[Add] [PR"  # the first read ends inside "[PROF]"
    log = tmp_path / "s.log"
    log.write_bytes(head + b"OF]The value of s0t_size is 128 in graph0_result0_g0_0.\nnoise\n")
    monkeypatch.setattr(scanner, "BLOCK_SIZE", len(head))
    scan = scan_file(log)
    value = scan.operators["Add"].values[CaseKey(0, 0, 0, 0)]["s0t_size"]
    assert (value.value, value.source.line, scan.line_count) == (128.0, 2, 3)


def test_marked_lines_are_ordered_and_unique() -> None:
    block = (b"a\n[Op] [PROF]The value of graph0_result0 is 1.\n[Op] The value of graph0_result1 is 2.\n"
             b"x [DFX]y [PERF] [ATT][FINAL_TILING\nThe value of graph\nlast [PROF]")
    lines = [block[start:end] for start, end in scanner.marked_lines(block)]
    assert lines == block.split(b"\n")[1:]


def test_fast_path_stores_what_feed_line_stores(tmp_path: Path) -> None:
    log = tmp_path / "f.log"
    log.write_bytes(TRICKY)
    reference = scanner._FileScanner(str(log))
    texts = TRICKY.decode("utf-8", errors="replace").split("\n")
    for number, text in enumerate(texts, 1):
        if any(marker.decode() in text for marker in scanner.MARKERS):
            reference.feed_line(text.rstrip("\r"), SourceRef(str(log), number))
    scan, expected = scan_file(log), reference.finish(len(texts))
    assert scan.operators["Add"].values  # the fast path was taken
    for name in ("operators", "dfx_markers", "final_records", "line_count"):
        assert repr(getattr(scan, name)) == repr(getattr(expected, name)), name
