"""The C line scanner (_linescan.c) against the regex path's marked_lines, and the switch between them."""

from __future__ import annotations

import random

import pytest

from autofuse_studio.core.att import scanner
from autofuse_studio.core.att.lines import case_key, parse_prof, parse_prof_value
from autofuse_studio.core.att.model import Objective, SourceRef, TilingValue

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


VALUE_PIECES = ["[Op1]", "[Op1] [PROF]The value of x is 1 in graph0_result0_g0_0", "The objective value", "[Op 2]", "[PROF]", "[PERF]", "[ATT]", "[INFO] GE(1,python):ts [f.cc:3]4 ", " ", "\t", "\x1c",
                "  ", "The value of", "The value of ", "s0t_size", "is", " is ", "in", " in ", "0.5", "-1e3", "+.5",
                "1.", ".", "1e", "1e+", "7E-2", "12", "graph", "graph0", "_result", "_result1", "_g", "_g-1", "_",
                "_R", "R3", "3", "12345678901234567890", "é", "x", "]", "[", "graph0_result1_g2_3", "2e999"]


def _value_line(rng: random.Random) -> str:
    """A value record, often bent by random pieces."""
    body = ("The value of ", "ub_size", " is ") if rng.random() < 0.7 else (
        "The objective value of the tiling data is", "", rng.choice((" ", "  ", "")))
    words = ["[INFO] GE(9,python):ts [a.cc:1]2 " if rng.random() < 0.5 else "", "[Op1] [PROF]", *body, rng.choice(("1.5", "-2e3", "+.5", "7", "1e999")), " in ", "graph0_result1_g",
             rng.choice(("2", "-1")), rng.choice(("_", "_R")), "3", rng.choice(("", ".", " tail"))]
    for _ in range(rng.randint(0, 3)):
        words.insert(rng.randrange(len(words) + 1), rng.choice(VALUE_PIECES))
    return "".join(words)


@pytest.mark.parametrize("seed", range(40))
def test_value_records_match_parse_prof_value(seed: int) -> None:
    rng = random.Random(seed)
    lines = [_value_line(rng) for _ in range(200)]
    block = ("\n".join(lines) + "\n").encode()
    assert NATIVE is not None
    items, _ = NATIVE.marked_lines(block, True)
    texts, _ = NATIVE.marked_lines(block)
    assert items[::2] == texts[::2]
    fast = 0
    for item, text in zip(items[1::2], texts[1::2], strict=True):
        if isinstance(item, tuple):
            fast += 1
            assert "[PERF]" not in text
            value_record = parse_prof_value(text, SourceRef("x", 1))
            record = parse_prof(text, SourceRef("x", 1))
            if len(item) == 4:
                assert isinstance(value_record, TilingValue), text
                operator, name, value, key = item
                assert (operator, name, case_key(key)) == (value_record.operator, value_record.name,
                                                           value_record.key), text
                assert value == value_record.value, text
            else:
                assert value_record is None and isinstance(record, Objective), text
                operator, value, key = item
                assert (operator, case_key(key), value) == (record.operator, record.key, record.value), text
        else:
            assert item == text
    assert fast > 20  # most lines are plain records
    assert any(isinstance(item, tuple) and len(item) == 3 for item in items[1::2])
