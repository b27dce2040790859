"""Qt models of the perf panel: the operator list and the facts of the clicked case."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from autofuse_studio.core.att.case_details import CaseDetails, CaseFact
from autofuse_studio.core.att.perf_model import PerfFormulaModel, PerfOperator
from autofuse_studio.ui.widgets.columns_model import ColumnsTableModel

AnyIndex = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
OPERATOR_COLUMNS = ("Operator", "Selected result", "Groups", "Cases", "Bottlenecks")  # English; see headers
FACT_COLUMNS = ("Kind", "Name", "Value", "Source (file:line)")


def _fact_header(column: str) -> str:
    """A case-facts column title in the current language."""
    texts = {
        "Kind": QCoreApplication.translate("CaseFactsModel", "Kind"),
        "Name": QCoreApplication.translate("CaseFactsModel", "Name"),
        "Value": QCoreApplication.translate("CaseFactsModel", "Value"),
        "Source (file:line)": QCoreApplication.translate("CaseFactsModel", "Source (file:line)"),
    }
    return texts.get(column, column)


def _bottlenecks(op: PerfOperator) -> str:
    pipes = {c.bottleneck_pipe for g in op.groups for c in g.cases if c.selected and c.bottleneck_pipe}
    return ", ".join(sorted(pipes))


class OperatorListModel(QAbstractTableModel):
    """One row per operator with [PERF] lines, then the operators that have none (greyed)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.operators: list[PerfOperator] = []
        self.skipped: list[str] = []

    def set_model(self, model: PerfFormulaModel | None) -> None:
        """Show the operators of a perf model (None clears the list)."""
        self.beginResetModel()
        self.operators = list(model.operators) if model else []
        self.skipped = list(model.skipped) if model else []
        self.endResetModel()

    def operator_at(self, row: int) -> PerfOperator | None:
        """The operator of a row; None for skipped operators and bad rows."""
        return self.operators[row] if 0 <= row < len(self.operators) else None

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt override
        """Operators with pictures plus skipped ones."""
        return 0 if parent.isValid() else len(self.operators) + len(self.skipped)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt override
        """Fixed columns."""
        return 0 if parent.isValid() else len(OPERATOR_COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        """Column titles."""
        if orientation == Qt.Orientation.Horizontal and role == DISPLAY and 0 <= section < len(OPERATOR_COLUMNS):
            return self.headers()[section]
        return None

    def headers(self) -> tuple[str, ...]:
        """The column titles in the current language."""
        return (self.tr("Operator"), self.tr("Selected result"), self.tr("Groups"), self.tr("Cases"),
                self.tr("Bottlenecks"))

    def retranslate(self) -> None:
        """Tell views that headers and texts changed language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(OPERATOR_COLUMNS) - 1)
        if self.skipped:
            self.dataChanged.emit(self.index(len(self.operators), 1), self.index(self.rowCount() - 1, 1))

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """Cell texts; skipped operators say why and are grey."""
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        op = self.operator_at(row)
        if op is None:
            if role == DISPLAY:
                return self.skipped[row - len(self.operators)] if column == 0 else (
                    self.tr("no [PERF] lines") if column == 1 else "")
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(QColor("#888"))
            return None
        if role == DISPLAY:
            return self._cell(op, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == 1 and op.selected is not None:
            return self.tr("Selected case: %1").replace("%1", op.selected.label)
        return None

    @staticmethod
    def _cell(op: PerfOperator, column: int) -> str:
        if column == 0:
            return op.name
        if column == 1:
            return f"graph{op.graph}_result{op.result}"
        if column == 2:
            return ", ".join(f"g{g.group}" for g in op.groups)
        if column == 3:
            return str(sum(len(g.cases) for g in op.groups))
        return _bottlenecks(op)


class CaseFactsModel(ColumnsTableModel):
    """The facts of one case: tiling values, objective, result performance, selection, [PERF] formulas."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = list(FACT_COLUMNS)
        self.facts: list[CaseFact] = []

    def set_details(self, details: CaseDetails | None) -> None:
        """Show the facts of a case (None clears)."""
        self.beginResetModel()
        self.facts = list(details.facts) if details else []
        self.endResetModel()

    def header_text(self, column: str) -> str:
        """The column title in the current language."""
        return _fact_header(column)

    def row_total(self) -> int:
        """One row per fact."""
        return len(self.facts)

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """Kind, name, value (the formula for [PERF] facts) and file:line."""
        if not index.isValid() or role not in (DISPLAY, Qt.ItemDataRole.ToolTipRole):
            return None
        fact = self.facts[index.row()]
        column = index.column()
        if column == 0:
            return fact.kind
        if column == 1:
            return fact.name
        if column == 2:
            return fact.text if fact.kind in ("perf", "selection") else (
                "" if fact.value is None else f"{fact.value:g}")
        return str(fact.source)
