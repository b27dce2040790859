"""Cancelling a remote verify-tiling run mid-build stops the remote process group and removes its folder."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.core.remote.profiles import save_profiles
from tests.stub_sdk import stub_sdk, tiling_cpp, write_tf_source
from tests.stub_sdk.sshd import LocalSshd, start_sshd


@pytest.fixture
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


def _processes_under(root: Path) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if str(root) in cmdline or cwd.startswith(str(root)):
            found.append(f"{entry.name}: {cmdline}")
    return found


def _wait_for(condition: object, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_cancel_mid_build_stops_remote_processes(sshd: LocalSshd, tmp_path: Path,
                                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    # The compiler blocks reading a FIFO: a build that never ends and burns no CPU.
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    fifo = blocker / "block_fifo.h"
    os.mkfifo(fifo)
    source = write_tf_source(tmp_path / "src")
    (source / "Add_tiling_func.cpp").write_text('#include "block_fifo.h"\n' + tiling_cpp())
    config = tmp_path / "compile.toml"
    config.write_text(f'[compile]\nflags = "-O0"\nextra_includes = ["{blocker}"]\n')
    save_profiles([sshd.profile(ascend_home=str(stub_sdk(tmp_path_factory)))])
    argv = [sys.executable, "-m", "autofuse_studio", "att", "verify-tiling", str(source), "--host", "testhost",
            "--compile-config", str(config), "-o", str(tmp_path / "out")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        assert _wait_for(lambda: any("cc1plus" in p for p in _processes_under(sshd.work_root)), 60), \
            "the remote compiler never started"
        os.killpg(proc.pid, signal.SIGTERM)
        output, _ = proc.communicate(timeout=30)
        assert proc.returncode != 0
        assert _wait_for(lambda: not _processes_under(sshd.work_root), 15), _processes_under(sshd.work_root)
        assert _wait_for(lambda: not list(sshd.work_root.iterdir()), 15), output.decode()
        assert b"=== Compile Check ===" in output
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        with contextlib.suppress(OSError):  # release a compiler still blocked on the FIFO
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
