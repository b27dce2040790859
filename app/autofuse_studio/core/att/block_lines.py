"""The marked lines of a block of log bytes, with the hot [PROF] value line read straight from those bytes.

Noise lines are skipped in C by one regex over the block (measured: a bytes.find pass per marker costs
more, as noise often holds many partial matches). When a line's first marker is a [PROF], its operator tag is found
with two rfind calls and the value is matched from there on the block itself: no slice, no decode.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from autofuse_studio.core.att.lines import OBJECTIVE_BODY, PROF_TAG, VALUE_BODY, case_key
from autofuse_studio.core.att.model import CaseKey

MARKERS = (b"[PROF]", b"[PERF]", b"[DFX]", b"[ATT][FINAL_TILING", b"The value of graph")
# What \s means to a str pattern on ASCII text (a bytes pattern's \s lacks \x1c-\x1f), less the newline:
# a match in the block must never run past the end of a line, which the text grammar never sees.
_SPACE, _NOT_SPACE = rb"[\t\x0b\x0c\r\x1c- ]", rb"[^\t-\r\x1c- ]"


def ascii_twin(pattern: str) -> bytes:
    """A bytes pattern matching one ASCII line exactly as the str `pattern` does (\\s and \\S spelled out)."""
    if not pattern.isascii() or "[^\\s" in pattern or "\\\\" in pattern:
        raise ValueError("only ASCII patterns whose \\s and \\S stand outside character classes have a twin")
    return pattern.encode().replace(rb"\s", _SPACE).replace(rb"\S", _NOT_SPACE)


# The markers that start with "[" in one regex, with the rest of their line: its literal prefix "["
# lets sre skip noise in C, and the match ends at the end of the line, so each marked line is
# reported once, at its first marker.
_BRACKET_MARKERS = re.compile(
    b"\\[(?:" + b"|".join(re.escape(m[1:]) for m in MARKERS if m.startswith(b"[")) + b")[^\\n]*")
_OTHER_MARKERS = tuple(m for m in MARKERS if not m.startswith(b"["))
# `[op] [PROF]The value of <name> is <num> in <label>` (groups 1-7) or `[op] [PROF]The objective value
# of the tiling data is <num> in <label>` (groups 1, 8-12), matched at the op tag's "[" (prof_record_at).
HOT_RECORD = re.compile(ascii_twin(PROF_TAG + "(?:" + VALUE_BODY + "|" + OBJECTIVE_BODY + ")"))
VALUE_GROUPS, OBJECTIVE_GROUPS = 7, 12  # lastindex of a HOT_RECORD match of either kind


def marked_events(block: bytes) -> list[tuple[int, int, int]]:
    """(start, end, marker) of each line of `block` holding a marker, in order (end excludes '\\n').

    `marker` is the offset of the line's first bracket marker, -1 for a line holding only a marker
    without a bracket. A list built in one comprehension: a generator per line cost as much as the
    regex search itself.
    """
    rfind = block.rfind
    lines = [(rfind(b"\n", 0, m.start()) + 1, m.end(), m.start()) for m in _BRACKET_MARKERS.finditer(block)]
    extra = [(start, end, -1) for start, end in dict(_other_marked_lines(block)).items()
             if not _has_line(lines, start)]
    if extra:
        lines += extra
        lines.sort()  # two sorted runs: timsort merges them in linear time
    return lines


def _has_line(lines: list[tuple[int, int, int]], start: int) -> bool:
    """True when the sorted `lines` already hold the line starting at `start`."""
    index = bisect_left(lines, (start,))
    return index < len(lines) and lines[index][0] == start


def marked_lines(block: bytes) -> list[tuple[int, int]]:
    """(start, end) offsets of the lines of `block` that contain any marker, in order (end excludes '\\n')."""
    return [(start, end) for start, end, _ in marked_events(block)]


def prof_record_at(block: bytes, start: int, end: int, marker: int) -> re.Match[bytes] | None:
    """The value or objective record of the [PROF] at `marker` (the line's first marker), matched from its op tag.

    The tag is the last `[...]` before the marker; the match fails (None) when that is no tag followed
    by spaces and this [PROF], or when no record follows. No other [PROF] precedes in the line and a
    later one's tag starts after this marker, so a value matched here is the text grammar's leftmost
    one (an objective is that only when no later [PROF] could hold a value: the caller checks).
    """
    close = block.rfind(b"]", start, marker)
    opening = block.rfind(b"[", start, close) if close > start else -1
    return HOT_RECORD.match(block, opening, end) if opening >= 0 else None


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


class AsciiNames:
    """bytes -> str and label -> CaseKey for hot lines: each operator, value name and label repeats often."""

    def __init__(self) -> None:
        self._names: dict[bytes, str] = {}
        self._keys: dict[tuple[bytes, ...], CaseKey] = {}

    def name(self, raw: bytes) -> str:
        """The ASCII `raw` as text."""
        text = self._names.get(raw)
        if text is None:
            if len(self._names) > 100_000:  # a hostile log with ever new names must not grow the cache
                self._names.clear()
            text = self._names[raw] = raw.decode("ascii")
        return text

    def key(self, groups: tuple[bytes, ...]) -> CaseKey:
        """The CaseKey of the four id groups of a label (IdTooLong beyond MAX_ID_DIGITS, as for text)."""
        key = self._keys.get(groups)
        if key is None:
            if len(self._keys) > 100_000:
                self._keys.clear()
            key = self._keys[groups] = case_key(tuple(g.decode("ascii") for g in groups))
        return key
