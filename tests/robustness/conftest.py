"""Robustness suite: run the real CLI in a subprocess on hostile inputs; never a traceback, bounded memory."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

TRACEBACK = "Traceback (most recent call last)"


@dataclass
class CliRun:
    """What one `autofuse-studio ...` process did: exit code, both streams, peak memory in MiB."""

    returncode: int
    stdout: str
    stderr: str
    peak_mib: float

    @property
    def output(self) -> str:
        """stdout and stderr together, for 'the message names the file' checks."""
        return self.stdout + self.stderr


def _peak_prologue(peak_file: Path) -> str:
    """Python code that records the process's VmHWM in `peak_file` at exit."""
    return (
        "import atexit\n"
        "def _record_peak():\n"
        "    with open('/proc/self/status') as status:\n"
        "        line = next(line for line in status if line.startswith('VmHWM:'))\n"
        f"    with open({str(peak_file)!r}, 'w') as out:\n"
        "        out.write(line.split()[1])\n"
        "atexit.register(_record_peak)\n"
    )


def _read_peak_mib(peak_file: Path) -> float:
    try:
        return int(peak_file.read_text()) / 1024
    except (OSError, ValueError):
        return float("nan")  # killed, or exited through os._exit


def assert_no_traceback(text: str) -> None:
    """Fail when a Python traceback reached the user."""
    assert TRACEBACK not in text, f"a traceback reached the user:\n{text[-4000:]}"


def run_cli(*args: str | os.PathLike[str], cwd: Path | None = None, timeout: float = 120,
            env: dict[str, str] | None = None, stdin: bytes | None = None) -> CliRun:
    """Run `autofuse-studio ARGS` in a fresh process; fails the test on any traceback or a hang."""
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        code = _peak_prologue(peak_file) + (
            "import sys, runpy\n"
            "sys.argv = ['autofuse-studio', *sys.argv[1:]]\n"
            "runpy.run_module('autofuse_studio', run_name='__main__', alter_sys=True)\n"
        )
        full_env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})}
        try:
            done = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, cwd=cwd,
                                  env=full_env, input=stdin if stdin is not None else b"", timeout=timeout,
                                  check=False)
        except subprocess.TimeoutExpired:
            pytest.fail(f"autofuse-studio {' '.join(map(str, args))} did not finish in {timeout} s")
        run = CliRun(done.returncode, done.stdout.decode("utf-8", "replace"),
                     done.stderr.decode("utf-8", "replace"), _read_peak_mib(peak_file))
    assert_no_traceback(run.output)
    return run


def run_python_peak(code: str, timeout: float = 300) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run a Python snippet in a fresh process; return it and that process's own peak RSS in MiB."""
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        done = subprocess.run([sys.executable, "-c", _peak_prologue(peak_file) + code], capture_output=True,
                              text=True, timeout=timeout, check=False)
        peak = _read_peak_mib(peak_file)
    assert_no_traceback(done.stdout + done.stderr)
    return done, peak
