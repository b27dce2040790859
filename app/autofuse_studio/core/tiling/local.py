"""Run a prepared verify-tiling job on this machine: the stdlib runner in a child process, output streamed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.reports.atomic import make_folder
from autofuse_studio.core.tiling.job import PreparedJob, write_project

Echo = Callable[[str], None]


@dataclass
class RunOutcome:
    """How a verify-tiling run ended: the runner's exit code and result.json (None when none was written)."""

    exit_code: int
    result: dict[str, Any] | None
    result_path: Path
    build_dir: Path | None  # kept build folder, or None when it was removed


def runner_python() -> str:
    """The interpreter for the runner: this one from source; python3 on PATH from a frozen bundle."""
    if not getattr(sys, "frozen", False):
        return sys.executable
    found = shutil.which("python3")
    if found is None:
        raise AppError.of("verify_no_python3")
    return found


def read_result(path: Path) -> dict[str, Any] | None:
    """result.json as a dict, or None when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def stream_process(argv: list[str], echo: Echo, stdin_pipe: bool = True) -> int:
    """Run argv, passing each output line to echo as it arrives; returns the exit code (negative = signal)."""
    # stdin is a pipe we never write: when this process dies the runner sees EOF and stops its builds.
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.PIPE if stdin_pipe else subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        for raw in iter(proc.stdout.readline, b""):
            echo(raw.decode("utf-8", "replace").rstrip("\n"))
        return proc.wait()


def run_local(job: PreparedJob, echo: Echo) -> RunOutcome:
    """Write the project to an att-verify-* temp folder, run the runner, remove the folder unless kept."""
    output = Path(job.request.output).resolve()
    make_folder(output)
    result_path = output / "result.json"
    result_path.unlink(missing_ok=True)  # a stale result must never pass for this run's
    folder = Path(tempfile.mkdtemp(prefix="att-verify-"))
    try:
        job_path = write_project(job, folder, str(output))
        code = stream_process([runner_python(), str(folder / "runner_script.py"), "--job", str(job_path),
                               "--watch-stdin"], echo)
    finally:
        if not job.request.keep_build:
            shutil.rmtree(folder, ignore_errors=True)
    if code < 0:
        echo(f"✗ the build runner was stopped by signal {-code}; no result was written")
    elif code == 0 and job.request.keep_build:
        echo(f"[verify-tiling] build kept in {folder}")
    return RunOutcome(code, read_result(result_path), result_path, folder if job.request.keep_build else None)
