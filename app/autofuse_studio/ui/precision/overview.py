"""RankStepOverview: a small rank × step grid above the table, coloured by each cell's worst verdict.

Each cell shows the cell's minimum cosine; hovering gives the row counts; a click filters the table to
that rank and step (a second click on the same cell shows every row again). Hidden for one rank and step.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from autofuse_studio.core.precision.overview import Overview, OverviewCell, build_overview
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.table_model import verdict_colour

AnyIndex = QModelIndex | QPersistentModelIndex
_MAX_VISIBLE_STEPS = 4
_MAX_COLUMNS_WITHOUT_SCROLLING = 16
_EMPTY = Overview([], [], {})


class RankStepModel(QAbstractTableModel):
    """Rows are steps, columns are ranks; a cell's data is its OverviewCell (None where a rank lacks the step)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.overview = _EMPTY
        self._brushes: dict[str, QBrush] = {}

    def set_rows(self, rows: list[PrecisionRow]) -> None:
        """Rebuild the grid from rows with verdicts."""
        self.set_overview(build_overview(rows))

    def set_overview(self, overview: Overview) -> None:
        """Show an overview already built (a threshold edit builds it with the verdicts)."""
        self.beginResetModel()
        self.overview = overview
        self.endResetModel()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """One row per step."""
        return 0 if parent.isValid() else len(self.overview.steps)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """One column per rank."""
        return 0 if parent.isValid() else len(self.overview.ranks)

    def cell(self, index: AnyIndex) -> OverviewCell | None:
        """The OverviewCell shown at `index`."""
        if not index.isValid() or index.row() >= len(self.overview.steps) \
                or index.column() >= len(self.overview.ranks):
            return None
        return self.overview.cell(self.overview.ranks[index.column()], self.overview.steps[index.row()])

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Min cosine as text, worst-verdict background, counts as tooltip."""
        cell = self.cell(index)
        if cell is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return "–" if cell.min_cosine is None else f"{cell.min_cosine:.4f}"
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._brush(cell.worst_verdict)
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor("black"))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(cell)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """'rank 3' across, 'step 0' down."""
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.overview.ranks):
            rank = self.overview.ranks[section]
            return self.tr("rank %1").replace("%1", rank) if rank is not None else self.tr("no rank")
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self.overview.steps):
            step = self.overview.steps[section]
            return self.tr("step %1").replace("%1", step) if step else self.tr("all")
        return None

    def index_of(self, rank: str | None, step: str) -> QModelIndex:
        """The grid index of (rank, step), invalid when absent."""
        if rank not in self.overview.ranks or step not in self.overview.steps:
            return QModelIndex()
        return self.index(self.overview.steps.index(step), self.overview.ranks.index(rank))

    def _brush(self, verdict: str) -> QBrush:
        if verdict not in self._brushes:
            self._brushes[verdict] = QBrush(verdict_colour(verdict))
        return self._brushes[verdict]

    def _tooltip(self, cell: OverviewCell) -> str:
        lines = [self.tr("rank %1, step %2: %3 rows").replace("%1", str(cell.rank)).replace(
            "%2", cell.step or "-").replace("%3", str(cell.rows))]
        lines += [f"{verdict}: {count}" for verdict, count in cell.verdicts.items() if count]
        if cell.min_cosine is not None:
            lines.append(self.tr("min cosine %1").replace("%1", f"{cell.min_cosine:.10f}"))
        first = cell.first_divergence
        if first is not None:
            lines.append(self.tr("first divergence: %1").replace(
                "%1", f"{first.fused_op} {first.kind} {first.fused_index}"))
        lines.append(self.tr("Click to show only this rank and step."))
        return "\n".join(lines)


class RankStepOverview(QTableView):
    """The grid; emits cellChosen(rank, step), or cellChosen(None, None) when the chosen cell is clicked again."""

    cellChosen = Signal(object, object)  # rank (str | None), step (str | None)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rankStepOverview")
        self.grid = RankStepModel(self)
        self.setModel(self.grid)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setCornerButtonEnabled(False)
        # The verdict colours must stay visible on the chosen cell: mark it with a frame instead.
        self.setStyleSheet("QTableView#rankStepOverview::item:selected { border: 2px solid #202020; color: black; }")
        for header in (self.horizontalHeader(), self.verticalHeader()):
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
            header.setHighlightSections(False)
        self.horizontalHeader().setDefaultSectionSize(self.fontMetrics().horizontalAdvance("0.00000") + 16)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self._chosen: tuple[str | None, str] | None = None
        self.clicked.connect(self._on_clicked)
        self.hide()

    def set_rows(self, rows: list[PrecisionRow]) -> None:
        """Show the grid of `rows` (hidden when it has one rank and one step)."""
        self.set_overview(build_overview(rows))

    def set_overview(self, overview: Overview) -> None:
        """Show a built overview (hidden when it has one rank and one step)."""
        self.grid.set_overview(overview)
        self._chosen = None
        self.clearSelection()
        self.setVisible(not self.grid.overview.trivial)
        self._fit_size()

    def _fit_size(self) -> None:
        """As small as the grid: no empty band below or beside it (scroll bars only for big grids)."""
        overview = self.grid.overview
        steps = min(len(overview.steps), _MAX_VISIBLE_STEPS)
        wide = len(overview.ranks) > _MAX_COLUMNS_WITHOUT_SCROLLING
        scroll = self.horizontalScrollBar().sizeHint().height() if wide else 0
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if wide
                                          else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        rows = steps * self.verticalHeader().defaultSectionSize()
        self.setFixedHeight(self.horizontalHeader().sizeHint().height() + rows + scroll + 2 * self.frameWidth())
        columns = len(overview.ranks) * self.horizontalHeader().defaultSectionSize()
        steps_scroll = self.verticalScrollBar().sizeHint().width() if len(overview.steps) > steps else 0
        self.setMaximumWidth(self.verticalHeader().sizeHint().width() + columns + steps_scroll + 2 * self.frameWidth())

    def show_chosen(self, rank: str | None, step: str | None) -> None:
        """Mark the cell the table is filtered to (nothing when the filter is not one cell)."""
        index = self.grid.index_of(rank, step) if step is not None else QModelIndex()
        self._chosen = (rank, step) if index.isValid() and step is not None else None
        if index.isValid():
            self.setCurrentIndex(index)
        else:
            self.clearSelection()

    def _on_clicked(self, index: QModelIndex) -> None:
        cell = self.grid.cell(index)
        if cell is None:
            return
        if self._chosen == (cell.rank, cell.step):
            self.show_chosen(None, None)
            self.cellChosen.emit(None, None)
            return
        self._chosen = (cell.rank, cell.step)
        self.cellChosen.emit(cell.rank, cell.step)
