"""Summary layouts: the reference's CSV (UTF-8 with BOM), console tables and xlsx sheet."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from autofuse_studio.core.att.summary import Summary, SummaryRow, tiling_columns
from autofuse_studio.core.reports.atomic import atomic_write_text
from autofuse_studio.core.reports.xlsx_cells import append_row, save_workbook

BASE_COLUMNS = ["Operator", "Graph", "Result", "Group", "Case", "AIV_MTE2", "AIV_MTE3",
                "Objective Value", "Result Perf"]
FINAL_COLUMNS = ["Final Source", "Tiling Key", "Score", "Pipe Estimate", "Tiling Repr",
                 "Final Parse Status"]
STATUS_COLUMN = "Parse Status"
FINAL_TABLE_COLUMNS = ["Operator", "Graph", "Result", "Group", "Case", *FINAL_COLUMNS]
HEADER_FILL = "4472C4"
# Integer cells of the xlsx, as att.py writes them (Tiling Key and Score are ints of the FINAL record).
INT_COLUMNS = ("Graph", "Result", "Group", "Case", "Tiling Key", "Score")


def _number(value: float | None) -> str:
    return "" if value is None else str(value)


def _compact(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def final_cells(row: SummaryRow) -> dict[str, str]:
    """The Final* columns of a row (empty for legacy rows)."""
    record = row.final
    if record is None:
        return dict.fromkeys(FINAL_COLUMNS, "")
    return {
        "Final Source": record.source or "",
        "Tiling Key": "" if record.tiling_key is None else str(record.tiling_key),
        "Score": "" if record.score is None else str(record.score),
        "Pipe Estimate": _compact(record.pipe_estimates),
        "Tiling Repr": _compact(record.tiling_repr),
        "Final Parse Status": record.status,
    }


def row_cells(row: SummaryRow, value_columns: list[str]) -> dict[str, str]:
    """Every column of a row as text; missing values are empty strings."""
    cells = {
        "Operator": row.operator, "Graph": str(row.graph), "Result": str(row.result),
        "Group": str(row.group), "Case": str(row.case), "AIV_MTE2": _number(row.aiv_mte2),
        "AIV_MTE3": _number(row.aiv_mte3), "Objective Value": _number(row.objective),
        "Result Perf": _number(row.result_perf),
    }
    for name in value_columns:
        cells[name] = _number(row.tiling_values.get(name))
    cells.update(final_cells(row))
    cells[STATUS_COLUMN] = row.status
    return cells


def csv_columns(rows: list[SummaryRow], with_status: bool = False) -> list[str]:
    """The CSV header: base, tiling values, Final*, and Parse Status only on request."""
    columns = [*BASE_COLUMNS, *tiling_columns(rows), *FINAL_COLUMNS]
    return [*columns, STATUS_COLUMN] if with_status else columns


def summary_csv_text(summary: Summary, with_status: bool = False, rows: list[SummaryRow] | None = None) -> str:
    """The CSV text (without BOM; the writer adds it) with `\\n` line endings; `rows` default to export_rows
    (what the GUI shows; `att summary` passes Summary.file_rows, att.py's rows)."""
    rows = summary.export_rows if rows is None else rows
    columns = csv_columns(rows, with_status)
    value_columns = tiling_columns(rows)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(row_cells(row, value_columns))
    return buffer.getvalue()


def write_summary_csv(summary: Summary, path: str | Path, with_status: bool = False,
                      rows: list[SummaryRow] | None = None) -> None:
    """Write the CSV as UTF-8 with BOM, atomically (`rows`: see summary_csv_text)."""
    atomic_write_text(path, summary_csv_text(summary, with_status, rows), encoding="utf-8-sig")


def console_table(summary: Summary) -> str:
    """The legacy table padded like the reference, plus a Parse Status column; then FINAL rows."""
    parts = []
    rows = summary.legacy_rows
    if rows:
        value_columns = tiling_columns(rows)
        columns = [*BASE_COLUMNS, *value_columns, STATUS_COLUMN]
        cells = [row_cells(row, value_columns) for row in rows]
        widths = {c: max(len(c), 15) for c in columns}
        widths["Operator"] = max(widths["Operator"], *(len(r.operator) for r in rows))
        widths[STATUS_COLUMN] = max(widths[STATUS_COLUMN], *(len(r.status) for r in rows))
        header = "  ".join(c.ljust(widths[c]) for c in columns)
        parts += [header, "-" * len(header)]
        parts += ["  ".join((cell[c] or "N/A").ljust(widths[c]) for c in columns) for cell in cells]
    else:
        parts.append("No data to display.")
    if summary.final_rows:
        parts.append(final_table(summary.final_rows))
    return "\n".join(parts) + "\n"


def final_table(rows: list[SummaryRow]) -> str:
    """The FINAL_TILING table: 11 columns joined by two spaces, as the reference prints it."""
    header = "  ".join(FINAL_TABLE_COLUMNS)
    lines = [header, "-" * (len(header) + 1)]
    for row in rows:
        cells = row_cells(row, [])
        lines.append("  ".join(cells[c] for c in FINAL_TABLE_COLUMNS))
    return "\n".join(lines)


def write_summary_xlsx(summary: Summary, path: str | Path, rows: list[SummaryRow] | None = None) -> None:
    """Sheet "Summary": header fill 4472C4, bold white font, centred cells, width 15, with status.

    `rows`: see summary_csv_text."""
    from openpyxl import Workbook  # lazy: only this path needs openpyxl
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    rows = summary.export_rows if rows is None else rows
    value_columns = tiling_columns(rows)
    columns = [*BASE_COLUMNS, *value_columns]
    if summary.has_final:
        columns += FINAL_COLUMNS
    columns.append(STATUS_COLUMN)
    book = Workbook()
    sheet = book.active
    sheet.title = "Summary"
    append_row(sheet, columns)
    for row in rows:
        cells = row_cells(row, value_columns)
        append_row(sheet, [_xlsx_value(c, cells[c], row) for c in columns])
    centre = Alignment(horizontal="center", vertical="center")
    for cell in sheet[1]:
        cell.fill = PatternFill(start_color=HEADER_FILL, end_color=HEADER_FILL, fill_type="solid")
        cell.font = Font(bold=True, color="FFFFFF")
    for line in sheet.iter_rows():
        for cell in line:
            cell.alignment = centre
    for index in range(1, len(columns) + 1):
        sheet.column_dimensions[get_column_letter(index)].width = 15
    save_workbook(book, path)  # atomic, and one error on a full disk (no ZipFile.__del__ noise)


def _xlsx_value(column: str, text: str, row: SummaryRow) -> Any:
    """Numbers stay numbers in xlsx; missing values are empty cells."""
    if text == "":
        return None
    if column in INT_COLUMNS:
        return int(text)
    if column in BASE_COLUMNS[5:] or column in row.tiling_values:
        return float(text)
    return text
