"""Text safe to show: control and bidi-override characters escaped, long quotes cut to a bounded excerpt."""

from __future__ import annotations

import re

# C0 controls, DEL and C1 controls; the Arabic letter mark, LRM/RLM, the line/paragraph separators and the
# bidi embeddings, overrides and isolates, which can reorder or hide what a terminal shows.
_UNSAFE = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
_PATTERNS: dict[str, re.Pattern[str]] = {}

# What an error message quotes from a file at most (a header, a token, a value).
EXCERPT_CHARS = 80


def _pattern(keep: str) -> re.Pattern[str]:
    pattern = _PATTERNS.get(keep)
    if pattern is None:
        kept = "".join(re.escape(char) for char in keep)
        pattern = re.compile(f"(?![{kept}])[{_UNSAFE}]" if kept else f"[{_UNSAFE}]")
        _PATTERNS[keep] = pattern
    return pattern


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_controls(text: str, keep: str = "") -> str:
    """`text` with control and bidi characters shown as `\\x1b` / `\\u202e` escapes, except those in `keep`."""
    if text.isascii() and text.isprintable():  # no control character at all (names, numbers): no regex pass
        return text
    pattern = _pattern(keep)
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def excerpt(text: str | bytes, limit: int = EXCERPT_CHARS) -> str:
    """A quote of at most `limit` characters of `text` (escaped), with how much was left out."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    # repr() escapes every non-printable character, bidi controls included.
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text) - limit} more characters)"


def short_repr(value: object, limit: int = 20) -> str:
    """repr(value) cut to about `limit` characters (a long int shows its digit count instead)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"<an integer of about {int(value.bit_length() * 0.30103) + 1} digits>"
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit] + "..."
