"""Compare models: one row per operator key with coloured performance changes, and the field diffs of a key."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush

from autofuse_studio.core.att.compare import PERF_METRICS, Comparison, FieldDiff, PerfDiff
from autofuse_studio.ui.att.palette import IMPROVED, ONLY_ONE, REGRESSED
from autofuse_studio.ui.att.summary_model import refilter_rows
from autofuse_studio.ui.widgets.columns_model import ColumnsTableModel

AnyIndex = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
CHANGE_ROLE = Qt.ItemDataRole.UserRole + 1  # "improved" | "regressed" | None
KEY_ROLE = Qt.ItemDataRole.UserRole + 2
BOTH, ONLY_BASELINE, ONLY_CANDIDATE = "both", "only baseline", "only candidate"
FIXED_COLUMNS = ("Operator | Graph | Result | Group", "In", "Case")
TAIL_COLUMNS = ("Field diffs",)
VIEWS = ("all", "changed", "regressed", "improved", "only-one")


def _shown(text: str) -> str:
    """Column titles and presence values in the current language (metric names stay as they are)."""
    texts = {
        "Operator | Graph | Result | Group": QCoreApplication.translate("CompareTableModel",
                                                                        "Operator | Graph | Result | Group"),
        "In": QCoreApplication.translate("CompareTableModel", "In"),
        "Case": QCoreApplication.translate("CompareTableModel", "Case"),
        "Field diffs": QCoreApplication.translate("CompareTableModel", "Field diffs"),
        BOTH: QCoreApplication.translate("CompareTableModel", "both"),
        ONLY_BASELINE: QCoreApplication.translate("CompareTableModel", "only baseline"),
        ONLY_CANDIDATE: QCoreApplication.translate("CompareTableModel", "only candidate"),
        "Column": QCoreApplication.translate("FieldDiffModel", "Column"),
        "Baseline": QCoreApplication.translate("FieldDiffModel", "Baseline"),
        "Candidate": QCoreApplication.translate("FieldDiffModel", "Candidate"),
        "Difference": QCoreApplication.translate("FieldDiffModel", "Difference"),
    }
    return texts.get(text, text)


@dataclass
class CompareRow:
    """One operator key: where it appears, its perf changes and field differences."""

    key: str
    presence: str
    values1: dict[str, str]
    values2: dict[str, str]
    perf: dict[str, PerfDiff] = field(default_factory=dict)
    fields: list[FieldDiff] = field(default_factory=list)

    @property
    def regressed(self) -> bool:
        """Any metric got worse (higher)."""
        return any(not d.improved for d in self.perf.values())

    @property
    def improved(self) -> bool:
        """Any metric got better (lower)."""
        return any(d.improved for d in self.perf.values())


def compare_rows(result: Comparison) -> list[CompareRow]:
    """Common keys first (sorted), then keys of only one run."""
    perf: dict[str, dict[str, PerfDiff]] = {}
    for diff in result.perf_diffs:
        perf.setdefault(diff.key, {})[diff.metric] = diff
    fields: dict[str, list[FieldDiff]] = {}
    for fdiff in result.field_diffs:
        fields.setdefault(fdiff.key, []).append(fdiff)
    rows1, rows2 = result.table1.rows, result.table2.rows
    rows = [CompareRow(k, BOTH, rows1[k], rows2[k], perf.get(k, {}), fields.get(k, [])) for k in result.common_keys]
    rows += [CompareRow(k, ONLY_BASELINE, rows1[k], {}) for k in result.only_keys1]
    rows += [CompareRow(k, ONLY_CANDIDATE, {}, rows2[k]) for k in result.only_keys2]
    return rows


def _metric_text(row: CompareRow, metric: str) -> str:
    diff = row.perf.get(metric)
    if diff is not None:
        percent = "" if diff.percent is None else f" ({diff.percent:+.2f}%)"
        return f"{diff.value1:g} → {diff.value2:g}{percent}"
    return (row.values1 or row.values2).get(metric, "") or ""


class CompareTableModel(ColumnsTableModel):
    """Per key: presence, case change, the perf metrics (green = lower = better, red = worse), diff count."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[CompareRow] = []
        self.columns = [*FIXED_COLUMNS, *PERF_METRICS, *TAIL_COLUMNS]

    def set_comparison(self, result: Comparison | None) -> None:
        """Show a comparison (None clears)."""
        self.beginResetModel()
        self.rows = compare_rows(result) if result else []
        self.endResetModel()

    def header_text(self, column: str) -> str:
        """The column title in the current language."""
        return _shown(column)

    def retranslate(self) -> None:
        """Headers and the presence column changed language."""
        super().retranslate()
        if self.rows:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self.rows) - 1, 1))

    def row_total(self) -> int:
        """One row per operator key."""
        return len(self.rows)

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """Texts, change kind and colours."""
        if not index.isValid():
            return None
        row, column = self.rows[index.row()], self.columns[index.column()]
        if role == KEY_ROLE:
            return row.key
        change = self._change(row, column)
        if role == CHANGE_ROLE:
            return change
        if role in (DISPLAY, Qt.ItemDataRole.ToolTipRole):
            return self._text(row, column)
        if role == Qt.ItemDataRole.BackgroundRole:
            if change is not None:
                return QBrush(IMPROVED if change == "improved" else REGRESSED)
            if row.presence != BOTH:
                return QBrush(ONLY_ONE)
        return None

    @staticmethod
    def _change(row: CompareRow, column: str) -> str | None:
        diff = row.perf.get(column)
        if diff is None:
            return None
        return "improved" if diff.improved else "regressed"

    @staticmethod
    def _text(row: CompareRow, column: str) -> str:
        if column == FIXED_COLUMNS[0]:
            return row.key
        if column == FIXED_COLUMNS[1]:
            return _shown(row.presence)
        if column == FIXED_COLUMNS[2]:
            case1, case2 = row.values1.get("Case", ""), row.values2.get("Case", "")
            return case1 or case2 if case1 == case2 or not (case1 and case2) else f"{case1} → {case2}"
        if column == TAIL_COLUMNS[0]:
            return str(len(row.fields)) if row.presence == BOTH else ""
        return _metric_text(row, column)


