"""ShortcutsDialog (Help > Keyboard shortcuts): the window's actions that have a shortcut, read from its QActions."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

_CJK_MNEMONIC = re.compile(r"\s*\(&[^&)]\)")


def plain_text(action: QAction) -> str:
    """The action's text as a person reads it: no mnemonic (`&Open`, Chinese `打开(&O)`), no trailing ellipsis."""
    text = action.text().strip().removesuffix("…").removesuffix("...")
    text = _CJK_MNEMONIC.sub("", text)  # translations put the key after the words: 打开(&O)
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").removesuffix("…").strip()


def keys_text(action: QAction) -> str:
    """The action's shortcuts in the platform's notation (Ctrl+O, F5, …), comma-separated."""
    return ", ".join(key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()
                     if not key.isEmpty())


def _menu_rows(menu: QMenu, path: str, seen: set[int], rows: list[tuple[str, str, str]]) -> None:
    for action in menu.actions():
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            _menu_rows(submenu, f"{path} > {plain_text(action)}", seen, rows)
        elif not action.isSeparator() and (keys := keys_text(action)):
            seen.add(id(action))
            rows.append((path, plain_text(action), keys))


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str, str]]:
    """(where, action, shortcut) of every action with a shortcut: the menus' in menu order, then the views'."""
    rows: list[tuple[str, str, str]] = []
    seen: set[int] = set()
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu):
            _menu_rows(menu, plain_text(action), seen, rows)
    elsewhere = QCoreApplication.translate("ShortcutsDialog", "In a view")
    listed = {(name, keys) for _where, name, keys in rows}
    for action in window.findChildren(QAction):
        name, keys = plain_text(action), keys_text(action)
        if id(action) in seen or not name or not keys or (name, keys) in listed:
            continue
        listed.add((name, keys))
        rows.append((elsewhere, name, keys))
    return rows


class ShortcutsDialog(QDialog):
    """A read-only table of the window's actions and their keyboard shortcuts."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent if parent is not None else window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        rows = shortcut_rows(window)
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels([self.tr("Where"), self.tr("Action"), self.tr("Shortcut")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for number, row in enumerate(rows):
            for column, text in enumerate(row):
                self.table.setItem(number, column, QTableWidgetItem(text))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(560, 420)

    def shortcut_of(self, action_text: str) -> str | None:
        """The shortcut listed for an action (by its plain text), or None when it is not listed."""
        for number in range(self.table.rowCount()):
            item = self.table.item(number, 1)
            if item is not None and item.text() == action_text:
                shortcut = self.table.item(number, 2)
                return None if shortcut is None else shortcut.text()
        return None
