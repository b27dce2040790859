"""Rank, run and step of NPY folders in the dump trees users have: CANN standard, msprobe, hand-made."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.dumps.places import Place, place_folders
from autofuse_studio.core.errors import InputError

ROOT = Path("/data/dump")


def _place(*relative: str) -> dict[str, Place]:
    folders = [ROOT.joinpath(*path.split("/")) if path else ROOT for path in relative]
    places = place_folders(ROOT, folders)
    return {path: places[folder] for path, folder in zip(relative, folders, strict=True)}


@pytest.mark.parametrize(("path", "rank", "run", "step"), [
    ("20250106142301/3/ge_default_1/11/0", "3", "20250106142301", "0"),
    ("3/ge_default_1/11/7", "3", None, "7"),  # root at the {time} folder
    ("ge_default_1/11/7", None, None, "7"),  # root at the device folder: single device
    ("rank5/step2", "5", None, "2"),
    ("step_2/rank_05", "5", None, "2"),
    ("Rank-12/0", "12", None, "0"),
    ("device3/20250106142301", "3", "20250106142301", ""),
    ("npu_7/ge_default_1/11/1", "7", None, "1"),
    ("node1/rank3/20250106142301/0/model/11/4", "3", "20250106142301", "4"),  # a rank folder wins over device
    ("", None, None, ""),
])
def test_one_folder(path: str, rank: str | None, run: str | None, step: str) -> None:
    assert _place(path)[path] == Place(rank, run, step)


def test_plain_numbers_are_steps_only_when_every_folder_is_numbered() -> None:
    numbered = _place("0", "1", "10")
    assert [place.step for place in numbered.values()] == ["0", "1", "10"]
    assert _place("0")["0"].step == ""
    mixed = _place("0", "extra")
    assert mixed["0"].step == "" and mixed["extra"].step == ""


def test_rank_names_that_are_not_ranks() -> None:
    places = _place("ranking/0", "devices/x", "rank/1")
    assert all(place.rank is None for place in places.values())


def _npy(folder: Path, op: str = "op", ts: int = 1783906987170021) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"AscBackend.{op}.3.44.{ts}.output.0.npy"
    np.save(path, np.zeros(2, dtype=np.float32))
    return path


def test_index_ranks_steps_and_lookups_per_rank(tmp_path: Path) -> None:
    for rank in ("0", "1", "10"):
        for step in ("0", "1"):
            _npy(tmp_path / "20250106142301" / rank / "ge_default_1" / "11" / step, f"op{rank}")
    index = DumpIndex.build(tmp_path)
    assert index.ranks == ["0", "1", "10"]
    assert index.steps_of("10") == ["0", "1"]
    assert index.lookup("op10", "output", 0, step="1", rank="10").path is not None
    assert index.lookup("op10", "output", 0, step="1", rank="0").path is None
    assert index.has_op("op1", "0", rank="1") and not index.has_op("op1", "0", rank="0")
    assert "3 ranks (0, 1, 10)" in index.describe() and "2 steps" in index.describe()


def test_newest_run_is_chosen_per_rank_not_per_side(tmp_path: Path) -> None:
    # Each rank writes its own {time} folder: rank 0 ran later than rank 1, both have one run.
    zero = _npy(tmp_path / "20250106150000" / "0" / "m" / "1" / "0")
    one = _npy(tmp_path / "20250106140000" / "1" / "m" / "1" / "0")
    index = DumpIndex.build(tmp_path)
    assert index.lookup("op", "output", 0, "0", rank="0").path == zero
    assert index.lookup("op", "output", 0, "0", rank="1").path == one
    assert not any(notice.kind == "older_runs_ignored" for notice in index.notices)


def test_run_is_chosen_by_folder_not_by_file_timestamps(tmp_path: Path) -> None:
    new = _npy(tmp_path / "20250106150000" / "0" / "m" / "1" / "0", ts=100)
    _npy(tmp_path / "20250106140000" / "0" / "m" / "1" / "0", ts=999)  # older run, skewed clock
    assert DumpIndex.build(tmp_path).lookup("op", "output", 0).path == new


def test_links_out_of_the_root_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    foreign = _npy(outside, "foreign")
    root = tmp_path / "dump"
    inside = _npy(root / "real", "mine")
    (root / "to_root").symlink_to("/", target_is_directory=True)
    (root / "to_elsewhere").symlink_to(outside, target_is_directory=True)
    (root / "file_link.npy").symlink_to(foreign)
    (root / "inner_link").symlink_to(root / "real", target_is_directory=True)
    index = DumpIndex.build(root)
    assert index.lookup("mine", "output", 0).path is not None
    assert index.lookup("foreign", "output", 0).path is None
    assert index.files_indexed == 1
    links = [notice for notice in index.notices if notice.kind == "link_outside_root"]
    assert len(links) == 1 and "3 links" in links[0].message
    assert inside.exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores permissions")
def test_unreadable_root_is_an_input_error(tmp_path: Path) -> None:
    _npy(tmp_path / "locked")
    (tmp_path / "locked").chmod(0)
    try:
        with pytest.raises(InputError, match="Cannot read the dump folder"):
            DumpIndex.build(tmp_path / "locked")
    finally:
        (tmp_path / "locked").chmod(0o755)


def test_unreadable_root_is_an_input_error_even_for_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.core.dumps import walk

    real_scandir = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if Path(path) == tmp_path:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(walk.os, "scandir", scandir)
    with pytest.raises(InputError, match=r"Cannot read the dump folder .*Permission denied"):
        DumpIndex.build(tmp_path)
