"""FilterBar: status, verdict, signature, rank and step combos, a search box and 'Go to first divergence'."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, VERDICT_PROPAGATED, VERDICTS, PrecisionRow
from autofuse_studio.ui.precision.filters import RowFilter, signature_codes
from autofuse_studio.ui.precision.signature_text import LABELS, code_label
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
        # The signature chooser: shown only when some row has a signature, offering the codes present.
        self.signature_label = QLabel()
        self.signature_combo = QComboBox()
        self.signature_combo.setObjectName("signatureFilter")
        self._signatures: list[str] = []
        # Rank and step choosers: shown only when the result has several ranks / steps.
        self.rank_label = QLabel()
        self.rank_combo = QComboBox()
        self.rank_combo.setObjectName("rankFilter")
        self.step_label = QLabel()
        self.step_combo = QComboBox()
        self.step_combo.setObjectName("stepFilter")
        self._ranks: list[str] = []
        self._steps: list[str] = []
        self.search = QLineEdit()
        self.search.setObjectName("textFilter")
        self.search.setClearButtonEnabled(True)
        self.first_button = QPushButton()
        self.first_button.setObjectName("firstDivergence")
        self._statuses: list[str] = []
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.status_label, self.status_combo, self.verdict_label, self.verdict_combo,
                       self.signature_label, self.signature_combo, self.rank_label, self.rank_combo,
                       self.step_label, self.step_combo):
            layout.addWidget(widget)
        layout.addWidget(self.search, 1)
        layout.addWidget(self.first_button)
        self.status_combo.currentIndexChanged.connect(self._emit)
        self.verdict_combo.currentIndexChanged.connect(self._emit)
        self.signature_combo.currentIndexChanged.connect(self._emit)
        self.rank_combo.currentIndexChanged.connect(self._emit)
        self.step_combo.currentIndexChanged.connect(self._emit)
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
        self.signature_label.setText(self.tr("Signature"))
        self.set_signatures(self._signatures)
        self.rank_label.setText(self.tr("Rank"))
        self.step_label.setText(self.tr("Step"))
        self.set_ranks_steps(self._ranks, self._steps)

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

    def set_signatures(self, codes: Iterable[str]) -> None:
        """Offer these signature codes, in the checks' order (the chooser is hidden when there is none)."""
        wanted = set(codes)
        order = list(LABELS)
        self._signatures = sorted(wanted, key=lambda code: (order.index(code) if code in order else len(order), code))
        with QSignalBlocker(self.signature_combo):
            current = self.signature_combo.currentData()
            self.signature_combo.clear()
            self.signature_combo.addItem(self.tr("All signatures"), None)
            for code in self._signatures:
                self.signature_combo.addItem(code_label(code), code)
            self.signature_combo.setCurrentIndex(max(0, self.signature_combo.findData(current)))
        self.signature_combo.setVisible(bool(self._signatures))
        self.signature_label.setVisible(bool(self._signatures))

    def set_signatures_of(self, rows: Iterable[PrecisionRow]) -> None:
        """Offer the signature codes of these rows (a mixed signature's parts too)."""
        self.set_signatures({code for row in rows for code in signature_codes(row.signature)})

    def set_ranks_steps(self, ranks: Iterable[str], steps: Iterable[str]) -> None:
        """Offer these ranks and steps (each chooser hidden when there is at most one)."""
        self._ranks, self._steps = list(ranks), list(steps)
        for combo, label, values, every in ((self.rank_combo, self.rank_label, self._ranks, self.tr("All ranks")),
                                            (self.step_combo, self.step_label, self._steps, self.tr("All steps"))):
            with QSignalBlocker(combo):
                current = combo.currentData()
                combo.clear()
                combo.addItem(every, None)
                for value in values:
                    combo.addItem(value, value)
                combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.setVisible(len(values) > 1)
            label.setVisible(len(values) > 1)

    def choose_rank_step(self, rank: str | None, step: str | None) -> None:
        """Show only one rank and step (None: every rank / every step); one filterChanged."""
        with QSignalBlocker(self.rank_combo), QSignalBlocker(self.step_combo):
            self.rank_combo.setCurrentIndex(max(0, self.rank_combo.findData(rank)) if rank is not None else 0)
            self.step_combo.setCurrentIndex(max(0, self.step_combo.findData(step)) if step is not None else 0)
        self._emit()

    def chosen_rank_step(self) -> tuple[str | None, str | None]:
        """The rank and step chosen (None: all)."""
        return self.rank_combo.currentData(), self.step_combo.currentData()

    def row_filter(self) -> RowFilter:
        """The filter the widgets describe."""
        status = self.status_combo.currentData()
        verdict = self.verdict_combo.currentData()
        verdicts = frozenset({VERDICT_CULPRIT, VERDICT_PROPAGATED}) if verdict == _FAILING else (
            frozenset({verdict}) if verdict else frozenset())
        rank, step = self.chosen_rank_step()
        code = self.signature_combo.currentData()
        return RowFilter(frozenset({status}) if status else frozenset(), verdicts, self.search.text(),
                         frozenset({rank}) if rank is not None else frozenset(),
                         frozenset({step}) if step is not None else frozenset(),
                         frozenset({code}) if code else frozenset())

    def clear(self) -> None:
        """Show every row."""
        combos = (self.status_combo, self.verdict_combo, self.rank_combo, self.step_combo, self.signature_combo)
        with QSignalBlocker(self.search), QSignalBlocker(combos[0]), QSignalBlocker(combos[1]), \
                QSignalBlocker(combos[2]), QSignalBlocker(combos[3]), QSignalBlocker(combos[4]):
            for combo in combos:
                combo.setCurrentIndex(0)
            self.search.clear()
        self._emit()

    def _emit(self) -> None:
        self.filterChanged.emit(self.row_filter())
