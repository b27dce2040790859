"""`autofuse-studio att analyze`: outputs, console text, archives, exit codes and sentences."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from tests.core.runroots import standard_run_root, tree_state


@pytest.fixture
def run_root(tmp_path: Path) -> Path:
    return standard_run_root(tmp_path / "field-run")


def test_writes_the_four_files_and_prints_the_overview(run_root: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    before = tree_state(run_root)
    out = tmp_path / "report"
    assert main(["analyze", "--run-root", str(run_root), "--output", str(out), "--lang", "en"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["report.md", "root-cause.jsonl", "summary.csv", "summary.xlsx"]
    printed = capsys.readouterr().out
    assert printed.startswith(f"Run root: {run_root.resolve()}  (default: default/, candidate: pgo/; default+pgo)\n")
    assert "Operators: 9 — 3 changed, 1 only in default, 1 only in candidate, 4 unchanged" in printed
    assert "  Op3            +25.00%  result performance 1004 → 1255 (+25.00%)\n" in printed
    assert "  Op5    only in default\n" in printed
    assert f"Wrote report.md, summary.csv, root-cause.jsonl, summary.xlsx to {out}" in printed
    assert tree_state(run_root) == before
    command = (out / "report.md").read_text().splitlines()[5]
    assert command == f"- Command: `autofuse-studio att analyze --run-root {run_root} --output {out} --lang en`"


def test_text_format_and_chinese(run_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    assert main(["analyze", "--run-root", str(run_root), "--output", str(out), "-f", "text", "--lang", "zh"]) == 0
    assert "算子：9 个 — 3 个有变化" in (out / "report.txt").read_text()
    assert (out / "report.md").read_text().startswith("# 运行目录分析：field-run")
    assert f"Overview written to {out / 'report.txt'}" in capsys.readouterr().out


def test_language_follows_the_locale(run_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert main(["analyze", "--run-root", str(run_root), "--output", str(tmp_path / "r")]) == 0
    assert (tmp_path / "r" / "report.md").read_text().startswith("# 运行目录分析")


def test_archive_twice(run_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "archive"
    for number, out in enumerate(("r1", "r2"), start=1):
        argv = ["analyze", "--run-root", str(run_root), "--output", str(tmp_path / out), "--archive", str(archive),
                "--name", "night-run"]
        assert main(argv) == 0
        name = "night-run" if number == 1 else "night-run-2"
        assert f"evidence in {archive / 'evidence-archive' / name}, report in " in capsys.readouterr().out
    manifest = json.loads((archive / "report-archive" / "night-run-2" / "archive-manifest.json").read_text())
    assert manifest["run_name"] == "night-run-2" and manifest["command"][:3] == ["autofuse-studio", "att", "analyze"]
    assert (archive / "report-archive" / "night-run-2" / "report.md").read_bytes() == (
        tmp_path / "r2" / "report.md").read_bytes()


@pytest.mark.parametrize(
    ("setup", "argv", "message"),
    [
        ("missing-side", [], "No candidate run in the run root"),
        ("full-output", [], "is not empty; choose a new folder or pass --force"),
        ("inside", [], "is inside the run root"),
        ("none", ["--default-root", "default", "--candidate-root", "nope"], "is not a folder"),
        ("archive-inside", [], "archive folder"),
    ],
)
def test_input_errors_exit_1_and_write_nothing(setup: str, argv: list[str], message: str, run_root: Path,
                                              tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    extra: list[str] = []
    if setup == "missing-side":
        for path in sorted((run_root / "pgo").rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() else path.unlink()
        (run_root / "pgo").rmdir()
    elif setup == "full-output":
        out.mkdir()
        (out / "keep.txt").write_text("mine\n")
    elif setup == "inside":
        out = run_root / "report"
    elif setup == "archive-inside":
        extra = ["--archive", str(run_root / "pgo" / "archive")]
    before = tree_state(run_root)
    code = main(["analyze", "--run-root", str(run_root), "--output", str(out), *argv, *extra])
    captured = capsys.readouterr()
    assert code == 1, captured
    assert message in captured.err and "Traceback" not in captured.err
    assert tree_state(run_root) == before
    if setup == "full-output":
        assert [p.name for p in out.iterdir()] == ["keep.txt"]
    elif setup != "inside":
        assert not out.exists()


def test_force_replaces_only_our_files(run_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine\n")
    (out / "report.md").write_text("old\n")
    assert main(["analyze", "--run-root", str(run_root), "--output", str(out), "--force"]) == 0
    assert (out / "keep.txt").read_text() == "mine\n" and (out / "report.md").read_text() != "old\n"


def test_missing_arguments_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--output", "x"]) == 2
    assert "--run-root" in capsys.readouterr().err


def test_warnings_name_the_file_and_line(run_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with (run_root / "pgo" / "profiling" / "run" / "a" / "b" / "c" / "slog.txt").open("ab") as handle:
        handle.write(b"[Op1] \xff\xfe\n")
    outside = tmp_path / "secret.log"
    outside.write_text("x\n")
    (run_root / "default" / "logs" / "link.log").symlink_to(outside)
    assert main(["analyze", "--run-root", str(run_root), "--output", str(tmp_path / "o")]) == 0
    err = capsys.readouterr().err
    assert "Warning: pgo/profiling/run/a/b/c/slog.txt:" in err and "invalid UTF-8" in err
    assert "Warning: 'default/logs/link.log' is a symbolic link (to '" in err
    assert "links are not followed" in (tmp_path / "o" / "report.md").read_text()


def test_two_analyses_at_once_never_share_an_archive(run_root: Path, tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    processes = [subprocess.Popen([sys.executable, "-m", "autofuse_studio", "att", "analyze", "--run-root",
                                   str(run_root), "--output", str(tmp_path / f"out{n}"), "--archive", str(archive)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(3)]
    outputs = [process.communicate(timeout=120) for process in processes]
    assert [process.returncode for process in processes] == [0, 0, 0], outputs
    names = sorted(p.name for p in (archive / "evidence-archive").iterdir())
    assert names == ["field-run", "field-run-2", "field-run-3"]
    assert sorted(p.name for p in (archive / "report-archive").iterdir()) == names
    for name in names:
        manifest = json.loads((archive / "evidence-archive" / name / "archive-manifest.json").read_text())
        assert manifest["run_name"] == name