class CompareFilterProxy(QSortFilterProxyModel):
    """all / changed / regressed / improved / only-one rows."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.view = "all"

    def set_view(self, view: str) -> None:
        """Choose one of VIEWS."""
        refilter_rows(self, lambda: setattr(self, "view", view))

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        """Test the row against the chosen view."""
        model = self.sourceModel()
        if not isinstance(model, CompareTableModel) or self.view == "all":
            return True
        row = model.rows[source_row]
        return {
            "changed": bool(row.perf or row.fields) or row.presence != BOTH,
            "regressed": row.regressed,
            "improved": row.improved,
            "only-one": row.presence != BOTH,
        }.get(self.view, True)


class FieldDiffModel(ColumnsTableModel):
    """The differing cells (tiling values, case, metrics, statuses) of one key."""

    COLUMNS = ("Column", "Baseline", "Candidate", "Difference", "%")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = list(self.COLUMNS)
        self.diffs: list[FieldDiff] = []

    def set_diffs(self, diffs: list[FieldDiff]) -> None:
        """Show the diffs of one key."""
        self.beginResetModel()
        self.diffs = list(diffs)
        self.endResetModel()

    def header_text(self, column: str) -> str:
        """The column title in the current language."""
        return _shown(column)

    def row_total(self) -> int:
        """One row per differing cell."""
        return len(self.diffs)

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """The cell values and their numeric difference."""
        if not index.isValid() or role != DISPLAY:
            return None
        diff = self.diffs[index.row()]
        column = index.column()
        if column == 3:
            return "" if diff.difference is None else f"{diff.difference:+g}"
        if column == 4:
            return "" if diff.percent is None else f"{diff.percent:+.2f}%"
        return (diff.column, diff.value1, diff.value2)[column]
