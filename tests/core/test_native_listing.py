"""The native folder listing (af_list_folder) walks a dump tree exactly as os.scandir does, on random trees."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from autofuse_studio.core.dumps import native_listing, walk
from autofuse_studio.core.dumps.walk import WalkReport, walk_contained
from autofuse_studio.core.progress import NEVER_CANCELLED

pytestmark = pytest.mark.skipif(native_listing.folder_entries(".") is None,
                                reason="the native kernel (or readdir) is not available here")

ODD_NAMES = ["plain.npy", "空格 name.npy", "a,b;c.npy", ".hidden.npy", "x" * 200, "é.npy"]


def _random_tree(root: Path, outside: Path, rng: random.Random) -> None:
    """Folders of files (some many, some odd or undecodable names), links in and out of the root, broken links,
    FIFOs and empty folders."""
    folders = [root]
    for number in range(rng.randint(3, 9)):
        folder = rng.choice(folders) / f"dir{number}"
        folder.mkdir()
        folders.append(folder)
    outside.mkdir(exist_ok=True)
    (outside / "secret.npy").write_bytes(b"x")
    for folder in folders:
        for number in range(3000 if folder == root else rng.choice((0, 1, 5, 40, 3000))):
            (folder / f"op_{number}.{rng.randint(0, 99)}.output.0.npy").write_bytes(b"")
        for name in rng.sample(ODD_NAMES, rng.randint(0, len(ODD_NAMES))):
            (folder / name).write_bytes(b"")
        if rng.random() < 0.5:  # a name that is not UTF-8: os.scandir gives it with surrogate escapes
            with open(os.path.join(os.fsencode(folder), b"bad\xff\xfe.npy"), "wb"):
                pass
        if rng.random() < 0.4:
            os.symlink(rng.choice(folders), folder / f"link_in_{rng.randint(0, 9)}")
        if rng.random() < 0.4:
            os.symlink(outside, folder / "link_out")
        if rng.random() < 0.4:
            os.symlink(outside / "secret.npy", folder / "file_out.npy")
        if rng.random() < 0.3:
            os.symlink(folder / "missing.npy", folder / "broken.npy")
        if rng.random() < 0.3:
            os.mkfifo(folder / "pipe.npy")


def _walked(root: Path) -> tuple[list[tuple[str, list[str]]], WalkReport]:
    report = WalkReport()
    found = [(str(folder), files) for folder, files in walk_contained(root, lambda *args: None, NEVER_CANCELLED,
                                                                       report)]
    return found, report


@pytest.mark.parametrize("seed", range(8))
def test_the_native_walk_finds_what_os_scandir_finds(seed: int, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "dump"
    root.mkdir()
    _random_tree(root, tmp_path / "outside", random.Random(seed))
    native = _walked(root)
    monkeypatch.setattr(walk, "folder_entries", lambda *args: None)  # os.scandir, as before
    assert native == _walked(root)
    assert any(len(files) >= 3000 for _, files in native[0])  # a dump-sized folder: read in one native call


def test_entries_of_unknown_kind_are_asked_of_stat(tmp_path: Path) -> None:
    """A file system that gives no entry types (DT_UNKNOWN): each entry is classified by lstat and stat."""
    root = tmp_path / "dump"
    root.mkdir()
    _random_tree(root, tmp_path / "outside", random.Random(12))
    real_root = os.path.realpath(root)
    for folder, _ in walk_contained(root, lambda *args: None, NEVER_CANCELLED, WalkReport()):
        listed = native_listing.folder_entries(str(folder))
        assert listed is not None
        names, kinds = listed
        by_kind, by_stat = WalkReport(), WalkReport()
        with os.scandir(folder) as scan:
            expected = walk._split_entries(list(scan), real_root, by_stat)
        assert walk._split_listed(str(folder), names, "?" * len(names), real_root, by_kind) == expected
        assert walk._split_listed(str(folder), names, kinds, real_root, WalkReport()) == expected
        assert by_kind.outside_links == by_stat.outside_links


def test_a_listing_bigger_than_its_first_buffer_is_read_again_whole(tmp_path: Path) -> None:
    names = {f"{'n' * 100}_{number}.npy" for number in range(2000)}  # ~210 kB of names: over MIN_CAPACITY
    for name in names:
        (tmp_path / name).write_bytes(b"")
    listed = native_listing.folder_entries(str(tmp_path), size_hint=0)
    assert listed is not None
    assert set(listed[0]) == names and listed[1] == "f" * len(names)
    assert listed[0] == [entry.name for entry in os.scandir(tmp_path)]


def test_an_unreadable_folder_is_an_os_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "gone"
    with pytest.raises(FileNotFoundError) as raised:
        native_listing.folder_entries(str(missing))
    assert raised.value.filename == str(missing)
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(NotADirectoryError):
        native_listing.folder_entries(str(tmp_path / "file"))


def test_without_the_kernel_the_caller_lists(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AUTOFUSE_STUDIO_NO_NATIVE", "1")
    assert native_listing.folder_entries(str(tmp_path)) is None
