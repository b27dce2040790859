"""A flat table model base: row counting and horizontal headers from a list of column titles."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

AnyIndex = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole


class ColumnsTableModel(QAbstractTableModel):
    """Subclasses set `columns` and implement `row_total()` and `data()`."""

    columns: list[str]

    def row_total(self) -> int:
        """How many rows the model shows."""
        raise NotImplementedError

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt override
        """Rows of a flat table (children of the root only)."""
        return 0 if parent.isValid() else self.row_total()

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt override
        """One column per title."""
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        """The column titles."""
        if orientation == Qt.Orientation.Horizontal and role == DISPLAY and 0 <= section < len(self.columns):
            return self.header_text(self.columns[section])
        return None

    def header_text(self, column: str) -> str:
        """How a column's title is shown: subclasses translate the titles that are not data names."""
        return column

    def retranslate(self) -> None:
        """Tell views that the headers changed language."""
        if self.columns:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.columns) - 1)
