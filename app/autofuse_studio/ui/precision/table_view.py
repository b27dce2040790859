"""PrecisionTableView: the result table with row selection, Ctrl+C as TSV and 'go to row'."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence, QPaintEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.columns import COLUMNS, visual_order
from autofuse_studio.ui.precision.filters import PrecisionProxyModel
from autofuse_studio.ui.precision.row_header import PaintingHeader, RowNumberHeader

_WIDE_COLUMNS = {"fused_op": 240, "origin_op": 240}


class PrecisionTableView(QTableView):
    """A table of PrecisionRows shown through a PrecisionProxyModel."""

    rowSelected = Signal(object)  # the PrecisionRow of the current row

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("precisionTable")
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.setCornerButtonEnabled(False)
        # Uniform row heights: the view never measures rows, so 100k rows scroll as fast as 100.
        self.setVerticalHeader(RowNumberHeader(self))
        self.setHorizontalHeader(PaintingHeader(Qt.Orientation.Horizontal, self))
        vertical = self.verticalHeader()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 6)
        horizontal = self.horizontalHeader()
        horizontal.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        horizontal.setSectionsMovable(True)
        horizontal.setHighlightSections(False)
        horizontal.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.copy_action = QAction(self)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.triggered.connect(self.copy_selection)
        self.addAction(self.copy_action)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.copy_action.setText(self.tr("Copy rows"))

    def set_proxy(self, proxy: PrecisionProxyModel) -> None:
        """Show `proxy`; sorting by header clicks starts in run order."""
        self.setModel(proxy)
        self.setSortingEnabled(True)
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        proxy.sort(-1)
        self.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.apply_default_order()
        self.fit_columns()

    def apply_default_order(self) -> None:
        """Rank, step and verdict next to the op names (visual moves: model columns keep their indexes)."""
        header = self.horizontalHeader()
        for position, logical in enumerate(visual_order()):
            header.moveSection(header.visualIndex(logical), position)

    def visible_columns(self) -> list[int]:
        """Logical indexes of the shown columns, in visual order."""
        header = self.horizontalHeader()
        logical = (header.logicalIndex(visual) for visual in range(header.count()))
        return [number for number in logical if not self.isColumnHidden(number)]

    def visible_rows(self) -> list[PrecisionRow]:
        """The rows inside the viewport, top to bottom."""
        proxy = self.proxy()
        first = max(0, self.rowAt(0))
        last = self.rowAt(self.viewport().height() - 1)
        last = proxy.rowCount() - 1 if last < 0 else last
        return [proxy.row_at(number) for number in range(first, last + 1)]

    def proxy(self) -> PrecisionProxyModel:
        """The proxy model shown."""
        model = self.model()
        assert isinstance(model, PrecisionProxyModel)
        return model

    def fit_columns(self) -> None:
        """Widths from the header texts alone (before rows arrive; workbench fits contents once they do)."""
        metrics = self.fontMetrics()
        for number, column in enumerate(COLUMNS):
            header = metrics.horizontalAdvance(column.translated_header()) + 28
            self.setColumnWidth(number, max(header, _WIDE_COLUMNS.get(column.key, 96)))

    def selected_rows(self) -> list[PrecisionRow]:
        """The selected rows in display order."""
        proxy = self.proxy()
        # From the selection's ranges (whole rows: SelectRows): selectedRows() tests every column of every
        # row and took 0.1 s for 1000 scattered rows.
        ranges = self.selectionModel().selection()
        parts = (ranges.at(number) for number in range(ranges.count()))
        numbers = sorted({row for part in parts for row in range(part.top(), part.bottom() + 1)})
        return [proxy.row_at(number) for number in numbers]

    def selection_tsv(self) -> str:
        """The selected rows as tab-separated text with a header line (what Ctrl+C copies)."""
        lines = ["\t".join(column.translated_header() for column in COLUMNS)]
        for row in self.selected_rows():
            lines.append("\t".join(column.display(row) for column in COLUMNS))
        return "\n".join(lines) + "\n"

    def copy_selection(self) -> None:
        """Put the selected rows on the clipboard as TSV."""
        if self.selectionModel() is not None and self.selectionModel().hasSelection():
            QGuiApplication.clipboard().setText(self.selection_tsv())

    def paintEvent(self, event: QPaintEvent) -> None:
        """Paint the cells while holding the GIL once, instead of taking it for every cell's model call."""
        # Called from the event loop (which runs without the GIL), Qt's paint would take the GIL for each
        # of the hundreds of multiData calls, and while a worker runs Python each take waits a switch
        # interval: 100-500 ms per paint during an analysis, 20-60 ms through this Python frame.
        super().paintEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+C copies rows rather than one cell."""
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selection()
            event.accept()
            return
        super().keyPressEvent(event)

    def select_row(self, row: PrecisionRow) -> bool:
        """Select and scroll to `row`; False when it is hidden by the filter."""
        proxy_row = self.proxy().proxy_row_of(row)
        if proxy_row < 0:
            return False
        index = self.proxy().index(proxy_row, 0)
        # Vertically only: PositionAtCenter also centres the index's column, which scrolled a wide table (a
        # statistics case) sideways and hid its leading step and verdict columns.
        across = self.horizontalScrollBar().value()
        # Explicit flags: setCurrentIndex/selectRow follow the keyboard modifiers, so a Ctrl still held (or left
        # "held" by an earlier synthetic Ctrl+C) toggled the row off instead of selecting it.
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.selectionModel().setCurrentIndex(index, flags)
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        self.horizontalScrollBar().setValue(across)
        return True

    def _on_selection_changed(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        current: QModelIndex = self.currentIndex()
        if current.isValid() and self.selectionModel().isRowSelected(current.row(), QModelIndex()):
            self.rowSelected.emit(self.proxy().row_at(current.row()))
