"""Reads every log candidate of a side once: binary files are recognised by a sniff, the rest are scanned.

A file is an ATT log when its single scan finds ATT records ([PROF], [PERF], [DFX], FINAL_TILING); the
same scan then feeds the summary, the comparison and the evidence (nothing is parsed twice).
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO

from autofuse_studio.core.att.model import FileScan
from autofuse_studio.core.att.runs.discovery import FoundFile, SideListing
from autofuse_studio.core.att.safe_open import open_regular
from autofuse_studio.core.att.scanner import MARKERS, scan_file
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

SNIFF_BYTES = 64 * 1024
# Text files without ATT lines and binary files listed by name per side (report.md, summary.xlsx, the Runs
# view); the rest are counted. 200k empty files held ~3 KB each in rows of the report and the workbook.
MAX_LISTED = 1000


@dataclass
class SideLog:
    """An ATT log of a side and its scan."""

    file: FoundFile
    scan: FileScan


@dataclass
class SideScan:
    """What reading a side's candidates gave: ATT logs, text files without ATT lines, binary files, problems."""

    listing: SideListing
    logs: list[SideLog] = field(default_factory=list)
    plain: list[FoundFile] = field(default_factory=list)  # the first MAX_LISTED; all are counted below
    binary: list[FoundFile] = field(default_factory=list)  # the first MAX_LISTED
    failures: list[str] = field(default_factory=list)  # sentences naming the file
    warnings: list[str] = field(default_factory=list)  # sentences naming file:line (bad bytes, huge numbers)
    plain_count: int = 0
    plain_bytes: int = 0
    binary_count: int = 0
    binary_bytes: int = 0

    def add_plain(self, found: FoundFile) -> None:
        """A text file without ATT lines: counted, listed while fewer than MAX_LISTED are."""
        self.plain_count += 1
        self.plain_bytes += found.size
        if len(self.plain) < MAX_LISTED:
            self.plain.append(found)

    def add_binary(self, found: FoundFile) -> None:
        """A binary file: counted, listed while fewer than MAX_LISTED are."""
        self.binary_count += 1
        self.binary_bytes += found.size
        if len(self.binary) < MAX_LISTED:
            self.binary.append(found)

    @property
    def scans(self) -> list[FileScan]:
        """The scans of the ATT logs, in path order."""
        return [log.scan for log in self.logs]

    @property
    def log_bytes(self) -> int:
        """Bytes of the ATT logs as stored (compressed for .gz)."""
        return sum(log.file.size for log in self.logs)


class ReadProgress:
    """Progress in bytes over every candidate of both sides (a .gz file moves the bar when it is done)."""

    def __init__(self, total: int, progress: Progress = no_progress) -> None:
        self.total = max(total, 1)
        self.done = 0
        self._file_start = 0
        self._progress = progress
        self.message = ""

    def start(self, found: FoundFile) -> None:
        """A file begins."""
        self._file_start = self.done
        self.message = f"Reading {found.relpath}"
        self._progress(self.done, self.total, self.message)

    def block(self, count: int) -> None:
        """`count` bytes of a plain file were read."""
        self.done += count
        self._progress(self.done, self.total, self.message)

    def finish(self, found: FoundFile) -> None:
        """A file is done, whatever was counted for it."""
        self.done = self._file_start + found.size
        self._progress(self.done, self.total, self.message)


def is_binary(found: FoundFile) -> bool:
    """True when the first 64 KB (decompressed for .gz) hold a NUL byte: not log text."""
    path = found.path
    with open_regular(path, found.pin, what="log ") as raw:
        return b"\x00" in _head(raw, path.name)


def _head(raw: BinaryIO, name: str) -> bytes:
    """The first SNIFF_BYTES of an opened file (decompressed for .gz); the file is left open at its start."""
    if name.endswith(".gz"):
        with gzip.GzipFile(fileobj=raw, mode="rb") as stream:  # leaves `raw` open
            head = stream.read(SNIFF_BYTES)
    else:
        head = raw.read(SNIFF_BYTES)
    raw.seek(0)
    return head


def has_att_records(scan: FileScan) -> bool:
    """True when a scan found anything ATT (an operator's records, FINAL_TILING records or [DFX] markers)."""
    return bool(any(op.prof_lines or op.perf_entries or op.result_perfs for op in scan.operators.values())
                or scan.final_records or scan.final_summaries or scan.dfx_markers)


def _warnings(found: FoundFile, scan: FileScan) -> list[str]:
    """The scan's warnings (bad bytes, over-long lines, unusable numbers), naming the file relative to the root."""
    notes = []
    if scan.decode_issue_count:
        first = scan.decode_issues[0].source.line
        notes.append(f"{found.relpath}:{first}: {scan.decode_issue_count} line(s) with invalid UTF-8 were read with "
                     "replacement characters.")
    absolute = f"{scan.path}:"
    notes += [found.relpath + warning[len(scan.path):] if warning.startswith(absolute) else warning
              for warning in scan.warnings]
    if scan.warning_count > len(scan.warnings):
        notes.append(f"{found.relpath}: {scan.warning_count - len(scan.warnings)} more warning(s) like these.")
    return notes


_NO_MARKER = FileScan("")  # _read's answer for a small text file without any ATT marker


def scan_side(listing: SideListing, progress: ReadProgress | None = None,
              cancel: CancelToken = NEVER_CANCELLED) -> SideScan:
    """Sniff and scan each candidate; a file that cannot be read is a sentence in `failures`, the rest goes on."""
    result = SideScan(listing)
    counter = progress or ReadProgress(sum(f.size for f in listing.candidates))
    for found in listing.candidates:
        cancel.check()
        counter.start(found)
        scan = _read(found, result, None if found.relpath.endswith(".gz") else counter.block, cancel)
        counter.finish(found)
        if scan is None:
            continue
        if scan is _NO_MARKER:
            result.add_plain(found)
            continue
        if has_att_records(scan):
            result.logs.append(SideLog(found, scan))
            result.warnings += _warnings(found, scan)
        else:
            result.add_plain(found)
    return result


def _read(found: FoundFile, result: SideScan, on_block: Callable[[int], None] | None,
          cancel: CancelToken) -> FileScan | None:
    """The scan of a text file; None (noted in `result`) for binary and unreadable files.

    The file is opened once, as the file that was listed (see safe_open): sniffed, then scanned from the
    same descriptor, so a file swapped for a link, a pipe or another file is refused, never read.
    """
    path = found.path
    try:
        with open_regular(path, found.pin, what="log ") as raw:
            head = _head(raw, path.name)
            if b"\x00" in head:
                result.add_binary(found)
                return None
            if len(head) < SNIFF_BYTES and not any(marker in head for marker in MARKERS):
                return _NO_MARKER  # the whole (small) file has no ATT line: nothing to scan
            return scan_file(path, cancel, on_block, pin=found.pin, raw=raw)
    except InputError as exc:
        result.failures.append(f"'{found.relpath}' could not be read: {_reason(exc)}")
    except (OSError, EOFError, zlib.error) as exc:  # the sniff reads outside scan_file's own guard
        result.failures.append(f"'{found.relpath}' could not be read: {str(exc).rstrip('.') or type(exc).__name__}.")
    return None


def _reason(exc: InputError) -> str:
    """The scanner's sentence without its own path (the relative path is named instead)."""
    text = str(exc)
    marker = "': "
    return text.split(marker, 1)[1] if marker in text else text
