"""PathEdit: an editable path field that shows long paths elided in the middle and says what is wrong with them."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLineEdit, QStyle, QStyleOptionFrame, QWidget

INVALID_STYLE = "QLineEdit { border: 1px solid #c62828; background: #fff5f5; }"
_TEXT_MARGIN = 2  # QLineEdit's own horizontal text margin (qlineedit_p.h: horizontalMargin)


class PathEdit(QLineEdit):
    """A QLineEdit whose unfocused text is elided in the middle ('/home/…/_graph_1_Build.json').

    The start of a path says where it is and the end which file it is; QLineEdit alone shows only
    the end once the text is longer than the field. Editing shows the whole text; the tooltip always
    holds the full path, and the problem (red outline) when there is one.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.problem = ""
        self.textChanged.connect(self._on_text_changed)

    def set_problem(self, problem: str) -> None:
        """Outline the field in red with `problem` in the tooltip ('' clears it)."""
        self.problem = problem
        self.setStyleSheet(INVALID_STYLE if problem else "")
        self._update_tooltip()

    def displayed_text(self) -> str:
        """What the field shows: the text, elided in the middle when it is not being edited and too long."""
        text = self.text()
        if self.hasFocus() or not text or self.echoMode() != QLineEdit.EchoMode.Normal:
            return text
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, self._text_rect().width())

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the frame as QLineEdit does, then the elided text (the plain QLineEdit while editing)."""
        shown = self.displayed_text()
        if shown == self.text():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = self._frame_option()
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelLineEdit, option, painter, self)
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        painter.drawText(self._text_rect(), int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), shown)
        painter.end()

    def _frame_option(self) -> QStyleOptionFrame:
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        return option

    def _text_rect(self) -> QRect:
        rect = self.style().subElementRect(QStyle.SubElement.SE_LineEditContents, self._frame_option(), self)
        return rect.marginsRemoved(self.textMargins()).adjusted(_TEXT_MARGIN, 0, -_TEXT_MARGIN, 0)

    def _on_text_changed(self, _text: str) -> None:
        self._update_tooltip()

    def _update_tooltip(self) -> None:
        text = self.text()
        self.setToolTip("\n".join(part for part in (self.problem, text) if part))
