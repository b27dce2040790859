"""The C scanner's store path (_linescan.store_lines) against the regex path, on hostile lines of every kind it stores."""

from __future__ import annotations

import gc
import random
import weakref
from pathlib import Path

import pytest

from autofuse_studio.core.att import scanner
from autofuse_studio.core.att.lines import case_key
from autofuse_studio.core.att.model import (
    BestResult,
    CaseKey,
    Objective,
    ResultPerf,
    SourceRef,
    TemplateSelection,
    TilingValue,
)

NATIVE = scanner._LINESCAN
pytestmark = pytest.mark.skipif(NATIVE is None, reason="the C line scanner (_linescan) is not built")

# Lines the C path stores itself, one per kind.
PLAIN = {
    "value": "[Op1] [PROF]The value of ub_size is 1.5 in graph0_result1_g2_3.",
    "objective": "[Op1] [PROF]The objective value of the tiling data is 2e3 in graph0_result1_g2_R3.",
    "template": "[Op1] [PROF]Among the templates, tiling case R3 of graph0_result1_g2_R3 is the best choice.",
    "best": "[Op1] [PROF]Among all schedule results, graph0_result1 is the best choice.",
    "result_perf": "[Op1] The value of graph0_result1 is 7.25e2.",
}
# Pieces that bend a line into something the C path must decline (or read exactly as the regex path does).
BENDS = ["é", "中", "\r", "\t", "\x1c", "  ", "[", "]", "[Op2]", "[PROF]", "[PERF]", "[DFX]", "[ATT][FINAL_TILING",
         "[PROF] ", "[ATT]", "The value of", " The value of graph1_result2 is 3", "12345678901234567890",
         "99999999999999999999999", "_R", "R", "_", "-", "+", ".", "e", "E+", "1e999", " is ", "graph", "x", "\xa0",
         "is the best choice", ".5", "5.", "1e", "1e+", "-0"]


def _bent(rng: random.Random, line: str) -> str:
    """The line with a few pieces inserted, cut short or left whole."""
    if rng.random() < 0.15:
        return line[:rng.randrange(len(line) + 1)]  # truncated
    chars = list(line)
    for _ in range(rng.randint(0, 3)):
        chars.insert(rng.randrange(len(chars) + 1), rng.choice(BENDS))
    return "".join(chars)


def _scan(path: Path, monkeypatch: pytest.MonkeyPatch, native: object) -> tuple[str, int]:
    """repr of the scan of `path` on one path, and how many marked lines went to the Python feed."""
    fed = []
    feed = scanner._FileScanner._feed_marked

    def counting(self: scanner._FileScanner, line: str, path: str, line_no: int) -> None:
        fed.append(line_no)
        feed(self, line, path, line_no)

    monkeypatch.setattr(scanner, "_LINESCAN", native)
    monkeypatch.setattr(scanner._FileScanner, "_feed_marked", counting)
    return repr(scanner.scan_file(path)), len(fed)


