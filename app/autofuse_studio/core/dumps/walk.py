"""A contained walk of a dump folder: every readable folder once, never a link that leaves the chosen root."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.dumps.native_listing import folder_entries
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.notices import Notice, examples, plural, shorten
from autofuse_studio.core.progress import CancelToken, Progress


@dataclass
class WalkReport:
    """What the walk could not or would not read: unreadable folders and links leading out of the root."""

    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (folder, reason)
    outside_links: list[str] = field(default_factory=list)  # link paths whose targets leave the root


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _open_root(root: Path) -> None:
    """Fail with a sentence when the chosen root itself cannot be listed (nothing could be compared)."""
    try:
        with os.scandir(root):
            pass
    except OSError as exc:
        raise InputError.of("dump_folder_unreadable", path=root, reason=exc.strerror or str(exc)) from None


def walk_contained(root: Path, progress: Progress, cancel: CancelToken,
                   report: WalkReport) -> Iterator[tuple[Path, list[str]]]:
    """Yield (folder, file names) for every readable folder under root, each folder once.

    Symbolic links (to folders or files) are followed only while their target stays inside the root:
    a link to / in a colleague's dump would otherwise index the whole machine and read foreign NPYs.
    """
    _open_root(root)
    real_root = os.path.realpath(root)
    stack, seen, done = [root], set(), 0
    while stack:
        cancel.check()
        folder = stack.pop()
        try:
            info = folder.stat()
            if (info.st_dev, info.st_ino) in seen:  # a symlink loop or a linked twin
                continue
            seen.add((info.st_dev, info.st_ino))
            # In one native call where it can (os.scandir hands the GIL back and forth around every entry).
            listed = folder_entries(str(folder), info.st_size)
            if listed is None:
                with os.scandir(folder) as scan:
                    entries = list(scan)
        except OSError as exc:
            report.unreadable.append((str(folder), exc.strerror or str(exc)))
            continue
        if listed is None:
            files, subfolders = _split_entries(entries, real_root, report)
        else:
            files, subfolders = _split_listed(str(folder), *listed, real_root, report)
        stack.extend(sorted(subfolders, reverse=True))
        done += 1
        progress(done, done + len(stack), f"Indexing {folder}")
        yield folder, files


def _split_entries(entries: list[os.DirEntry[str]], real_root: str,
                   report: WalkReport) -> tuple[list[str], list[Path]]:
    files: list[str] = []
    subfolders: list[Path] = []
    for entry in entries:
        try:
            if entry.is_symlink() and not _inside(os.path.realpath(entry.path), real_root):
                report.outside_links.append(entry.path)
                continue
            if entry.is_dir():
                subfolders.append(Path(entry.path))
            elif entry.is_file():
                files.append(entry.name)
        except OSError:
            continue  # vanished or unreadable entry: nothing to index
    return files, subfolders


def _split_listed(folder: str, names: list[str], kinds: str, real_root: str,
                  report: WalkReport) -> tuple[list[str], list[Path]]:
    """_split_entries over folder_entries' names and kinds: the same files and subfolders, with stat asked only for
    links and entries of unknown kind (a folder of plain files, a dump folder, needs nothing per entry)."""
    if kinds.count("f") == len(names):
        return names, []
    files: list[str] = []
    subfolders: list[Path] = []
    for name, kind in zip(names, kinds, strict=True):
        if kind == "f":
            files.append(name)
        elif kind == "d":
            subfolders.append(Path(os.path.join(folder, name)))
        elif kind in "l?":  # as DirEntry.is_symlink(), is_dir() and is_file() answer them
            _split_by_stat(os.path.join(folder, name), name, real_root, report, files, subfolders)
    return files, subfolders


def _split_by_stat(path: str, name: str, real_root: str, report: WalkReport, files: list[str],
                   subfolders: list[Path]) -> None:
    """A link or an entry of unknown kind: a link out of the root is reported, else it counts as what it leads to."""
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode) and not _inside(os.path.realpath(path), real_root):
            report.outside_links.append(path)
            return
        mode = os.stat(path).st_mode
    except OSError:
        return  # vanished, unreadable or a broken link: nothing to index
    if stat.S_ISDIR(mode):
        subfolders.append(Path(path))
    elif stat.S_ISREG(mode):
        files.append(name)


def walk_notices(root: Path, report: WalkReport) -> list[Notice]:
    """One notice per unreadable folder and one for the links that lead out of the root (not followed)."""
    notices = [Notice("unreadable_folder", f"Cannot read folder {folder}: {reason}; it was skipped.",
                      items=[{"path": folder, "reason": reason}], params={"path": folder, "reason": reason})
               for folder, reason in report.unreadable]
    if report.outside_links:
        links = report.outside_links
        notices.append(Notice(
            "link_outside_root",
            f"{plural(len(links), 'link')} under {shorten(str(root), 40)} lead outside it and were not followed "
            f"(e.g. {examples(os.path.relpath(link, root) for link in links)}).",
            len(links), [{"path": link, "target": os.path.realpath(link)} for link in links],
            params={"root": shorten(str(root), 40), "names": [os.path.relpath(link, root) for link in links]}))
    return notices
