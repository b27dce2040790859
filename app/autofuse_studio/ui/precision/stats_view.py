"""StatsComparisonView: a statistics-mode row's two statistic sets side by side, broken limits highlighted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QTableView, QVBoxLayout, QWidget

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.stats import ItemComparison, StatsComparison, StatsLimits, canonical_dtype
from autofuse_studio.ui.precision.stats_text import (
    NOT_APPLICABLE,
    limits_text,
    mismatch_text,
    number_text,
    one_sided_text,
    relative_text,
    statistic_name,
    verdict_text,
)
from autofuse_studio.ui.widgets.columns_model import ColumnsTableModel
from autofuse_studio.ui.widgets.retranslate import Retranslating
from autofuse_studio.ui.widgets.wrap_label import WrapLabel

_Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
BROKEN_COLOUR = "#f8d0d0"  # the thresholds editor's colour for refused text: "this is beyond what is allowed"
BROKEN_ROLE = Qt.ItemDataRole.UserRole + 1  # True on every cell of a statistic that breaks its limit


class StatsComparisonModel(ColumnsTableModel):
    """One row per statistic present on both sides: name, fused, origin, difference, relative difference."""

    HEADERS = ("Statistic", "Fused", "Origin", "Difference", "Relative difference")  # English; translated

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.columns = list(self.HEADERS)
        self._items: list[ItemComparison] = []
        self._broken: list[bool] = []
        self._mismatch = False  # the element counts differ: the 'count' row is what is wrong
        self._broken_brush = QBrush(QColor(BROKEN_COLOUR))
        self._black = QBrush(QColor("black"))

    def set_comparison(self, stats: StatsComparison | None, limits: StatsLimits) -> None:
        """Show a comparison judged by `limits` (None: no rows)."""
        self.beginResetModel()
        self._items = list(stats.items) if stats is not None else []
        judged = stats is not None and stats.comparable
        self._broken = [judged and item.breaks(limits) for item in self._items]
        self._mismatch = stats is not None and stats.count_mismatch
        self.endResetModel()

    def row_total(self) -> int:
        """Number of statistics shown."""
        return len(self._items)

    def item(self, row: int) -> ItemComparison:
        """The statistic shown in `row`."""
        return self._items[row]

    def is_broken(self, row: int) -> bool:
        """True when the statistic in `row` breaks its limit (or is the differing element count)."""
        return self._broken[row] or (self._mismatch and self._items[row].name == "count")

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Texts, raw numbers (UserRole), the highlight of broken statistics, right-aligned numbers."""
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item, column = self._items[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(item, column)
        if role == Qt.ItemDataRole.UserRole:
            return (item.name, item.fused, item.origin, item.diff, item.rel_diff)[column]
        if role == BROKEN_ROLE:
            return self.is_broken(index.row())
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._broken_brush if self.is_broken(index.row()) else None
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._black if self.is_broken(index.row()) else None  # readable on the light red in dark themes
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return _RIGHT
        return None

    @staticmethod
    def _text(item: ItemComparison, column: int) -> str:
        if column == 0:
            return statistic_name(item.name)
        if column == 1:
            return number_text(item.fused)
        if column == 2:
            return number_text(item.origin)
        if column == 3:
            return number_text(item.diff) if item.diff == item.diff else NOT_APPLICABLE  # NaN: inf vs -inf
        return relative_text(item)

    def header_text(self, column: str) -> str:
        """The column title in the current language."""
        titles = (self.tr("Statistic"), self.tr("Fused"), self.tr("Origin"), self.tr("Difference"),
                  self.tr("Relative difference"))
        return titles[self.HEADERS.index(column)]

    def retranslate(self) -> None:
        """Headers and statistic names changed language."""
        super().retranslate()
        if self._items:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._items) - 1, 0))


class StatsComparisonView(Retranslating, QWidget):
    """The statistics of one row: a verdict sentence, the table (broken statistics in red), the rule and notes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statsComparison")
        self.row: PrecisionRow | None = None
        self.limits = StatsLimits()
        self._reason: Callable[[], str] | None = None
        self.verdict = WrapLabel()
        self.verdict.setObjectName("statsVerdict")
        self.model = StatsComparisonModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)  # as the result table
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionMode(QTableView.SelectionMode.NoSelection)
        self.details = WrapLabel()  # the rule, what only one side has, different shapes
        self.details.setObjectName("statsDetails")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.verdict)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)

    def show_row(self, row: PrecisionRow, limits: StatsLimits) -> None:
        """Show a statistics-mode row judged by `limits` (a row without statistics says why it has none)."""
        self.row, self.limits, self._reason = row, limits, None
        self.retranslate()

    def show_nothing(self, reason: Callable[[], str] | None) -> None:
        """Show no statistics, and `reason()` (worded in the current language) instead."""
        self.row, self._reason = None, reason
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        stats = self.row.stats if self.row is not None else None
        self.model.set_comparison(stats, self.limits)
        if stats is None:
            self.verdict.setText(self._no_statistics_text())
            self.details.setText("")
            return
        dtypes = self.tr("dtype: fused %1, origin %2").replace("%1", canonical_dtype(stats.fused_dtype) or "?").replace(
            "%2", canonical_dtype(stats.origin_dtype) or "?")
        self.verdict.setText(f"{verdict_text(stats, self.limits)}  ({dtypes})")
        lines = [limits_text(self.limits), one_sided_text(stats),
                 None if stats.count_mismatch else mismatch_text(stats)]
        self.details.setText("\n".join(line for line in lines if line))

    def _no_statistics_text(self) -> str:
        """Why nothing is shown: the reason given, or why the selected row has no statistics."""
        if self.row is None:
            return self._reason() if self._reason is not None else ""
        text = self.tr("This row has no statistics to compare (%1).").replace("%1", self.row.status)
        return f"{text}\n{self.row.message}" if self.row.message else text
