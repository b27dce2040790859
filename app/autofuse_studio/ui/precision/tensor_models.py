"""Table models of the tensor panel: the top-K worst elements and the per-side statistics."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt

from autofuse_studio.core.precision.tensor_stats import SideStats, TopElement

_Index = QModelIndex | QPersistentModelIndex
_NO_INDEX = QModelIndex()
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def format_value(value: float) -> str:
    """A number the way the panel shows it: integers plainly, floats with 7 significant digits."""
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    return f"{value:.7g}"


class TopKTableModel(QAbstractTableModel):
    """Rank, index, fused, origin, error and |error| of the worst elements (worst first)."""

    HEADERS = ("#", "Index", "Fused", "Origin", "Error", "|Error|")  # English; headerData() translates

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[TopElement] = []

    def set_elements(self, elements: list[TopElement]) -> None:
        """Replace the shown elements."""
        self.beginResetModel()
        self._rows = list(elements)
        self.endResetModel()

    def element(self, row: int) -> TopElement:
        """The element shown in `row`."""
        return self._rows[row]

    def rowCount(self, parent: _Index = _NO_INDEX) -> int:
        """Number of elements (0 under any valid parent: this is a flat table)."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = _NO_INDEX) -> int:
        """Number of columns."""
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Text for display, raw numbers for sorting tools (UserRole), right alignment for numbers."""
        if not index.isValid():
            return None
        element = self._rows[index.row()]
        values: tuple[Any, ...] = (index.row() + 1, element.index, element.fused, element.origin,
                                   element.error, element.abs_error)
        value = values[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 1:
                return "(" + ", ".join(str(i) for i in value) + ")"
            return format_value(value)
        if role == Qt.ItemDataRole.UserRole:
            return value if index.column() != 1 else element.flat_index
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() != 1:
            return _RIGHT
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.headers()[section] if 0 <= section < len(self.HEADERS) else None
        return None

    def headers(self) -> tuple[str, ...]:
        """The column titles in the current language."""
        return ("#", self.tr("Index"), self.tr("Fused"), self.tr("Origin"), self.tr("Error"), self.tr("|Error|"))

    def retranslate(self) -> None:
        """Tell views that the headers changed language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.HEADERS) - 1)


_STAT_FIELDS = (("dtype", "dtype"), ("elements", "Elements"), ("finite", "Finite"), ("nan", "NaN"),
                ("inf", "Inf"), ("min", "Min"), ("max", "Max"), ("mean", "Mean"), ("std", "Std"))


def _stat_title(title: str) -> str:
    """A statistic's name in the current language (dtype, NaN and Inf stay as they are)."""
    texts = {
        "Elements": QCoreApplication.translate("StatsTableModel", "Elements"),
        "Finite": QCoreApplication.translate("StatsTableModel", "Finite"),
        "Min": QCoreApplication.translate("StatsTableModel", "Min"),
        "Max": QCoreApplication.translate("StatsTableModel", "Max"),
        "Mean": QCoreApplication.translate("StatsTableModel", "Mean"),
        "Std": QCoreApplication.translate("StatsTableModel", "Std"),
    }
    return texts.get(title, title)


class StatsTableModel(QAbstractTableModel):
    """One row per statistic, one column per side (fused, origin)."""

    HEADERS = ("Statistic", "Fused", "Origin")  # English; headerData() translates

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._sides: tuple[SideStats, SideStats] | None = None

    def set_stats(self, fused: SideStats, origin: SideStats) -> None:
        """Show the statistics of both sides."""
        self.beginResetModel()
        self._sides = (fused, origin)
        self.endResetModel()

    def rowCount(self, parent: _Index = _NO_INDEX) -> int:
        """Number of statistics (0 before set_stats)."""
        return 0 if parent.isValid() or self._sides is None else len(_STAT_FIELDS)

    def columnCount(self, parent: _Index = _NO_INDEX) -> int:
        """Statistic name plus two sides."""
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The statistic's name or one side's value."""
        if not index.isValid() or self._sides is None:
            return None
        name, title = _STAT_FIELDS[index.row()]
        if index.column() == 0:
            return _stat_title(title) if role == Qt.ItemDataRole.DisplayRole else None
        value = getattr(self._sides[index.column() - 1], name)
        if role == Qt.ItemDataRole.DisplayRole:
            return value if isinstance(value, str) else format_value(value)
        if role == Qt.ItemDataRole.UserRole:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.headers()[section] if 0 <= section < len(self.HEADERS) else None
        return None

    def headers(self) -> tuple[str, ...]:
        """The column titles in the current language."""
        return (self.tr("Statistic"), self.tr("Fused"), self.tr("Origin"))

    def retranslate(self) -> None:
        """Tell views that the headers and statistic names changed language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.HEADERS) - 1)
        if self._sides is not None:
            self.dataChanged.emit(self.index(0, 0), self.index(len(_STAT_FIELDS) - 1, 0))
