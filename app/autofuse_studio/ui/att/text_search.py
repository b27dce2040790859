"""SearchableText: a read-only log text with a search field, next/previous and all matches highlighted."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.ui.widgets.retranslate import Retranslating

MAX_HIGHLIGHTS = 2000  # more extra selections make typing in the search field sluggish
MATCH = QColor("#ffe28a")


class SearchableText(Retranslating, QWidget):
    """A log viewer: plain text, monospace, search with highlighted matches."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFont("monospace"))
        self.text.document().setDefaultFont(QFont("monospace"))
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.matches = QLabel()
        self.previous_button, self.next_button = previous, following = QPushButton(), QPushButton()
        bar = QHBoxLayout()
        for widget in (self.search, previous, following, self.matches):
            bar.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.text, 1)
        self.search.textChanged.connect(self.highlight)
        self.search.returnPressed.connect(self.find_next)
        following.clicked.connect(self.find_next)
        previous.clicked.connect(lambda: self.find_next(backward=True))
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.search.setPlaceholderText(self.tr("Search in this case…"))
        self.previous_button.setText(self.tr("Previous"))
        self.next_button.setText(self.tr("Next"))
        if self.search.text():
            self.highlight(self.search.text())


    def set_text(self, text: str) -> None:
        """Show a text and re-apply the current search."""
        self.text.setPlainText(text)
        self.highlight(self.search.text())

    def highlight(self, needle: str) -> int:
        """Highlight every match (case-insensitive); returns the number of matches."""
        selections: list[QTextEdit.ExtraSelection] = []
        count = 0
        if needle:
            document = self.text.document()
            cursor = document.find(needle, 0)
            fmt = QTextCharFormat()
            fmt.setBackground(MATCH)
            while not cursor.isNull():
                count += 1
                if len(selections) < MAX_HIGHLIGHTS:
                    selection = QTextEdit.ExtraSelection()
                    selection.cursor = cursor
                    selection.format = fmt
                    selections.append(selection)
                cursor = document.find(needle, cursor)
        self.text.setExtraSelections(selections)
        self.matches.setText(self.tr("{n} match(es)").format(n=count) if needle else "")
        return count

    def find_next(self, backward: bool = False) -> bool:
        """Move to the next (or previous) match, wrapping around; False when there is none."""
        needle = self.search.text()
        if not needle:
            return False
        flags = QTextDocument.FindFlag.FindBackward if backward else QTextDocument.FindFlag(0)
        if self.text.find(needle, flags):
            return True
        self.text.moveCursor(QTextCursor.MoveOperation.End if backward else QTextCursor.MoveOperation.Start)
        return self.text.find(needle, flags)
