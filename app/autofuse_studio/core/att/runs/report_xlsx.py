"""summary.xlsx: the summary rows and the root causes, numbers as numbers, changed rows highlighted.

Every cell goes through core/reports/xlsx_cells.py, so an operator called `=HYPERLINK(...)` stays text.
"""

from __future__ import annotations

import io
from typing import Any

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.diff import CHANGED, ONLY_CANDIDATE, ONLY_DEFAULT
from autofuse_studio.core.att.runs.tables import SUMMARY_COLUMNS, summary_cells
from autofuse_studio.core.att.runs.texts import EN, cause_text
from autofuse_studio.core.reports.xlsx_cells import append_row

HEADER_FILL = "4472C4"
FILLS = {CHANGED: "FCE4D6", ONLY_DEFAULT: "EDEDED", ONLY_CANDIDATE: "EDEDED"}  # light orange / grey
CAUSE_COLUMNS = ["Operator", "Status", "Perf Delta (%)", "Default Result Perf", "Candidate Result Perf", "Causes",
                 "Evidence"]
FILE_COLUMNS = ["Side", "Run", "Kind", "Path", "Bytes", "Lines"]


def _style(sheet: Any, widths: list[int]) -> None:
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    for cell in sheet[1]:
        cell.fill = PatternFill(start_color=HEADER_FILL, end_color=HEADER_FILL, fill_type="solid")
        cell.font = Font(bold=True, color="FFFFFF")
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = "A2"


def _highlight(sheet: Any, status: str) -> None:
    from openpyxl.styles import PatternFill

    colour = FILLS.get(status)
    if colour is not None:
        for cell in sheet[sheet.max_row]:
            cell.fill = PatternFill(start_color=colour, end_color=colour, fill_type="solid")


def _summary_sheet(book: Any, analysis: RunAnalysis) -> None:
    sheet = book.active
    sheet.title = "Summary"
    append_row(sheet, SUMMARY_COLUMNS)
    for row in analysis.rows:
        cells = summary_cells(analysis, row)
        append_row(sheet, [cells[c] if cells[c] != "" else None for c in SUMMARY_COLUMNS])
        _highlight(sheet, row.status)
    _style(sheet, [18, 7, 7, 7, 9, 9, 12, 12, 12, 12, 10, 40, 12, 12, 12, 12, 30, 30])


def _cause_sheet(book: Any, analysis: RunAnalysis) -> None:
    sheet = book.create_sheet("Root cause")
    append_row(sheet, CAUSE_COLUMNS)
    for diff in analysis.diffs:
        a, b = diff.default, diff.candidate
        evidence = "\n".join(f"{ref.side} {analysis.relpath(ref.source)}:{ref.source.line}" for ref in diff.evidence)
        append_row(sheet, [diff.name, diff.status, diff.perf_delta_pct, a.result_perf if a else None,
                           b.result_perf if b else None, "\n".join(cause_text(c, EN) for c in diff.causes),
                           evidence])
        _highlight(sheet, diff.status)
    _style(sheet, [18, 14, 10, 14, 14, 60, 50])


def _files_sheet(book: Any, analysis: RunAnalysis) -> None:
    sheet = book.create_sheet("Files")
    append_row(sheet, FILE_COLUMNS)
    for role, scan in analysis.scans.items():
        label = scan.listing.side.label
        for log in scan.logs:
            append_row(sheet, [role, label, "ATT log", log.file.relpath, log.file.size, log.scan.line_count])
        for kind, files, count, size in (("text, no ATT lines", scan.plain, scan.plain_count, scan.plain_bytes),
                                         ("binary, not read", scan.binary, scan.binary_count, scan.binary_bytes)):
            for found in files:
                append_row(sheet, [role, label, kind, found.relpath, found.size, None])
            if count > len(files):  # SideScan lists the first MAX_LISTED of a kind and counts the rest
                rest = size - sum(f.size for f in files)
                append_row(sheet, [role, label, kind, f"… {count - len(files)} more", rest, None])
        for folder in scan.listing.folders:
            append_row(sheet, [role, label, f"{folder.category}/ folder ({folder.files} files)", folder.relpath,
                               folder.bytes, None])
    _style(sheet, [10, 12, 24, 50, 12, 10])


def summary_xlsx(analysis: RunAnalysis) -> bytes:
    """The workbook's bytes (sheets Summary, Root cause, Files)."""
    from openpyxl import Workbook  # lazy: only this output needs openpyxl

    book = Workbook()
    _summary_sheet(book, analysis)
    _cause_sheet(book, analysis)
    _files_sheet(book, analysis)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
