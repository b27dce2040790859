"""The xlsx files the CLI writes: hostile names stay text, and compare keeps att.py's cells."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from openpyxl import load_workbook

from autofuse_studio.cli import main
from tests.xlsx_checks import HOSTILE, assert_text_cells

FUSED, ORIGIN = '=HYPERLINK("x","y")', "@SUM(A1:A2)"


def _graph(path: Path, name: str, op_type: str, attrs: list[dict[str, object]]) -> Path:
    desc = {"layout": "ND", "attr": attrs}
    path.write_text(json.dumps({"graph": [{"name": "g", "op": [
        {"name": name, "type": op_type, "input": [], "output_desc": [desc]}]}]}), encoding="utf-8")
    return path


def test_nwa_output_xlsx_keeps_hostile_op_names_as_text(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    origin_attrs = [{"key": "_datadump_origin_name", "value": {"s": ORIGIN}},
                    {"key": "_datadump_origin_output_index", "value": {"i": 0}}]
    open_graph = _graph(tmp_path / "open.json", FUSED, "AscBackend", origin_attrs)
    close_graph = _graph(tmp_path / "close.json", ORIGIN, "Add", [])
    (tmp_path / "od").mkdir()
    (tmp_path / "cd").mkdir()
    np.save(tmp_path / "od" / f"AscBackend.{FUSED}.3.44.1.output.0.npy", np.arange(8, dtype=np.float32))
    np.save(tmp_path / "cd" / f"Add.{ORIGIN}.9.44.1.output.0.npy", np.arange(8, dtype=np.float32))
    target = tmp_path / "x.xlsx"
    assert main(["nwa", "--af-open-graph", str(open_graph), "--af-close-graph", str(close_graph),
                 "--af-open-data", str(tmp_path / "od"), "--af-close-data", str(tmp_path / "cd"),
                 "--output", str(target)]) == 0
    assert FUSED in capsys.readouterr().out
    assert_text_cells(target, [FUSED, ORIGIN])


def test_att_summary_excel_keeps_hostile_operators_as_text(tmp_path: Path) -> None:
    names = [name for name in HOSTILE if "\r" not in name]
    log = tmp_path / "run.log"
    log.write_text("".join(f"[{name}] [PROF]The value of ub_size is 512 in graph{g}_result0_g0_0.\n"
                           f"[{name}] [PROF]Among the templates, tiling case 0 of graph{g}_result0_g0 is the "
                           "best choice.\n" for g, name in enumerate(names)), encoding="utf-8")
    target = tmp_path / "s.xlsx"
    assert main(["att", "summary", str(log), "-f", "excel", "-o", str(target)]) == 0
    assert_text_cells(target, names)


def _write_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


@pytest.fixture
def compared(tmp_path: Path) -> Path:
    header = ["Operator", "Graph", "Result", "Group", "Case", "Result Perf", "note"]
    csv1 = _write_csv(tmp_path / "a.csv", [header, ["Add", "0", "0", "0", "0", "200", "same"],
                                            ["Mul", "0", "0", "0", "0", "0", "x"], ["Old", "0", "0", "0", "0", "", ""]])
    csv2 = _write_csv(tmp_path / "b.csv", [header, ["Add", "0", "0", "0", "2", "150", "other"],
                                            ["Mul", "0", "0", "0", "0", "5", "=1+2"]])
    target = tmp_path / "c.xlsx"
    assert main(["att", "compare", str(csv1), str(csv2), "-f", "excel", "-o", str(target)]) == 0
    return target


def test_compare_excel_summary_sheet_is_att_py_cells(compared: Path, tmp_path: Path) -> None:
    sheet = load_workbook(compared)["摘要"]
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert rows == [
        ["项目", "文件1", "文件2", "差异"],
        ["文件路径", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), None],
        ["算子数量", 3, 2, "-1"],
        ["列数", 7, 7, "+0"],
        ["共同算子", 2, 2, "相同"],
        ["仅在文件1中", 1, 0, None],
        ["仅在文件2中", 0, 0, None],
        ["字段差异总数", None, None, 5],
        ["性能指标变化数", None, None, 2],
    ]
    assert sheet["A1"].alignment.horizontal == "center" and sheet.column_dimensions["A"].width == 20


def test_compare_excel_percentages_are_numbers(compared: Path) -> None:
    book = load_workbook(compared)
    details = {(r[0].value, r[1].value): r for r in book["详细差异"].iter_rows(min_row=2)}
    case = details[("Add|0|0|0", "Case")]
    assert [c.value for c in case] == ["Add|0|0|0", "Case", "0", "2", "数值差异", 2.0, None]
    perf = details[("Add|0|0|0", "Result Perf")]
    assert perf[6].value == -25.0 and perf[6].data_type == "n" and "%" in perf[6].number_format
    note = details[("Mul|0|0|0", "note")]
    assert [c.value for c in note][2:6] == ["x", "=1+2", "字符串差异", None]
    assert note[3].data_type == "s"
    perf_rows = [[c.value for c in row] for row in book["性能对比"].iter_rows(min_row=2)]
    assert perf_rows[0] == ["Add|0|0|0", "Result Perf", 200.0, 150.0, -50.0, -25.0, "改善"]
    assert perf_rows[1][:5] == ["Mul|0|0|0", "Result Perf", 0.0, 5.0, 5.0] and perf_rows[1][5] is None
    assert book["性能对比"]["F2"].number_format == perf[6].number_format