def _write(path: Path, lines: list[str], newline: str = "\n", last_newline: bool = True) -> Path:
    text = newline.join(lines) + (newline if last_newline else "")
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize("seed", range(60))
def test_hostile_lines_store_as_the_regex_path_does(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    lines = []
    for _ in range(300):
        line = rng.choice(list(PLAIN.values()))
        lines.append(_bent(rng, line) if rng.random() < 0.6 else line)
        if rng.random() < 0.3:
            lines.append("[INFO] GE(1,python):ts [a.cc:1]2 noise [x] T")
    path = _write(tmp_path / "h.log", lines, rng.choice(("\n", "\r\n")), last_newline=rng.random() < 0.7)
    monkeypatch.setattr(scanner, "BLOCK_SIZE", rng.choice((7, 300, 1 << 16)))
    native, fed_native = _scan(path, monkeypatch, NATIVE)
    regex, fed_regex = _scan(path, monkeypatch, None)
    assert native == regex
    assert fed_native < fed_regex / 2  # the C path stored most records itself


def test_every_kind_is_stored_in_c_with_the_records_the_grammar_makes(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path / "k.log", ["noise", *PLAIN.values()], "\r\n", last_newline=False)
    text, fed = _scan(path, monkeypatch, NATIVE)
    assert fed == 0
    scan = scanner.scan_file(path)
    op = scan.operators["Op1"]
    key = CaseKey(0, 1, 2, 3)
    assert op.values[key]["ub_size"] == TilingValue("Op1", key, "ub_size", 1.5, SourceRef(str(path), 2))
    assert op.objectives[key] == Objective("Op1", key, 2000.0, SourceRef(str(path), 3))
    assert op.selections[(0, 1, 2)] == TemplateSelection("Op1", key, SourceRef(str(path), 4))
    assert op.best_result == BestResult("Op1", 0, 1, SourceRef(str(path), 5))
    assert op.result_perfs[(0, 1)] == ResultPerf("Op1", 0, 1, 725.0, SourceRef(str(path), 6))
    assert op.prof_lines == 4 and op.first_mentions == {key: 2} and op.first_source == SourceRef(str(path), 2)
    assert scan.line_count == 6
    assert text == _scan(path, monkeypatch, None)[0]


@pytest.mark.parametrize("line", [
    "[Op1] [PROF]Among the templates, tiling case 1 of graph12345678901234567890_result1_g2 is the best choice.",
    "[Op1] [PROF]Among all schedule results, graph0_result99999999999999999999 is the best choice.",
    "[Op1] The value of graph0_result12345678901234567890 is 1.",
    "[Op1] [PROF]The value of x is 1 in graph0_result1_g2_12345678901234567890.",
])
def test_ids_too_long_for_c_are_left_to_python_which_warns(line: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path / "i.log", [line])
    text, fed = _scan(path, monkeypatch, NATIVE)
    assert fed == 1
    assert text == _scan(path, monkeypatch, None)[0]
    assert "too long" in text


@pytest.mark.parametrize(("number", "read_as"), [("7.", 7.0), (".5", 0.5), ("1e", 1.0), ("1e+", 1.0), ("2E-1x", 0.2),
                                                 ("-3.5.1", -3.5), ("1e999", float("inf"))])
def test_a_schedule_result_value_is_the_longest_number(number: str, read_as: float, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path / "n.log", [f"[Op1] The value of graph0_result1 is {number}"])
    text, fed = _scan(path, monkeypatch, NATIVE)
    assert fed == 0
    assert scanner.scan_file(path).operators["Op1"].result_perfs[(0, 1)].value == read_as
    assert text == _scan(path, monkeypatch, None)[0]


def _sink(feed: object, types: tuple[object, ...] | None = None) -> tuple[object, ...]:
    return ("x.log", {}, lambda name, source: None, {}, {}, case_key, feed,
            *(types or (TilingValue, Objective, TemplateSelection, BestResult, ResultPerf, SourceRef)))


def test_an_error_in_the_feed_propagates() -> None:
    def failing(line: str, path: str, line_no: int) -> None:
        raise ValueError(f"no: {line_no}")

    assert NATIVE is not None
    with pytest.raises(ValueError, match="no: 12"):
        NATIVE.store_lines(b"noise\n[DFX]odd\n", 11, _sink(failing))


def test_bad_arguments_are_type_errors() -> None:
    assert NATIVE is not None
    with pytest.raises(TypeError):
        NATIVE.store_lines("text", 1, _sink(print))
    with pytest.raises(TypeError):
        NATIVE.store_lines(b"", 1, _sink(print, (TilingValue, Objective, TemplateSelection, BestResult, ResultPerf,
                                                 dict)))
    with pytest.raises(TypeError):  # a class object.__new__ cannot make
        NATIVE.store_lines(b"", 1, _sink(print, (int, Objective, TemplateSelection, BestResult, ResultPerf, SourceRef)))
    with pytest.raises(TypeError):
        NATIVE.store_lines(b"", 1, _sink(print)[:-1])


def test_counts_newlines_of_a_block_without_marked_lines() -> None:
    assert NATIVE is not None
    assert NATIVE.store_lines(b"a\r\nb\n\nc", 1, _sink(print)) == 3


def test_a_scanner_is_freed_without_the_cyclic_gc(tmp_path: Path) -> None:
    # The scan is frozen after a CLI or GUI scan (keep_long_lived): a cycle through the scanner would keep it forever.
    assert NATIVE is not None
    scanner_ = scanner._FileScanner("x.log", NATIVE)
    scanner_.feed_block(("\n".join(PLAIN.values()) + "\n[DFX]odd\n").encode(), 1)
    gone = weakref.ref(scanner_)
    scan = weakref.ref(scanner_.scan)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del scanner_
        assert gone() is None and scan() is None
    finally:
        if enabled:
            gc.enable()
