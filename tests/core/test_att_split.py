"""split-slog: reference layout, compiler groups per operator, newlines, path traversal."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.att.case_filter import CaseFilter, parse_case_filter
from autofuse_studio.core.att.safe_paths import safe_name
from autofuse_studio.core.att.scanner import find_logs, scan_logs
from autofuse_studio.core.att.split_slog import split_logs
from autofuse_studio.core.errors import UsageError
from tests.conftest import samples_dir


def _split(log: Path, out: Path, only: str | None = None, case: str | None = None):  # type: ignore[no-untyped-def]
    paths = find_logs(log)
    return split_logs(paths, scan_logs(paths).files, out, only, parse_case_filter(case))


def test_path_traversal_is_impossible(tmp_path: Path) -> None:
    log = tmp_path / "evil.log"
    log.write_text("[../../escaped] [PROF]The value of a is 1 in graph0_result0_g0_0.\n"
                   "[/abs/x] [PROF]The value of a is 1 in graph0_result0_g0_0.\n")
    out = tmp_path / "out" / "sub"
    result = _split(log, out)
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p != log]
    assert written and all(out.resolve() in p.resolve().parents for p in written)
    assert set(result.operators) == {"../../escaped", "/abs/x"}
    assert safe_name("..") == "_" and safe_name("a/b") == "a_b"


def test_compiler_groups_go_to_their_operator_and_files_end_with_newline(tmp_path: Path) -> None:
    first = tmp_path / "logs" / "1.log"
    first.parent.mkdir()
    first.write_text(
        "[DFX]Begin to gen model info for asc graph 0, schedule result 0, schedule group 0, graph name A.\n"
        "[DFX]Begin to generate model info for graph A of tiling case id 1\ncompiler text\n"
        "[DFX]End to generate model info for graph A of tiling case id 1\n"
        "[DFX]End to gen model info for graph0_result0_g0 graph name A.\n"
        "[A] [PROF]The value of a is 1 in graph0_result0_g0_1")  # no trailing newline
    (tmp_path / "logs" / "2.log").write_text("[A] [PROF]The value of a is 2 in graph0_result0_g0_1\n"
                                             "[B] [PROF]The value of b is 2 in graph0_result0_g0_0\n")
    out = tmp_path / "out"
    result = _split(tmp_path / "logs", out)
    assert (result.operators["A"].compiler_groups, result.operators["B"].compiler_groups) == (1, 0)
    assert (out / "A/compiler/graph0_result0/g0/case1.log").read_text() == "compiler text\n"
    runtime = (out / "A/runtime/graph0_result0/g0/case1.log").read_text(encoding="utf-8")
    assert runtime.splitlines() == ["[A] [PROF]The value of a is 1 in graph0_result0_g0_1",
                                    "[A] [PROF]The value of a is 2 in graph0_result0_g0_1"]
    assert not (out / "B" / "compiler").exists()
    assert not any(p.name.startswith(".split-slog-") for p in out.iterdir())


@pytest.mark.samples
def test_reference_layout_and_case_filter(tmp_path: Path) -> None:
    log = samples_dir("att", "synthetic", "dfx_compiler_runtime.log")
    reference = samples_dir("att", "reference-outputs", "dfx_compiler_runtime", "split")
    _split(log, tmp_path / "all")
    for expected in reference.rglob("*.log"):
        relative = expected.relative_to(reference)
        assert (tmp_path / "all" / relative).read_text() == expected.read_text(), relative
    # New: best-result and template-selection lines are kept in selection.log.
    assert (tmp_path / "all/FlashAttentionScore/runtime/graph0_result1/selection.log").exists()
    _split(log, tmp_path / "filtered", case="c=1")
    compiler = tmp_path / "filtered/FlashAttentionScore/compiler/graph0_result1/g0"
    # The reference wrote case 1's text into case0.log; the file now carries its real case id.
    assert [p.name for p in compiler.iterdir()] == ["case1.log"]
    assert (compiler / "case1.log").read_text() == "some content for case 1\n"


def test_case_filter_syntax() -> None:
    assert parse_case_filter("r=0,1,g=2,c=1") == CaseFilter(frozenset({0, 1}), frozenset({2}), frozenset({1}))
    assert parse_case_filter("case=R3").matches(9, 9, 3)
    for bad in ("1,2", "x=1", "c=one"):
        with pytest.raises(UsageError, match="--case"):
            parse_case_filter(bad)


def test_progress_counts_bytes_within_one_big_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.core.att import scanner

    monkeypatch.setattr(scanner, "BLOCK_SIZE", 256)  # many blocks from a small file
    log = tmp_path / "big.log"
    log.write_text("".join(f"[A] [PROF]The value of a is {i} in graph0_result0_g0_{i % 3}\n" for i in range(200)))
    paths = find_logs(log)
    reports: list[tuple[int, int]] = []
    split_logs(paths, scan_logs(paths).files, tmp_path / "out",
               progress=lambda done, total, message="": reports.append((done, total)))
    size = log.stat().st_size
    assert len(reports) > 10  # the bar moves inside the one file
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    assert reports[-1] == (size, size)
    assert all(total == size for _, total in reports)
