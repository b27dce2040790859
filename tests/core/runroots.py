"""Generated run roots shared by the run-root tests (core, CLI and UI)."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

from tests.synth.att_log import SyntheticShape
from tests.synth.att_runs import (
    CASE,
    GONE,
    RESULT,
    SLOWER,
    VALUES,
    RunLogSpec,
    write_run_root,
)

SHAPE = SyntheticShape(operators=8, results=2, groups=2, cases=3, noise_per_case=1)
# Candidate changes: Op1 picks another case, Op2 another result, Op3 is 25 % slower, Op4 has other tiling
# values only (unchanged), Op5 is missing from the candidate; Op8 exists only in the candidate.
CHANGES = {1: CASE, 2: RESULT, 3: SLOWER, 4: VALUES, 5: GONE}


def standard_run_root(root: Path, candidate_name: str = "pgo", changes: dict[int, str] | None = None,
                      extra_candidate_op: bool = True) -> Path:
    """Default logs at two depths (plain), the candidate in one .gz log (prefixed lines) and one deep .txt."""
    changes = CHANGES if changes is None else changes
    candidate_ops = [*range(8), 8] if extra_candidate_op else list(range(8))
    default = [RunLogSpec("logs/att.log", [0, 2, 4, 6], perf=True),
               RunLogSpec("logs/device1/plog/plog-1_2024.log", [1, 3, 5, 7], perf=True)]
    candidate = [RunLogSpec("att.log.gz", candidate_ops[::2], prefixed=True, perf=True, changes=changes),
                 RunLogSpec("profiling/run/a/b/c/slog.txt", candidate_ops[1::2], prefixed=True, perf=True,
                            changes=changes)]
    names = ("base", "default") if candidate_name == "default" else ("default", candidate_name)
    return write_run_root(root, SHAPE, default, candidate, candidate_name=names[1], default_name=names[0])


def read_line(path: Path, line: int) -> str:
    """Line `line` (1-based) of a log, un-gzipped when needed."""
    data = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    return data.split(b"\n")[line - 1].decode("utf-8", "replace").rstrip("\r")


def tree_state(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under root (links not followed) with its mode, size and mtime in ns."""
    state = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            info = path.lstat()
            state[str(path.relative_to(root))] = (info.st_mode, info.st_size, info.st_mtime_ns)
    info = root.lstat()
    state["."] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return state
