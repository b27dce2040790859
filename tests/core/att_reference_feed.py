"""The scanner's per-line block feed, frozen: the oracle of the equivalence tests.

A copy of marked_lines + feed_block of core/att/scanner.py at df04f2b; tests swap it in for
_FileScanner.feed_block and compare every output with the current feed's.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from autofuse_studio.core.att.lines import UnreadableNumber, parse_prof_value
from autofuse_studio.core.att.model import SourceRef

MARKERS = (b"[PROF]", b"[PERF]", b"[DFX]", b"[ATT][FINAL_TILING", b"The value of graph")
_BRACKET_MARKERS = re.compile(
    b"\\[(?:" + b"|".join(re.escape(m[1:]) for m in MARKERS if m.startswith(b"[")) + b")[^\\n]*")
_OTHER_MARKERS = tuple(m for m in MARKERS if not m.startswith(b"["))


def marked_lines(block: bytes) -> list[tuple[int, int]]:
    """(start, end) offsets of the lines of `block` that contain any marker, in order."""
    rfind = block.rfind
    lines = [(rfind(b"\n", 0, m.start()) + 1, m.end()) for m in _BRACKET_MARKERS.finditer(block)]
    extra = {start: end for start, end in _other_marked_lines(block) if not _has_line(lines, start)}
    if extra:
        lines += extra.items()
        lines.sort()
    return lines


def _other_marked_lines(block: bytes) -> Iterator[tuple[int, int]]:
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
    index = bisect_left(lines, (start,))
    return index < len(lines) and lines[index][0] == start


def reference_feed_block(self, block: bytes, first_line: int, ascii_block: bool = False) -> int:  # type: ignore[no-untyped-def]
    """_FileScanner.feed_block as of df04f2b (every marked line decoded and parsed as text)."""
    line_no, counted_to = first_line, 0
    path = self.scan.path
    count = block.count
    for start, end in marked_lines(block):
        line_no += count(b"\n", counted_to, start)
        counted_to = start
        line = block[start:end].decode("utf-8", "replace").rstrip("\r")
        source = tuple.__new__(SourceRef, (path, line_no))
        try:
            record = parse_prof_value(line, source) if "[PERF]" not in line else None
            if record is None:
                self.feed_line(line, source)
            else:
                self._store_value(record)
        except UnreadableNumber as exc:
            self.scan.warn(f"{path}:{line_no}: {exc}; the line is skipped.")
    lines = line_no - first_line + count(b"\n", counted_to)
    return lines + (0 if block.endswith(b"\n") else 1)
