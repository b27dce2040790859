"""A real Dask scheduler and workers on 127.0.0.1 as child processes (random ports), for tests and benchmarks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 5.0


def require_dask() -> None:
    """Skip the calling test, with the reason, when the cluster extra is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        pytest.skip("dask.distributed is not installed: pip install 'autofuse-studio[cluster]' to run the cluster tests")


@dataclass(frozen=True)
class TlsPaths:
    """PEM files of a TLS cluster: the CA, and a certificate with its key (the scheduler's, workers' and client's)."""

    ca_file: Path
    cert: Path
    key: Path

    def argv(self) -> list[str]:
        """The `dask scheduler` / `dask worker` options."""
        return ["--tls-ca-file", str(self.ca_file), "--tls-cert", str(self.cert), "--tls-key", str(self.key)]


def make_tls(folder: Path, name: str = "cluster") -> TlsPaths:
    """A fresh CA and one certificate it signed (for 127.0.0.1), made with the openssl command line."""
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = folder / f"{name}-ca.key", folder / f"{name}-ca.pem"
    key, request, cert = folder / f"{name}.key", folder / f"{name}.csr", folder / f"{name}.pem"
    extensions = folder / f"{name}.ext"
    extensions.write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n"
                          "extendedKeyUsage = serverAuth, clientAuth\n", encoding="ascii")
    commands = [
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca_cert, "-days", "2",
         "-subj", f"/CN={name} test CA"],
        ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", f"/CN={name} node"],
        ["x509", "-req", "-in", request, "-CA", ca_cert, "-CAkey", ca_key, "-CAcreateserial", "-out", cert,
         "-days", "2", "-extfile", extensions],
    ]
    for command in commands:
        subprocess.run(["openssl", *map(str, command)], check=True, capture_output=True, timeout=60)
    return TlsPaths(ca_cert, cert, key)


class LocalCluster:
    """`dask scheduler` plus named `dask worker` processes; stop() ends every process it started.

    With `tls`, every process speaks tls:// with those certificates.
    """

    def __init__(self, folder: Path, tls: TlsPaths | None = None) -> None:
        self.folder = folder
        self.scheduler_file = folder / "scheduler.json"
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.address = ""
        self.tls = tls

    def _spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        with (self.folder / f"{name}.log").open("wb") as log:  # the child keeps its own copy of the handle
            process = subprocess.Popen([sys.executable, "-m", *argv], stdout=log, stderr=subprocess.STDOUT,
                                       env={**os.environ, **(env or {})}, start_new_session=True)
        self.processes[name] = process
        return process

    def start_scheduler(self, env: dict[str, str] | None = None) -> str:
        """Start the scheduler on a random port; returns its tcp:// (or tls://) address."""
        tls = ["--protocol", "tls", *self.tls.argv()] if self.tls else []
        self._spawn("scheduler", ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", str(self.scheduler_file), *tls], env)
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
                     env: dict[str, str] | None = None, preload: Path | None = None) -> None:
        """Start one worker process (no nanny: killing it removes it from the cluster)."""
        argv = ["distributed.cli.dask_worker", self.address, "--name", name, "--nthreads", str(nthreads),
                "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--memory-limit", "0"]
        if resources:
            argv += ["--resources", resources]
        if preload is not None:
            argv += ["--preload", str(preload)]
        if self.tls:
            argv += self.tls.argv()
        self._spawn(name, argv, env)

    def _client(self) -> Any:
        from distributed import Client, Security

        security = None
        if self.tls:
            security = Security(tls_ca_file=str(self.tls.ca_file), tls_client_cert=str(self.tls.cert),
                                tls_client_key=str(self.tls.key), require_encryption=True)
        return Client(self.address, timeout="30s", set_as_default=False, security=security)

    def wait_for_workers(self, count: int) -> None:
        """Block until `count` workers are connected."""
        with self._client() as client:
            client.wait_for_workers(count, timeout=START_TIMEOUT_S)

    def task_keys(self, prefix: str) -> list[str]:
        """The keys of the scheduler's tasks starting with prefix (what it still holds)."""

        def keys(dask_scheduler: object) -> list[str]:
            return [str(key) for key in dask_scheduler.tasks if str(key).startswith(prefix)]  # type: ignore[attr-defined]

        with self._client() as client:
            return list(client.run_on_scheduler(keys))

    def worker_keys(self, prefix: str) -> dict[str, set[str]]:
        """The keys starting with prefix that each worker (by name) has handled, from its transition log."""

        def keys(dask_worker: Any) -> list[str]:
            return [str(entry[0]) for entry in dask_worker.state.log
                    if entry and isinstance(entry[0], str) and entry[0].startswith(prefix)]

        with self._client() as client:
            by_address = client.run(keys)
            names = {address: str(worker.get("name", address))
                     for address, worker in client.scheduler_info(n_workers=-1)["workers"].items()}
        return {names.get(address, address): set(found) for address, found in by_address.items()}

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


def two_node_cluster(local: LocalCluster, env: dict[str, str] | None = None) -> Iterator[LocalCluster]:
    """A fixture body: the scheduler and two workers (nodeA, nodeB, with `env`) of `local` started, yielded, stopped."""
    local.folder.mkdir(parents=True, exist_ok=True)
    try:
        local.start_scheduler()
        for name in ("nodeA", "nodeB"):
            local.start_worker(name, env=env)
        local.wait_for_workers(2)
        yield local
    finally:
        local.stop()
