"""Markdown pieces that stay literal whatever a log puts in a name or a line (backticks, pipes, HTML)."""

from __future__ import annotations

import re

_RUNS = re.compile(r"`+")


def code(text: str) -> str:
    """`text` as an inline code span: a fence longer than any backtick run inside, so nothing is rendered."""
    longest = max((len(m.group()) for m in _RUNS.finditer(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text: str) -> str:
    """Text for a table cell: pipes escaped (GFM splits cells on them even inside code), no newlines."""
    return text.replace("|", "\\|").replace("\n", " ")


_ACTIVE = re.compile(r"[\\`*\[\]<>~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def plain(text: str) -> str:
    """Free text with Markdown's active characters escaped: no link, emphasis or HTML can come out of it.

    Parentheses, `#` and `!` are harmless once brackets and line starts are ours; intraword `_` never emphasises.
    """
    return _ACTIVE.sub(lambda match: "\\" + match.group(), text)


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A GFM table's lines; cells are escaped here."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines
