"""Blank files and the JSON/pbtxt dialect are told from the head of the bytes, exactly as stripping told them."""

from __future__ import annotations

import random

import pytest

from autofuse_studio.core.errors import GraphParseError
from autofuse_studio.core.ge.load import _BOMS, _after_blanks, detect_dialect, parse_document

# ASCII whitespace, whitespace bytes.strip() keeps (NBSP, NEL, NUL) and the starts of both dialects.
PIECES = [b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c", b"\xa0", b"\x85", b"\x00", *_BOMS,
          b"{", b"[", b'"', b"-", b"7", b"graph {", b"# comment", b"op", b"\xef\xbb"]


def stripped_dialect(data: bytes) -> str:
    """The former rule: strip, drop each byte-order mark in turn (stripping again), look at the first byte."""
    head = data.lstrip()
    for bom in _BOMS:
        if head.startswith(bom):
            head = head[len(bom):].lstrip()
    first = head[:1]
    return "json" if first in (b"{", b"[", b'"', b"-") or first.isdigit() else "pbtxt"


@pytest.mark.parametrize("seed", range(40))
def test_dialect_and_blankness_match_the_stripping_rule(seed: int) -> None:
    chooser = random.Random(seed)
    for _ in range(200):
        data = b"".join(chooser.choice(PIECES) for _ in range(chooser.randint(0, 8)))
        assert detect_dialect(data) == stripped_dialect(data), data
        assert (_after_blanks(data) == len(data)) == (not data.strip()), data


def test_a_blank_file_is_named_as_empty() -> None:
    with pytest.raises(GraphParseError, match="empty"):
        parse_document(b" \n\t\x0b\x0c\r\n" * 1000, "blank.json")
    assert parse_document(b'  \n {"graph": []}', "ok.json") is not None
