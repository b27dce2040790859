"""LegendBar: colour swatches for the current colouring (verdicts or a metric scale)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QWidget


class LegendBar(QLabel):
    """One line of coloured squares with labels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphLegend")
        self.entries: list[tuple[str, str]] = []

    def set_entries(self, entries: list[tuple[str, str]]) -> None:
        """(label, colour) pairs, left to right; the core's sentences are shown in the UI language."""
        self.entries = list(entries)
        html = "&nbsp;&nbsp;".join(
            f"<span style='background-color:{colour}; border:1px solid #333'>&nbsp;&nbsp;&nbsp;</span>"
            f"&nbsp;{escape(self._label(label))}" for label, colour in entries)
        self.setText(html)

    def _label(self, label: str) -> str:
        """Translate the fixed legend labels; verdict codes and metric names stay as they are."""
        texts = {"not compared": self.tr("not compared"), "first divergence": self.tr("first divergence")}
        for suffix, text in ((" (best)", self.tr("%1 (best)")), (" (worst)", self.tr("%1 (worst)"))):
            if label.endswith(suffix):
                return text.replace("%1", label[: -len(suffix)])
        return texts.get(label, label)

    def changeEvent(self, event: QEvent) -> None:
        """Re-translate when the application language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            self.set_entries(self.entries)
        super().changeEvent(event)
