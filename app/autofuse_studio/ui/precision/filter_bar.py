"""FilterBar: status, verdict, signature, rank and step combos, a search box, presets and 'Go to first divergence'.

The whole filter is a small dictionary (state()/set_state(), checked by filters.clean_filter_state): named
presets keep it in the settings, the window remembers the last one across restarts and case files keep it.
A value not offered yet (a signature before the result that has it) waits until its chooser is filled.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import ExitStack
from typing import Any

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QToolButton,
    QWidget,
)

from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, VERDICT_PROPAGATED, VERDICTS, PrecisionRow
from autofuse_studio.ui.precision.filters import (
    FILTER_CHOICES,
    MAX_PRESET_NAME,
    RowFilter,
    clean_filter_state,
    signature_codes,
)
from autofuse_studio.ui.precision.signature_text import LABELS, code_label
from autofuse_studio.ui.widgets.retranslate import Retranslating

_FAILING = "__failing__"
SEARCH_MIN_WIDTH = 160  # px the search box keeps before the choosers' labels give way


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
        # Saved filters: one drop-down button (save the current filter, apply one, delete one).
        self.presets_button = QToolButton()
        self.presets_button.setObjectName("filterPresets")
        self.presets_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.presets_menu = QMenu(self.presets_button)
        self.presets_menu.aboutToShow.connect(self._fill_presets_menu)
        self.presets_button.setMenu(self.presets_menu)
        self.delete_menu = QMenu(self.presets_menu)
        self._settings: Any = None  # AppSettings, made when first needed (the tests' config folder is set by then)
        self._wanted: dict[str, str] = {}  # chooser values of set_state() not offered yet
        self._statuses: list[str] = []
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.status_label, self.status_combo, self.verdict_label, self.verdict_combo,
                       self.signature_label, self.signature_combo, self.rank_label, self.rank_combo,
                       self.step_label, self.step_combo):
            layout.addWidget(widget)
        layout.addWidget(self.search, 1)
        layout.addWidget(self.presets_button)
        layout.addWidget(self.first_button)
        self.status_combo.currentIndexChanged.connect(self._emit)
        self.verdict_combo.currentIndexChanged.connect(self._emit)
        self.signature_combo.currentIndexChanged.connect(self._emit)
        self.rank_combo.currentIndexChanged.connect(self._emit)
        self.step_combo.currentIndexChanged.connect(self._emit)
        self.search.textChanged.connect(self._emit)
        self.first_button.clicked.connect(self.firstDivergenceRequested)
        for key, combo in self.choosers().items():  # a user's choice replaces a value still waiting
            combo.activated.connect(lambda _index, key=key: self._wanted.pop(key, None))
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language (keeps the current choices)."""
        self.status_label.setText(self.tr("Status"))
        self.verdict_label.setText(self.tr("Verdict"))
        self.search.setPlaceholderText(self.tr("Filter by op, file, dtype, message…"))
        self.first_button.setText(self.tr("Go to first divergence"))
        # A star, not a word: the bar is full at 1280 px (ranks, steps, signatures); the tooltip names it.
        self.presets_button.setText("☆")
        self.presets_button.setAccessibleName(self.tr("Presets"))
        self.presets_button.setToolTip(self.tr("Filter presets: save the current filter under a name, apply or "
                                               "delete a saved one"))
        self.delete_menu.setTitle(self.tr("Delete preset"))
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
        for label, combo in self._labelled():
            combo.setToolTip(label.text())
        self._fit_labels()

    def _labelled(self) -> tuple[tuple[QLabel, QComboBox], ...]:
        return ((self.status_label, self.status_combo), (self.verdict_label, self.verdict_combo),
                (self.signature_label, self.signature_combo), (self.rank_label, self.rank_combo),
                (self.step_label, self.step_combo))

    def _fit_labels(self) -> None:
        """The choosers' labels only while the bar has room for them and a usable search box; on a narrow window
        (1280 px with ranks, steps and signatures) the choosers' own texts ('All verdicts') and tooltips say
        what they are, and the search box and 'Go to first divergence' stay whole."""
        layout = self.layout()
        spacing = max(0, layout.spacing()) if layout is not None else 0
        fixed = [combo for _label, combo in self._labelled()] + [self.presets_button, self.first_button]
        need = sum(widget.sizeHint().width() + spacing for widget in fixed if not widget.isHidden())
        labels = [label for label, combo in self._labelled() if not combo.isHidden()]
        need += SEARCH_MIN_WIDTH + sum(label.sizeHint().width() + spacing for label in labels)
        roomy = need <= self.width()
        for label, combo in self._labelled():
            label.setVisible(roomy and not combo.isHidden())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Show or hide the choosers' labels for the new width."""
        super().resizeEvent(event)
        self._fit_labels()

    def set_statuses(self, statuses: Iterable[str]) -> None:
        """Offer these statuses in the status combo (keeps the current choice when still offered)."""
        self._statuses = list(dict.fromkeys(statuses))
        with QSignalBlocker(self.status_combo):
            current = self._take_wanted("status", self._statuses, self.status_combo.currentData())
            self.status_combo.clear()
            self.status_combo.addItem(self.tr("All statuses"), None)
            for status in self._statuses:
                self.status_combo.addItem(status, status)
            self.status_combo.setCurrentIndex(max(0, self.status_combo.findData(current)))
        self._flush_wanted()

    def set_signatures(self, codes: Iterable[str]) -> None:
        """Offer these signature codes, in the checks' order (the chooser is hidden when there is none)."""
        wanted = set(codes)
        order = list(LABELS)
        self._signatures = sorted(wanted, key=lambda code: (order.index(code) if code in order else len(order), code))
        with QSignalBlocker(self.signature_combo):
            current = self._take_wanted("signature", self._signatures, self.signature_combo.currentData())
            self.signature_combo.clear()
            self.signature_combo.addItem(self.tr("All signatures"), None)
            for code in self._signatures:
                self.signature_combo.addItem(code_label(code), code)
            self.signature_combo.setCurrentIndex(max(0, self.signature_combo.findData(current)))
        self.signature_combo.setVisible(bool(self._signatures))
        self._fit_labels()
        self._flush_wanted()

    def set_signatures_of(self, rows: Iterable[PrecisionRow]) -> None:
        """Offer the signature codes of these rows (a mixed signature's parts too)."""
        self.set_signatures({code for row in rows for code in signature_codes(row.signature)})

    def set_ranks_steps(self, ranks: Iterable[str], steps: Iterable[str]) -> None:
        """Offer these ranks and steps (each chooser hidden when there is at most one)."""
        self._ranks, self._steps = list(ranks), list(steps)
        for key, combo, values, every in (("rank", self.rank_combo, self._ranks, self.tr("All ranks")),
                                          ("step", self.step_combo, self._steps, self.tr("All steps"))):
            with QSignalBlocker(combo):
                current = self._take_wanted(key, values, combo.currentData())
                combo.clear()
                combo.addItem(every, None)
                for value in values:
                    combo.addItem(value, value)
                combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.setVisible(len(values) > 1)
        self._fit_labels()
        self._flush_wanted()

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

    # --- the filter as a dictionary: presets, the last filter, case files ------------------------------------
    def choosers(self) -> dict[str, QComboBox]:
        """The choosers by state key."""
        return {"status": self.status_combo, "verdict": self.verdict_combo, "signature": self.signature_combo,
                "rank": self.rank_combo, "step": self.step_combo}

    def state(self) -> dict[str, Any]:
        """The filter shown: each chooser's value (left out when 'all') and the search text."""
        state: dict[str, Any] = {}
        for key, combo in self.choosers().items():
            value = self._wanted.get(key, combo.currentData())
            if value is not None:
                state[key] = str(value)
        state["text"] = self.search.text()
        return state

    def set_state(self, raw: object) -> bool:
        """Show a state() again (one filterChanged); False, and nothing changed, when it is not a valid state.

        A chooser value not offered now (no result yet, another result) waits until the chooser offers it.
        """
        state = clean_filter_state(raw)
        if state is None:
            return False
        choosers = self.choosers()
        self._wanted = {}
        with ExitStack() as blocked:
            for widget in (self.search, *choosers.values()):
                blocked.enter_context(QSignalBlocker(widget))
            for key, combo in choosers.items():
                value = state.get(key)
                found = combo.findData(value) if value is not None else 0
                if found < 0 and isinstance(value, str):
                    self._wanted[key] = value
                    found = 0
                combo.setCurrentIndex(found)
            self.search.setText(state.get("text", ""))
        self._emit()
        return True

    def _take_wanted(self, key: str, offered: list[str], current: object) -> object:
        """The value a refilled chooser should show: a waiting one once values are offered, else the current."""
        if key not in self._wanted or not offered:
            return current
        wanted = self._wanted.pop(key)
        if wanted in offered:
            self._wanted_shown = True
            return wanted
        return current

    def _flush_wanted(self) -> None:
        """A waiting value was just shown (silently, with the chooser refilled): the table filters by it now."""
        if getattr(self, "_wanted_shown", False):
            self._wanted_shown = False
            self._emit()

    @property
    def settings(self) -> Any:
        """The AppSettings the presets are kept in."""
        if self._settings is None:
            from autofuse_studio.ui.settings import AppSettings

            self._settings = AppSettings()
        return self._settings

    @settings.setter
    def settings(self, settings: Any) -> None:
        self._settings = settings

    def presets(self) -> dict[str, dict[str, Any]]:
        """The saved presets by name (a corrupt setting gives none)."""
        return dict(self.settings.filter_presets())

    def save_preset(self, name: str) -> bool:
        """Save the current filter as `name` (replacing a preset of that name); False for an unusable name."""
        name = name.strip()
        if not name or len(name) > MAX_PRESET_NAME:
            return False
        presets = self.presets()
        presets[name] = self.state()
        self.settings.set_filter_presets(presets)
        self.settings.sync()
        return True

    def apply_preset(self, name: str) -> bool:
        """Show a saved preset; False when there is none of that name."""
        state = self.presets().get(name)
        return state is not None and self.set_state(state)

    def delete_preset(self, name: str) -> bool:
        """Forget a preset; False when there is none of that name."""
        presets = self.presets()
        if presets.pop(name, None) is None:
            return False
        self.settings.set_filter_presets(presets)
        self.settings.sync()
        return True

    def _fill_presets_menu(self) -> None:
        menu = self.presets_menu
        menu.clear()
        self.delete_menu.clear()
        save = menu.addAction(self.tr("Save current filter as…"))
        save.triggered.connect(self._on_save_preset_triggered)
        presets = self.presets()
        menu.addSeparator()
        if not presets:
            empty = menu.addAction(self.tr("No saved presets"))
            empty.setEnabled(False)
        for name in sorted(presets, key=str.lower):
            item: QAction = menu.addAction(name)
            item.setToolTip(self.describe(presets[name]))
            item.triggered.connect(lambda _checked=False, name=name: self.apply_preset(name))
            gone = self.delete_menu.addAction(name)
            gone.triggered.connect(lambda _checked=False, name=name: self.delete_preset(name))
        menu.addSeparator()
        menu.addMenu(self.delete_menu)
        self.delete_menu.setEnabled(bool(presets))
        menu.setToolTipsVisible(True)

    def describe(self, state: dict[str, Any]) -> str:
        """A preset in one line: 'verdict=CULPRIT, signature=tail_block, text "mul"'."""
        parts = [f"{key}={state[key]}" for key in FILTER_CHOICES if key in state]
        if state.get("text"):
            parts.append(self.tr("text \"%1\"").replace("%1", str(state["text"])))
        return ", ".join(parts) or self.tr("no filter")

    def _on_save_preset_triggered(self) -> None:
        name, chosen = QInputDialog.getText(self, self.tr("Save filter preset"), self.tr("Name of the preset:"))
        if chosen:
            self.save_preset(name)
