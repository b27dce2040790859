"""PrecisionTableModel: every PrecisionRow of a run, with verdict colours; rows may stream in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from autofuse_studio.core.precision.palette import VERDICT_COLOURS, background_hex
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.stats import StatsThresholds
from autofuse_studio.ui.precision.columns import (
    COLUMNS,
    LONG_TEXT_COLUMNS,
    VERDICT_COLUMN,
    Column,
    cosine_tooltip,
    full_text,
    translated_texts,
)
from autofuse_studio.ui.precision.signature_text import signature_tooltip
from autofuse_studio.ui.precision.stats_text import stats_tooltip

ROW_ROLE = Qt.ItemDataRole.UserRole + 1  # the PrecisionRow itself
SORT_ROLE = Qt.ItemDataRole.UserRole + 2  # the raw value (number or text) the column sorts by
AnyIndex = QModelIndex | QPersistentModelIndex
RoleSpan = QModelRoleDataSpan | QModelRoleData


def role_entries(span: RoleSpan) -> Iterable[QModelRoleData]:
    """The entries of a multiData span (a single QModelRoleData is a span of one)."""
    if type(span) is QModelRoleData:  # not isinstance + typing.cast: two calls less per painted cell
        return (span,)
    return span  # type: ignore[return-value]  # iterable by __len__/__getitem__, which the stubs omit


def clear_roles(span: RoleSpan) -> None:
    """Mark every role of the span as having no value."""
    for role_data in role_entries(span):
        role_data.clearData()


def verdict_colour(verdict: str) -> QColor:
    """The background colour of a verdict (core.precision.palette: the same colours as the xlsx export)."""
    return QColor(background_hex(verdict))


CELL_CACHE_SIZE = 4096  # cells whose role values are kept (a 4K screen shows ~1,500)
_UNKNOWN = object()
# Cells of a statistics row whose tooltip tells its statistics story (the limits, every broken statistic).
STATS_TOOLTIP_COLUMNS = frozenset({"statistics", "cosine", "max_abs_err", "max_rel_err", "verdict"})


class PrecisionTableModel(QAbstractTableModel):
    """A flat table model over PrecisionRows; the rows are shared with the engine's result."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[PrecisionRow] = []
        self._search_texts: list[str] | None = None  # see set_rows
        # (source position, column) -> {role: value} of cells painted lately (see fill_roles).
        self._cells: dict[tuple[int, int], dict[int, Any]] = {}
        self._brushes = {verdict: QBrush(verdict_colour(verdict)) for verdict in VERDICT_COLOURS}
        self._black = QBrush(QColor("black"))
        self._right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._stats_thresholds = StatsThresholds()  # for the statistics rows' tooltips

    @property
    def rows(self) -> Sequence[PrecisionRow]:
        """The rows in insertion order (read-only view)."""
        return self._rows

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        """Number of rows (0 under any valid parent: the model is flat)."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """Number of columns."""
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text, sort value, verdict colour, message tooltip, alignment or the row itself."""
        if not index.isValid():
            return None
        return self.value(index.row(), index.column(), role)

    def multiData(self, index: AnyIndex, roleDataSpan: RoleSpan) -> None:
        """Every role a delegate asks for, in one call (see fill_roles)."""
        if index.isValid():
            self.fill_roles(index.row(), index.column(), roleDataSpan)
        else:
            clear_roles(roleDataSpan)

    def fill_roles(self, position: int, column_number: int, span: RoleSpan) -> None:
        """Set every role of `span` for one cell, as data() gives them.

        A painted cell asks for seven roles: one Python call instead of seven (each a GIL hand-over while
        a worker runs Python) makes the table paint several times faster during an analysis. The values
        are kept: while rows stream in, every insert repaints the same visible cells.
        """
        key = (position, column_number)
        values = self._cells.get(key)
        if values is None:
            if len(self._cells) >= CELL_CACHE_SIZE:
                self._cells.clear()
            values = self._cells[key] = {}
        for role_data in (span,) if type(span) is QModelRoleData else span:  # type: ignore[union-attr]  # role_entries(), inlined
            role = role_data.role()
            value = values.get(role, _UNKNOWN)
            if value is _UNKNOWN:
                value = values[role] = self.value(position, column_number, role)
            if value is None:
                role_data.clearData()  # the delegate reuses its span: no stale value from the last cell
            else:
                role_data.setData(value)

    def value(self, position: int, column_number: int, role: int) -> Any:
        """The value of one role of the cell at a source position and column (None when it has none)."""
        row = self._rows[position]
        column = COLUMNS[column_number]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.display(row)
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._brushes.get(row.verdict)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._black  # verdict colours are light: keep text readable in dark themes
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self._right if column.numeric and not column.left_aligned else None
        if role == SORT_ROLE:
            return column.value(row)
        if role == ROW_ROLE:
            return row
        return None

    def _tooltip(self, row: PrecisionRow, column: Column) -> str | None:
        """The row's message; for names and statuses the full cell text first (the cell may be elided).

        A statistics row's statistics and error cells give its whole statistics comparison instead.
        """
        if row.stats is not None and column.key in STATS_TOOLTIP_COLUMNS:
            return stats_tooltip(row, self._stats_thresholds.limits_for(row.stats.dtype))
        if column.key == "signature" and row.signature is not None:  # the label's sentence, in the UI language
            return signature_tooltip(row.signature)
        parts = [full_text(row, column)] if column.key in LONG_TEXT_COLUMNS else []
        if column.key == "cosine" and (zeros := cosine_tooltip(row)) is not None:
            parts.append(zeros)  # a cosine of 0 on a row that is fine: say why
        if row.message:
            parts.append(row.message)
        return "\n".join(parts) or None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Translated column headers and their tooltips (what a column holds, a metric's formula); row numbers."""
        if (role == Qt.ItemDataRole.TextAlignmentRole and orientation == Qt.Orientation.Horizontal
                and 0 <= section < len(COLUMNS) and COLUMNS[section].key in LONG_TEXT_COLUMNS):
            # Left, like the names below: a centred title of a very wide column sits off-screen.
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if (role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal
                and 0 <= section < len(COLUMNS)):
            return COLUMNS[section].translated_tooltip()
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section].translated_header() if 0 <= section < len(COLUMNS) else None
        return str(section + 1)

    def set_rows(self, rows: Sequence[PrecisionRow], search_texts: list[str] | None = None) -> None:
        """Replace every row (`search_texts`: the filter's search text of each, when already worked out)."""
        self.beginResetModel()
        self._cells.clear()
        self._rows = list(rows)
        self._search_texts = search_texts if search_texts is not None and len(search_texts) == len(rows) else None
        self.endResetModel()
        self._search_texts = None

    def take_search_texts(self) -> list[str] | None:
        """The search texts given with the rows of the reset under way, once (None: none given)."""
        texts, self._search_texts = self._search_texts, None
        return texts

    def append_rows(self, rows: Sequence[PrecisionRow]) -> None:
        """Add rows at the end (streamed results)."""
        if not rows:
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.endInsertRows()

    def clear(self) -> None:
        """Remove every row."""
        self.set_rows([])

    def set_stats_thresholds(self, thresholds: StatsThresholds) -> None:
        """The statistics limits the tooltips name (set with the result and on every threshold edit)."""
        self._stats_thresholds = thresholds
        self._cells.clear()

    def verdicts_changed(self) -> None:
        """Tell views that verdicts (and so colours) of all rows may have changed."""
        self._cells.clear()
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(COLUMNS) - 1),
                                  [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.BackgroundRole])

    def retranslate(self) -> None:
        """Headers changed language."""
        translated_texts.cache_clear()
        self._cells.clear()
        if self._rows:  # the Kind and Signature columns are translated too
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(COLUMNS) - 1))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    def row_at(self, position: int) -> PrecisionRow:
        """The row at a source position."""
        return self._rows[position]

    def position_of(self, row: PrecisionRow) -> int:
        """The source position of a row object, or -1."""
        for position, candidate in enumerate(self._rows):
            if candidate is row:
                return position
        return -1


__all__ = ["ROW_ROLE", "SORT_ROLE", "VERDICT_COLUMN", "PrecisionTableModel", "verdict_colour"]
