"""CollapsibleSection: a titled body behind an arrow button, for options a small screen cannot always show."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLayout, QSizePolicy, QToolButton, QVBoxLayout, QWidget


class CollapsibleSection(QWidget):
    """An arrow button with the title; clicking it shows or hides the body (collapsed at first)."""

    expandedChanged = Signal(bool)

    def __init__(self, body_layout: QLayout | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        # A long title (a host name, Chinese text) is cut at the dock's edge rather than widening the dock.
        self.toggle.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.toggle.toggled.connect(self._on_toggle_toggled)
        self.body = QFrame()
        self.body.setFrameShape(QFrame.Shape.StyledPanel)
        if body_layout is not None:
            self.body.setLayout(body_layout)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)
        self._on_toggle_toggled(False)

    def setTitle(self, title: str) -> None:  # QGroupBox's name: retranslate code reads the same for both
        """The text beside the arrow."""
        self.toggle.setText(title)
        self.toggle.setToolTip(title)

    def title(self) -> str:
        """The text beside the arrow."""
        return self.toggle.text()

    def is_expanded(self) -> bool:
        """True while the body shows."""
        return self.toggle.isChecked()

    def set_expanded(self, expanded: bool) -> None:
        """Show or hide the body."""
        self.toggle.setChecked(expanded)

    def _on_toggle_toggled(self, checked: bool) -> None:
        self.body.setVisible(checked)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if checked else Qt.ArrowType.RightArrow)
        self.expandedChanged.emit(checked)
