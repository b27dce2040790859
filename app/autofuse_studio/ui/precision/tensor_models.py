"""Table models of the tensor panel: the top-K worst elements and the per-side statistics."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, Qt

from autofuse_studio.core.precision.tensor_stats import SideStats, TopElement
from autofuse_studio.ui.widgets.columns_model import ColumnsTableModel

_Index = QModelIndex | QPersistentModelIndex
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


class TopKTableModel(ColumnsTableModel):
    """Rank, index, fused, origin, error and |error| of the worst elements (worst first)."""

    HEADERS = ("#", "Index", "Fused", "Origin", "Error", "|Error|")  # English; headerData() translates

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.columns = list(self.HEADERS)
        self._rows: list[TopElement] = []

    def set_elements(self, elements: list[TopElement]) -> None:
        """Replace the shown elements."""
        self.beginResetModel()
        self._rows = list(elements)
        self.endResetModel()

    def element(self, row: int) -> TopElement:
        """The element shown in `row`."""
        return self._rows[row]

    def row_total(self) -> int:
        """Number of elements."""
        return len(self._rows)

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

    def header_text(self, column: str) -> str:
        """The column title in the current language."""
        titles = ("#", self.tr("Index"), self.tr("Fused"), self.tr("Origin"), self.tr("Error"), self.tr("|Error|"))
        return titles[self.HEADERS.index(column)]



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


class StatsTableModel(ColumnsTableModel):
    """One row per statistic, one column per side (fused, origin)."""

    HEADERS = ("Statistic", "Fused", "Origin")  # English; headerData() translates

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.columns = list(self.HEADERS)
        self._sides: tuple[SideStats, SideStats] | None = None

    def set_stats(self, fused: SideStats, origin: SideStats) -> None:
        """Show the statistics of both sides."""
        self.beginResetModel()
        self._sides = (fused, origin)
        self.endResetModel()

    def clear(self) -> None:
        """Show no statistics (no pair is shown)."""
        self.beginResetModel()
        self._sides = None
        self.endResetModel()

    def row_total(self) -> int:
        """Number of statistics (0 before set_stats)."""
        return 0 if self._sides is None else len(_STAT_FIELDS)

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

    def header_text(self, column: str) -> str:
        """The column title in the current language."""
        return (self.tr("Statistic"), self.tr("Fused"), self.tr("Origin"))[self.HEADERS.index(column)]

    def retranslate(self) -> None:
        """Tell views that the headers and statistic names changed language."""
        super().retranslate()
        if self._sides is not None:
            self.dataChanged.emit(self.index(0, 0), self.index(len(_STAT_FIELDS) - 1, 0))
