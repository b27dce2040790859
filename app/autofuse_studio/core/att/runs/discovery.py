"""Lists one side of a run root without following links: log candidates, other files, notable folders.

Which files are ATT logs is decided by their content later (side_scan); here only names say which files
could hold log text (`.log`, `.txt`, `.out`, `.gz`, rotated `.log.N`, slog/plog files, names without an
extension). kernel_meta/ and dump/ are counted, never opened.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.att.runs.sides import Side
from autofuse_studio.core.att.safe_open import FileId, Pin
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken

# Folder names noted in the report (any depth, case-insensitive) -> the category shown.
FOLDER_KINDS = {"logs": "logs", "log": "logs", "profiling": "profiling", "profile": "profiling",
                "kernel_meta": "kernel_meta", "dump": "dump", "dumps": "dump"}
CATEGORIES = ("logs", "profiling", "kernel_meta", "dump")
NOT_PARSED = frozenset({"kernel_meta", "dump"})
_LOG_NAME = re.compile(r"(\.(log|txt|out|gz)|\.log\.\d+)$|slog|plog", re.IGNORECASE)
MAX_DEPTH = 64
MAX_ENTRIES = 1_000_000  # per side: a dump folder of a million files is counted, not more
MAX_NOTES = 50


@dataclass(slots=True)
class FoundFile:
    """A regular file: path relative to the run root (posix), the run root, size in bytes, identity.

    Compact (a side may hold a million files): the absolute path is made on demand, and the device and
    inode found are kept as two ints; every later open checks it is still that file (see safe_open).
    """

    relpath: str
    run_root: Path
    size: int
    dev: int = 0
    ino: int = 0

    @property
    def path(self) -> Path:
        """The absolute path."""
        return self.run_root / self.relpath

    @property
    def pin(self) -> Pin:
        """The file found there (links are never followed in a run root)."""
        return Pin(FileId(self.dev, self.ino))


@dataclass
class FolderNote:
    """A logs/, profiling/, kernel_meta/ or dump/ folder and what it holds (kernel_meta/dump: never parsed)."""

    category: str
    relpath: str
    files: int = 0
    bytes: int = 0


@dataclass
class SideListing:
    """Everything found under one side."""

    side: Side
    candidates: list[FoundFile] = field(default_factory=list)
    other_files: int = 0
    other_bytes: int = 0
    folders: list[FolderNote] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # sentences: links not followed, unreadable folders, limits
    note_count: int = 0

    def note(self, sentence: str) -> None:
        """Keep a sentence for the report (the first MAX_NOTES; the rest are counted)."""
        self.note_count += 1
        if len(self.notes) < MAX_NOTES:
            self.notes.append(sentence)

    def present(self, category: str) -> list[FolderNote]:
        """The folders of one category."""
        return [f for f in self.folders if f.category == category]


def is_log_name(name: str) -> bool:
    """True when a file name could hold log text (the content decides later)."""
    return "." not in name.lstrip(".") or _LOG_NAME.search(name) is not None


def _link_note(listing: SideListing, path: Path, relpath: str) -> None:
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    listing.note(f"'{relpath}' is a symbolic link (to '{target}'); links are not followed, so it was not read.")


class _Walker:
    """An explicit-stack walk (no recursion limit, no links followed), entries in name order."""

    def __init__(self, listing: SideListing, run_root: Path, cancel: CancelToken) -> None:
        self.listing = listing
        self.run_root = run_root
        self.cancel = cancel
        self.entries = 0

    def walk(self) -> None:
        stack: list[tuple[Path, int, list[FolderNote]]] = [(self.listing.side.root, 0, [])]
        while stack:
            folder, depth, inside = stack.pop()
            children = self._entries(folder)
            for entry in children:
                if self.entries >= MAX_ENTRIES:
                    self.listing.note(f"Stopped listing '{self.listing.side.label}' after {MAX_ENTRIES} entries.")
                    return
                self.entries += 1
                sub = self._visit(entry, depth, inside)
                if sub is not None:
                    stack.append(sub)

    def _entries(self, folder: Path) -> list[os.DirEntry[str]]:
        self.cancel.check()
        try:
            with os.scandir(folder) as found:
                return sorted(found, key=lambda e: e.name)
        except OSError as exc:
            self.listing.note(f"Cannot list '{self._rel(folder)}': {(exc.strerror or str(exc)).lower()}; "
                              "it was left out.")
            return []

    def _rel(self, path: Path) -> str:
        return path.relative_to(self.run_root).as_posix()

    def _visit(self, entry: os.DirEntry[str], depth: int,
               inside: list[FolderNote]) -> tuple[Path, int, list[FolderNote]] | None:
        path = Path(entry.path)
        try:
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError as exc:
            self.listing.note(f"Cannot read '{self._rel(path)}': {(exc.strerror or str(exc)).lower()}.")
            return None
        if stat.S_ISLNK(mode):
            _link_note(self.listing, path, self._rel(path))
        elif stat.S_ISDIR(mode):
            return self._folder(path, depth, inside)
        elif stat.S_ISREG(mode):
            self._file(entry, path, inside)
        else:  # FIFOs, sockets, devices: opening one could block or read forever
            self.listing.note(f"'{self._rel(path)}' is not a regular file (a pipe, socket or device); not read.")
        return None

    def _folder(self, path: Path, depth: int,
                inside: list[FolderNote]) -> tuple[Path, int, list[FolderNote]] | None:
        if depth + 1 > MAX_DEPTH:
            self.listing.note(f"'{self._rel(path)}' is nested deeper than {MAX_DEPTH} folders; not listed.")
            return None
        kind = FOLDER_KINDS.get(path.name.lower())
        if kind is None:
            return path, depth + 1, inside
        note = FolderNote(kind, self._rel(path))
        self.listing.folders.append(note)
        return path, depth + 1, [*inside, note]

    def _file(self, entry: os.DirEntry[str], path: Path, inside: list[FolderNote]) -> None:
        info = entry.stat(follow_symlinks=False)
        size = info.st_size
        for note in inside:
            note.files += 1
            note.bytes += size
        if any(note.category in NOT_PARSED for note in inside) or not is_log_name(entry.name):
            self.listing.other_files += 1
            self.listing.other_bytes += size
            return
        self.listing.candidates.append(FoundFile(self._rel(path), self.run_root, size, info.st_dev, info.st_ino))


def list_side(side: Side, run_root: Path, cancel: CancelToken = NEVER_CANCELLED) -> SideListing:
    """Walk one side (the two sides never overlap: sides.py refuses that)."""
    listing = SideListing(side)
    _Walker(listing, run_root, cancel).walk()
    listing.candidates.sort(key=lambda f: f.relpath)
    listing.folders.sort(key=lambda f: (CATEGORIES.index(f.category), f.relpath))
    return listing
