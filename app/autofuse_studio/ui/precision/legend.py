"""VerdictLegend: the verdict colours with their meaning and counts."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from autofuse_studio.core.precision.rows import VERDICTS
from autofuse_studio.ui.precision.table_model import verdict_colour


def verdict_tooltip(verdict: str) -> str:
    """What a verdict means, in the current language."""
    texts = {
        "CULPRIT": QCoreApplication.translate(
            "VerdictLegend", "Fails while its inputs are fine: this op broke precision."),
        "PROPAGATED": QCoreApplication.translate(
            "VerdictLegend", "Fails because an upstream op already failed."),
        "OK": QCoreApplication.translate(
            "VerdictLegend", "Within the thresholds."),
        "UNKNOWN": QCoreApplication.translate(
            "VerdictLegend", "Not compared (no mapping, missing file, skipped...)."),
    }
    return texts.get(verdict, verdict)


class VerdictLegend(QWidget):
    """A row of coloured swatches, one per verdict, with the number of rows that have it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("verdictLegend")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.labels: dict[str, QLabel] = {}
        self._counts: dict[str, int] = {}
        for verdict in VERDICTS:
            label = QLabel()
            colour = verdict_colour(verdict).name()
            label.setStyleSheet(f"QLabel {{ background: {colour}; color: black; padding: 2px 8px; }}")
            layout.addWidget(label)
            self.labels[verdict] = label
        layout.addStretch(1)
        self.retranslate()

    def set_counts(self, counts: dict[str, int]) -> None:
        """Show how many rows have each verdict."""
        self._counts = dict(counts)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        for verdict, label in self.labels.items():
            label.setText(f"{verdict} {self._counts.get(verdict, 0)}")
            label.setToolTip(verdict_tooltip(verdict))
