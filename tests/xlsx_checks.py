"""Test helpers: open an xlsx the tool wrote and check that hostile text came back as plain text cells."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

# Texts that spreadsheet programs would read as formulas or commands if they were written as typed input.
HOSTILE = (
    "=1+2", '=HYPERLINK("http://evil.example","x")', "=cmd|' /C calc'!A0", "+1+2", "-1+2",
    "@SUM(A1:A2)", "\t=1+2", "\r=1+2", "\uff1d1+2", "\uff20SUM(A1)",
)
_FORMULA_ELEMENT = re.compile(rb"<(?:\w+:)?f[\s>/]")


def excel_text(value: str) -> str:
    """A cell's text as Excel reads it (OOXML `_xHHHH_` escapes decoded; openpyxl leaves them)."""
    from openpyxl.utils.escape import unescape

    return str(unescape(value))


def cells_by_text(path: Path) -> dict[str, list[Any]]:
    """Every non-empty string cell of every sheet, keyed by the text Excel shows."""
    from openpyxl import load_workbook

    found: dict[str, list[Any]] = {}
    for sheet in load_workbook(path).worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    found.setdefault(excel_text(cell.value), []).append(cell)
    return found


def assert_text_cells(path: Path, texts: tuple[str, ...] | list[str]) -> None:
    """Each text is in some cell, as a string cell with exactly that text; no sheet holds a formula."""
    cells = cells_by_text(path)
    for text in texts:
        assert text in cells, f"{text!r} not found in {path.name}"
        for cell in cells[text]:
            assert cell.data_type == "s", (text, cell.coordinate)
            if "\r" not in text:
                assert cell.value == text, (text, cell.value)
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                assert not _FORMULA_ELEMENT.search(archive.read(name)), f"formula element in {name}"
