"""Helpers for `nwa --host` tests: a remote `autofuse-studio` wrapper (this checkout) and generated cases."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from autofuse_studio.core.synth import CaseManifest


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
