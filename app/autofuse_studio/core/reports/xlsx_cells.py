"""xlsx cells from untrusted text: strings are always text cells (never formulas), numbers stay numbers.

Every workbook the tool writes (nwa --output, report.xlsx, att summary/compare -f excel, GUI exports) puts
its cells through `append_row` or `set_cell`, so an op name such as `=HYPERLINK(...)` or `@SUM(A1)` read
from a graph or a log is stored with its exact text as an inline string, never as a `<f>` formula.
`save_workbook` writes a workbook atomically and leaves nothing half-closed behind when the disk is full.
CSV has no text type: `csv_cell` puts a quote before text that a spreadsheet would run (OWASP's advice).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

# Leads that make Excel (or an importer that trims whitespace) read a typed value as a formula or a
# DDE command; full-width forms included because IME input turns them into the ASCII ones.
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
# Control characters XML 1.0 cannot hold (openpyxl refuses them) and CR (XML readers turn it into LF):
# OOXML spells them `_xHHHH_`, as Excel itself does, and Excel decodes them back to the exact text.
_XML_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f]")


_PLAIN_INTEGER = re.compile(r"(?:0|[1-9][0-9]{0,14})")  # no sign, no leading zero: exactly what int() prints


def integer_cell(value: Any) -> Any:
    """A step or rank read from a folder name: a number when its text is a plain integer ("12" -> 12), so
    spreadsheets sort and filter it as one; any other text ("0012", "step_a", "+1") stays its exact text, as
    every text from the inputs does (turning "0012" into 12 would change what the folder is called)."""
    if isinstance(value, str) and _PLAIN_INTEGER.fullmatch(value):
        return int(value)
    return value


def is_formula_like(text: str) -> bool:
    """True when `text` typed into a spreadsheet cell would start a formula or command."""
    return text.startswith(FORMULA_LEADS)


def csv_cell(value: Any) -> Any:
    """A CSV cell: text that would start a formula or command gets a leading `'` (numbers are left alone).

    A spreadsheet shows such a cell as the text after the quote; a script reading the CSV sees the quote.
    """
    return f"'{value}" if isinstance(value, str) and is_formula_like(value) else value


def xml_safe_text(text: str) -> str:
    """`text` unchanged, except control characters and CR, written as OOXML `_xHHHH_` escapes."""
    return _XML_UNSAFE.sub(lambda match: f"_x{ord(match.group()):04X}_", text)


def fill_cell(cell: Any, value: Any) -> Any:
    """Put `value` into an openpyxl cell: str -> text cell, finite number -> number, None -> empty."""
    if isinstance(value, float) and not math.isfinite(value):
        value = str(value)  # `nan`/`inf` are not numbers Excel can store
    if isinstance(value, str):
        cell.value = xml_safe_text(value)
        cell.data_type = "s"  # openpyxl would make `=...` a formula; keep it text
        if is_formula_like(value):
            cell.quotePrefix = True  # Excel keeps it text even when the user edits the cell
    else:
        cell.value = value
    return cell


def append_row(sheet: Any, values: Iterable[Any]) -> None:
    """Append one row to `sheet` like `Worksheet.append`, every value through `fill_cell`."""
    from openpyxl.cell.cell import Cell  # lazy: only xlsx writers need openpyxl

    sheet.append([fill_cell(Cell(sheet), value) for value in values])


def set_cell(sheet: Any, row: int, column: int, value: Any, number_format: str | None = None) -> Any:
    """Write `value` at (row, column) through `fill_cell`, with an optional number format; returns the cell."""
    cell = fill_cell(sheet.cell(row=row, column=column), value)
    if number_format is not None:
        cell.number_format = number_format
    return cell


def save_workbook(book: Any, path: str | Path) -> None:
    """Write an openpyxl workbook to `path` atomically (OutputError naming it when that fails).

    openpyxl's own save leaves its ZipFile open when a write fails (a full disk), and the ZipFile's
    __del__ then writes into the closed file later ("Exception ignored in ZipFile.__del__"): here it
    is closed, or disarmed, before the error goes on.
    """
    from zipfile import ZIP_DEFLATED, ZipFile

    from openpyxl.writer.excel import ExcelWriter

    from autofuse_studio.core.reports.atomic import atomic_open

    with atomic_open(path, "wb") as handle:
        archive = ZipFile(handle, "w", ZIP_DEFLATED, allowZip64=True)
        try:
            ExcelWriter(book, archive).save()
        except BaseException:
            with contextlib.suppress(Exception):
                archive.close()
            archive.fp = None  # whatever close() could not finish, __del__ must not try again
            raise
