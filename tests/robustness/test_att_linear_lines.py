"""Hostile ATT lines and CSVs cost linear time: a 1 MiB pathological line takes well under a second.

Issue 30, defect 7: `_PERF_ITEM` (`(\\w+)=(NUMBER)`) on a long run of word characters was quadratic (20k, 40k,
80k characters: 2.6, 10, 38.5 s; a line at the 1 MiB cap ~1.8 h), in summary, evidence, perf-formula and
analyze alike. From 13: `att compare` was quadratic in the number of columns (20k columns: 44 s). Found on the
way: a FINAL_TILING payload of a million `[` ended in a RecursionError traceback.
"""

from __future__ import annotations

import contextlib
import csv
import io
import random
import time
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from autofuse_studio.core.att.final_tiling import MAX_JSON_DEPTH, loads_bounded
from autofuse_studio.core.att.lines import _PERF_ITEM, parse_perf, perf_terms
from autofuse_studio.core.att.model import SourceRef
from autofuse_studio.core.att.scanner import MAX_LINE_BYTES

N = MAX_LINE_BYTES - 200  # the line stays under the cap: all of it is parsed
GOOD = ("[Op] [PROF]The value of x is 1 in graph0_result0_g0_0.\n"
        "[Op] [PERF][graph0_result0_g0_0] N[T]: AIV_MTE2 = a=1 = 1\n")
PATHOLOGICAL = {
    "perf_word_run": "[Op] [PERF] N[T]: AIV_MTE2 = " + "a" * N,
    "perf_digit_run": "[Op] [PERF] N[T]: AIV_MTE2 = " + "1" * N + "=x",
    "perf_equals": "[Op] [PERF] N[T]: AIV_MTE2 = " + "a=" * (N // 2),
    "perf_terms": "[Op] [PERF] N[T]: AIV_MTE2 = " + "a=1 " * (N // 4),
    "perf_brackets": "[Op] [PERF] " + "[" * N,
    "prof_number_run": "[Op] [PROF]The value of x is " + "1" * N + "x",
    "prof_tags": "[a" * (N // 2) + "[PROF]",
    "result_perf_digits": "[Op] The value of graph" + "1" * N,
    "dfx_names": "[DFX]Begin to gen model info for asc graph 0, schedule result 0, schedule group 0"
                 + " graph name" * (N // 11),
    "final_quotes": '[ATT][FINAL_TILING] tiling_repr="' + '\\"' * (N // 2) + '"',
    "final_deep_json": '[ATT][FINAL_TILING] schema=1 operator="Op" graph=0 result=0 group=0 case_id=0 tiling_key=0 '
                       'tiling_repr="' + "[" * (N // 2) + '"',
}
LIMIT_S = 1.0


def _commands(log: Path, run_root: Path, out: Path) -> dict[str, list[str]]:
    source = out / "src"
    source.mkdir(parents=True, exist_ok=True)
    return {
        "summary": ["summary", str(log), "-f", "csv", "-o", str(out / "s.csv")],
        "evidence": ["evidence", str(log), "-o", str(out / "evidence")],
        "perf-formula": ["perf-formula", str(source), str(log), "-o", str(out / "perf")],
        "analyze": ["analyze", "--run-root", str(run_root), "--output", str(out / "report"), "--force"],
    }


def _timed(argv: list[str]) -> tuple[int, float]:
    """The command's exit code and CPU seconds (not wall: on a loaded machine a linear second became 1.01 s of wall;
    the quadratic cost this guards against was hours)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        start = time.process_time()
        code = main(argv)
        return code, time.process_time() - start


@pytest.mark.parametrize("shape", sorted(PATHOLOGICAL))
def test_a_pathological_1_mib_line_takes_under_a_second(shape: str, tmp_path: Path) -> None:
    run_root = tmp_path / "run"
    for side in ("default", "pgo"):
        (run_root / side).mkdir(parents=True)
        (run_root / side / "a.log").write_text(GOOD + (PATHOLOGICAL[shape] + "\n" if side == "default" else ""))
    log = run_root / "default" / "a.log"
    warm = tmp_path / "warm"
    warm.mkdir()
    (warm / "a.log").write_text(GOOD)
    for argv in _commands(warm / "a.log", run_root, tmp_path / "warm-out").values():
        _timed(argv)  # imports and first-call costs are not the line's
    for name, argv in _commands(log, run_root, tmp_path / "out").items():
        code, seconds = _timed(argv)
        assert code == 0, (name, code)
        assert seconds < LIMIT_S, f"{name} took {seconds:.2f} s on the {shape} line"


def test_perf_terms_are_exactly_what_the_regex_finds() -> None:
    rnd = random.Random(30)
    alphabet = "ab1_=.+-eE ()é9"
    for _ in range(50_000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 30)))
        assert list(perf_terms(text)) == [(m.group(1), m.group(2)) for m in _PERF_ITEM.finditer(text)], text


def test_perf_formula_terms_keep_their_meaning() -> None:
    node = parse_perf("[Op] [PERF] N[T]: AIV_MTE2 = (a=1.5 + b2=2e1 + c=3)x=4 = 28.5", SourceRef("x", 1))
    assert node is not None
    assert [(i.name, i.value) for i in node.items] == [("a", 1.5), ("b2", 20.0), ("c", 3.0), ("x", 4.0)]
    assert node.total == 28.5


def test_deep_json_in_final_tiling_is_refused_like_bad_json() -> None:
    assert loads_bounded("[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1)) is not None
    for text in ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "[" * 100_000, '{"a":' * 5000):
        with pytest.raises(ValueError, match=r"nested too deeply|Expecting"):
            loads_bounded(text)


def test_compare_is_linear_in_the_number_of_columns(tmp_path: Path) -> None:
    columns = ["Operator", "Graph", "Result", "Group", *(f"v{i}" for i in range(20_000))]
    for name, shift in (("a.csv", 0), ("b.csv", 1)):
        with (tmp_path / name).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow([*columns, f"only_{name}"])
            for row in range(5):
                writer.writerow([f"Op{row}", 0, 0, 0, *(i + shift * (i % 2) for i in range(20_000)), 1])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        start = time.process_time()
        assert main(["compare", str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]) == 0
        seconds = time.process_time() - start  # CPU: a loaded machine stretches wall time
    assert seconds < 3, f"{seconds:.1f} s"  # was 44 s
    text = out.getvalue()
    assert "列仅在文件1中: only_a.csv" in text and "列仅在文件2中: only_b.csv" in text
    assert "总计 50010 个字段差异" in text  # 10k odd columns and the two one-sided columns, 5 rows
