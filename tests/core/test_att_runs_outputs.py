"""The four report files: report.md evidence links, root-cause.jsonl schema, summary.csv, summary.xlsx."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from autofuse_studio.core.att.runs.analysis import RunAnalysis, analyze_run
from autofuse_studio.core.att.runs.outputs import (
    REPORT_FILES,
    ROOT_CAUSE,
    SUMMARY_CSV,
    SUMMARY_XLSX,
    render_reports,
)
from autofuse_studio.core.att.runs.report_md import report_markdown
from autofuse_studio.core.att.runs.tables import SUMMARY_COLUMNS
from tests.core.runroots import read_line, standard_run_root

COMMAND = ["autofuse-studio", "att", "analyze"]
EVIDENCE = re.compile(r"^   - (default|candidate) `([^`]+):(\d+)`: (`+) ?(.*?) ?\4$")


@pytest.fixture(scope="module")
def analysis(tmp_path_factory: pytest.TempPathFactory) -> RunAnalysis:
    return analyze_run(standard_run_root(tmp_path_factory.mktemp("runs") / "field-run"))


def test_report_md_changed_first_with_evidence_links_that_point_at_their_text(analysis: RunAnalysis) -> None:
    text = report_markdown(analysis, "en", COMMAND)
    assert text.startswith("# Run-root analysis: field-run\n")
    headings = [line for line in text.splitlines() if line.startswith("### ")]
    assert headings[2:6] == ["### 1. `Op3` — changed, +25.00%", "### 2. `Op2` — changed, +0.10%",
                             "### 3. `Op1` — changed, +0.00%", "### 4. `Op5` — only in default"]
    links = [EVIDENCE.match(line) for line in text.splitlines() if line.startswith("   - ")]
    assert links and all(links)
    for match in links:
        assert match is not None
        path = analysis.sides.run_root / match.group(2)
        assert read_line(path, int(match.group(3))) == match.group(5)
    unchanged = text[text.index("## Unchanged operators"):]
    assert "| `Op0` | graph0_result0 | g0:c0 g1:c0 | 1000 |  |" in unchanged
    assert "kernel_meta/ `default/kernel_meta`" in text and "listed, never parsed" in text


def test_report_md_in_chinese(analysis: RunAnalysis) -> None:
    text = report_markdown(analysis, "zh", COMMAND)
    assert text.startswith("# 运行目录分析：field-run\n")
    assert "## 有变化的算子（劣化最大的在前）" in text and "## 无变化的算子" in text
    assert "group 0 选中的 tiling case 0 → 2" in text


def test_root_cause_jsonl_schema(analysis: RunAnalysis) -> None:
    lines = render_reports(analysis, "en", COMMAND)[ROOT_CAUSE].decode().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["operator"] for r in records][:3] == ["Op3", "Op2", "Op1"]
    first = records[0]
    assert list(first) == ["operator", "status", "default", "candidate", "perf_delta_pct", "causes", "evidence"]
    assert first["causes"] == ["result performance 1004 → 1255 (+25.00%)"]
    assert first["default"]["best_result"] == "graph0_result1" and first["candidate"]["run"] == "pgo"
    for record in records:
        for item in record["evidence"]:
            assert set(item) == {"side", "source_path", "source_line", "text"}
            assert read_line(analysis.sides.run_root / item["source_path"], item["source_line"]) == item["text"]
    only = next(r for r in records if r["status"] == "only_candidate")
    assert only["default"] is None and only["perf_delta_pct"] is None


def test_summary_csv_rows(analysis: RunAnalysis) -> None:
    data = render_reports(analysis, "en", COMMAND)[SUMMARY_CSV]
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert list(rows[0]) == SUMMARY_COLUMNS
    op1 = [r for r in rows if r["Operator"] == "Op1"]
    assert [(r["Group"], r["Default Case"], r["Candidate Case"], r["Status"]) for r in op1] == [
        ("0", "0", "2", "changed"), ("1", "0", "0", "unchanged")]
    assert "s0t_size: 1100.5 → 1102.5" in op1[0]["Tiling Values Differing"]
    op2 = [(r["Result"], r["Status"]) for r in rows if r["Operator"] == "Op2"]
    assert op2 == [("0", "only_default"), ("0", "only_default"), ("1", "only_candidate"), ("1", "only_candidate")]
    assert {r["Operator Status"] for r in rows if r["Operator"] == "Op2"} == {"changed"}


def test_summary_xlsx_numbers_and_highlights(analysis: RunAnalysis, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    path = tmp_path / SUMMARY_XLSX
    path.write_bytes(render_reports(analysis, "en", COMMAND)[SUMMARY_XLSX])
    book = load_workbook(path)
    assert book.sheetnames == ["Summary", "Root cause", "Files"]
    sheet = book["Summary"]
    header = [c.value for c in sheet[1]]
    assert header == SUMMARY_COLUMNS
    first = dict(zip(header, sheet[2], strict=True))
    assert first["Operator"].value == "Op3" and first["Graph"].value == 0
    assert first["Default Result Perf"].value == 1004 and first["Default Result Perf"].data_type == "n"
    assert first["Perf Delta (%)"].value == 25.0
    assert first["Operator"].fill.start_color.rgb.endswith("FCE4D6")  # changed rows highlighted
    statuses = {row[14].value: row[0].fill.start_color.rgb for row in sheet.iter_rows(min_row=2)}
    assert statuses["unchanged"] in ("00000000", None)
    causes = book["Root cause"]
    assert causes["A2"].value == "Op3" and "result performance" in causes["F2"].value
    for each in book.worksheets:  # the look of the reports' sheets: a frozen, bold white header on blue, widths
        assert each.freeze_panes == "A2"
        assert {c.fill.start_color.rgb for c in each[1]} == {"FF4472C4"}
        assert all(c.font.b and c.font.color.rgb == "FFFFFFFF" for c in each[1])
        assert each.column_dimensions["A"].width == 18 if each.title != "Files" else 10
    assert [c.fill.start_color.rgb for c in sheet[2]] == ["FFFCE4D6"] * len(SUMMARY_COLUMNS)  # empty cells too


def test_names_that_look_like_formulas_stay_text(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    root = tmp_path / "evil"
    for side, perf in (("default", 10), ("pgo", 12)):
        (root / side).mkdir(parents=True)
        (root / side / "a.log").write_text(
            '[=HYPERLINK("http://x")] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best '
            'choice.\n[=HYPERLINK("http://x")] [PROF]Among all schedule results, graph0_result0 is the best '
            f'choice.\n[=HYPERLINK("http://x")] The value of graph0_result0 is {perf}.\n')
    files = render_reports(analyze_run(root), "en", COMMAND)
    assert set(files) == set(REPORT_FILES)
    path = tmp_path / "s.xlsx"
    path.write_bytes(files[SUMMARY_XLSX])
    cell = load_workbook(path)["Summary"]["A2"]
    assert cell.value == '=HYPERLINK("http://x")' and cell.data_type == "s"
    assert cell.quotePrefix and cell.fill.start_color.rgb == "FFFCE4D6"  # a changed row's text stays quoted
    assert "### 1. ``=HYPERLINK(\"http://x\")`` " not in files["report.md"].decode()  # one backtick fence is enough
    assert '### 1. `=HYPERLINK("http://x")` — changed, +20.00%' in files["report.md"].decode()
