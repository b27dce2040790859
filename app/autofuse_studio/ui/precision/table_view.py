"""PrecisionTableView: the result table with row selection, Ctrl+C as TSV, 'go to row', frozen key columns and a
column chooser whose choices are remembered."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QWidget

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.column_chooser import ColumnChooser, column_menu, make_chooser
from autofuse_studio.ui.precision.column_layout import ColumnLayout, load_layout, save_layout
from autofuse_studio.ui.precision.columns import COLUMN_KEYS, COLUMNS, visual_order
from autofuse_studio.ui.precision.filters import PrecisionProxyModel
from autofuse_studio.ui.precision.frozen_columns import FROZEN_COLUMNS, FROZEN_KEYS, PINNED_KEYS, FrozenColumns
from autofuse_studio.ui.precision.row_header import PaintingHeader, RowNumberHeader
from autofuse_studio.ui.precision.table_appends import AppendsBelow

_WIDE_COLUMNS = {"fused_op": 240, "origin_op": 240}


class PrecisionTableView(AppendsBelow):
    """A table of PrecisionRows shown through a PrecisionProxyModel."""

    rowSelected = Signal(object)  # the PrecisionRow of the current row

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("precisionTable")
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long op name keeps its start and its end
        self.setCornerButtonEnabled(False)
        # Pixel steps sideways: the columns slide evenly under the frozen key columns.
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
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
        self.columns_action = QAction(self)
        self.columns_action.triggered.connect(self._on_columns_action_triggered)
        self.addAction(self.columns_action)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._user_hidden: set[str] = set()  # keys the user hid with the chooser
        self._empty: set[str] = set()  # optional columns without a value in this case
        self._arranging = False  # moving sections in code: not a user's reordering
        self.frozen = FrozenColumns(self)
        for header in (horizontal, self.frozen.horizontalHeader()):
            header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            header.customContextMenuRequested.connect(self._on_header_context_menu_requested)
        horizontal.sectionMoved.connect(self._on_header_section_moved)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.copy_action.setText(self.tr("Copy rows"))
        self.columns_action.setText(self.tr("Columns…"))

    def set_proxy(self, proxy: PrecisionProxyModel) -> None:
        """Show `proxy`; sorting by header clicks starts in run order."""
        self.setModel(proxy)
        self.setSortingEnabled(True)
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        proxy.sort(-1)
        self.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.frozen.attach()
        self.apply_default_order()
        self.restore_layout(load_layout())
        self.fit_columns()

    def apply_default_order(self) -> None:
        """Rank, step and verdict next to the op names (visual moves: model columns keep their indexes)."""
        self._move_to_front(visual_order())

    def _move_to_front(self, logicals: Iterable[int]) -> None:
        header = self.horizontalHeader()
        self._arranging = True
        try:
            for position, logical in enumerate(logicals):
                if header.visualIndex(logical) != position:
                    header.moveSection(header.visualIndex(logical), position)
        finally:
            self._arranging = False
        self.frozen.sync_columns()

    def keep_key_columns_first(self) -> None:
        """The frozen key columns lead, in their order; the others keep the order they have."""
        header = self.horizontalHeader()
        others = [header.logicalIndex(visual) for visual in range(header.count())]
        frozen = [COLUMN_KEYS.index(key) for key in FROZEN_KEYS]
        self._move_to_front(frozen + [logical for logical in others if logical not in FROZEN_COLUMNS])

    # --- column layout: the chooser, hidden columns, remembered order ------------------------------
    def column_layout(self) -> ColumnLayout:
        """The order and the user-hidden columns as shown now."""
        header = self.horizontalHeader()
        order = [COLUMN_KEYS[header.logicalIndex(visual)] for visual in range(header.count())]
        return ColumnLayout(order, set(self._user_hidden))

    def restore_layout(self, layout: ColumnLayout) -> None:
        """Apply a remembered layout (the key columns stay first and shown)."""
        if layout.order:
            known = [COLUMN_KEYS.index(key) for key in layout.order]
            rest = [number for number in visual_order() if number not in known]
            self._move_to_front(known + rest)
        self._user_hidden = set(layout.hidden) - PINNED_KEYS
        self.keep_key_columns_first()
        self._apply_hidden()

    def reset_layout(self) -> None:
        """The default order with every column that has values shown; forgets the remembered layout."""
        self._user_hidden = set()
        self.apply_default_order()
        self._apply_hidden()
        save_layout(ColumnLayout())

    @property
    def empty_columns(self) -> set[str]:
        """The optional columns hidden because no row has a value in them."""
        return set(self._empty)

    def set_empty_columns(self, keys: Iterable[str]) -> None:
        """Optional columns without a value in this case: hidden whatever the user chose."""
        self._empty = set(keys)
        self._apply_hidden()

    def set_column_shown(self, key: str, shown: bool) -> None:
        """Show or hide a column as the user asked, and remember it (the pinned key columns stay)."""
        if key in PINNED_KEYS:
            return
        if shown:
            self._user_hidden.discard(key)
        else:
            self._user_hidden.add(key)
        self._apply_hidden()
        save_layout(self.column_layout())

    def _apply_hidden(self) -> None:
        for number, key in enumerate(COLUMN_KEYS):
            hidden = key in self._user_hidden or key in self._empty
            if self.isColumnHidden(number) != hidden:
                self.setColumnHidden(number, hidden)
        self.frozen.sync_columns()

    @property
    def user_hidden(self) -> set[str]:
        """The keys the user hid."""
        return set(self._user_hidden)

    def column_menu(self, parent: QWidget | None = None) -> QMenu:
        """The header's context menu: a check per column in table order, Columns… and a reset."""
        return column_menu(self, parent or self)

    def _on_header_context_menu_requested(self, position: QPoint) -> None:
        sender = self.sender()
        widget = sender if isinstance(sender, QWidget) else self.horizontalHeader()
        menu = self.column_menu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(widget.mapToGlobal(position))

    def chooser(self) -> ColumnChooser:
        """A column chooser dialog over the current layout (not shown yet)."""
        return make_chooser(self)

    def apply_choice(self, order: list[str], hidden: set[str]) -> None:
        """Show the chooser's columns in its order (key columns first, empty optional ones after) and remember it."""
        header = self.horizontalHeader()
        chosen = [COLUMN_KEYS.index(key) for key in order]
        rest = [header.logicalIndex(visual) for visual in range(header.count())]
        self._move_to_front(chosen + [number for number in rest if number not in chosen])
        self._user_hidden = (hidden | (self._user_hidden - set(order))) - PINNED_KEYS
        self.keep_key_columns_first()
        self._apply_hidden()
        save_layout(self.column_layout())

    def open_chooser(self) -> None:
        """Let the user show, hide and reorder columns in a dialog."""
        dialog = self.chooser()
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._on_chooser_accepted(dialog))
        dialog.open()

    def _on_chooser_accepted(self, dialog: ColumnChooser) -> None:
        if dialog.reset_requested:
            self.reset_layout()
        else:
            self.apply_choice(*dialog.chosen())

    def _on_columns_action_triggered(self) -> None:
        self.open_chooser()

    def _on_header_section_moved(self, _logical: int, _old: int, _new: int) -> None:
        if self._arranging:
            return
        self.keep_key_columns_first()
        save_layout(self.column_layout())

    def scrollTo(self, index: QModelIndex | QPersistentModelIndex,
                 hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        """Scroll so that `index` is not under the frozen key columns (a key column's cell: vertically only)."""
        across = self.horizontalScrollBar().value()
        super().scrollTo(index, hint)
        if not index.isValid():
            return
        if index.column() in FROZEN_COLUMNS:
            self.horizontalScrollBar().setValue(across)
            return
        covered = self.frozen.frozen_width() - self.columnViewportPosition(index.column())
        if covered > 0:
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - covered)

    def updateGeometries(self) -> None:
        """Keep the frozen key columns over the viewport's left edge when headers or scroll bars change."""
        super().updateGeometries()
        if hasattr(self, "frozen"):
            self.frozen.update_geometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The frozen part follows the viewport's height."""
        super().resizeEvent(event)
        self.frozen.update_geometry()

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
