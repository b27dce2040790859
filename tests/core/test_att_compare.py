"""Compare: 512 equals 512.0, deterministic order, zero baselines, duplicates, reference report."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.att.compare import compare_csv_files
from autofuse_studio.core.att.compare_output import comparison_text, duplicate_warnings
from autofuse_studio.core.att.scanner import find_logs, scan_logs
from autofuse_studio.core.att.summary import build_summary
from autofuse_studio.core.att.summary_output import write_summary_csv
from autofuse_studio.core.errors import InputError
from tests.conftest import samples_dir

HEADER = "Operator,Graph,Result,Group,Case,AIV_MTE2,Objective Value,x\n"


def _csv(path: Path, *rows: str) -> Path:
    path.write_text(HEADER + "".join(r + "\n" for r in rows), encoding="utf-8-sig")
    return path


def test_equal_numbers_in_other_spelling_are_equal(tmp_path: Path) -> None:
    a = _csv(tmp_path / "a.csv", "Add,0,0,0,0,512,10,q")
    b = _csv(tmp_path / "b.csv", "Add,0,0,0,0,512.0,1e1,q")
    result = compare_csv_files(a, b)
    assert result.field_diffs == [] and result.perf_diffs == [] and result.identical
    assert "✓ 两个文件完全相同" in comparison_text(result)


def test_zero_baseline_and_order_is_deterministic(tmp_path: Path) -> None:
    a = _csv(tmp_path / "a.csv", "B,0,0,0,0,0,10,q", "A,0,0,0,0,5,10,q")
    b = _csv(tmp_path / "b.csv", "A,0,0,0,0,4,10,r", "B,0,0,0,0,3,12,q")
    result = compare_csv_files(a, b)
    assert [(d.key, d.column) for d in result.field_diffs] == [
        ("A|0|0|0", "AIV_MTE2"), ("A|0|0|0", "x"), ("B|0|0|0", "AIV_MTE2"), ("B|0|0|0", "Objective Value")]
    zero = next(d for d in result.perf_diffs if d.key == "B|0|0|0" and d.metric == "AIV_MTE2")
    assert zero.percent is None  # no percentage against a zero baseline
    text = comparison_text(result)
    assert "0.000000 → 3.000000 (+3.000000) ✗ 下降" in text
    assert comparison_text(compare_csv_files(a, b)) == text


def test_duplicates_are_reported_and_missing_file_raises(tmp_path: Path) -> None:
    a = _csv(tmp_path / "a.csv", "A,0,0,0,0,1,1,q", "A,0,0,0,1,2,2,q")
    result = compare_csv_files(a, a)
    assert result.table1.row_count == 2 and len(result.table1.rows) == 1
    assert duplicate_warnings(result)[0].endswith("duplicate row A|0|0|0; the last row with this key is used.")
    with pytest.raises(InputError, match="not found"):
        compare_csv_files(a, tmp_path / "missing.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("just,some,columns\n1,2,3\n")
    with pytest.raises(InputError, match="lacks the column"):
        compare_csv_files(a, bad)


def _summary_csv(out: Path, log: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    write_summary_csv(build_summary(scan_logs(find_logs(log)).files), out)
    return out


def _blocks(text: str) -> list[object]:
    """The report with each operator's field-diff lines as a set (the reference's order was random)."""
    blocks: list[object] = []
    for line in text.splitlines():
        if line.startswith("    - ") and blocks and isinstance(blocks[-1], set):
            blocks[-1].add(line)
        elif line.startswith("    - ") and "列仅在" not in line:
            blocks.append({line})
        else:
            blocks.append(line)
    return blocks


@pytest.mark.samples
@pytest.mark.parametrize(
    ("first", "second", "reference"),
    [
        ("upstream-tests/test_complete.log", "synthetic/compare_candidate.csv", "baseline__vs__candidate_console.txt"),
        ("upstream-tests/test_complete.log", "upstream-tests/test_concat.log", "test_complete__vs__test_concat.txt"),
        ("synthetic/perf_multi_case.log", "synthetic/dfx_compiler_runtime.log",
         "perf_multi_case__vs__dfx_compiler_runtime.txt"),
        ("upstream-tests/test_complete.log", "upstream-tests/test_complete.log", "test_complete__vs__test_complete.txt"),
    ],
)
def test_report_matches_reference(tmp_path: Path, first: str, second: str, reference: str) -> None:
    root = samples_dir("att")
    a = _summary_csv(tmp_path / Path(first).stem / "summary.csv", root / first)
    b = root / second if second.endswith(".csv") else _summary_csv(
        tmp_path / Path(second).stem / "summary.csv", root / second)
    ours = comparison_text(compare_csv_files(a, b)).replace(str(tmp_path), "<out>").replace(
        str(root), "<samples>/att")
    expected = (root / "reference-outputs" / "_compare" / reference).read_text(encoding="utf-8")
    expected = expected.removesuffix("rc=0\n")
    assert _blocks(ours) == _blocks(expected)
