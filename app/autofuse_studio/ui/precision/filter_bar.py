"""FilterBar: status and verdict combos, a search box and 'Go to first divergence' above the table."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, VERDICT_PROPAGATED, VERDICTS
from autofuse_studio.ui.precision.filters import RowFilter
from autofuse_studio.ui.widgets.retranslate import Retranslating

_FAILING = "__failing__"


class FilterBar(Retranslating, QWidget):
    """Emits filterChanged(RowFilter) on every edit and firstDivergenceRequested on its button."""

    filterChanged = Signal(object)  # RowFilter
    firstDivergenceRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status_label = QLabel()
        self.status_combo = QComboBox()
        self.status_combo.setObjectName("statusFilter")
        self.status_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.verdict_label = QLabel()
        self.verdict_combo = QComboBox()
        self.verdict_combo.setObjectName("verdictFilter")
        self.search = QLineEdit()
        self.search.setObjectName("textFilter")
        self.search.setClearButtonEnabled(True)
        self.first_button = QPushButton()
        self.first_button.setObjectName("firstDivergence")
        self._statuses: list[str] = []
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.status_label, self.status_combo, self.verdict_label, self.verdict_combo):
            layout.addWidget(widget)
        layout.addWidget(self.search, 1)
        layout.addWidget(self.first_button)
        self.status_combo.currentIndexChanged.connect(self._emit)
        self.verdict_combo.currentIndexChanged.connect(self._emit)
        self.search.textChanged.connect(self._emit)
        self.first_button.clicked.connect(self.firstDivergenceRequested)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language (keeps the current choices)."""
        self.status_label.setText(self.tr("Status"))
        self.verdict_label.setText(self.tr("Verdict"))
        self.search.setPlaceholderText(self.tr("Filter by op, file, dtype, message…"))
        self.first_button.setText(self.tr("Go to first divergence"))
        with QSignalBlocker(self.verdict_combo):
            current = self.verdict_combo.currentData()
            self.verdict_combo.clear()
            self.verdict_combo.addItem(self.tr("All verdicts"), None)
            self.verdict_combo.addItem(self.tr("Failing (culprit or propagated)"), _FAILING)
            for verdict in VERDICTS:
                self.verdict_combo.addItem(verdict, verdict)
            self.verdict_combo.setCurrentIndex(max(0, self.verdict_combo.findData(current)))
        self.set_statuses(self._statuses)


    def set_statuses(self, statuses: Iterable[str]) -> None:
        """Offer these statuses in the status combo (keeps the current choice when still offered)."""
        self._statuses = list(dict.fromkeys(statuses))
        with QSignalBlocker(self.status_combo):
            current = self.status_combo.currentData()
            self.status_combo.clear()
            self.status_combo.addItem(self.tr("All statuses"), None)
            for status in self._statuses:
                self.status_combo.addItem(status, status)
            self.status_combo.setCurrentIndex(max(0, self.status_combo.findData(current)))

    def row_filter(self) -> RowFilter:
        """The filter the widgets describe."""
        status = self.status_combo.currentData()
        verdict = self.verdict_combo.currentData()
        verdicts = frozenset({VERDICT_CULPRIT, VERDICT_PROPAGATED}) if verdict == _FAILING else (
            frozenset({verdict}) if verdict else frozenset())
        return RowFilter(frozenset({status}) if status else frozenset(), verdicts, self.search.text())

    def clear(self) -> None:
        """Show every row."""
        with QSignalBlocker(self.status_combo), QSignalBlocker(self.verdict_combo), QSignalBlocker(self.search):
            self.status_combo.setCurrentIndex(0)
            self.verdict_combo.setCurrentIndex(0)
            self.search.clear()
        self._emit()

    def _emit(self) -> None:
        self.filterChanged.emit(self.row_filter())
