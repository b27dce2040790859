"""Find and stop every process a build-host runner started, even ones that left its session (setsid, double fork).

Standard library only (Python >= 3.7, Linux /proc; elsewhere the functions find nothing), shipped next to
runner_script.py. Two nets, no cgroups: the runner makes itself a child subreaper, so orphaned descendants
are re-parented to it and stay in its process tree; and every step runs with a per-run token in its
environment, so a descendant that was re-parented elsewhere is still recognised by /proc/<pid>/environ.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time

TOKEN_VARIABLE = "AFS_RUNNER_TOKEN"
PR_SET_CHILD_SUBREAPER = 36
SWEEP_ROUNDS = 20
SWEEP_PAUSE_S = 0.05


def become_subreaper() -> bool:
    """Ask Linux to re-parent orphaned descendants to this process (prctl); False where that is unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _stat(pid: str) -> tuple[int, str] | None:
    """(parent pid, state letter) of a /proc entry, or None when it is gone or unreadable."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text.rsplit(")", 1)[-1].split()  # the command name may hold spaces and parentheses
    if len(fields) < 2 or not fields[1].isdigit():
        return None
    return int(fields[1]), fields[0]


def _process_table() -> dict[int, tuple[int, str]]:
    table: dict[int, tuple[int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if name.isdigit():
            entry = _stat(name)
            if entry is not None:
                table[int(name)] = entry
    return table


def descendants(root: int) -> list[int]:
    """Every live (non-zombie) process below root in the process tree."""
    table = _process_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _state) in table.items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    stack = list(children.get(root, []))
    while stack:
        pid = stack.pop()
        if table[pid][1] != "Z":
            found.append(pid)
        stack.extend(children.get(pid, []))
    return found


def tagged(token: str) -> list[int]:
    """Live processes whose environment carries TOKEN_VARIABLE=token (other users' cannot be read: skipped)."""
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    found = []
    for pid, (_parent, state) in _process_table().items():
        if state == "Z" or pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = handle.read()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.append(pid)
    return found


def reap_orphans(keep: set[int]) -> None:
    """Collect exit statuses of re-parented children (not those in keep, which subprocess still waits for)."""
    for pid, (parent, state) in _process_table().items():
        if parent == os.getpid() and state == "Z" and pid not in keep:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


def sweep(token: str, keep: set[int]) -> int:
    """SIGKILL every descendant and every tagged process until none is left; returns how many were killed."""
    killed = 0
    for _ in range(SWEEP_ROUNDS):
        targets = (set(descendants(os.getpid())) | set(tagged(token))) - keep - {os.getpid()}
        if not targets:
            break
        for pid in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        time.sleep(SWEEP_PAUSE_S)
        reap_orphans(keep)
    reap_orphans(keep)
    return killed
