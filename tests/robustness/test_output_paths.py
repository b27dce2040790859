"""Output paths that cannot be written: a folder in the way, a file in the way, no such place; one sentence each."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.errors import OutputError
from autofuse_studio.core.reports.atomic import atomic_open, atomic_path, atomic_write_text
from tests.robustness.conftest import run_cli
from tests.synth import CaseManifest, full_coverage_spec, generate_case

LOG = ("[Add] [PROF]The value of ub_size is 512 in graph0_result0_g0_0.\n"
       "[Add] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.\n"
       "[Add] [PROF]Among all schedule results, graph0_result0 is the best choice.\n"
       "[Add] The value of graph0_result0 is 10.\n"
       "[Add] [PERF][graph0_result0_g0_R0] Load_0[Load]: AIV_MTE2 = (a=1 + b=3) = 4\n")
# A file standing where a folder is needed: mkdir below it fails with ENOTDIR for root too.
FILE_IN_THE_WAY = "blocker"


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    root = tmp_path_factory.mktemp("outputs") / "case"
    return root, generate_case(root, full_coverage_spec())


def _mode1(case: tuple[Path, CaseManifest], command: str = "nwa") -> list[str]:
    root, manifest = case
    return [command, "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"])]


def _npys(folder: Path) -> list[str]:
    np.save(folder / "a.npy", np.arange(16, dtype=np.float32))
    np.save(folder / "b.npy", np.arange(16, dtype=np.float32) * 1.5)
    return ["nwa", "--mode", "2", "--npy-a", str(folder / "a.npy"), "--npy-b", str(folder / "b.npy")]


def _targets(tmp_path: Path, name: str) -> list[tuple[Path, str]]:
    """(unwritable target, what the message must say) pairs for an output file called name."""
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / name).mkdir()
    (tmp_path / FILE_IN_THE_WAY).write_text("x")
    return [(tmp_path / "taken" / name, "it is a folder"),
            (tmp_path / FILE_IN_THE_WAY / "sub" / name, "is a file, not a folder"),
            (Path("/proc") / name, "/proc")]


def _no_temp_files(folder: Path) -> None:
    assert not list(folder.rglob("*.tmp")), "a temp file was left behind"


@pytest.mark.parametrize("name", ["out.json", "out.csv", "out.xlsx"])
def test_nwa_output_that_cannot_be_written(name: str, tmp_path: Path) -> None:
    base = _npys(tmp_path)
    for target, why in _targets(tmp_path, name):
        run = run_cli(*base, "--output", str(target))
        assert run.returncode == 1, run.output
        assert f"Cannot write '{target}'" in run.output
        assert why in run.output
        assert ".tmp" not in run.output
    _no_temp_files(tmp_path)


def test_nwa_mode1_output_is_checked_before_comparing(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    (tmp_path / "out.xlsx").mkdir()
    run = run_cli(*_mode1(case), "--output", str(tmp_path / "out.xlsx"))
    assert run.returncode == 1
    assert "it is a folder" in run.output
    assert "Parsing" not in run.stdout  # refused before the (long) comparison
    assert run_cli(*_mode1(case), "--output", str(tmp_path / "out.txt")).returncode == 2


@pytest.mark.parametrize("name", ["report.xlsx", "table.png", "tensor.svg"])
def test_report_with_a_folder_in_the_way(name: str, case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / name).mkdir(parents=True)
    run = run_cli(*_mode1(case, "report"), "-o", str(out), "--force")
    assert run.returncode == 1, run.output
    assert f"Cannot write '{out / name}': it is a folder." in run.output
    assert not (out / "report.xlsx").is_file()


@pytest.mark.parametrize("where", ["file", "proc"])
def test_report_out_dir_that_cannot_be_made(where: str, case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    (tmp_path / FILE_IN_THE_WAY).write_text("x")
    out = tmp_path / FILE_IN_THE_WAY / "out" if where == "file" else Path("/proc/afs-report")
    run = run_cli(*_mode1(case, "report"), "-o", str(out))
    assert run.returncode == 1, run.output
    assert str(out) in run.output


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "logs" / "a.log"
    path.parent.mkdir()
    path.write_text(LOG)
    return path


@pytest.mark.parametrize(("argv", "name"), [
    (["summary", "{log}", "-f", "csv", "-o"], "s.csv"),
    (["summary", "{log}", "-f", "excel", "-o"], "s.xlsx"),
    (["summary", "{log}", "-o"], "s.txt"),
])
def test_att_outputs_name_the_users_path(argv: list[str], name: str, log: Path, tmp_path: Path) -> None:
    for target, why in _targets(tmp_path, name):
        run = run_cli("att", *[part.format(log=log) for part in argv], str(target))
        assert run.returncode == 1, run.output
        assert f"Cannot write '{target}'" in run.output
        assert why in run.output
        assert ".tmp" not in run.output and "Errno" not in run.output
    _no_temp_files(tmp_path)


def test_att_compare_output_names_the_users_path(log: Path, tmp_path: Path) -> None:
    csv = tmp_path / "s.csv"
    assert run_cli("att", "summary", str(log), "-f", "csv", "-o", str(csv)).returncode == 0
    for fmt, name in (("text", "r.txt"), ("excel", "r.xlsx")):
        (tmp_path / name).mkdir()
        run = run_cli("att", "compare", str(csv), str(csv), "-f", fmt, "-o", str(tmp_path / name))
        assert run.returncode == 1
        assert f"Cannot write '{tmp_path / name}': it is a folder." in run.output


@pytest.mark.parametrize("command", [["evidence", "{log}"], ["split-slog", "{log}"], ["perf-formula", "{src}", "{log}"]])
def test_att_output_folders_that_cannot_be_made(command: list[str], log: Path, tmp_path: Path) -> None:
    (tmp_path / FILE_IN_THE_WAY).write_text("x")
    out = tmp_path / FILE_IN_THE_WAY / "out"
    argv = [part.format(log=log, src=tmp_path) for part in command]
    run = run_cli("att", *argv, "-o", str(out))
    assert run.returncode == 1, run.output
    assert str(tmp_path / FILE_IN_THE_WAY) in run.output
    assert "Errno" not in run.output


def test_atomic_writes_keep_one_rule(tmp_path: Path) -> None:
    os.umask(0o022)
    atomic_write_text(tmp_path / "a.txt", "x")
    with atomic_path(tmp_path / "b.png") as temp:
        assert temp.suffix == ".png"
        temp.write_bytes(b"png")
    for name in ("a.txt", "b.png"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644
    (tmp_path / "d.txt").mkdir()
    with pytest.raises(OutputError, match=r"Cannot write '.*d\.txt': it is a folder\."):
        atomic_write_text(tmp_path / "d.txt", "x")
    # An OSError about another file (an input the body reads) is not blamed on the output.
    with pytest.raises(FileNotFoundError), atomic_open(tmp_path / "c.txt") as _handle:
        (tmp_path / "missing-input").read_bytes()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt", "b.png", "d.txt"]


def test_a_fifo_is_written_through_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        atomic_write_text(fifo, "through")
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
