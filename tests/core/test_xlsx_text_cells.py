"""Every xlsx writer stores text from inputs as text cells (never formulas) and numbers as numbers."""

from __future__ import annotations

import csv
import math
from pathlib import Path

from openpyxl import Workbook, load_workbook

from autofuse_studio.core.att.compare import compare_csv_files
from autofuse_studio.core.att.compare_output import write_comparison_xlsx
from autofuse_studio.core.att.scanner import scan_logs
from autofuse_studio.core.att.summary import build_summary
from autofuse_studio.core.att.summary_output import write_summary_xlsx
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports.precision_files import write_xlsx
from autofuse_studio.core.reports.xlsx_cells import append_row, is_formula_like, set_cell
from tests.xlsx_checks import HOSTILE, assert_text_cells

# Names that can be a log's `[operator]` tag (a CR would end the log line).
LOG_NAMES = tuple(name for name in HOSTILE if "\r" not in name)


def test_helper_keeps_text_numbers_and_escapes_control_characters(tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    append_row(sheet, ["=1+2", 3, 2.5, None, float("nan"), "a\x1bb", True, "\r=1"])
    set_cell(sheet, 2, 1, "@x", number_format="0.00")
    path = tmp_path / "cells.xlsx"
    book.save(path)
    loaded = load_workbook(path).active
    assert [c.value for c in loaded[1]] == ["=1+2", 3, 2.5, None, "nan", "a_x001B_b", True, "_x000D_=1"]
    assert [c.data_type for c in loaded[1]][:3] == ["s", "n", "n"]
    assert loaded["A1"].quotePrefix and loaded["H1"].quotePrefix and not loaded["F1"].quotePrefix
    assert loaded["A2"].value == "@x" and loaded["A2"].data_type == "s"
    assert all(is_formula_like(name) for name in HOSTILE) and not is_formula_like("Add_1")


def _hostile_result() -> PrecisionResult:
    metrics = Metrics(0.5, 1.0, 2.0, 0.1, 0.2, 0.3, 0.4, 0.6, 8, 0, 0, 0, 0)
    rows = [PrecisionRow(OUTPUT, name, index, HOSTILE[-1 - index], 0, "OK", step=name, metrics=metrics,
                         message=name, fused_file=name, origin_file=name, fused_dtype=name)
            for index, name in enumerate(HOSTILE)]
    return PrecisionResult(rows, Thresholds())


def test_precision_xlsx_nwa_output_and_report(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    write_xlsx(_hostile_result(), path)
    assert_text_cells(path, HOSTILE)
    sheet = load_workbook(path)["precision"]
    header = [c.value for c in sheet[1]]
    cosine = sheet.cell(row=2, column=header.index("cosine") + 1)
    index = sheet.cell(row=3, column=header.index("fused_index") + 1)
    assert (cosine.value, cosine.data_type, index.value, index.data_type) == (0.5, "n", 1, "n")


def _hostile_log(path: Path) -> Path:
    lines = []
    for graph, name in enumerate(LOG_NAMES):
        key = f"graph{graph}_result0_g0"
        lines += [f"[{name}] [PROF]The value of ub_size is 512 in {key}_0.",
                  f"[{name}] [PROF]The objective value of the tiling data is 7.5 in {key}_0.",
                  f"[{name}] [PROF]Among the templates, tiling case 0 of {key} is the best choice.",
                  f"[{name}] [PROF]Among all schedule results, graph{graph}_result0 is the best choice.",
                  f"[{name}] The value of graph{graph}_result0 is 10."]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_summary_xlsx(tmp_path: Path) -> None:
    log = _hostile_log(tmp_path / "run.log")
    path = tmp_path / "summary.xlsx"
    write_summary_xlsx(build_summary(scan_logs([log]).files), path)
    assert_text_cells(path, LOG_NAMES)
    sheet = load_workbook(path)["Summary"]
    header = [c.value for c in sheet[1]]
    row = {name: sheet.cell(row=3, column=number).value for number, name in enumerate(header, start=1)}
    assert row["Operator"] == LOG_NAMES[1] and row["Graph"] == 1 and row["ub_size"] == 512.0
    assert row["Result Perf"] == 10.0 and math.isclose(row["Objective Value"], 7.5)


def _csv(path: Path, rows: list[list[str]]) -> Path:
    header = ["Operator", "Graph", "Result", "Group", "Case", "Result Perf", "note"]
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([header, *rows])
    return path


def test_compare_xlsx(tmp_path: Path) -> None:
    csv1 = _csv(tmp_path / "a.csv", [[name, "0", "0", "0", "0", "10", "x"] for name in HOSTILE])
    csv2 = _csv(tmp_path / "b.csv", [[name, "0", "0", "0", "1", "8", name] for name in HOSTILE])
    path = tmp_path / "compare.xlsx"
    write_comparison_xlsx(compare_csv_files(csv1, csv2), path)
    keys = [f"{name}|0|0|0" for name in HOSTILE]
    assert_text_cells(path, [*HOSTILE, *keys])


def test_summary_xlsx_final_tiling_key_and_score_are_numbers(tmp_path: Path) -> None:
    log = tmp_path / "final.log"
    log.write_text('[ATT][FINAL_TILING] schema=1 source="runtime" selection_mode="default" operator="=Fusion" '
                   'graph=0 result=0 group=1 case_id=2 tiling_key=5 score=7 sub_case_tag="" template="T" '
                   'repr_kind="full_json" pipe_estimates="{\\"AIV_MTE2\\":120.0}" tiling_repr="{\\"m\\":64}"\n',
                   encoding="utf-8")
    path = tmp_path / "final.xlsx"
    write_summary_xlsx(build_summary(scan_logs([log]).files), path)
    assert_text_cells(path, ["=Fusion"])
    sheet = load_workbook(path)["Summary"]
    row = {c.value: sheet.cell(row=2, column=c.column) for c in sheet[1]}
    assert (row["Tiling Key"].value, row["Score"].value, row["Case"].value) == (5, 7, 2)
    assert row["Tiling Key"].data_type == "n" and row["Pipe Estimate"].data_type == "s"


def test_integer_steps_and_ranks_are_numbers_other_names_stay_text(tmp_path: Path) -> None:
    metrics = Metrics(0.5, 1.0, 2.0, 0.1, 0.2, 0.3, 0.4, 0.6, 8, 0, 0, 0, 0)
    steps = ["0", "12", "0012", "step_a", "=1"]
    rows = [PrecisionRow(OUTPUT, f"op{n}", 0, "o", 0, "OK", step=step, rank=str(n % 2) if n < 4 else "r",
                         metrics=metrics) for n, step in enumerate(steps)]
    path = tmp_path / "steps.xlsx"
    write_xlsx(PrecisionResult(rows, Thresholds(), first_divergence=rows[1]), path)
    book = load_workbook(path)
    sheet = book["precision"]
    header = [c.value for c in sheet[1]]
    step_cells = [sheet.cell(row=n + 2, column=header.index("step") + 1) for n in range(len(steps))]
    assert [c.value for c in step_cells] == [0, 12, "0012", "step_a", "=1"]  # "0012" is a folder's exact name
    assert [c.data_type for c in step_cells] == ["n", "n", "s", "s", "s"]
    assert [sheet.cell(row=n + 2, column=header.index("rank") + 1).value for n in range(5)] == [0, 1, 0, 1, "r"]
    summary = {row[0].value: row[1].value for row in book["summary"].iter_rows()}
    assert summary["first divergence step"] == 12
    ranks = book["ranks"]
    assert {(row[0].value, row[1].value) for row in ranks.iter_rows(min_row=2)} >= {(0, 0), (1, 12), (1, "step_a"), (0, "0012")}
