"""Reads every log candidate of a side once: binary files are recognised by a sniff, the rest are scanned.

A file is an ATT log when its single scan finds ATT records ([PROF], [PERF], [DFX], FINAL_TILING); the
same scan then feeds the summary, the comparison and the evidence (nothing is parsed twice).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from autofuse_studio.core.att.model import FileScan
from autofuse_studio.core.att.runs.discovery import FoundFile, SideListing
from autofuse_studio.core.att.scanner import open_log, scan_file
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

SNIFF_BYTES = 64 * 1024


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
    plain: list[FoundFile] = field(default_factory=list)
    binary: list[FoundFile] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # sentences naming the file
    warnings: list[str] = field(default_factory=list)  # sentences naming file:line (bad bytes, huge numbers)

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
    with open_log(found.path) as handle:
        return b"\x00" in handle.read(SNIFF_BYTES)


def has_att_records(scan: FileScan) -> bool:
    """True when a scan found anything ATT (an operator's records, FINAL_TILING records or [DFX] markers)."""
    return bool(any(op.prof_lines or op.perf_nodes or op.result_perfs for op in scan.operators.values())
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


def scan_side(listing: SideListing, progress: ReadProgress | None = None,
              cancel: CancelToken = NEVER_CANCELLED) -> SideScan:
    """Sniff and scan each candidate; a file that cannot be read is a sentence in `failures`, the rest goes on."""
    result = SideScan(listing)
    counter = progress or ReadProgress(sum(f.size for f in listing.candidates))
    for found in listing.candidates:
        cancel.check()
        counter.start(found)
        scan = _read(found, result, None if found.path.name.endswith(".gz") else counter.block, cancel)
        counter.finish(found)
        if scan is None:
            continue
        if has_att_records(scan):
            result.logs.append(SideLog(found, scan))
            result.warnings += _warnings(found, scan)
        else:
            result.plain.append(found)
    return result


def _read(found: FoundFile, result: SideScan, on_block: Callable[[int], None] | None,
          cancel: CancelToken) -> FileScan | None:
    """The scan of a text file; None (noted in `result`) for binary and unreadable files."""
    try:
        if is_binary(found):
            result.binary.append(found)
            return None
        return scan_file(found.path, cancel, on_block)
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
