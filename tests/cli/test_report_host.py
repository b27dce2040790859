"""`report --host` against a real sshd: the same files, the same xlsx cells and the same console as a local report."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.core.remote.fetch import TooLarge, fetch_file
from autofuse_studio.core.remote.profiles import save_profiles
from autofuse_studio.core.remote.ssh import RemoteError
from tests.stub_sdk.remote_nwa import case_args, remote_command
from tests.stub_sdk.sshd import LocalSshd, start_sshd
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


def _run(argv: list[str], config: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env["XDG_CONFIG_HOME"] = str(config)
    return subprocess.run([sys.executable, "-m", "autofuse_studio", "report", *argv], capture_output=True, text=True,
                          env=env, timeout=300, check=False)


def test_report_on_a_host_equals_the_local_report(sshd: LocalSshd, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    save_profiles([sshd.profile()])
    config = Path(os.environ["XDG_CONFIG_HOME"])
    root = tmp_path / "case"
    manifest: CaseManifest = generate_case(root, multi_rank_spec(runs=2, missing_ranks=(("af_close", 3),)))
    command = remote_command(tmp_path)
    local = _run([*case_args(root, manifest, "--compare-input"), "-o", str(tmp_path / "out")], config)
    assert local.returncode == 0, local.stderr
    remote = _run(["--host", "testhost", "--remote-command", command, *case_args(root, manifest, "--compare-input"),
                   "-o", str(tmp_path / "out-remote")], config)
    assert remote.returncode == 0, remote.stderr
    assert "Traceback" not in remote.stderr
    assert remote.stdout.replace("out-remote", "out") == local.stdout
    assert sorted(path.name for path in (tmp_path / "out-remote").iterdir()) == \
        sorted(path.name for path in (tmp_path / "out").iterdir())
    books = [load_workbook(tmp_path / folder / "report.xlsx", read_only=True) for folder in ("out", "out-remote")]
    assert books[0].sheetnames == books[1].sheetnames
    for name in books[0].sheetnames:
        cells = [[[cell.value for cell in row] for row in book[name].iter_rows()] for book in books]
        assert cells[0] == cells[1], name


def test_fetch_file_refuses_what_it_cannot_copy(sshd: LocalSshd, tmp_path: Path) -> None:
    source = tmp_path / "a b $(x).bin"
    source.write_bytes(b"x" * 5000)
    profile = sshd.profile()
    assert fetch_file(profile, str(source), tmp_path / "copy", 1 << 20).read_bytes() == source.read_bytes()
    with pytest.raises(TooLarge, match="larger than"):
        fetch_file(profile, str(source), tmp_path / "copy2", 4000)
    with pytest.raises(RemoteError, match="There is no file"):
        fetch_file(profile, str(tmp_path), tmp_path / "copy3", 1 << 20)


def test_fetch_pair_copies_once_and_reuses_the_copies(sshd: LocalSshd, tmp_path: Path) -> None:
    from autofuse_studio.core.remote.fetch import fetch_pair

    save_profiles([sshd.profile()])
    fused, origin = tmp_path / "f x.npy", tmp_path / "o;y.npy"
    fused.write_bytes(b"a" * 100)
    origin.write_bytes(b"b" * 200)
    cache = tmp_path / "cache"
    cache.mkdir()
    first = fetch_pair("testhost", str(fused), str(origin), cache)
    assert [Path(path).read_bytes() for path in first] == [fused.read_bytes(), origin.read_bytes()]
    fused.write_bytes(b"changed")  # a second fetch is served from the cache, no ssh
    assert fetch_pair("testhost", str(fused), str(origin), cache) == first
    assert Path(first[0]).read_bytes() == b"a" * 100
    assert sorted(path.suffix for path in cache.iterdir()) == [".npy", ".npy"]
