"""Signatures follow a threshold edit (issue 31): rows that now fail are signed off the GUI thread.

After the session assigned new verdicts, settle() drops the signatures of rows that no longer fail and restores
those worked out before (core.precision.signature_rows), at once; the rows that now fail and were never signed
are read again on a one-worker TaskRunner, and the table, its Signature column and chooser, and the tensor panel's
outline follow when they are signed. A newer edit (or another result) cancels the task in flight.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.signature_rows import (
    SignatureCache,
    apply_signed,
    row_sides,
    settle_signatures,
    sign_pairs,
)
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner


class SignatureResigner(QObject):
    """Keeps a shown result's signatures in step with its verdicts; `changed` after the rows' signatures moved."""

    changed = Signal(object)  # list[PrecisionRow] whose signature changed (settled or newly signed)
    settledAll = Signal()  # the task in flight finished (tests wait for it)

    def __init__(self, parent: QObject | None = None, runner: TaskRunner | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._handle: TaskHandle | None = None
        self._cache: SignatureCache = {}
        self._result: PrecisionResult | None = None

    @property
    def busy(self) -> bool:
        """True while rows are being signed."""
        return self._handle is not None

    def forget(self) -> None:
        """Another result is shown (or none): stop signing, forget the signatures worked out."""
        self._cancel()
        self._cache = {}
        self._result = None

    def settle(self, result: PrecisionResult, local_files: bool = True) -> None:
        """The verdicts of `result` changed: drop, restore, and start signing the rows that now fail (only when
        their files are on this machine: `local_files`)."""
        self._cancel()
        if result is not self._result:
            self._cache, self._result = {}, result
        before = {id(row): row.signature for row in result.rows}
        todo = settle_signatures(result.rows, self._cache)
        moved = [row for row in result.rows if row.signature is not before[id(row)]]
        if moved:
            self.changed.emit(moved)
        if not todo or not local_files:
            return
        if self._runner is None:
            self._runner = TaskRunner(self, max_workers=1)
        handle = self._handle = self._runner.start(sign_pairs, [row_sides(row) for row in todo])
        handle.finished.connect(lambda signed: self._on_signed(handle, result, todo, signed))
        handle.failed.connect(lambda _error: self._on_ended(handle))
        handle.cancelled.connect(lambda: self._on_ended(handle))

    def shutdown(self) -> None:
        """Stop the worker (the window closes)."""
        self._cancel()
        if self._runner is not None:
            self._runner.shutdown(wait=False)

    def _cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _on_signed(self, handle: TaskHandle, result: PrecisionResult, rows: Sequence[PrecisionRow],
                   signed: list[Signature | None]) -> None:
        if handle is not self._handle or result is not self._result:
            return  # cancelled by a newer edit or another result: its rows are settled again there
        self._handle = None
        changed = apply_signed(rows, signed, self._cache)
        if changed:
            self.changed.emit(changed)
        self.settledAll.emit()

    def _on_ended(self, handle: TaskHandle) -> None:
        if handle is self._handle:
            self._handle = None
            self.settledAll.emit()
