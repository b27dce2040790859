"""Over-long ATT log lines: read in bounded pieces, cut with one warning (file:line), formulas capped."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from autofuse_studio.core.att import scanner
from autofuse_studio.core.att.lines import MAX_PERF_TERMS
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.scanner import MAX_LINE_BYTES, iter_blocks, scan_file
from tests.robustness.conftest import run_cli, run_python_peak

VALUE = "[Add] [PROF]The value of {name} is {value} in graph0_result0_g0_0."
PERF_HEAD = "[Add] [PERF][graph0_result0_g0_0] Load_0[Load]: AIV_MTE2 = ("


def _perf_line(terms: int) -> str:
    return PERF_HEAD + " + ".join(f"t{i}={i % 7 + 1}" for i in range(terms)) + ")"


def test_a_huge_perf_line_is_capped_in_time_memory_and_svg(tmp_path: Path) -> None:
    log = tmp_path / "p.log"
    # ~1.9 MB: the old code took 4.4 s and 390 MB here and wrote a 30 MB SVG (12 MB: 123 s, 6.1 GB, 520 MB).
    log.write_text(VALUE.format(name="s", value=1) + "\n" + _perf_line(130_000) + "\n", encoding="utf-8")
    source = tmp_path / "src"
    source.mkdir()
    out = tmp_path / "out"
    run = run_cli("att", "perf-formula", source, log, "-o", out, timeout=60)
    assert run.returncode == 0, run.output
    assert f"{log}:2: the line has " in run.stderr
    assert f"only the first {MAX_PERF_TERMS} are kept" in run.stderr
    assert (out / "perf_formula.svg").stat().st_size < 200_000
    assert (out / "perf_formula.json").stat().st_size < 200_000
    assert run.peak_mib < 120


def _one_huge_line(handle: object, size_mb: int) -> None:
    write = handle.write  # type: ignore[attr-defined]
    write((VALUE.format(name="s", value=1) + "\n").encode())
    write(VALUE.format(name="t", value=2).encode() + b" ")
    chunk = b"x" * (1 << 20)
    for _ in range(size_mb):
        write(chunk)
    write(("\n" + VALUE.format(name="u", value=3) + "\n").encode())


@pytest.mark.parametrize("suffix", [".log", ".log.gz"])
def test_one_huge_line_keeps_memory_bounded_and_the_rest_parsed(tmp_path: Path, suffix: str) -> None:
    log = tmp_path / f"big{suffix}"
    with (gzip.open(log, "wb", compresslevel=1) if suffix.endswith(".gz") else log.open("wb")) as handle:
        _one_huge_line(handle, 300)  # the old code held the whole line twice: ~700 MB for a 200 MB line
    run = run_cli("att", "summary", log, "-f", "csv", "-o", tmp_path / "out.csv", timeout=60)
    assert run.returncode == 0, run.output
    assert f"{log}:2: the line has {300 * (1 << 20) + 56} bytes; only its first {MAX_LINE_BYTES} were read" \
        in run.stderr
    assert run.stderr.count("the line has") == 1
    assert run.peak_mib < 100
    header, row = (tmp_path / "out.csv").read_text(encoding="utf-8-sig").splitlines()[:2]
    cells = dict(zip(header.split(","), row.split(","), strict=True))
    assert (cells["s"], cells["t"], cells["u"]) == ("1.0", "2.0", "3.0")


def test_split_slog_reads_a_huge_line_in_bounded_memory(tmp_path: Path) -> None:
    log = tmp_path / "big.log"
    with log.open("wb") as handle:
        _one_huge_line(handle, 200)
    run = run_cli("att", "split-slog", log, "-o", tmp_path / "split", timeout=60)
    assert run.returncode == 0, run.output
    assert run.peak_mib < 100
    written = (tmp_path / "split" / "Add" / "runtime" / "graph0_result0" / "g0" / "case0.log").read_bytes()
    assert len(written) < 2 * MAX_LINE_BYTES
    assert written.count(b"\n") == 3


@pytest.mark.parametrize("block_size", [1, 7, 64, 4096])
def test_lines_are_cut_at_the_cap_whatever_the_block_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          block_size: int) -> None:
    monkeypatch.setattr(scanner, "MAX_LINE_BYTES", 100)
    monkeypatch.setattr(scanner, "BLOCK_SIZE", block_size)
    lines = [b"a" * 100, b"b" * 101, b"c" * 5000, b"", b"d" * 99, b"e" * 250]
    log = tmp_path / "c.log"
    log.write_bytes(b"\n".join(lines))
    cuts: list[int] = []
    blocks = list(iter_blocks(log, cuts.append))
    assert b"".join(blocks).split(b"\n")[:-1] == [line[:100] for line in lines]
    assert cuts == [101, 5000, 250]


def test_cut_lines_are_warned_once_with_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scanner, "MAX_LINE_BYTES", 200)
    log = tmp_path / "w.log"
    long_value = VALUE.format(name="v", value=5) + " " + "z" * 500
    log.write_text("\n".join([VALUE.format(name="s", value=1), long_value, "noise " * 100,
                              VALUE.format(name="u", value=3)]), encoding="utf-8")
    scan = scan_file(log)
    assert scan.warnings == [
        f"{log}:2: the line has {len(long_value)} bytes; only its first 200 were read and the rest was skipped.",
        f"{log}:3: the line has 600 bytes; only its first 200 were read and the rest was skipped.",
    ]
    values = scan.operators["Add"].values[CaseKey(0, 0, 0, 0)]
    assert {name: record.source.line for name, record in values.items()} == {"s": 1, "v": 2, "u": 4}
    assert scan.line_count == 4


def test_formula_terms_beyond_the_cap_still_count_in_the_total(tmp_path: Path) -> None:
    log = tmp_path / "f.log"
    log.write_text(_perf_line(MAX_PERF_TERMS + 50) + "\n", encoding="utf-8")
    scan = scan_file(log)
    node = scan.operators["Add"].perf_nodes[0]
    assert len(node.items) == MAX_PERF_TERMS
    assert node.total == sum(i % 7 + 1 for i in range(MAX_PERF_TERMS + 50))
    assert scan.warnings == [f"{log}:1: the [PERF] formula has {MAX_PERF_TERMS + 50} terms; only the first "
                             f"{MAX_PERF_TERMS} are kept (all count in its total)."]


def test_verify_tiling_log_with_a_huge_line_is_read_in_bounded_memory(tmp_path: Path) -> None:
    from autofuse_studio.core.tiling.log_inputs import read_log_inputs

    log = tmp_path / "att.log"
    good = ("[Add] local buffer tiling success, input: result_id: 0, group_id: 0, case_id: 1, sub_case_id: 0"
            "core_num: 4, ub_size: 1024, input_vars[0]: 64, input_vars[1]: 32\n")
    with log.open("w", encoding="utf-8") as handle:
        handle.write("[Add] noise " + "x" * (30 << 20) + "\n")  # one 30 MB line
        handle.write(good)
    notes: list[str] = []
    found = read_log_inputs(log, notes)
    assert [(entry.case, entry.line, entry.dims) for entry in found] == [(1, 2, (64, 32))]
    assert len(notes) == 1 and f"{log}:1: the line has" in notes[0]
    code = ("from autofuse_studio.core.tiling.log_inputs import read_log_inputs\n"
            f"assert len(read_log_inputs({str(log)!r}, [])) == 1\n")
    done, peak = run_python_peak(code)
    assert done.returncode == 0, done.stderr
    assert peak < 120, f"{peak:.0f} MiB for a 30 MB line"
