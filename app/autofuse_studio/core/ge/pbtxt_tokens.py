"""Protobuf text tokens in bounded batches: whole lines per regex call, over-long lines lazily; error positions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

# One token per match: a string, a number-ish word, an identifier or any single other character.
# Whitespace and '#' comments are skipped by the leading part, possessively: a backtracking repeat there
# kept ~120 bytes of regex state per blank character (20 MB of blanks cost 2.4 GB). The unrolled string
# pattern keeps big escaped blobs (kernel binaries in `bt`) fast. No token spans a newline. The empty
# match at the end means the pattern never fails, so findall never retries (and rescans blanks) at every
# position of trailing blank space; the '' tokens it gives at the end are dropped.
TOKEN = re.compile(
    r"""\s*+(?:\#[^\n]*\s*+)*+(
        "[^"\\\n]*(?:\\.[^"\\\n]*)*"
      | '[^'\\\n]*(?:\\.[^'\\\n]*)*'
      | [-+]?\.?[0-9][\w.+-]*
      | [A-Za-z_]\w*
      | \S
      | \Z)""",
    re.VERBOSE,
)
# Characters tokenised per findall call (extended to the end of the line): a batch holds about 60k tokens.
CHUNK_CHARS = 1 << 18
# A line longer than this is tokenised lazily, BATCH_TOKENS at a time, so it never becomes one huge list.
LONG_LINE_CHARS = 4 * CHUNK_CHARS
BATCH_TOKENS = 1 << 15

Batch = tuple[int, list[str]]  # where tokenising started, and the tokens


def _lazy_line(text: str, start: int, end: int) -> Iterator[Batch]:
    """Tokens of text[start:end] in batches of BATCH_TOKENS, each with the offset its tokenising starts at."""
    stream = TOKEN.finditer(text, start, end)
    while batch := list(islice(stream, BATCH_TOKENS)):
        tokens = [match.group(1) for match in batch]
        while tokens and not tokens[-1]:
            tokens.pop()
        yield start, tokens
        start = batch[-1].end()


def _findall(text: str, start: int, end: int) -> list[str]:
    tokens = TOKEN.findall(text, start, end)
    while tokens and not tokens[-1]:
        tokens.pop()
    return tokens


def token_batches(text: str) -> Iterator[Batch]:
    """Every token of `text`, in order, as (offset, tokens) batches of bounded size."""
    findall, size, pos = _findall, len(text), 0
    while pos < size:
        end = text.find("\n", pos + CHUNK_CHARS) + 1 or size
        if end - pos <= LONG_LINE_CHARS:
            yield pos, findall(text, pos, end)
            pos = end
            continue
        line_start = text.rfind("\n", pos, pos + CHUNK_CHARS) + 1
        if line_start > pos:  # whole lines first; the long one is looked at again from its start
            yield pos, findall(text, pos, line_start)
            pos = line_start
            continue
        yield from _lazy_line(text, pos, end)
        pos = end


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset (the end of the text is a valid offset)."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def token_offset(text: str, start: int, index: int) -> int:
    """Offset of token `index` of the batch whose tokenising started at `start`; the text's end if none."""
    for i, match in enumerate(TOKEN.finditer(text, start)):
        if i == index and match.group(1):
            return match.start(1)
    return len(text)
