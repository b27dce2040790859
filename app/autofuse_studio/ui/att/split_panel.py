"""SplitPanel: `att split-slog` into a private folder, browsed as operator → side → result → group → case."""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSplitter, QTreeView, QVBoxLayout, QWidget

from autofuse_studio.core.att.evidence_archive import copy_tree
from autofuse_studio.core.att.model import FileScan
from autofuse_studio.core.att.split_slog import SplitResult, split_logs
from autofuse_studio.core.att.workspace import AttWorkspace
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.ui.att import dialogs
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.text_search import SearchableText
from autofuse_studio.ui.tasks import TaskHandle
from autofuse_studio.ui.widgets.retranslate import Retranslating

log = logging.getLogger(__name__)
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_SHOWN_BYTES = 8 << 20  # a case file larger than this is shown truncated (the export has it all)


def run_split(logs: list[Path], scans: list[FileScan], out_dir: Path, *, progress: Progress,
              cancel: CancelToken) -> SplitResult:
    """split_logs with the task runner's calling convention (progress by bytes read)."""
    # QCoreApplication.translate() is thread-safe.
    splitting = QCoreApplication.translate("SplitPanel", "Splitting logs")

    def report(done: int, total: int, message: str = "") -> None:  # the core message is replaced
        progress(done, total, splitting)

    result = split_logs(logs, scans, out_dir, cancel=cancel, progress=report)
    progress(1, 1, QCoreApplication.translate("SplitPanel", "Split finished"))
    return result


def _sort_key(path: Path) -> tuple[str, int, str]:
    # case10 after case9: split the trailing number off for ordering.
    stem = path.stem
    digits = len(stem) - len(stem.rstrip("0123456789"))
    number = int(stem[-digits:]) if digits else -1
    return (stem[: len(stem) - digits], number, path.name)


def split_tree(root: Path, model: QStandardItemModel) -> int:
    """Fill model with the folders and .log files under root; returns the number of files."""
    model.clear()
    model.setHorizontalHeaderLabels([QCoreApplication.translate("SplitPanel", "Split logs")])
    count = 0

    def add(folder: Path, parent: QStandardItem) -> None:
        nonlocal count
        for child in sorted(folder.iterdir(), key=_sort_key):
            if child.name.startswith(".split-slog-"):
                continue  # a temp folder of an interrupted run
            item = QStandardItem(child.stem if child.is_file() else child.name)
            item.setEditable(False)
            item.setData(str(child), PATH_ROLE)
            parent.appendRow(item)
            if child.is_dir():
                add(child, item)
            else:
                count += 1

    if root.is_dir():
        add(root, model.invisibleRootItem())
    return count


