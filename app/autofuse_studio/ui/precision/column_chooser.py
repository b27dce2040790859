"""The precision table's column chooser: the header's context menu and a dialog to show, hide and reorder columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QWidget,
)

from autofuse_studio.ui.precision.columns import COLUMN_KEYS, COLUMNS
from autofuse_studio.ui.precision.frozen_columns import FROZEN_COLUMNS, FROZEN_KEYS, PINNED_KEYS

if TYPE_CHECKING:
    from autofuse_studio.ui.precision.table_view import PrecisionTableView

KEY_ROLE = Qt.ItemDataRole.UserRole + 1


def _table_order(view: PrecisionTableView) -> list[int]:
    """Logical column numbers in the table's visual order, without the optional columns empty in this case."""
    header = view.horizontalHeader()
    logicals = (header.logicalIndex(visual) for visual in range(header.count()))
    return [number for number in logicals if COLUMN_KEYS[number] not in view.empty_columns]


def column_menu(view: PrecisionTableView, parent: QWidget) -> QMenu:
    """A check per column in table order (the key columns greyed: always shown), Columns… and a reset."""
    # Literal translate() calls in the table view's context (lupdate finds them; the .ts keeps one context).
    menu = QMenu(QCoreApplication.translate("PrecisionTableView", "Columns"), parent)
    menu.setObjectName("precisionColumnMenu")
    menu.setToolTipsVisible(True)
    hidden = view.user_hidden
    for logical in _table_order(view):
        column = COLUMNS[logical]
        action = menu.addAction(column.translated_header())
        action.setCheckable(True)
        action.setChecked(column.key not in hidden)
        action.setData(column.key)
        if column.key in PINNED_KEYS:
            action.setEnabled(False)
            action.setToolTip(QCoreApplication.translate(
                "PrecisionTableView", "Key columns stay shown and stay left while you scroll sideways."))
        action.toggled.connect(lambda shown, key=column.key: view.set_column_shown(key, shown))
    menu.addSeparator()
    chooser = menu.addAction(QCoreApplication.translate("PrecisionTableView", "Columns…"))
    chooser.setObjectName("chooseColumns")
    chooser.setToolTip(QCoreApplication.translate(
        "PrecisionTableView", "Show, hide and reorder the columns (or drag a column header)"))
    chooser.triggered.connect(view.open_chooser)
    reset = menu.addAction(QCoreApplication.translate("PrecisionTableView", "Reset columns"))
    reset.setObjectName("resetColumns")
    reset.triggered.connect(view.reset_layout)
    return menu


def make_chooser(view: PrecisionTableView) -> ColumnChooser:
    """A chooser dialog over the table's current layout (the key columns are named, not listed)."""
    hidden = view.user_hidden
    shown = [COLUMNS[number] for number in _table_order(view) if number not in FROZEN_COLUMNS]
    columns = [(column.key, column.translated_header(), column.key not in hidden) for column in shown]
    key_names = [COLUMNS[COLUMN_KEYS.index(key)].translated_header() for key in FROZEN_KEYS
                 if key not in view.empty_columns]
    return ColumnChooser(columns, key_names, view)


class ColumnChooser(QDialog):
    """A checkable list of the columns in table order: uncheck to hide, drag or use the buttons to move."""

    def __init__(self, columns: list[tuple[str, str, bool]], key_names: list[str],
                 parent: QWidget | None = None) -> None:
        """`columns`: (key, header, shown) in table order, key columns left out; `key_names`: their headers."""
        super().__init__(parent)
        self.setObjectName("precisionColumnChooser")
        self.setWindowTitle(self.tr("Table columns"))
        self.reset_requested = False
        note = QLabel(self.tr("%1 stay first and shown, also while you scroll sideways.")
                      .replace("%1", self.tr(", ").join(key_names)))
        note.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("columnList")
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        for key, header, shown in columns:
            item = QListWidgetItem(header)
            item.setData(KEY_ROLE, key)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if shown else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        self.up = QPushButton(self.tr("Move up"))
        self.down = QPushButton(self.tr("Move down"))
        reset = QPushButton(self.tr("Reset columns"))
        reset.setObjectName("resetColumnsButton")
        self.up.clicked.connect(lambda: self.move_current(-1))
        self.down.clicked.connect(lambda: self.move_current(1))
        reset.clicked.connect(self._on_reset_clicked)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QGridLayout(self)
        layout.addWidget(note, 0, 0, 1, 2)
        layout.addWidget(self.list, 1, 0, 4, 1)
        layout.addWidget(self.up, 1, 1)
        layout.addWidget(self.down, 2, 1)
        layout.addWidget(reset, 3, 1)
        layout.addWidget(buttons, 5, 0, 1, 2)
        layout.setRowStretch(4, 1)
        self.resize(420, 520)  # most columns in view without scrolling the list

    def move_current(self, offset: int) -> None:
        """Move the current column up (-1) or down (+1)."""
        row = self.list.currentRow()
        target = row + offset
        if row < 0 or not 0 <= target < self.list.count():
            return
        item = self.list.takeItem(row)
        self.list.insertItem(target, item)
        self.list.setCurrentRow(target)

    def chosen(self) -> tuple[list[str], set[str]]:
        """The keys in the chosen order, and the unchecked keys."""
        items = [self.list.item(row) for row in range(self.list.count())]
        order = [str(item.data(KEY_ROLE)) for item in items]
        hidden = {str(item.data(KEY_ROLE)) for item in items if item.checkState() != Qt.CheckState.Checked}
        return order, hidden

    def _on_reset_clicked(self) -> None:
        self.reset_requested = True
        self.accept()
