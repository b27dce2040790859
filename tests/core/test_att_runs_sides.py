"""Run roots: which folders are compared, and the sentences when a side is missing or misplaced."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autofuse_studio.core.att.runs.discovery import list_side
from autofuse_studio.core.att.runs.sides import resolve_sides
from autofuse_studio.core.errors import InputError


def _dirs(root: Path, *names: str) -> Path:
    for name in names:
        (root / name).mkdir(parents=True)
    return root


def test_default_and_pgo(tmp_path: Path) -> None:
    sides = resolve_sides(_dirs(tmp_path, "default", "pgo"))
    assert (sides.default.label, sides.candidate.label, sides.how) == ("default", "pgo", "default+pgo")


def test_base_is_the_reference(tmp_path: Path) -> None:
    sides = resolve_sides(_dirs(tmp_path, "default", "base"))
    assert (sides.default.label, sides.candidate.label, sides.how) == ("base", "default", "base+default")


def test_names_are_found_whatever_their_case(tmp_path: Path) -> None:
    sides = resolve_sides(_dirs(tmp_path, "Default", "PGO"))
    assert (sides.default.label, sides.candidate.label) == ("Default", "PGO")


def test_explicit_roots_inside_the_run_root(tmp_path: Path) -> None:
    _dirs(tmp_path, "runs/a", "runs/b")
    sides = resolve_sides(tmp_path, "runs/a", tmp_path / "runs" / "b")
    assert (sides.default.label, sides.candidate.label, sides.how) == ("runs/a", "runs/b", "explicit")


@pytest.mark.parametrize(
    ("folders", "kwargs", "message"),
    [
        (("default",), {}, "No candidate run in the run root"),
        (("pgo",), {}, "No default run in the run root"),
        ((), {}, "No default run"),
        (("default", "pgo", "base"), {}, "which two to compare is not clear"),
        (("a",), {"default_root": "a", "candidate_root": "missing"}, "is not a folder"),
        (("a",), {"default_root": "a", "candidate_root": "a"}, "are the same folder"),
        (("a/b",), {"default_root": "a", "candidate_root": "a/b"}, "overlap"),
        (("a",), {"default_root": "a", "candidate_root": "/"}, "is outside the run root"),
    ],
)
def test_a_missing_or_misplaced_side_is_an_input_error(tmp_path: Path, folders: tuple[str, ...],
                                                      kwargs: dict[str, str], message: str) -> None:
    _dirs(tmp_path, *folders)
    with pytest.raises(InputError, match=message):
        resolve_sides(tmp_path, **kwargs)


def test_missing_run_root(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        resolve_sides(tmp_path / "nope")


def test_a_side_that_is_a_link_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    root = _dirs(tmp_path / "root", "default")
    (root / "pgo").symlink_to(outside)
    with pytest.raises(InputError, match="symbolic link; links are not followed"):
        resolve_sides(root)


def test_listing_never_follows_links_nor_opens_pipes(tmp_path: Path) -> None:
    root = _dirs(tmp_path / "root", "default/logs", "pgo", "default/dump/x", "default/Kernel_Meta")
    secret = tmp_path / "secret.log"
    secret.write_text("[Op] [PROF]Among all schedule results, graph0_result0 is the best choice.\n")
    (root / "default" / "logs" / "evil.log").symlink_to(secret)
    (root / "default" / "logs" / "up").symlink_to(tmp_path)
    os.mkfifo(root / "default" / "logs" / "pipe.log")
    (root / "default" / "logs" / "a.log").write_text("x\n")
    (root / "default" / "dump" / "x" / "d.log").write_text("x\n")
    (root / "default" / "notes.csv").write_text("x\n")
    listing = list_side(resolve_sides(root).default, root.resolve())
    assert [f.relpath for f in listing.candidates] == ["default/logs/a.log"]
    assert any("'default/logs/evil.log' is a symbolic link" in n and "not followed" in n for n in listing.notes)
    assert any("'default/logs/up' is a symbolic link" in n for n in listing.notes)
    assert any("'default/logs/pipe.log' is not a regular file" in n for n in listing.notes)
    assert [(f.category, f.relpath, f.files) for f in listing.folders] == [
        ("logs", "default/logs", 1), ("kernel_meta", "default/Kernel_Meta", 0), ("dump", "default/dump", 1)]
    assert (listing.other_files, listing.other_bytes) == (2, 4)  # the dump file and notes.csv
