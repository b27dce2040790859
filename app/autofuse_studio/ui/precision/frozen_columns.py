"""FrozenColumns: the key columns (rank, step, verdict, fused op) drawn over the table's left edge, never scrolled away.

Qt's "frozen column" pattern: a second QTableView over the left part of the table's viewport shares its model
and selection model and shows only the key columns; its vertical scrolling follows the table's. The table keeps
those columns first (see PrecisionTableView.keep_key_columns_first), so underneath lie the same cells.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QAbstractItemView, QFrame, QHeaderView, QTableView

from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.row_header import PaintingHeader
from autofuse_studio.ui.precision.table_appends import AppendsBelow

FROZEN_KEYS = ("rank", "step", "verdict", "fused_op")  # in this order, leading the table
FROZEN_COLUMNS = frozenset(COLUMN_KEYS.index(key) for key in FROZEN_KEYS)
# Always shown: the chooser cannot hide them (Rank still hides itself in a single-device case).
PINNED_KEYS = frozenset({"step", "verdict", "fused_op"})


class FrozenColumns(AppendsBelow):  # streamed rows out of sight: no repaint
    """The frozen part of a table: same model, same selection, same row heights, no scroll bars of its own."""

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.setObjectName("precisionFrozenColumns")
        self._table = table
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.setTextElideMode(table.textElideMode())
        self.setHorizontalHeader(PaintingHeader(Qt.Orientation.Horizontal, self))
        self.horizontalHeader().setHighlightSections(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.verticalHeader().hide()
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(table.verticalScrollMode())
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)

    def attach(self) -> None:
        """Share the table's model and selection; follow its scrolling, row heights and column widths."""
        table = self._table
        self.setModel(table.model())
        self.setSelectionModel(table.selectionModel())
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(table.verticalHeader().defaultSectionSize())
        table.verticalScrollBar().valueChanged.connect(self.verticalScrollBar().setValue)
        self.verticalScrollBar().valueChanged.connect(table.verticalScrollBar().setValue)
        table.horizontalHeader().sectionResized.connect(self._on_table_section_resized)
        table.horizontalHeader().sectionMoved.connect(self._on_table_section_moved)
        table.horizontalHeader().sortIndicatorChanged.connect(self._on_table_sort_indicator_changed)
        self.horizontalHeader().sectionResized.connect(self._on_own_section_resized)
        self.horizontalHeader().sectionClicked.connect(self._on_own_section_clicked)
        self.horizontalHeader().setSortIndicatorShown(True)
        self.sync_columns()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Paint with the GIL held once (see PrecisionTableView.paintEvent); a line where the frozen part ends."""
        super().paintEvent(event)
        # The scrolled columns visibly slide under this edge.
        painter = QPainter(self.viewport())
        painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Dark), 2))
        right = self.viewport().width() - 1
        painter.drawLine(right, 0, right, self.viewport().height())
        painter.end()

    def sync_columns(self) -> None:
        """Show the table's shown key columns, in its order and widths; then fit the overlay over them."""
        table, header = self._table, self._table.horizontalHeader()
        own = self.horizontalHeader()
        for logical in range(header.count()):
            self.setColumnHidden(logical, logical not in FROZEN_COLUMNS or table.isColumnHidden(logical))
            if logical in FROZEN_COLUMNS:
                self.setColumnWidth(logical, table.columnWidth(logical))
        for visual in range(header.count()):
            logical = header.logicalIndex(visual)
            if own.visualIndex(logical) != visual:
                own.moveSection(own.visualIndex(logical), visual)
        own.setSortIndicator(header.sortIndicatorSection(), header.sortIndicatorOrder())
        self.update_geometry()

    def frozen_width(self) -> int:
        """Pixel width of the shown key columns."""
        return sum(self._table.columnWidth(logical) for logical in FROZEN_COLUMNS
                   if not self._table.isColumnHidden(logical))

    def update_geometry(self) -> None:
        """Cover the key columns: from the table's row numbers to their right edge, header and rows."""
        table = self._table
        width = self.frozen_width()
        self.setVisible(width > 0 and table.model() is not None)
        viewport = table.viewport().geometry()
        header_height = table.horizontalHeader().height()
        self.horizontalHeader().setFixedHeight(header_height)
        self.setGeometry(viewport.x(), viewport.y() - header_height, min(width, viewport.width()),
                         viewport.height() + header_height)
        self.verticalScrollBar().setValue(table.verticalScrollBar().value())

    def _on_table_section_resized(self, logical: int, _old: int, new: int) -> None:
        if logical in FROZEN_COLUMNS:
            if new > 0 and self.columnWidth(logical) != new:
                self.setColumnWidth(logical, new)
            self.update_geometry()

    def _on_own_section_resized(self, logical: int, _old: int, new: int) -> None:
        # The user widened a key column on the frozen header: the table's column follows (and then the overlay).
        if logical in FROZEN_COLUMNS and new > 0 and self._table.columnWidth(logical) != new:
            self._table.setColumnWidth(logical, new)

    def _on_table_section_moved(self, _logical: int, _old: int, _new: int) -> None:
        self.sync_columns()

    def _on_table_sort_indicator_changed(self, logical: int, order: Qt.SortOrder) -> None:
        self.horizontalHeader().setSortIndicator(logical, order)

    def _on_own_section_clicked(self, logical: int) -> None:
        """Sort the table by a key column, as a click on its own header would."""
        header = self._table.horizontalHeader()
        order = Qt.SortOrder.AscendingOrder
        if header.sortIndicatorSection() == logical and header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder:
            order = Qt.SortOrder.DescendingOrder
        self._table.sortByColumn(logical, order)
