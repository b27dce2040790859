"""`autofuse-studio nwa` on the shared nwa-small sample: reference table, our fixes, exports, exit codes."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio.cli import main
from autofuse_studio.core.precision.table import display_width
from tests.conftest import samples_dir


def _mode1_args(sample: Path, *extra: str) -> list[str]:
    return ["nwa", "--af-open-graph", str(sample / "af_open_graph.json"),
            "--af-close-graph", str(sample / "af_close_graph.json"),
            "--af-open-data", str(sample / "af_open_data"),
            "--af-close-data", str(sample / "af_close_data"), *extra]


def _table_rows(stdout: str) -> dict[tuple[str, str, str], list[str]]:
    rows = {}
    for line in stdout.splitlines():
        cells = [cell.strip() for cell in line.split(" | ")]
        if len(cells) == 9 and cells[0] in ("输出", "输入"):
            rows[(cells[0], cells[1], cells[2])] = cells
    return rows


@pytest.fixture
def sample() -> Path:
    return samples_dir("nwa-small")


def test_mode1_table_matches_reference_where_it_is_right(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_mode1_args(sample, "--compare-input")) == 0
    out = capsys.readouterr().out
    assert out.startswith("Parsing fusion-enabled dump graph: ")
    assert "Found 15 fused operator output mappings, 4 fused operator input mappings\n\n" in out
    rows = _table_rows(out)
    status = {key[1:]: cells[8] for key, cells in rows.items() if key[0] == "输出"}
    assert status[("scope/autofuse_1_Add_Mul", "0")] == "OK"
    assert status[("autofuse_2_Square", "1")] == "NO_MAPPING"
    assert status[("autofuse_3_Cast", "0")] == "DTYPE_CAST"
    assert status[("autofuse_4_Reshape", "0")] == "SHAPE_FLATTENED"
    assert status[("autofuse_5_Bad", "0")] == "SHAPE_MISMATCH"
    assert status[("autofuse_6_Missing", "0")] == "FILE_NOT_FOUND"
    # Fixed flaw: the reference never removes C0 padding and reports SHAPE_MISMATCH here.
    assert status[("autofuse_12_Pad", "0")] == "FORMAT_CONVERTED"
    inputs = {key[1:]: cells[8] for key, cells in rows.items() if key[0] == "输入"}
    assert inputs[("scope/autofuse_1_Add_Mul", "1")] == "SKIPPED_CONST_DATA"
    ok_row = rows[("输出", "scope/autofuse_1_Add_Mul", "0")]
    assert len(ok_row[5].split(".")[1]) == 10 and "e" in ok_row[6]
    assert "First divergence:" in out


def test_table_columns_align_for_cjk(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(_mode1_args(sample))
    lines = [line for line in capsys.readouterr().out.splitlines() if " | " in line or "-+-" in line]

    def bar_columns(line: str, bar: str) -> tuple[int, ...]:
        return tuple(display_width(line[:i]) for i, char in enumerate(line) if char == bar)

    header, separator, *body = lines
    assert "类型" in header and body
    expected = bar_columns(header, "|")
    assert len(expected) == 8
    assert bar_columns(separator, "+") == expected
    assert all(bar_columns(line, "|") == expected for line in body)


@pytest.mark.parametrize("suffix", [".json", ".csv", ".xlsx"])
def test_output_files(sample: Path, tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / f"out{suffix}"
    assert main(_mode1_args(sample, "--compare-input", "--output", str(target))) == 0
    if suffix == ".json":
        document = json.loads(target.read_text(encoding="utf-8"))
        assert len(document["rows"]) == 19
        first_row = document["rows"][0]
        for key in ("kind", "fused_op", "fused_index", "origin_op", "origin_index", "status", "cosine",
                    "max_abs_err", "max_rel_err", "rmse", "verdict", "fused_file", "origin_file"):
            assert key in first_row
        nan_row = next(row for row in document["rows"] if row["fused_op"] == "autofuse_10_Nan")
        assert nan_row["cosine"] is None
        assert document["first_divergence"]["fused_op"]
        assert document["thresholds"]["default"]["cosine"] == 0.99
    elif suffix == ".csv":
        raw = target.read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf")
        records = list(csv.DictReader(raw.decode("utf-8-sig").splitlines()))
        assert len(records) == 19 and records[0]["kind"] == "output"
    else:
        from openpyxl import load_workbook

        book = load_workbook(target)
        sheet = book["precision"]
        assert sheet.max_row == 20 and sheet.freeze_panes == "A2" and sheet.auto_filter.ref
        cosine_column = [cell.value for cell in sheet[1]].index("cosine")
        assert isinstance(sheet.cell(row=2, column=cosine_column + 1).value, float)
        assert "summary" in book.sheetnames


def test_mode2_prints_reference_lines_then_extras(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["nwa", "--mode", "2", "--npy-a", str(sample / "m2_a.npy"), "--npy-b", str(sample / "m2_f16.npy")])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith("文件A: ") and out[1].startswith("文件B: ") and out[2] == "状态: DTYPE_CAST"
    assert out[3].startswith("余弦相似度: 0.99999")
    assert any(line.startswith("均方根误差: ") for line in out)


@pytest.mark.parametrize("name", ["m2_garbage.npy", "m2_obj.npy"])
def test_mode2_bad_npy_is_a_status_and_exit_1(sample: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["nwa", "--mode", "2", "--npy-a", str(sample / "m2_a.npy"), "--npy-b", str(sample / name)])
    assert code == 1
    out = capsys.readouterr().out
    assert "状态: NPY_LOAD_ERROR" in out
    # The reference's warning line: both labels, then the reason.
    assert f"WARNING: NPY Load failed - {sample / 'm2_a.npy'} / {sample / name}: " in out


def test_warning_lines_name_both_sides_like_the_reference(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_mode1_args(sample)) == 0
    out = capsys.readouterr().out
    # One summarised line per status (issue 11), quoting the first row's message in the reference's wording.
    assert "WARNING: 2 rows are FORMAT_CONVERSION_ERROR: Format conversion failed - autofuse_7_Fmt output 0 / " \
        "Fmt_7 output 0: " in out
    assert "WARNING: 1 row is SHAPE_MISMATCH: Shape mismatch with different element counts - autofuse_5_Bad " \
        "output 0: (3,) vs " in out


def test_usage_and_input_errors_exit_codes(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "autofuse_studio", "nwa", *args],
                              capture_output=True, text=True, check=False)

    missing = run("--af-open-graph", str(tmp_path / "nope.json"))
    # fusion_precision_analyzer.py prints its ERROR: lines on stdout, where scripts grep for them.
    assert missing.returncode == 1 and missing.stdout == "ERROR: 模式1需要 --af-close-graph 参数\n"
    graph = tmp_path / "g.json"
    graph.write_text("{}", encoding="utf-8")
    no_dir = run("--af-open-graph", str(graph), "--af-close-graph", str(graph),
                 "--af-open-data", str(tmp_path / "x"), "--af-close-data", str(tmp_path))
    assert no_dir.returncode == 1 and "ERROR: datadump 目录不存在" in no_dir.stdout
    assert "Traceback" not in no_dir.stderr
    assert run("--mode", "3").returncode == 2
    truncated = tmp_path / "t.json"
    truncated.write_text('{"graph": [{"op": [', encoding="utf-8")
    bad_graph = run("--af-open-graph", str(truncated), "--af-close-graph", str(graph),
                    "--af-open-data", str(tmp_path), "--af-close-data", str(tmp_path))
    assert bad_graph.returncode == 1 and bad_graph.stdout.splitlines()[-1].startswith("ERROR: ")
    assert "t.json" in bad_graph.stdout
    assert "Traceback" not in bad_graph.stderr


def test_fail_on_divergence_exit_code(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_mode1_args(sample, "--fail-on-divergence")) == 3
    assert main(_mode1_args(sample, "--fail-on-divergence", "--cosine-threshold", "0.5",
                            "--dtype-threshold", "float32:cosine=0.5")) in (0, 3)
