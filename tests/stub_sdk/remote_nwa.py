"""Helpers for `nwa --host` tests: a remote `autofuse-studio` wrapper (this checkout) and generated cases."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.synth import CaseManifest


def remote_command(folder: Path, name: str = "autofuse-studio", prelude: str = "") -> str:
    """An executable script running this checkout's autofuse-studio, as the host's `--remote-command`."""
    script = folder / name
    script.write_text(f"#!/bin/sh\n{prelude}exec {sys.executable} -m autofuse_studio \"$@\"\n")
    script.chmod(0o755)
    return str(script)


def fake_command(folder: Path, name: str, body: str) -> str:
    """An executable shell script (an old or foreign `autofuse-studio`)."""
    script = folder / name
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(0o755)
    return str(script)


_STALL_IN_INDEXING = (
    "import time\nfrom autofuse_studio.core.dumps import index\n_build = index.DumpIndex.build.__func__\n"
    "def build(cls, *args, **kwargs):\n    time.sleep(300)\n    return _build(cls, *args, **kwargs)\n"
    "index.DumpIndex.build = classmethod(build)\n")


def stalling_remote_command(folder: Path) -> str:
    """A remote command whose run sleeps inside dump indexing (a sitecustomize hook): surely running when hit."""
    hook = folder / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(_STALL_IN_INDEXING)
    return remote_command(folder, "slow-studio", prelude=f"PYTHONPATH={hook} export PYTHONPATH\n")


def case_args(root: Path, manifest: CaseManifest, *extra: str) -> list[str]:
    """The four mode-1 path options of a generated case, plus `extra`."""
    return ["--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), *extra]


def processes_with(token: str) -> list[str]:
    """`pid: cmdline` of every process whose command line holds `token` (this one excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if token in cmdline:
            found.append(f"{entry.name}: {cmdline}")
    return found
