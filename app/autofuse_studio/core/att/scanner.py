"""One streaming pass over ATT logs (files, folders, .gz) producing a LogScan.

Logs are read in blocks of about 64 KB of whole lines; the marked lines of a block are located and
counted by the small C module _linescan (memchr, GIL released), which also stores the plain [PROF] records
itself, or, when it is not built or AUTOFUSE_STUDIO_NO_NATIVE=1, by one bytes regex plus one bytes.find
(noise lines are never split, decoded or looked at from Python); only lines holding a marker reach the
line grammars.
Memory depends on the number of records, not on the size of the logs.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import logging
import os
import re
import stat
import zlib
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO, cast

from autofuse_studio.core.att.final_frames import FinalTilingCollector
from autofuse_studio.core.att.lines import (
    MAX_PERF_TERMS,
    UnreadableNumber,
    case_key,
    parse_dfx,
    parse_prof,
    parse_prof_value,
    scan_perf,
)
from autofuse_studio.core.att.model import (
    BestResult,
    DecodeIssue,
    FileScan,
    LogScan,
    Objective,
    OperatorLog,
    ResultPerf,
    SourceRef,
    TemplateSelection,
    TilingValue,
)
from autofuse_studio.core.att.safe_open import FileId, Pin, open_regular, os_reason
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.native_switch import NATIVE_DISABLE_ENV as NATIVE_DISABLE_ENV  # the tests set it by this name
from autofuse_studio.core.native_switch import load_extension, native_disabled
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

log = logging.getLogger(__name__)

# Each block is passed over several times in C (UTF-8 check, marker search, newline counts), so it should
# stay in a core's cache between those passes. 64 KB rather than 1 MB: each block is a fresh bytes object
# (a read plus the rest of its last line), and blocks of 1 MB made malloc hand memory back to the system and
# fault it in again, block after block (35k page faults for a 131 MB log, 13k at 64 KB; 10-15% of a summary).
BLOCK_SIZE = 1 << 16
# A .gz stream is decompressed by Python code on every read call: fewer, larger reads cost less there.
GZ_BLOCKS_PER_READ = 16
# What one line may hold: the rest of a longer line is skipped with a warning (file:line), so memory stays a
# few MB whatever the log holds (one 1 GB line in a .gz used 2.3 GB).
MAX_LINE_BYTES = 1 << 20
MARKERS = (b"[PROF]", b"[PERF]", b"[DFX]", b"[ATT][FINAL_TILING", b"The value of graph")
MAX_LISTED_DECODE_ISSUES = 100
MAX_LISTED_NOTES = 20  # links out of a folder named one by one; the rest are counted
# The markers that start with "[" in one regex, with the rest of their line: its literal prefix "["
# lets sre skip noise in C, which costs far less than one bytes.find pass over the block per marker,
# and the match ends at the end of the line, so no further match in that line is reported.
_BRACKET_MARKERS = re.compile(
    b"\\[(?:" + b"|".join(re.escape(m[1:]) for m in MARKERS if m.startswith(b"[")) + b")[^\\n]*")
_OTHER_MARKERS = tuple(m for m in MARKERS if not m.startswith(b"["))


_LINESCAN = load_extension("autofuse_studio.core.att._linescan", "using the regex path", log)


def native_scanner() -> ModuleType | None:
    """The C line scanner when it is built and not disabled by AUTOFUSE_STUDIO_NO_NATIVE=1, else None."""
    return None if native_disabled() else _LINESCAN


@dataclass
class LogDiscovery:
    """The logs found under a path, the pin of each (see safe_open), and sentences about what was left out."""

    paths: list[Path] = field(default_factory=list)
    pins: dict[Path, Pin] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def discover_logs(path: str | Path) -> LogDiscovery:
    """A file as is, or every `*.log` / `*.log.gz` under a folder (recursive, sorted).

    In a folder, links are followed only to files inside it: a link that leads out (to /etc/passwd,
    /proc/self/mem, another user's logs) is named in `notes` and not read; links to folders are not
    entered, and pipes or devices named `*.log` are left out. Each file found is pinned, so reading it
    later refuses anything swapped in meanwhile.
    """
    root = Path(path)
    if root.is_file():
        return LogDiscovery([root])
    if not root.exists():
        raise InputError.of("att_path_not_found", path=root)
    if not root.is_dir():
        raise InputError.of("att_path_not_file_or_folder", path=root)
    found = LogDiscovery()
    real_root = root.resolve()
    for folder, dirs, files in os.walk(root):  # never enters linked folders (followlinks=False)
        dirs.sort()
        for name in files:
            if name.endswith((".log", ".log.gz")):
                _discover_file(Path(folder) / name, real_root, root, found)
    found.paths.sort()
    if len(found.notes) > MAX_LISTED_NOTES:
        more = len(found.notes) - MAX_LISTED_NOTES
        found.notes[MAX_LISTED_NOTES:] = [f"... and {more} more link(s) out of '{root}', not read either."]
    return found


def _discover_file(candidate: Path, real_root: Path, root: Path, found: LogDiscovery) -> None:
    try:
        info = candidate.lstat()
        link = stat.S_ISLNK(info.st_mode)
        if link:
            target = candidate.resolve()
            if target != real_root and real_root not in target.parents:
                found.notes.append(f"'{candidate}' is a symbolic link to '{os.readlink(candidate)}', outside "
                                   f"'{root}'; links out of the folder are not followed, so it was not read.")
                return
            info = target.stat()
    except (OSError, RuntimeError):  # vanished, unreadable, or a link loop
        return
    if stat.S_ISREG(info.st_mode):
        found.paths.append(candidate)
        found.pins[candidate] = Pin(FileId.of(info), link=link)


def find_logs(path: str | Path) -> list[Path]:
    """A file as is, or every `*.log` / `*.log.gz` under a folder (recursive, sorted; see discover_logs)."""
    return discover_logs(path).paths


def open_log(path: Path, pin: Pin | None = None) -> BinaryIO:
    """Open a log for binary reading, transparently un-gzipping `.gz` files; a regular file only (safe_open)."""
    raw = open_regular(path, pin, what="log ")
    if not path.name.endswith(".gz"):
        return raw
    return cast(BinaryIO, _ClosingGzip(raw))


class _ClosingGzip(gzip.GzipFile):
    """A GzipFile over an opened file that closes that file too."""

    def __init__(self, raw: BinaryIO) -> None:
        super().__init__(fileobj=raw, mode="rb")
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


class _Hashing:
    """Reads a binary file and feeds every byte read to a hash (the file hashed is the one scanned)."""

    def __init__(self, raw: BinaryIO, digest: Any) -> None:
        self.raw, self.digest, self.size = raw, digest, 0
        self.mode, self.name = "rb", getattr(raw, "name", "")

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.digest.update(data)
        self.size += len(data)
        return data

    def readline(self, size: int = -1) -> bytes:
        data = self.raw.readline(size)
        self.digest.update(data)
        self.size += len(data)
        return data

    def drain(self) -> None:
        """Hash the rest of the file (a gzip stream may end before its file does)."""
        while self.read(BLOCK_SIZE):
            pass


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return os_reason(exc)
    return str(exc).rstrip(".") or type(exc).__name__


def iter_blocks(path: Path, on_cut: Callable[[int], None] | None = None, pin: Pin | None = None,
                raw: BinaryIO | None = None, digest: _Hashing | None = None) -> Iterator[bytes]:
    """Yield blocks of whole lines (each ends with a newline except maybe the last).

    A line longer than MAX_LINE_BYTES keeps its first MAX_LINE_BYTES; the rest is read in bounded
    pieces and dropped, and `on_cut(length of the whole line)` is called before its block is yielded.
    The file is opened with open_log (`pin`: see safe_open), or `raw` (an opened file, left open) is read.
    With `digest` (a _Hashing over `raw`), every byte of the file is hashed on the way.
    """
    gz = path.name.endswith(".gz")
    read_size = min(BLOCK_SIZE * (GZ_BLOCKS_PER_READ if gz else 1), MAX_LINE_BYTES)
    try:
        with contextlib.ExitStack() as stack:
            if raw is None:
                handle = stack.enter_context(open_log(path, pin))
            else:
                source = cast(BinaryIO, digest if digest is not None else raw)
                handle = cast(BinaryIO, stack.enter_context(gzip.GzipFile(fileobj=source, mode="rb"))) \
                    if gz else source
            while True:
                data = handle.read(read_size)
                if not data:
                    break
                if not data.endswith(b"\n"):
                    data = _complete_last_line(handle, data, on_cut)
                yield data
            if digest is not None:
                digest.drain()
    except InputError:
        raise
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError.of("att_log_unreadable", path=path, reason=_reason(exc)) from exc


def iter_lines(path: Path, pin: Pin | None = None) -> Iterator[tuple[int, bytes, int]]:
    """(1-based number, line, 0 or the length it had before it was cut) of every line, in bounded memory.

    A line longer than MAX_LINE_BYTES keeps its first MAX_LINE_BYTES (see iter_blocks).
    """
    number = 0
    cuts: list[int] = []
    for block in iter_blocks(path, cuts.append, pin):
        lines = block.splitlines(keepends=True)
        for position, line in enumerate(lines):
            number += 1
            # Only a block's last line can have been cut: iter_blocks completes (or cuts) just that one.
            yield number, line, cuts.pop() if cuts and position == len(lines) - 1 else 0


def _complete_last_line(handle: BinaryIO, data: bytes, on_cut: Callable[[int], None] | None) -> bytes:
    """`data` with its last line read to the end, or cut at MAX_LINE_BYTES (the rest skipped)."""
    line_start = data.rfind(b"\n") + 1
    room = MAX_LINE_BYTES - (len(data) - line_start) + 1  # one more byte: the newline, or proof of a cut
    # Complete the last line in C (one copy of the block, linear even for long lines) rather than
    # carrying the tail into the next block (two copies of every block).
    rest = handle.readline(room)
    if len(rest) < room or rest.endswith(b"\n"):
        return data + rest
    skipped = 1
    while True:  # the over-long rest, a block at a time, never held whole
        piece = handle.readline(BLOCK_SIZE)
        skipped += len(piece)
        if not piece or piece.endswith(b"\n"):
            break
    if on_cut is not None:
        on_cut(MAX_LINE_BYTES + skipped - (1 if piece.endswith(b"\n") else 0))
    return data + rest[:-1] + b"\n"


def long_line_warning(path: str, line: int, length: int) -> str:
    """The warning for a line cut at MAX_LINE_BYTES."""
    return (f"{path}:{line}: the line has {length} bytes; only its first {MAX_LINE_BYTES} were read "
            "and the rest was skipped.")


def check_utf8(block: bytes, path: str, first_line: int, scan: FileScan) -> bool:
    """True when the block is valid UTF-8; otherwise its invalid lines are counted and listed."""
    if block.isascii():  # far cheaper than decoding, and the usual case
        return True
    try:
        block.decode("utf-8")
        return True
    except UnicodeDecodeError:
        pass
    for offset, raw in enumerate(block.split(b"\n")):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            scan.decode_issue_count += 1
            if len(scan.decode_issues) < MAX_LISTED_DECODE_ISSUES:
                scan.decode_issues.append(DecodeIssue(SourceRef(path, first_line + offset)))
    return False


def decode_block(block: bytes, path: str, first_line: int, scan: FileScan) -> str:
    """Decode a block as UTF-8; invalid lines are replaced, counted and listed with file:line."""
    check_utf8(block, path, first_line, scan)
    return block.decode("utf-8", errors="replace")


def marked_lines(block: bytes) -> list[tuple[int, int]]:
    """(start, end) offsets of the lines of `block` that contain any marker, in order (end excludes '\\n')."""
    rfind = block.rfind
    lines = [(rfind(b"\n", 0, m.start()) + 1, m.end()) for m in _BRACKET_MARKERS.finditer(block)]
    extra = {start: end for start, end in _other_marked_lines(block) if not _has_line(lines, start)}
    if extra:
        lines += extra.items()
        lines.sort()  # two sorted runs: timsort merges them in linear time
    return lines


def _other_marked_lines(block: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of the lines holding a marker that does not start with "[" (a line may repeat)."""
    for marker in _OTHER_MARKERS:
        pos = block.find(marker)
        while pos >= 0:
            start = block.rfind(b"\n", 0, pos) + 1
            end = block.find(b"\n", pos)
            if end < 0:
                yield start, len(block)
                break
            yield start, end
            pos = block.find(marker, end)


def _has_line(lines: list[tuple[int, int]], start: int) -> bool:
    """True when the sorted `lines` already hold the line starting at `start`."""
    index = bisect_left(lines, (start,))
    return index < len(lines) and lines[index][0] == start


class _FileScanner:
    """Turns the marked lines of one file into records of a FileScan."""

    def __init__(self, path: str, native: ModuleType | None = None) -> None:
        self.scan = FileScan(path=path)
        self.final = FinalTilingCollector()
        self._native = native
        # The C scanner's caches, per file: the CaseKey of each label text, one str per value name.
        self._labels: dict[str, object] = {}
        self._names: dict[str, str] = {}

    def feed_block(self, block: bytes, first_line: int) -> int:
        """Handle one block starting at `first_line`; returns the number of lines in it.

        Only marked lines are sliced and decoded (errors replaced; check_utf8 counted the bad ones).
        """
        if self._native is not None:
            return self._feed_native(block, first_line, self._native)
        line_no, counted_to = first_line, 0
        path = self.scan.path
        count = block.count
        for start, end in marked_lines(block):
            line_no += count(b"\n", counted_to, start)
            counted_to = start
            self._feed_marked(block[start:end].decode("utf-8", "replace").rstrip("\r"), path, line_no)
        # Newlines before counted_to were counted line by line above: only the tail is left to count.
        lines = line_no - first_line + count(b"\n", counted_to)
        return lines + (0 if block.endswith(b"\n") else 1)

    def _feed_native(self, block: bytes, first_line: int, native: ModuleType) -> int:
        """feed_block through the C scanner: it stores the plain [PROF] records (values and objectives, the bulk;
        template selections, best and schedule results) itself, with the objects and in the order _store_value /
        _store would, and hands every other marked line, decoded, to _feed_marked in line order."""
        # Made per block, not kept: bound methods kept on self would make a cycle that holds the whole scan
        # until a collection (and forever once keep_long_lived has frozen it).
        sink = (self.scan.path, self.scan.operators, self._operator, self._labels, self._names, case_key,
                self._feed_marked, TilingValue, Objective, TemplateSelection, BestResult, ResultPerf, SourceRef)
        newlines = native.store_lines(block, first_line, sink)
        return int(newlines) + (0 if block.endswith(b"\n") else 1)

    def _feed_marked(self, line: str, path: str, line_no: int) -> None:
        """Store the record of one decoded marked line (its '\r's stripped), or warn why it is skipped."""
        # tuple.__new__ builds the NamedTuple without running its Python-level __new__.
        source = tuple.__new__(SourceRef, (path, line_no))
        try:
            # The hot kind first. A value match implies "[PROF]" in the line, so without "[PERF]" this
            # is exactly the record feed_line's first branch would store, minus its dispatch.
            tried = "[PERF]" not in line
            record = parse_prof_value(line, source) if tried else None
            if record is None:
                self.feed_line(line, source, value_tried=tried)
            else:
                self._store_value(record)
        except UnreadableNumber as exc:
            self.scan.warn(f"{path}:{line_no}: {exc}; the line is skipped.")

    def feed_line(self, line: str, source: SourceRef, value_tried: bool = False) -> None:
        """Classify one marked line and store its record (`value_tried`: parse_prof_value found nothing in it)."""
        if "[PROF]" in line and "[PERF]" not in line:  # the common case first
            record = parse_prof(line, source, value_tried)
            if record is not None:
                self._store(record)
                return
        if "[ATT][FINAL_TILING" in line:
            self.final.feed(line, source)
            return
        if "[PERF]" in line:
            # Terms are built only when a command reads perf_nodes (summary never does): see scan_perf.
            node, dropped = scan_perf(line, source)
            if dropped:
                self.scan.warn(f"{source.path}:{source.line}: the [PERF] formula has {MAX_PERF_TERMS + dropped} "
                               f"terms; only the first {MAX_PERF_TERMS} are kept (all count in its total).")
            if node is not None:
                self._operator(node.operator, source).add_perf(node)
                return
        if "[DFX]" in line:
            marker = parse_dfx(line, source)
            if marker is not None:
                self.scan.dfx_markers.append(marker)
                return
        record = parse_prof(line, source)
        if record is not None:
            self._store(record)

    def _operator(self, name: str, source: SourceRef) -> OperatorLog:
        op = self.scan.operators.get(name)
        if op is None:
            op = self.scan.operators[name] = OperatorLog(name, source)
        return op

    def _store_value(self, record: TilingValue) -> None:
        """What _store does for a TilingValue (the bulk of the records), with fewer calls."""
        op = self.scan.operators.get(record.operator)
        if op is None:
            op = self._operator(record.operator, record.source)
        op.prof_lines += 1
        key = record.key
        if key not in op.first_mentions:
            op.first_mentions[key] = record.source.line
        values = op.values.get(key)
        if values is None:
            values = op.values[key] = {}
        values[record.name] = record

    def _store(self, record: TilingValue | Objective | TemplateSelection | BestResult | ResultPerf) -> None:
        if isinstance(record, TilingValue):
            self._store_value(record)
            return
        op = self._operator(record.operator, record.source)
        if isinstance(record, ResultPerf):
            op.result_perfs[(record.graph, record.result)] = record
            return
        op.prof_lines += 1
        if isinstance(record, BestResult):
            op.best_result = record
            return
        if record.key not in op.first_mentions:
            op.first_mentions[record.key] = record.source.line
        if isinstance(record, Objective):
            op.objectives[record.key] = record
        else:
            key = record.key
            op.selections[(key.graph, key.result, key.group)] = record

    def finish(self, line_count: int) -> FileScan:
        """Close the FINAL_TILING frames and return the scan."""
        self.scan.line_count = line_count
        self.scan.final_records, self.scan.final_summaries = self.final.finish()
        return self.scan


def scan_file(path: Path, cancel: CancelToken = NEVER_CANCELLED,
              on_block: Callable[[int], None] | None = None, *, pin: Pin | None = None,
              raw: BinaryIO | None = None, digest: bool = False) -> FileScan:
    """Scan one log file in a single streaming pass; `on_block` gets the byte size of each block read.

    The file is opened once (open_log, `pin`: see safe_open), or `raw` (an opened file) is read. The scan
    records the identity of what it read (FileScan.pin), so later readers open that very file, and with
    `digest` the sha256 and size of its bytes as stored (FileScan.sha256), hashed from the same descriptor.
    """
    with contextlib.ExitStack() as stack:
        if raw is None:
            raw = stack.enter_context(open_regular(path, pin, what="log "))
        return _scan_open(path, raw, pin, cancel, on_block, digest)


def _scan_open(path: Path, raw: BinaryIO, pin: Pin | None, cancel: CancelToken,
               on_block: Callable[[int], None] | None, digest: bool) -> FileScan:
    scanner = _FileScanner(str(path), native_scanner())
    hashing = _Hashing(raw, hashlib.sha256()) if digest else None
    line_no = 1
    cuts: list[int] = []
    # Every marked line leaves a few acyclic objects (record, source, key): collections during the
    # scan would only rescan them again and again.
    with gc_paused():
        for block in iter_blocks(path, cuts.append, raw=raw, digest=hashing):
            cancel.check()
            check_utf8(block, scanner.scan.path, line_no, scanner.scan)
            line_no += scanner.feed_block(block, line_no)
            if cuts:  # the block's last line was cut
                scanner.scan.warn(long_line_warning(str(path), line_no - 1, cuts.pop()))
            if on_block is not None:
                on_block(len(block))
        # The records live as long as the scan: frozen, the first collection after the pause does not
        # scan them all (70 ms at 100k records, as much as a fifth of a summary of a sparse log).
        keep_long_lived()
    scan = scanner.finish(line_no - 1)
    scan.pin = Pin(FileId.of(os.fstat(raw.fileno())), link=pin.link if pin is not None else True)
    if hashing is not None:
        scan.sha256, scan.byte_size = hashing.digest.hexdigest(), hashing.size
    if scan.decode_issue_count:
        log.warning("%s: %d line(s) with invalid UTF-8 were decoded with replacement characters",
                    path, scan.decode_issue_count)
    return scan


def scan_logs(paths: Iterable[Path], progress: Progress = no_progress,
              cancel: CancelToken = NEVER_CANCELLED) -> LogScan:
    """Scan every log in order; one FileScan per file."""
    files = list(paths)
    result = LogScan()
    for index, path in enumerate(files):
        progress(index, len(files), f"Scanning {path.name}")
        result.files.append(scan_file(path, cancel))
    progress(len(files), len(files), "Scan finished")
    return result


BlockSink = Callable[[int], None]


class ByteProgress:
    """Progress over several logs counted in bytes read, so one big log moves the bar (the GUI's 140 MB case).

    Sizes are on-disk sizes; a .gz file's progress is reported only when it has been read, because its
    blocks are decompressed bytes and would overshoot the total.
    """

    def __init__(self, paths: list[Path], progress: Progress) -> None:
        self._paths = paths
        self._sizes = [path.stat().st_size if path.is_file() else 0 for path in paths]
        self._total = max(sum(self._sizes), 1)
        self._progress = progress

    def files(self, verb: str) -> Iterator[tuple[Path, BlockSink | None]]:
        """Each path with the callback its reader calls per block read (None for .gz files)."""
        done = 0
        for path, size in zip(self._paths, self._sizes, strict=True):
            start, message = done, f"{verb} {path.name}"

            def advance(count: int, start: int = start, size: int = size, message: str = message) -> None:
                nonlocal done
                done = min(done + count, start + size)
                self._progress(done, self._total, message)

            self._progress(done, self._total, message)
            yield path, None if path.name.endswith(".gz") else advance
            done = start + size

    def finish(self, message: str) -> None:
        """Report everything done."""
        self._progress(self._total, self._total, message)


def scan_logs_by_bytes(paths: Iterable[Path], progress: Progress = no_progress,
                       cancel: CancelToken = NEVER_CANCELLED) -> LogScan:
    """Like scan_logs, but progress counts bytes (see ByteProgress)."""
    result = LogScan()
    counter = ByteProgress(list(paths), progress)
    for path, advance in counter.files("Scanning"):
        result.files.append(scan_file(path, cancel, advance))
    counter.finish("Scan finished")
    return result
