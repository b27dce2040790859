"""The C line scanner (_linescan.c) against the regex path's marked_lines, and the switch between them."""

from __future__ import annotations

import random

import pytest

from autofuse_studio.core.att import scanner

NATIVE = scanner._LINESCAN
pytestmark = pytest.mark.skipif(NATIVE is None, reason="the C line scanner (_linescan) is not built")

PIECES = [*scanner.MARKERS, b"[", b"[PRO", b"[PROF", b"PROF]", b"The value of grap", b"The value of",
          b"T", b"\n", b"\r\n", b"\r", b" ", b"x" * 40, b"\xff", b"\xe2\x82", "é".encode(), b"[ATT][FINAL",
          b"[Op1] ", b"]", b"\n\n"]


def _expected(block: bytes) -> tuple[list[object], int]:
    """What the regex path feeds: (newlines before, decoded text) of each marked line, and all newlines."""
    items: list[object] = []
    for start, end in scanner.marked_lines(block):
        items += [block.count(b"\n", 0, start), block[start:end].decode("utf-8", "replace").rstrip("\r")]
    return items, block.count(b"\n")


@pytest.mark.parametrize("seed", range(300))
def test_random_blocks_match_the_regex_path(seed: int) -> None:
    rng = random.Random(seed)
    block = b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 60)))
    assert NATIVE is not None
    assert tuple(NATIVE.marked_lines(block)) == _expected(block)


@pytest.mark.parametrize("marker", scanner.MARKERS)
def test_every_marker_is_known_to_the_c_scanner(marker: bytes) -> None:
    block = b"noise\nbefore " + marker + b" after\r\nnoise " + marker[:-1] + b"\n" + marker
    assert NATIVE is not None
    assert tuple(NATIVE.marked_lines(block)) == _expected(block)
    assert NATIVE.marked_lines(block)[0][::2] == [1, 3]


def test_long_lines_and_many_newlines() -> None:
    block = b"\n" * 70_000 + b"y" * 3_000_000 + b"[PROF]" + b"z" * 500_000 + b"\n" + b"The value of graph\n" * 3
    assert NATIVE is not None
    assert tuple(NATIVE.marked_lines(block)) == _expected(block)


def test_the_environment_switch_selects_the_regex_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(scanner.NATIVE_DISABLE_ENV, raising=False)
    assert scanner.native_scanner() is NATIVE
    monkeypatch.setenv(scanner.NATIVE_DISABLE_ENV, "1")
    assert scanner.native_scanner() is None


def test_bytes_only() -> None:
    assert NATIVE is not None
    with pytest.raises(TypeError):
        NATIVE.marked_lines("text")
