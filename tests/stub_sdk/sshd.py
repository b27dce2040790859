"""A throwaway sshd on 127.0.0.1 (generated host key, one authorised throwaway client key) for remote tests."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from autofuse_studio.core.remote.profiles import HostProfile

SSHD = "/usr/sbin/sshd"


@dataclass
class LocalSshd:
    """A running test sshd and the keys to reach it."""

    port: int
    key: Path
    other_key: Path  # a valid key that is NOT authorised
    known_hosts: Path
    work_root: Path

    def profile(self, name: str = "testhost", **changes: object) -> HostProfile:
        """A host profile that reaches this sshd."""
        values: dict[str, object] = {
            "name": name, "destination": f"{getpass.getuser()}@127.0.0.1", "port": self.port,
            "identity_file": str(self.key), "work_dir": str(self.work_root), "python": "/usr/bin/python3",
            "known_hosts_file": str(self.known_hosts)}
        values.update(changes)
        return HostProfile(**values)  # type: ignore[arg-type]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)


def _wait_listening(port: int, proc: subprocess.Popen[bytes], deadline_s: float = 10.0) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"sshd exited with code {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("sshd did not start listening")


def start_sshd(root: Path) -> Iterator[LocalSshd]:
    """Generator for a fixture: start sshd -D -e -f <config>, yield, kill it at teardown."""
    if not os.path.exists(SSHD) or shutil.which("ssh") is None:
        pytest.skip(f"{SSHD} or ssh is missing (install openssh-server and openssh-client to run remote tests)")
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(exist_ok=True)  # privilege separation folder sshd requires when run as root
    for name in ("host_key", "client_key", "other_key"):
        _keygen(root / name)
    (root / "authorized_keys").write_text((root / "client_key.pub").read_text())
    port = _free_port()
    config = root / "sshd_config"
    config.write_text("\n".join([
        f"Port {port}", "ListenAddress 127.0.0.1", f"HostKey {root / 'host_key'}", f"PidFile {root / 'sshd.pid'}",
        f"AuthorizedKeysFile {root / 'authorized_keys'}", "StrictModes no", "PasswordAuthentication no",
        "KbdInteractiveAuthentication no", "PubkeyAuthentication yes", "UsePAM no", "PermitRootLogin yes",
        "LogLevel ERROR", ""]))
    proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        _wait_listening(port, proc)
        work_root = root / "remote-work"
        work_root.mkdir()
        yield LocalSshd(port, root / "client_key", root / "other_key", root / "known_hosts", work_root)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
