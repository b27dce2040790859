"""LegendBar: colour swatches for the current colouring (verdicts or a metric scale)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QLabel, QWidget


class LegendBar(QLabel):
    """One line of coloured squares with labels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphLegend")
        self.entries: list[tuple[str, str]] = []

    def set_entries(self, entries: list[tuple[str, str]]) -> None:
        """(label, colour) pairs, left to right."""
        self.entries = list(entries)
        html = "&nbsp;&nbsp;".join(
            f"<span style='background-color:{colour}; border:1px solid #333'>&nbsp;&nbsp;&nbsp;</span>"
            f"&nbsp;{escape(label)}" for label, colour in entries)
        self.setText(html)
