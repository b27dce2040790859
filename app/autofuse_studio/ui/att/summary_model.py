"""Summary table model (the CLI's summary columns plus parse status and source) and its status filter."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor

from autofuse_studio.core.att.summary import OK, SummaryRow, tiling_columns
from autofuse_studio.core.att.summary_output import BASE_COLUMNS, FINAL_COLUMNS, STATUS_COLUMN, row_cells
from autofuse_studio.ui.widgets.columns_model import ColumnsTableModel

AnyIndex = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2
SOURCE_COLUMN = "Source"
LOG_COLUMN = "Log file"  # next to Operator when the rows come from several logs: tells duplicates apart
PROBLEM_FILL = QColor("#fde7c8")
OK_FILL = QColor("#e3f4e1")
ALL_STATUSES = "all"
PROBLEMS = "problems"
# Columns of words: never right-aligned, even when every cell happens to look like a number.
TEXT_COLUMNS = frozenset({"Operator", LOG_COLUMN, STATUS_COLUMN, SOURCE_COLUMN, "Final Source", "Pipe Estimate",
                          "Tiling Repr", "Final Parse Status"})
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def status_tokens(status: str) -> list[str]:
    """`ok;missing_result_performance` -> its parts (a row can carry several statuses)."""
    return [part for part in status.split(";") if part]


def is_problem(status: str) -> bool:
    """True for any status other than plain ok."""
    return status != OK


def refilter_rows(proxy: QSortFilterProxyModel, change: Callable[[], None]) -> None:
    """Apply a filter change and re-filter rows with the API this Qt has.

    Qt 6.10 deprecates invalidateRowsFilter() (a warning, hence a test error) for begin/endFilterChange.
    """
    if hasattr(proxy, "endFilterChange"):
        proxy.beginFilterChange()
        change()
        proxy.endFilterChange(QSortFilterProxyModel.Direction.Rows)
    else:  # Qt < 6.10
        change()
        proxy.invalidateRowsFilter()


def is_number(text: str) -> bool:
    """True for a cell text that is a number (`512.0`, `-3`, `1e+20`, `nan`)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def shown_number(text: str) -> str:
    """How a number cell is shown: integers without `.0` (`512.0` -> `512`); other texts as they are.

    Display only: exports write the CLI's texts (see core/att/summary_output.py).
    """
    if text.endswith(".0") and text[:-2].lstrip("-").isdigit():
        return text[:-2]
    return text


def _sort_value(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return text.lower()


class SummaryTableModel(ColumnsTableModel):
    """One row per summary row; cells are the CLI's texts, numbers sort as numbers."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[SummaryRow] = []
        self.columns: list[str] = []
        self.cells: list[dict[str, str]] = []
        self.numeric: set[str] = set()  # columns whose every non-empty cell is a number

    def set_rows(self, rows: list[SummaryRow]) -> None:
        """Show rows: Operator (and Log file), Parse Status, then the CLI's columns (tiling values, Final*), Source.

        Parse Status comes right after the operator so that the reason of a problem row is on screen
        without scrolling sideways (the CLI prints it last; its exports keep that order).
        """
        self.beginResetModel()
        self.rows = list(rows)
        values = tiling_columns(self.rows)
        finals = FINAL_COLUMNS if any(r.final is not None for r in self.rows) else []
        files = {row.source.path for row in self.rows if row.source}
        log = [LOG_COLUMN] if len(files) > 1 else []
        self.columns = [*BASE_COLUMNS[:1], *log, STATUS_COLUMN, *BASE_COLUMNS[1:], *values, *finals, SOURCE_COLUMN]
        self.cells = []
        for row in self.rows:
            cells = row_cells(row, values)
            cells[SOURCE_COLUMN] = str(row.source) if row.source else ""
            cells[LOG_COLUMN] = os.path.basename(row.source.path) if row.source else ""
            self.cells.append(cells)
        self.numeric = {column for column in self.columns if column not in TEXT_COLUMNS and _all_numbers(
            cells[column] for cells in self.cells)}
        self.endResetModel()

    def header_text(self, column: str) -> str:
        """The CLI's column names as they are; only the app's own Source and Log file columns are translated."""
        if column == SOURCE_COLUMN:
            return QCoreApplication.translate("SummaryTableModel", "Source")
        if column == LOG_COLUMN:
            return QCoreApplication.translate("SummaryTableModel", "Log file")
        return column

    def statuses(self) -> list[str]:
        """Every status token present, sorted (for the filter combo)."""
        return sorted({token for row in self.rows for token in status_tokens(row.status)})

    def row_total(self) -> int:
        """One row per summary row."""
        return len(self.rows)

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """Texts (integers without `.0`), numeric sort keys, numbers right-aligned, status colours, the row."""
        if not index.isValid():
            return None
        column = self.columns[index.column()]
        text = self.cells[index.row()][column]
        status = self.rows[index.row()].status
        if role == Qt.ItemDataRole.ToolTipRole and column == LOG_COLUMN:
            source = self.rows[index.row()].source
            return source.path if source else ""
        if role in (DISPLAY, Qt.ItemDataRole.ToolTipRole):
            return shown_number(text) if column in self.numeric else text
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.numeric:
            return RIGHT
        if role == SORT_ROLE:
            return _sort_value(text)
        if role == ROW_ROLE:
            return self.rows[index.row()]
        if role == Qt.ItemDataRole.BackgroundRole and column == STATUS_COLUMN:
            return QBrush(PROBLEM_FILL if is_problem(status) else OK_FILL)
        return None


def _all_numbers(texts: Iterable[str]) -> bool:
    """True when there is at least one non-empty text and every non-empty one is a number."""
    present = [text for text in texts if text]
    return bool(present) and all(is_number(text) for text in present)


class SummaryFilterProxy(QSortFilterProxyModel):
    """Filters by status (all, any problem, or one status token) and by operator text."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.status = ALL_STATUSES
        self.text = ""
        self.setSortRole(SORT_ROLE)

    def set_status(self, status: str) -> None:
        """ALL_STATUSES, PROBLEMS or a status token such as `missing_group_case`."""
        refilter_rows(self, lambda: setattr(self, "status", status))

    def set_text(self, text: str) -> None:
        """Keep rows whose operator contains text (case-insensitive)."""
        refilter_rows(self, lambda: setattr(self, "text", text.strip().lower()))

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        """Status and text tests on the source row."""
        model = self.sourceModel()
        if not isinstance(model, SummaryTableModel):
            return True
        row = model.rows[source_row]
        if self.text and self.text not in row.operator.lower():
            return False
        if self.status == PROBLEMS:
            return is_problem(row.status)
        return self.status == ALL_STATUSES or self.status in status_tokens(row.status)
