"""A real Dask scheduler and workers on 127.0.0.1 as child processes (random ports), for tests and benchmarks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 5.0


def require_dask() -> None:
    """Skip the calling test, with the reason, when the cluster extra is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        pytest.skip("dask.distributed is not installed: pip install 'autofuse-studio[cluster]' to run the cluster tests")


class LocalCluster:
    """`dask scheduler` plus named `dask worker` processes; stop() ends every process it started."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.scheduler_file = folder / "scheduler.json"
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.address = ""

    def _spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        with (self.folder / f"{name}.log").open("wb") as log:  # the child keeps its own copy of the handle
            process = subprocess.Popen([sys.executable, "-m", *argv], stdout=log, stderr=subprocess.STDOUT,
                                       env={**os.environ, **(env or {})}, start_new_session=True)
        self.processes[name] = process
        return process

    def start_scheduler(self) -> str:
        """Start the scheduler on a random port; returns its tcp:// address."""
        self._spawn("scheduler", ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", str(self.scheduler_file)])
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.scheduler_file.exists():
                try:
                    self.address = json.loads(self.scheduler_file.read_text())["address"]
                    return self.address
                except (ValueError, KeyError):
                    pass
            time.sleep(0.1)
        raise RuntimeError(f"the scheduler did not start: {self.log('scheduler')}")

    def start_worker(self, name: str, nthreads: int = 1, resources: str | None = None,
                     env: dict[str, str] | None = None) -> None:
        """Start one worker process (no nanny: killing it removes it from the cluster)."""
        argv = ["distributed.cli.dask_worker", self.address, "--name", name, "--nthreads", str(nthreads),
                "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--memory-limit", "0"]
        if resources:
            argv += ["--resources", resources]
        self._spawn(name, argv, env)

    def wait_for_workers(self, count: int) -> None:
        """Block until `count` workers are connected."""
        from distributed import Client

        with Client(self.address, timeout="30s", set_as_default=False) as client:
            client.wait_for_workers(count, timeout=START_TIMEOUT_S)

    def task_keys(self, prefix: str) -> list[str]:
        """The keys of the scheduler's tasks starting with prefix (what it still holds)."""
        from distributed import Client

        def keys(dask_scheduler: object) -> list[str]:
            return [str(key) for key in dask_scheduler.tasks if str(key).startswith(prefix)]  # type: ignore[attr-defined]

        with Client(self.address, timeout="30s", set_as_default=False) as client:
            return list(client.run_on_scheduler(keys))

    def kill(self, name: str) -> None:
        """SIGKILL one process (a worker dying without saying goodbye)."""
        process = self.processes[name]
        process.send_signal(signal.SIGKILL)
        process.wait(10)

    def log(self, name: str) -> str:
        """The output of one process so far."""
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def stop(self) -> None:
        """Terminate every process this cluster started (each by its own pid), workers first, killing laggards."""
        for name, process in reversed(self.processes.items()):  # the scheduler last: workers leave cleanly
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(STOP_TIMEOUT_S if name != "scheduler" else 2 * STOP_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)
