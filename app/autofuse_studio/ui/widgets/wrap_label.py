"""WrapLabel: a word-wrapped QLabel that also breaks paths and long names, so it never widens its panel.

QLabel wraps only at spaces: one long path or op name sets its minimum width, and a dock holding it
grows a horizontal scroll bar that clips the buttons beside it. WrapLabel shows the text with
zero-width spaces after path separators and inside long runs (Qt breaks lines there), while text(),
Copy and the context menu give the original text.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QWidget

ZWSP = "\u200b"
RUN = 16  # a run this long without any break opportunity gets one
_AFTER = re.compile(r"([/\\_:;=+|-](?=\S)|[.,](?=[^\s\d]))")  # not inside numbers (1,234 or 3.5)
_LONG_RUN = re.compile(rf"[^\s{ZWSP}]{{{RUN}}}(?=[^\s{ZWSP}])")


def breakable(text: str) -> str:
    """text with zero-width spaces where a line may break: after separators and inside long runs."""
    return _LONG_RUN.sub(lambda match: match.group(0) + ZWSP, _AFTER.sub(rf"\1{ZWSP}", text))


class WrapLabel(QLabel):
    """A plain-text label that wraps anywhere it must; text() and copying return the text as set."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.setText(text)

    def setText(self, text: str) -> None:
        """Show text, breakable anywhere it is too long for one line."""
        self._text = text
        super().setText(breakable(text))

    def text(self) -> str:
        """The text as set (without the break marks)."""
        return self._text

    def clear(self) -> None:
        """No text."""
        self.setText("")

    def selected_text(self) -> str:
        """The selection (or everything when nothing is selected), without the break marks."""
        return (self.selectedText() or super().text()).replace(ZWSP, "")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+C copies the clean text."""
        if event.matches(QKeySequence.StandardKey.Copy):
            QGuiApplication.clipboard().setText(self.selected_text())
            event.accept()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """A Copy entry that copies the clean text (Qt's own would copy the break marks)."""
        if not self._text:
            return
        menu = QMenu(self)
        copy = menu.addAction(self.tr("Copy"))
        copy.triggered.connect(lambda: QGuiApplication.clipboard().setText(self.selected_text()))
        menu.exec(event.globalPos())
