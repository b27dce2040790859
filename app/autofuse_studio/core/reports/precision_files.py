"""Write a precision result as JSON, CSV or xlsx (atomically; the format follows the file suffix)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.reports.atomic import atomic_open, atomic_write_text
from autofuse_studio.core.reports.xlsx_cells import append_row

VERDICT_COLOURS = {"CULPRIT": "F8B4B4", "PROPAGATED": "FBD9A6", "OK": "C8EBC8", "UNKNOWN": "E0E0E0"}
# Columns of the tabular exports, in order (the JSON rows carry the same keys).
TABLE_COLUMNS = (
    "step", "kind", "fused_op", "fused_index", "origin_op", "origin_index", "status", "cosine",
    "max_abs_err", "max_rel_err", "mean_abs_err", "rmse", "rel_euclidean", "one_thousandth_ratio",
    "five_thousandth_ratio", "nan_fused", "inf_fused", "nan_origin", "inf_origin", "nonfinite_mismatch",
    "elements", "verdict",
    "fused_dtype", "origin_dtype", "fused_shape", "origin_shape", "source_type", "message",
    "fused_file", "origin_file",
)
SUFFIXES = (".json", ".csv", ".xlsx")


def _cell(value: Any) -> Any:
    if isinstance(value, list):
        return "x".join(str(dim) for dim in value)
    return value


def table_records(result: PrecisionResult) -> list[list[Any]]:
    """Every row as a list of cell values in TABLE_COLUMNS order (None for empty cells)."""
    return [[_cell(row_dict.get(name)) for name in TABLE_COLUMNS]
            for row_dict in (row.to_dict() for row in result.rows)]


def write_json(result: PrecisionResult, path: Path) -> None:
    """The documented JSON document (NaN as null), UTF-8, keys in a stable order."""
    atomic_write_text(path, json.dumps(result.to_dict(), ensure_ascii=False, indent=2, allow_nan=False) + "\n")


def write_csv(result: PrecisionResult, path: Path) -> None:
    """One header line and one line per row, UTF-8 with BOM so Excel opens Chinese names correctly."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(TABLE_COLUMNS)
    for record in table_records(result):
        writer.writerow(["" if value is None else value for value in record])
    atomic_write_text(path, buffer.getvalue(), encoding="utf-8-sig")


def summary_records(result: PrecisionResult) -> list[tuple[str, Any]]:
    """The (label, value) lines of the summary sheet."""
    records: list[tuple[str, Any]] = [("rows", len(result.rows))]
    records += [(f"status {name}", count) for name, count in result.counts("status").items()]
    records += [(f"verdict {name}", count) for name, count in result.counts("verdict").items()]
    first = result.first_divergence
    records.append(("first divergence", "none" if first is None else
                    f"{first.fused_op} {first.kind} {first.fused_index}"))
    if first is not None:
        records += [("first divergence origin", f"{first.origin_op} output {first.origin_index}"),
                    ("first divergence step", first.step)]
    records.append(("cosine threshold", result.thresholds.default.cosine))
    return records


def write_xlsx(result: PrecisionResult, path: Path) -> None:
    """Sheets 'precision' (frozen header, autofilter, verdict colours) and 'summary'."""
    from openpyxl import Workbook
    from openpyxl.formatting.rule import FormulaRule
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "precision"
    append_row(sheet, TABLE_COLUMNS)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for record in table_records(result):
        append_row(sheet, record)
    last_column = get_column_letter(len(TABLE_COLUMNS))
    last_row = max(2, len(result.rows) + 1)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{last_column}{last_row}"
    verdict_column = get_column_letter(TABLE_COLUMNS.index("verdict") + 1)
    for verdict, colour in VERDICT_COLOURS.items():
        fill = PatternFill(start_color=colour, end_color=colour, fill_type="solid")
        rule = FormulaRule(formula=[f'${verdict_column}2="{verdict}"'], fill=fill)
        sheet.conditional_formatting.add(f"A2:{last_column}{last_row}", rule)
    for number, name in enumerate(TABLE_COLUMNS, start=1):
        sheet.column_dimensions[get_column_letter(number)].width = 40 if name.endswith(("op", "file")) else 14
    summary = workbook.create_sheet("summary")
    for label, value in summary_records(result):
        append_row(summary, [label, value])
    summary.column_dimensions["A"].width = 28
    summary.column_dimensions["B"].width = 60
    with atomic_open(path, "wb") as handle:
        workbook.save(handle)


def write_precision(result: PrecisionResult, path: str | Path) -> Path:
    """Write `result` to `path` in the format its suffix names (.json, .csv, .xlsx)."""
    target = Path(path)
    writers = {".json": write_json, ".csv": write_csv, ".xlsx": write_xlsx}
    writer = writers.get(target.suffix.lower())
    if writer is None:
        raise UsageError(f"Cannot write {target}: the output file must end in .json, .csv or .xlsx.")
    writer(result, target)
    return target
