"""Is a dropped path an ATT log (or a folder of them)? So a drop anywhere opens it in the right tab."""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterable
from pathlib import Path

from autofuse_studio.core.att.safe_open import open_regular
from autofuse_studio.core.att.scanner import MARKERS
from autofuse_studio.core.errors import InputError

LOG_SUFFIXES = (".log", ".log.gz")
SNIFF_BYTES = 256 * 1024
# What a precision case folder holds; a folder with any of these is left to role detection.
_CASE_SUFFIXES = (".npy", ".json", ".pbtxt", ".afcase")
# Documents and pictures are never logs, whatever they mention (a README quoting "[PERF]").
_NOT_LOG_SUFFIXES = (".md", ".markdown", ".rst", ".html", ".htm", ".pdf", ".png", ".jpg", ".jpeg", ".gif",
                     ".svg", ".bmp", ".webp", ".csv", ".xlsx", ".py", ".afcase")
_MAX_ENTRIES = 5000
# Files named like NPU dump files (raw dumps, statistics CSVs) whose first bytes are read, at most, per folder test.
_MAX_DUMP_SNIFFS = 16


def _head(path: Path) -> bytes:
    """The first bytes of a regular file (a FIFO swapped in is refused, never waited on); b"" if unreadable."""
    try:
        with open_regular(path) as raw:
            if path.name.endswith(".gz"):
                with gzip.GzipFile(fileobj=raw, mode="rb") as stream:
                    return stream.read(SNIFF_BYTES)
            return raw.read(SNIFF_BYTES)
    except (OSError, EOFError, zlib.error, InputError):
        return b""


def _slog_line(line: bytes) -> bool:
    """A line as slog writes it: an ATT marker at its start, or after a bracketed prefix ([INFO] …, [Add] …)."""
    text = line.lstrip()
    if not text.startswith(b"["):
        return any(text.startswith(marker) for marker in MARKERS)
    return any(marker in text for marker in MARKERS)


def is_att_log_file(path: str | Path) -> bool:
    """A *.log / *.log.gz file, or another text file whose first lines include slog lines with an ATT marker.

    A document (README.md, notes) that merely mentions "[PERF]" inside prose or a table is not one, nor is a
    picture or a case file.
    """
    file = Path(path)
    if not file.is_file():
        return False
    name = file.name.lower()
    if name.endswith(LOG_SUFFIXES):
        return True
    if name.endswith(_CASE_SUFFIXES) or name.endswith(_NOT_LOG_SUFFIXES):
        return False
    head = _head(file)
    if b"\0" in head[:4096]:
        return False  # binary
    return any(marker in head for marker in MARKERS) and any(_slog_line(line) for line in head.splitlines())


def _dump_name(name: str) -> bool:
    """Named like a raw (or nano) dump file or a statistics CSV as the NPU writes them."""
    from autofuse_studio.core.dumps.names import parse_dump_name

    stats = name.lower().endswith(".csv")
    return parse_dump_name(name[: -len(".csv")] if stats else name) is not None


def _dump_content(entry: os.DirEntry[str]) -> bool:
    """A file named like a dump file (see _dump_name) that is one by its first bytes."""
    from autofuse_studio.core.dumps.sniff import NANO, RAW, STATS_CSV, sniff_file

    kinds = (STATS_CSV,) if entry.name.lower().endswith(".csv") else (RAW, NANO)
    return sniff_file(entry.path) in kinds


def is_att_log_folder(path: str | Path) -> bool:
    """A folder holding *.log files and nothing of a precision case (NPYs, dump files, graphs), within 5000 entries.

    Raw dump files and statistics CSVs (named `{type}.{name}.{task}.{stream}.{timestamp}[.csv]`) are told by
    their first bytes, for at most 16 files per test: a dump folder answers at its first one.
    """
    root = Path(path)
    if not root.is_dir():
        return False
    logs = seen = sniffs = 0
    # Entries are looked at as the folder listing yields them, not after: a dump folder of 100k NPYs
    # answers at its first NPY, where os.walk listed all of it first (0.07 s per dump tree on a drop).
    folders = [str(root)]
    while folders:
        try:
            with os.scandir(folders.pop()) as entries:
                for entry in entries:
                    seen += 1  # folders count too: a drop of a tree of empty folders must end soon as well
                    if seen > _MAX_ENTRIES:
                        return logs > 0
                    try:
                        if entry.is_dir():  # a link to a folder is not a file, and is not followed
                            if not entry.is_symlink():
                                folders.append(entry.path)
                            continue
                    except OSError:
                        continue
                    lowered = entry.name.lower()
                    if lowered.endswith(_CASE_SUFFIXES) or lowered.startswith("ge_proto"):
                        return False
                    if lowered.endswith(LOG_SUFFIXES):
                        logs += 1
                    elif sniffs < _MAX_DUMP_SNIFFS and lowered.count(".") >= 3 and _dump_name(entry.name):
                        sniffs += 1
                        if _dump_content(entry):
                            return False
        except OSError:
            continue  # an unreadable folder holds nothing that counts, as os.walk skipped it
    return logs > 0


def split_att_logs(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """(ATT logs and log folders, everything else) of dropped or given paths, in their order."""
    att: list[str] = []
    rest: list[str] = []
    for path in paths:
        (att if is_att_log_file(path) or is_att_log_folder(path) else rest).append(path)
    return att, rest
