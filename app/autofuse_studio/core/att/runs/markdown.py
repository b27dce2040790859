"""Markdown pieces that stay literal whatever a log puts in a name or a line (backticks, pipes, HTML, CR/LF).

A name or line from a log is either a code span (`code`) or escaped free text (`plain`); table cells escape
pipes on top (`cell`). Control characters, CR and LF first become visible escapes (`\\x0d`, `\\x0a`): a CR
or LF would end the line, and a blank line the paragraph, letting what follows out of its code span as raw
HTML (`x\\n\\n<img onerror=...>.log`).
"""

from __future__ import annotations

import re

from autofuse_studio.core.printable import escape_controls

_RUNS = re.compile(r"`+")
# Active anywhere in a line: escapes, code, emphasis, links and images, HTML and autolinks, entities,
# strikethrough; `_` only where it can open or close emphasis (intraword `_` never does).
_ACTIVE = re.compile(r"[\\`*\[\]<>~&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
# GFM's extended autolinks (`www.`, `scheme://`) break up around an escaped character.
_AUTOLINK = re.compile(r"(?i)(?<=www)\.|:(?=//)")
# Active at the start of a list item's or paragraph's text: headings, list markers, setext underlines.
_BLOCK_START = re.compile(r"[#+=-]|\d{1,9}(?=[.)])")
_LEADING_SPACES = re.compile(r"^ +")


def literal(text: str) -> str:
    """`text` on one line: control characters (CR, LF and TAB included) and bidi controls as `\\x0d` escapes."""
    return escape_controls(text)


def code(text: str) -> str:
    """`text` as an inline code span: a fence longer than any backtick run inside, so nothing is rendered."""
    text = literal(text)
    longest = max((len(m.group()) for m in _RUNS.finditer(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text: str) -> str:
    """Text for a table cell: one line, pipes escaped (GFM splits cells on them even inside code spans)."""
    return literal(text).replace("|", "\\|")


def plain(text: str) -> str:
    """Free text with Markdown's and HTML's active characters escaped: no link, emphasis or HTML comes out of it.

    Parentheses and `!` are harmless once brackets are escaped; `#`, `-`, `+`, `=` and `1.` only act at the
    start, where they are escaped too, and leading spaces (an indented code block) become `&#32;`.
    """
    escaped = _ACTIVE.sub(lambda match: "\\" + match.group(), literal(text))
    escaped = _AUTOLINK.sub(lambda match: "\\" + match.group(), escaped)
    start = _BLOCK_START.match(escaped)
    if start is not None:
        end = start.end()
        escaped = "\\" + escaped if start.group() in "#+=-" else escaped[:end] + "\\" + escaped[end:]
    return _LEADING_SPACES.sub(lambda match: "&#32;" * len(match.group()), escaped)


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A GFM table's lines; cells are escaped here."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines
