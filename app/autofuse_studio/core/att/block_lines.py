"""The marked lines of a block of log bytes, with the hot [PROF] value line read straight from those bytes.

Noise lines are skipped in C: by bytes.find for [PROF] when the block holds no other bracket marker,
else by one regex over the block. When a line's first marker is a [PROF], its operator tag is found
with two rfind calls and the value is matched from there on the block itself: no slice, no decode.
"""

from __future__ import annotations

import re
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
# A block without these is searched for [PROF] with bytes.find, which skips noise several times
# faster than sre's byte-by-byte search for "[" (whose every hit is a match attempt).
_RARE_MARKERS = tuple(m for m in MARKERS if m.startswith(b"[") and m != b"[PROF]")
_OTHER_MARKERS = tuple(m for m in MARKERS if not m.startswith(b"["))
# `[op] [PROF]The value of <name> is <num> in <label>` (groups 1-7) or `[op] [PROF]The objective value
# of the tiling data is <num> in <label>` (groups 1, 8-12), matched at the op tag's "[" (prof_record_at).
HOT_RECORD = re.compile(ascii_twin(PROF_TAG + "(?:" + VALUE_BODY + "|" + OBJECTIVE_BODY + ")"))
VALUE_GROUPS, OBJECTIVE_GROUPS = 7, 12  # lastindex of a HOT_RECORD match of either kind
_NO_LINE = (1 << 62, 0)


def marked_events(block: bytes) -> Iterator[tuple[int, int, int]]:
    """(start, end, prof) of each line of `block` holding a marker, in order (end excludes '\\n').

    `prof` is the offset of the line's first marker when that is a [PROF] and no [PERF] is in the
    line (the lines the hot value path may read), else -1.
    """
    others = iter(sorted(dict(_other_marked_lines(block)).items()))
    other_start, other_end = next(others, _NO_LINE)
    for start, end, prof in _prof_lines(block) if _only_prof(block) else _bracket_lines(block):
        while other_start <= start:  # lines found by the other markers come in order, once each
            if other_start < start:
                yield other_start, other_end, -1
            other_start, other_end = next(others, _NO_LINE)
        yield start, end, prof
    while other_start < _NO_LINE[0]:
        yield other_start, other_end, -1
        other_start, other_end = next(others, _NO_LINE)


def _only_prof(block: bytes) -> bool:
    """True when [PROF] is the only bracket marker the block may hold."""
    return not any(marker in block for marker in _RARE_MARKERS)


def _prof_lines(block: bytes) -> Iterator[tuple[int, int, int]]:
    """marked_events' bracket lines of a block whose only bracket marker is [PROF]."""
    find, rfind = block.find, block.rfind
    marker = find(b"[PROF]")
    while marker >= 0:
        end = find(b"\n", marker)
        if end < 0:
            end = len(block)
        yield rfind(b"\n", 0, marker) + 1, end, marker
        marker = find(b"[PROF]", end)


def _bracket_lines(block: bytes) -> Iterator[tuple[int, int, int]]:
    """marked_events' bracket lines of any block."""
    find, rfind = block.find, block.rfind
    for match in _BRACKET_MARKERS.finditer(block):
        marker, end = match.span()
        prof = marker if block.startswith(b"[PROF]", marker) and find(b"[PERF]", marker, end) < 0 else -1
        yield rfind(b"\n", 0, marker) + 1, end, prof


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
