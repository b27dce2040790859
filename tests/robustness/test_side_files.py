"""Side files (--thresholds TOML, hosts.json, *.afcase): regular files only, at most cap + 1 bytes read.

A FIFO must not hang the run, /dev/zero must not end in MemoryError (it reports a size of 0), a huge file
is refused after reading just past the cap.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.remote.profiles import load_entries, profiles_path
from autofuse_studio.core.side_files import read_side_file
from tests.robustness.conftest import run_cli, run_python_peak


@pytest.fixture
def mode2(tmp_path: Path) -> list[str]:
    a = np.arange(1, 17, dtype=np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", a * 1.01)
    return ["nwa", "--mode", "2", "--npy-a", str(tmp_path / "a.npy"), "--npy-b", str(tmp_path / "b.npy")]


def test_read_side_file_reads_regular_files_up_to_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_bytes(b"x" * 100)
    assert read_side_file(path, 100, "The file") == b"x" * 100
    with pytest.raises(InputError, match=f"^The file {path} is larger than 99 bytes.$"):
        read_side_file(path, 99, "The file")
    with pytest.raises(InputError, match="cannot be read: No such file"):
        read_side_file(tmp_path / "missing", 10, "The file")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match=r"is a named pipe \(FIFO\), not a file"):
        read_side_file(fifo, 10, "The file")
    link = tmp_path / "zero"
    link.symlink_to("/dev/zero")
    with pytest.raises(InputError, match="is a character device, not a file"):
        read_side_file(link, 10, "The file")


def test_a_sparse_gigabyte_is_refused_after_reading_past_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    with path.open("wb") as handle:
        handle.truncate(1 << 30)
    code = ("from autofuse_studio.core.precision.thresholds import load_thresholds\n"
            "from autofuse_studio.core.errors import InputError\n"
            f"try:\n    load_thresholds({str(path)!r})\nexcept InputError as error:\n    print(error)\n")
    done, peak = run_python_peak(code)
    assert done.stdout.strip() == f"The thresholds file {path} is larger than 1 MB."
    assert peak < 150


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_thresholds_that_are_not_files_are_named_and_never_hang(mode2: list[str], tmp_path: Path, kind: str) -> None:
    path = tmp_path / "limits.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    expected = {"fifo": "is a named pipe (FIFO), not a file", "dev-zero": "is a character device, not a file",
                "folder": "is a folder, not a file"}[kind]
    for argv in (mode2, ["nwa", "--af-open-graph", str(tmp_path / "a.npy"), "--af-close-graph",
                         str(tmp_path / "a.npy"), "--af-open-data", str(tmp_path), "--af-close-data", str(tmp_path)]):
        run = run_cli(*argv, "--thresholds", path, timeout=60)
        assert run.returncode == 1, run.output
        assert f"The thresholds file {path} {expected}." in run.output
        assert "MemoryError" not in run.output
        assert "状态" not in run.stdout


def test_a_big_thresholds_file_is_refused(mode2: list[str], tmp_path: Path) -> None:
    path = tmp_path / "limits.toml"
    path.write_text("[default]\ncosine = 0.9\n" + "# padding\n" * 200_000, encoding="utf-8")
    run = run_cli(*mode2, "--thresholds", path)
    assert run.returncode == 1
    assert f"The thresholds file {path} is larger than 1 MB." in run.output


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_hosts_file_that_is_not_a_file_is_said_not_empty(tmp_path: Path, kind: str) -> None:
    path = profiles_path()
    path.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    with pytest.raises(InputError, match=r"is a (named pipe|character device)"):
        load_entries()
    run = run_cli("hosts", "list", cwd=tmp_path, timeout=60)
    assert run.returncode == 1, run.output
    assert "No host profiles saved yet" not in run.output
    assert f"The host profiles file '{path}' is a" in run.output
    assert run_cli("hosts", "add", "x", "me@box", timeout=60).returncode == 1  # never replaced


def test_no_hosts_file_is_still_none_saved(tmp_path: Path) -> None:
    assert not profiles_path().exists()
    assert load_entries() == []
    dangling = profiles_path()
    dangling.parent.mkdir(parents=True)
    dangling.symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(InputError, match="cannot be read: No such file"):
        load_entries()  # a link to nothing is said, not taken for "no profiles"
