"""The last drop-in differences of `att` found by a side-by-side run of the rebuilt reference (issue 30).

Matched where a script would trip: `att summary -f csv` on a folder mixing FINAL_TILING logs with ordinary
logs writes att.py's FINAL_TILING rows only; `att evidence` on a missing path prints att.py's `Error: No log
files found at '…'`. Documented in docs/compatibility.md and pinned here: `split-slog --case` matching nothing
(our counts are of groups written; a warning gives att.py's unfiltered counts) and perf-formula drawing an
operator with [PERF] but no [PROF] lines (att.py skipped it and exited 1).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from tests.conftest import samples_dir

FINAL_LOGS = ("test_final_tiling_multigroup", "test_final_tiling_multiline", "test_final_tiling_single")


def test_summary_csv_of_a_mixed_folder_has_att_pys_final_tiling_rows(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    reference = samples_dir("att", "reference-outputs")
    logs = tmp_path / "logs"
    shutil.copytree(samples_dir("att", "upstream-tests"), logs)
    out = tmp_path / "summary.csv"
    assert main(["summary", str(logs), "-f", "csv", "-o", str(out)]) == 0
    # att.py's rows for the three FINAL_TILING logs, one after the other (same header for all three).
    expected = [(reference / name / "summary.csv").read_text(encoding="utf-8-sig").splitlines() for name in FINAL_LOGS]
    ours = out.read_text(encoding="utf-8-sig").splitlines()
    assert ours == [expected[0][0], *(line for lines in expected for line in lines[1:])]
    assert len(ours) == 1 + 5
    assert "Warning: 6 row(s) of 5 log(s) without FINAL_TILING records are not in the file" in capsys.readouterr().err


def test_summary_csv_without_final_tiling_keeps_every_legacy_row(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text("[Add] [PROF]The value of x is 1 in graph0_result0_g0_0.\n")
    (tmp_path / "b.log").write_text("[Mul] [PROF]The value of x is 2 in graph0_result0_g0_0.\n")
    out = tmp_path / "s.csv"
    assert main(["summary", str(tmp_path), "-f", "csv", "-o", str(out)]) == 0
    assert [line.split(",")[0] for line in out.read_text(encoding="utf-8-sig").splitlines()[1:]] == ["Add", "Mul"]


@pytest.mark.parametrize("kind", ["missing", "empty folder"])
def test_evidence_without_logs_prints_att_pys_sentence(kind: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nothing"
    if kind == "empty folder":
        path.mkdir()
    assert main(["evidence", str(path), "-o", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"Error: No log files found at '{path}'\n" and captured.out == ""
    assert not (tmp_path / "out").exists()


def test_split_slog_case_matching_nothing_says_what_the_logs_hold(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "a.log"
    log.write_text("".join(f"[Add] [PROF]The value of x is {c} in graph0_result0_g{g}_{c}.\n"
                           for g in range(2) for c in range(2)))
    out = tmp_path / "out"
    assert main(["split-slog", str(log), "--case", "r=9", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "[split-slog] Add: compiler=0 groups, runtime=0 groups\n"
    assert ("Warning: --case r=9 matched no tiling case, so nothing was written. Without --case: "
            "Add: compiler=0 groups, runtime=2 groups.") in captured.err
    assert not any(p.is_file() for p in out.rglob("*"))
    assert main(["split-slog", str(log), "--case", "g=1", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "[split-slog] Add: compiler=0 groups, runtime=1 groups\n" and captured.err == ""


def test_perf_formula_draws_an_operator_with_perf_but_no_prof_lines(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "p.log"
    log.write_text("[Op] [PERF][graph0_result0_g0_0] N_0[T]: AIV_MTE2 = (a=1 + b=2) = 3\n")
    source = tmp_path / "src"
    source.mkdir()
    assert main(["perf-formula", str(source), str(log), "-o", str(tmp_path / "out")]) == 0  # att.py: exit 1
    assert f"[perf-formula] 输出: {tmp_path / 'out' / 'perf_formula.svg'}" in capsys.readouterr().out
