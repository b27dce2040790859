"""Which two folders of a run root are compared: default + pgo, base + default, or explicit roots."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.errors import InputError

# Roles are the keys of root-cause.jsonl: "default" is the reference run, "candidate" the one compared with it.
DEFAULT, CANDIDATE = "default", "candidate"
ROLES = (DEFAULT, CANDIDATE)


@dataclass(frozen=True)
class Side:
    """One run: its role, its folder relative to the run root (posix, "." for the root) and absolute path."""

    role: str
    label: str
    root: Path


@dataclass(frozen=True)
class RunSides:
    """The run root and the two sides compared; `how` says how they were chosen."""

    run_root: Path
    default: Side
    candidate: Side
    how: str  # "default+pgo", "base+default" or "explicit"

    def side(self, role: str) -> Side:
        """The side with that role."""
        return self.default if role == DEFAULT else self.candidate


def _children(run_root: Path) -> dict[str, str]:
    """Lower-case name -> real name of the run root's entries (so `PGO/` is found as well)."""
    try:
        return {name.lower(): name for name in sorted(os.listdir(run_root))}
    except OSError as exc:
        raise InputError.of("run_root_unlistable", path=run_root, reason=(exc.strerror or str(exc)).lower()) from None


def _real_folder(run_root: Path, given: str | Path, what: str) -> Path:
    """`given` (relative to the run root, or absolute inside it) as a folder that is not reached through a link."""
    path = Path(given)
    path = path if path.is_absolute() else run_root / path
    if path.is_symlink():
        raise InputError.of("run_side_symlink", what=what, path=path)
    if not path.is_dir():
        raise InputError.of("run_side_not_folder", what=what, path=path)
    resolved = path.resolve()
    if resolved != run_root and run_root not in resolved.parents:
        raise InputError.of("run_side_outside", what=what, path=path, root=run_root)
    return resolved


def _side(role: str, run_root: Path, folder: Path) -> Side:
    relative = folder.relative_to(run_root).as_posix()
    return Side(role, relative or ".", folder)


def _overlap(a: Path, b: Path) -> bool:
    return a == b or a in b.parents or b in a.parents


def _auto(run_root: Path, names: dict[str, str]) -> tuple[str | None, str | None, str]:
    """The default and candidate folder names found by name, and how."""
    has = {key: names.get(key) for key in ("default", "pgo", "base")}
    if has["default"] and has["pgo"] and has["base"]:
        raise InputError.of("run_root_three_runs", path=run_root)
    if has["pgo"]:
        return has["default"], has["pgo"], "default+pgo"
    if has["base"]:
        return has["base"], has["default"], "base+default"
    return has["default"], None, "default+pgo"


def resolve_sides(run_root: str | Path, default_root: str | Path | None = None,
                  candidate_root: str | Path | None = None) -> RunSides:
    """Pick the two sides; InputError with a sentence when the run root or a side is missing."""
    given = Path(run_root)
    if not given.is_dir():
        raise InputError.of("run_root_missing" if not given.exists() else "run_root_not_folder", path=given)
    root = given.resolve()
    names = _children(root)
    auto_default, auto_candidate, how = _auto(root, names)
    if default_root is not None or candidate_root is not None:
        how = "explicit"
    default_name = default_root if default_root is not None else auto_default
    candidate_name = candidate_root if candidate_root is not None else auto_candidate
    # `--candidate-root default` alone: the reference is then base/ (the other conventional reference name).
    if default_root is None and candidate_root is not None and auto_default is not None \
            and (root / auto_default).resolve() == _real_folder(root, candidate_root, "candidate root"):
        default_name = names.get("base")
    if default_name is None:
        raise InputError.of("run_root_no_default", path=root)
    if candidate_name is None:
        raise InputError.of("run_root_no_candidate", path=root)
    default = _real_folder(root, default_name, "default root")
    candidate = _real_folder(root, candidate_name, "candidate root")
    if _overlap(default, candidate):
        raise InputError.of("run_sides_same" if default == candidate else "run_sides_overlap", default=default,
                            candidate=candidate, path=root)
    return RunSides(root, _side(DEFAULT, root, default), _side(CANDIDATE, root, candidate), how)
