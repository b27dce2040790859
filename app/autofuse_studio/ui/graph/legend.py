"""LegendBar: colour swatches for the current colouring (verdicts or a metric scale)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QWidget

# Borders (ui/graph/item.py): none of them orange, which is the fill of a propagated verdict.
BORDERS = (("selected", "#1f6fd1", "▢"), ("mapped", "#8e44ad", "┆▢┆"), ("traced", "#00897b", "▢"))


class LegendBar(QLabel):
    """One line of coloured squares (fills) with labels, then the border styles (selection, mapping, trace)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphLegend")
        self.entries: list[tuple[str, str]] = []
        self.focus: tuple[str | None, str | None] = (None, None)

    def set_entries(self, entries: list[tuple[str, str]], focus: tuple[str | None, str | None] = (None, None)) -> None:
        """(label, colour) pairs, left to right, and which rank/step the colours are of (None: not split)."""
        self.entries, self.focus = list(entries), focus
        html = "&nbsp;&nbsp;".join(
            f"<span style='background-color:{colour}; border:1px solid #333'>&nbsp;&nbsp;&nbsp;</span>"
            f"&nbsp;{escape(self._label(label))}" for label, colour in entries)
        where = self._focus_text(*focus)
        borders = "&nbsp;&nbsp;".join(
            f"<span style='color:{colour}; font-weight:bold'>{mark}</span>&nbsp;{escape(self._border(name))}"
            for name, colour, mark in BORDERS)
        self.setText(html + (f"&nbsp;&nbsp;&nbsp;<b>{escape(where)}</b>" if where and entries else "")
                     + ("&nbsp;&nbsp;│&nbsp;&nbsp;" + borders if entries else ""))
        self.setToolTip(self.tr("Fill: the verdict (orange = propagated from an earlier culprit). Borders: blue = "
                                "the selected op; purple dashed = mapped across the fusion (the fused op or the "
                                "original ops of the selection in the other pane, or a scope's ops); teal = traced "
                                "inputs or outputs (the rest faded); thick black = first divergence."))

    def _border(self, name: str) -> str:
        texts = {"selected": self.tr("selected"), "mapped": self.tr("mapped (fused ↔ original)"),
                 "traced": self.tr("traced")}
        return texts[name]

    def _focus_text(self, rank: str | None, step: str | None) -> str:
        if rank is not None and step:
            return self.tr("colours of rank %1, step %2").replace("%1", rank).replace("%2", step)
        if rank is not None:
            return self.tr("colours of rank %1").replace("%1", rank)
        return self.tr("colours of step %1").replace("%1", step) if step else ""

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
            self.set_entries(self.entries, self.focus)
        super().changeEvent(event)