class SplitPanel(Retranslating, QWidget):
    """The split-slog tab; the split runs in the background into a folder owned by the panel."""

    splitDone = Signal(int)  # number of files
    exported = Signal(str)  # the folder the split was copied to

    def __init__(self, jobs: AttJobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attSplitPanel")
        self.jobs = jobs
        self.workspace: AttWorkspace | None = None
        self.folder: Path | None = None
        self.split_for: AttWorkspace | None = None
        self.running: TaskHandle | None = None
        self.stale: list[Path] = []  # folders of cancelled splits: removed at cleanup, a worker may still write
        self.model = QStandardItemModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.viewer = SearchableText()
        self.status = QLabel()
        self._status: tuple[str, int] = ("hint", 0)  # which status sentence to show, and its count
        self.split_button, self.export_button = QPushButton(), QPushButton()
        self._build_layout()
        self.retranslate()
        self.tree.selectionModel().currentChanged.connect(self._on_tree_current_changed)

    def _build_layout(self) -> None:
        tools = QHBoxLayout()
        tools.addWidget(self.status, 1)
        for button, slot in ((self.split_button, self.split), (self.export_button, self._on_export)):
            button.clicked.connect(slot)
            tools.addWidget(button)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.viewer)
        splitter.setSizes([320, 880])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(tools)
        layout.addWidget(splitter, 1)

    def retranslate(self) -> None:
        """Texts in the current language (the split's folder and file names stay as they are)."""
        self.split_button.setText(self.tr("Split again"))
        self.export_button.setText(self.tr("Export split folder…"))
        if self.model.columnCount():
            self.model.setHorizontalHeaderLabels([self.tr("Split logs")])
        self._set_status(*self._status)


    def _set_status(self, kind: str, count: int = 0) -> None:
        self._status = (kind, count)
        texts = {"splitting": self.tr("Splitting…"),
                 "unfinished": self.tr("The split did not finish; press Split again."),
                 "done": self.tr("{n} case file(s); select one to read it").format(n=count)}
        self.status.setText(texts.get(kind, self.tr("Open logs to split them per operator, group and case.")))

    def set_workspace(self, workspace: AttWorkspace | None) -> None:
        """Forget the previous split; the next ensure_split() splits the new logs."""
        self.workspace = workspace
        self.split_for = None
        self.model.clear()
        self.viewer.set_text("")
        self._drop_folder()

    def ensure_split(self) -> None:
        """Split the opened logs unless that was already done (called when the tab is shown)."""
        if self.workspace is not None and self.split_for is not self.workspace:
            self.split()

    def split(self) -> None:
        """Split the opened logs in the background into a fresh private folder."""
        workspace = self.workspace
        if workspace is None:
            return
        self._drop_folder()
        folder = self.folder = Path(tempfile.mkdtemp(prefix="autofuse-att-split-"))
        self.split_for = workspace
        self._set_status("splitting")

        def done(_result: SplitResult) -> None:
            self._on_split_done(workspace, folder)

        handle = self.jobs.run(self.tr("Splitting logs"), run_split, workspace.logs, workspace.scans, folder,
                               on_done=done)
        handle.failed.connect(lambda _exc: self._forget(handle))
        handle.cancelled.connect(lambda: self._forget(handle))
        handle.finished.connect(lambda _result: self._forget(handle))  # a result dropped after cancel
        self.running = handle

    def _forget(self, handle: TaskHandle) -> None:
        if self.running is handle:
            self.running = None
            self._set_status("unfinished")

    def _on_split_done(self, workspace: AttWorkspace, folder: Path) -> None:
        self.running = None
        if workspace is not self.workspace or folder != self.folder:
            return  # other logs were opened meanwhile
        files = split_tree(self.folder, self.model)
        self.tree.expandToDepth(1)
        self._set_status("done", files)
        self.splitDone.emit(files)

    def select_path(self, relative: str) -> bool:
        """Select a tree node by its path relative to the split folder (e.g. `Op0/runtime/…/case1.log`)."""
        if self.folder is None:
            return False
        target = str(self.folder / relative)
        matches = self.model.match(self.model.index(0, 0), PATH_ROLE, target, 1,
                                   Qt.MatchFlag.MatchRecursive | Qt.MatchFlag.MatchExactly)
        if not matches:
            return False
        self.tree.setCurrentIndex(matches[0])
        return True

    def _on_tree_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        name = current.data(PATH_ROLE) if current.isValid() else None
        path = Path(name) if name else None
        if path is None or not path.is_file():
            self.viewer.set_text("")
            return
        with path.open("rb") as handle:
            data = handle.read(MAX_SHOWN_BYTES + 1)
        text = data[:MAX_SHOWN_BYTES].decode("utf-8", errors="replace")
        if len(data) > MAX_SHOWN_BYTES:
            text += "\n" + self.tr("… truncated at %1 MB; export the split folder for the whole file.").replace(
                "%1", str(MAX_SHOWN_BYTES >> 20))
        self.viewer.set_text(text)

    def export(self, target: Path) -> None:
        """Copy the split folder to target (a numbered sibling when target is not empty)."""
        if self.folder is None or self.split_for is None or self.running is not None:
            return
        self.jobs.run(self.tr("Exporting split logs"), copy_tree, self.folder, target,
                      on_done=lambda folder: self.exported.emit(str(folder)))

    def _on_export(self) -> None:
        target = dialogs.folder(self, self.tr("Export the split logs to"))
        if target is not None:
            self.export(target / "split")

    def _drop_folder(self) -> None:
        if self.running is not None:
            self.jobs.cancel(self.running)
            self.running = None
            if self.folder is not None:
                self.stale.append(self.folder)  # the cancelled worker may still be writing there
                self.folder = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def cleanup(self) -> None:
        """Remove the private split folders (the workbench calls this after its tasks stopped)."""
        self._drop_folder()
        for folder in self.stale:
            shutil.rmtree(folder, ignore_errors=True)
        self.stale.clear()
