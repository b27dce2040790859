"""The tensor panel's signature line: the shown row's signature as a sentence, or a button that works it out.

A run signs the rows that fail their thresholds; any other row compared by value (an OK row the user doubts, a
failing row too big for the run) is signed here on demand, off the GUI thread, from the same two files. The
answer stays in the panel (remembered per row while the result is shown), not in the row: the table, exports
and reports keep what a run gives.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from autofuse_studio.core.precision.engine import (
    NO_DIFFERENCE,
    NO_FILES,
    NOT_COMPARABLE,
    SIGNED_VERDICTS,
    TOO_BIG,
    UNREADABLE,
)
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.signature import MAX_ELEMENTS, Signature
from autofuse_studio.core.precision.signature_rows import sign_row, signable_on_demand
from autofuse_studio.ui.precision.signature_text import signature_sentence
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.widgets.retranslate import Retranslating

# Rows signed on demand that are remembered (a user signs a handful; the oldest are forgotten first).
REMEMBERED = 256
Answer = tuple[Signature | None, str]  # sign_row's answer: the signature, or why there is none


def reason_text(reason: str) -> str:
    """Why an on-demand signature is missing, as a sentence in the UI language."""
    translate = QCoreApplication.translate
    if reason == NO_DIFFERENCE:
        return translate("SignatureLine", "No signature: no element differs beyond rounding.")
    if reason == TOO_BIG:
        return translate("SignatureLine", "No signature: the pair has more than %1 elements.").replace(
            "%1", f"{MAX_ELEMENTS:,}")
    if reason == UNREADABLE:
        return translate("SignatureLine", "No signature: the two files could not be read again.")
    if reason == NOT_COMPARABLE:
        return translate("SignatureLine", "No signature: the two tensors no longer match in size.")
    if reason == NO_FILES:
        return translate("SignatureLine", "No signature: the row has no file pair.")
    return translate("SignatureLine", "No signature.")


class SignatureLine(Retranslating, QWidget):
    """One line under the panel's title: the shown row's signature, or a button to work it out on demand."""

    signatureChanged = Signal(object)  # Signature | None: what the shown row's plots should outline now

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self.row: PrecisionRow | None = None
        self._handle: TaskHandle | None = None
        self._known: OrderedDict[int, tuple[PrecisionRow, Answer]] = OrderedDict()  # id(row) -> answer
        self._text: Callable[[], str] = str  # the label's sentence, worded in the current language
        self.label = QLabel()
        self.label.setObjectName("signatureLine")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.button = QToolButton()
        self.button.setObjectName("signOnDemand")
        self.button.clicked.connect(self.sign_shown)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignTop)
        self.retranslate()
        self.hide()

    @property
    def busy(self) -> bool:
        """True while the shown row is being signed."""
        return self._handle is not None

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.button.setText(self.tr("Name its error"))
        # As high with or without its button: the plots below do not jump when the button comes and goes.
        self.setMinimumHeight(self.button.sizeHint().height())
        self.button.setToolTip(self.tr(
            "Work out this pair's signature (the kind of error its tensors hold) from its two files. A run signs "
            "the rows that fail their thresholds; this one is signed here only."))
        self.label.setText(self._text())

    def show_row(self, row: PrecisionRow) -> None:
        """Show `row`'s signature (a run's, or one worked out here before), or offer to work it out."""
        self._cancel()
        self.row = row
        signed = row.signature
        if signed is not None:
            self._say(lambda: self.tr("Signature: %1").replace("%1", signature_sentence(signed)), False)
        elif not signable_on_demand(row):
            self.clear()
            return
        elif (known := self._answer(row)) is not None:
            self._show_answer(known)
        elif row.verdict in SIGNED_VERDICTS:  # a failing row the run could not sign (too big, files unreadable)
            self._say(lambda: self.tr("The run could not work out this failing row's signature."), True)
        else:
            self._say(lambda: self.tr("This row has no signature: a run signs the rows that fail their "
                                      "thresholds."), True)
        self.show()

    def clear(self) -> None:
        """Nothing to say (no row, a statistics row, a row without a file pair): hidden, its work stopped."""
        self._cancel()
        self.row = None
        self._say(str, False)
        self.hide()

    def forget(self) -> None:
        """Another result is shown: the signatures worked out here belong to the old one's rows."""
        self._known.clear()

    def sign_shown(self) -> None:
        """Work out the shown row's signature in the background (the button)."""
        row = self.row
        if row is None or self._handle is not None or not signable_on_demand(row):
            return
        self._say(lambda: self.tr("Working out the signature…"), False)
        handle = self._handle = self._runner.start(sign_row, row)
        handle.finished.connect(self._on_finished)
        handle.failed.connect(self._on_failed)
        handle.cancelled.connect(self._on_cancelled)

    def _answer(self, row: PrecisionRow) -> Answer | None:
        known = self._known.get(id(row))
        return known[1] if known is not None and known[0] is row else None

    def _show_answer(self, answer: Answer) -> None:
        found, reason = answer
        if found is not None:
            self._say(lambda: self.tr("Signature (worked out on demand): %1").replace(
                "%1", signature_sentence(found)), False)
        else:
            self._say(lambda: reason_text(reason), False)
        self.signatureChanged.emit(found)

    def _say(self, text: Callable[[], str], offer: bool) -> None:
        self._text = text
        self.label.setText(text())
        self.button.setVisible(offer)

    def _current(self) -> bool:
        return self._handle is not None and self.sender() is self._handle

    def _on_finished(self, answer: Answer) -> None:
        if not self._current() or self.row is None:
            return  # a row no longer shown
        self._handle = None
        self._known[id(self.row)] = (self.row, answer)
        while len(self._known) > REMEMBERED:
            self._known.popitem(last=False)
        self._show_answer(answer)

    def _on_failed(self, _error: BaseException) -> None:
        if self._current():
            self._handle = None
            self._say(lambda: self.tr("The signature could not be worked out."), True)

    def _on_cancelled(self) -> None:
        if self._current():
            self._handle = None

    def _cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
