"""`nwa --scheduler` on what is not a Dask scheduler: one sentence naming the address, fast, never a traceback.

Fake servers on 127.0.0.1 (each stops by itself after FAKE_LIFETIME_S) answer the client's handshake with
HTTP, 0xff bytes or a frame length of 8 EiB; the real CLI runs in a fresh process against each.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.local_cluster import require_dask
from tests.robustness.conftest import run_cli
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec

FAKE_LIFETIME_S = 30.0
FAST_S = 8.0  # the whole CLI process, Python start included (the connect timeout is 10 s, Dask's old hang 20 s)
_REPLIES = {
    "http": b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nBad Request",
    "ff": b"\xff" * 4096,
    "frame": struct.pack("<Q", 1 << 63) + b"\x00" * 64,  # "Unable to allocate 8.00 EiB"
    "closes": b"",
}


class FakeServer:
    """Accepts connections and answers each with one canned reply (HTTP after reading the request)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        deadline = time.monotonic() + FAKE_LIFETIME_S
        held: list[socket.socket] = []
        while not self._stop.is_set() and time.monotonic() < deadline:
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            self.connections += 1
            try:
                if self.kind == "http":
                    connection.settimeout(2)
                    connection.recv(65536)
                connection.sendall(_REPLIES.get(self.kind, b""))
            except OSError:
                pass
            if self.kind == "closes":
                connection.close()
            else:
                held.append(connection)  # "silent" and the others keep it open: the client must not wait
        for connection in held:
            connection.close()
        self.listener.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


@pytest.fixture(scope="module")
def small_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    root = tmp_path_factory.mktemp("scheduler_failures") / "case"
    return root, generate_case(root, multi_rank_spec(ranks=2, culprit_rank=1))


def _nwa(root: Path, manifest: CaseManifest, *extra: str) -> list[str]:
    return ["nwa", "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), *extra]


@pytest.fixture
def fake(request: pytest.FixtureRequest) -> Iterator[FakeServer]:
    server = FakeServer(request.param)
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("fake", ["http", "ff", "frame", "closes"], indirect=True)
def test_a_server_that_is_not_dask_is_one_sentence(small_case: tuple[Path, CaseManifest], fake: FakeServer) -> None:
    require_dask()
    root, manifest = small_case
    address = f"tcp://127.0.0.1:{fake.port}"
    started = time.monotonic()
    run = run_cli(*_nwa(root, manifest, "--scheduler", address), timeout=60)
    elapsed = time.monotonic() - started
    assert run.returncode == 1, run.output
    assert elapsed < FAST_S, f"{elapsed:.1f} s"
    errors = [line for line in run.output.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1 and address in errors[0], run.output
    assert run.stderr.strip() == "", run.stderr  # no Dask log lines, no "Exception ignored in Client.__del__"
    assert fake.connections >= 1
    if fake.kind != "closes":
        assert errors[0].startswith(f"ERROR: The server at {address} did not answer like a Dask scheduler (")
        assert "check the address and the port" in errors[0]


def test_tls_without_certificates_is_one_sentence_at_once(small_case: tuple[Path, CaseManifest]) -> None:
    """Dask itself raised a TypeError, then hung 20 s in Client.__del__."""
    require_dask()
    server = FakeServer("silent")
    try:
        root, manifest = small_case
        address = f"tls://127.0.0.1:{server.port}"
        started = time.monotonic()
        run = run_cli(*_nwa(root, manifest, "--scheduler", address), timeout=60)
        elapsed = time.monotonic() - started
    finally:
        server.stop()
    assert run.returncode == 2 and elapsed < FAST_S, (run.output, elapsed)
    assert run.output.strip() == (f"ERROR: The scheduler {address} speaks TLS: give the cluster's CA and this client's "
                                  "certificate with --tls-ca-file, --tls-cert and --tls-key (or set them in Dask's "
                                  "configuration, distributed.comm.tls).")
    assert server.connections == 0  # refused before connecting


def test_a_server_that_never_answers_is_one_sentence_within_the_timeout(
        small_case: tuple[Path, CaseManifest], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Dask waits for the scheduler's handshake without a timeout: the client bounds its start."""
    require_dask()
    from autofuse_studio.cli import main

    monkeypatch.setattr("autofuse_studio.core.cluster.workers.CONNECT_TIMEOUT_S", 1.0)
    server = FakeServer("silent")
    try:
        root, manifest = small_case
        address = f"tcp://127.0.0.1:{server.port}"
        started = time.monotonic()
        assert main(_nwa(root, manifest, "--scheduler", address)) == 1
        elapsed = time.monotonic() - started
    finally:
        server.stop()
    text = capsys.readouterr().out
    assert elapsed < 4, f"{elapsed:.1f} s"
    assert text.splitlines()[-1].startswith(f"ERROR: Cannot reach the Dask scheduler at {address} within 1 s ("), text
