"""RemoteTensors: a remote row's two NPYs, copied from its host in the background for the tensor panel."""

from __future__ import annotations

import shutil
import tempfile
import weakref
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.remote.fetch import fetch_pair
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner


class RemoteTensors(QObject):
    """Copies a row's pair (once: later selections reuse the copies) and hands back a row pointing at them."""

    ready = Signal(object)  # PrecisionRow: a copy of the selected row with local fused_file / origin_file
    failed = Signal(object)  # the AppError of the copy

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._folder: Path | None = None
        self._handle: TaskHandle | None = None

    @property
    def folder(self) -> Path:
        """Where the copies are kept: made on first use, removed with this object or at exit."""
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="autofuse-remote-tensors-"))
            weakref.finalize(self, shutil.rmtree, self._folder, True)
        return self._folder

    def fetch(self, host: str, row: PrecisionRow) -> None:
        """Copy the row's pair from `host`; a newer request replaces one still copying."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if row.fused_file is None or row.origin_file is None:
            self.failed.emit(InputError.of("no_file_pair_to_show", op=row.fused_op, index=row.fused_index))
            return
        handle = self._handle = self._runner.start(fetch_pair, host, row.fused_file, row.origin_file, self.folder)
        handle.finished.connect(lambda copies: self._on_handle_finished(handle, row, copies))
        handle.failed.connect(lambda error: self._on_handle_failed(handle, error))

    def _on_handle_finished(self, handle: TaskHandle, row: PrecisionRow, copies: tuple[str, str]) -> None:
        if handle is self._handle:
            self._handle = None
            self.ready.emit(replace(row, fused_file=copies[0], origin_file=copies[1]))

    def _on_handle_failed(self, handle: TaskHandle, error: BaseException) -> None:
        if handle is self._handle:
            self._handle = None
            self.failed.emit(error)
