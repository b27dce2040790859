"""AttWorkbench: the ATT tab. Open (or drop) logs; perf canvas, summary, compare and split-slog tabs."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from autofuse_studio.core.att.evidence_archive import export_evidence
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.workspace import AttWorkspace, load_workspace
from autofuse_studio.ui.att import dialogs
from autofuse_studio.ui.att.compare_panel import ComparePanel
from autofuse_studio.ui.att.jobs import AttJobs, TaskStrip
from autofuse_studio.ui.att.perf_panel import PerfPanel
from autofuse_studio.ui.att.runs_panel import RunsPanel
from autofuse_studio.ui.att.split_panel import SplitPanel
from autofuse_studio.ui.att.summary_panel import SummaryPanel
from autofuse_studio.ui.errors import ErrorBanner
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.widgets.drops import accept_local_drag, take_local_drop
from autofuse_studio.ui.widgets.retranslate import Retranslating

log = logging.getLogger(__name__)
LOG_FILTERS = "ATT logs (*.log *.log.gz *.gz);;All files (*)"


class AttWorkbench(Retranslating, QWidget):
    """Everything ATT in one widget; the main window embeds it and may pass its TaskRunner."""

    loaded = Signal(object)  # AttWorkspace
    evidenceExported = Signal(str, int)  # folder, record count
    statusMessage = Signal(str)

    def __init__(self, runner: TaskRunner | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attWorkbench")
        self.setAcceptDrops(True)
        self._own_runner = runner is None
        self.runner = runner if runner is not None else TaskRunner(self)
        self.banner = ErrorBanner()
        self.strip = TaskStrip()
        self.jobs = AttJobs(self.runner, self.strip, self.banner, self)
        self.workspace: AttWorkspace | None = None
        self.loading: TaskHandle | None = None
        self.perf = PerfPanel(self.jobs)
        self.summary = SummaryPanel(self.jobs)
        self.compare = ComparePanel(self.jobs)
        self.split = SplitPanel(self.jobs)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for panel in (self.perf, self.summary, self.compare, self.split):
            self.tabs.addTab(panel, "")
        self.runs = RunsPanel(self.jobs)  # run-root analysis (att analyze); its own drops and buttons
        self.tabs.addTab(self.runs, "")
        self.runs.statusMessage.connect(lambda text: self.statusMessage.emit(text))
        self.title = QLabel()
        self._opening = ""  # names being opened, while a load runs
        self.open_files_button, self.open_folder_button = QPushButton(), QPushButton()
        self.evidence_button = QPushButton()
        self._build_layout()
        self.retranslate()
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.summary.caseRequested.connect(self._on_summary_case_requested)

    def retranslate(self) -> None:
        """Texts in the current language (the panels translate their own)."""
        titles = (self.tr("Perf formula"), self.tr("Summary"), self.tr("Compare"), self.tr("Split slog"))
        for number, title in enumerate(titles):
            self.tabs.setTabText(number, title)
        self.tabs.setTabText(self.tabs.indexOf(self.runs), self.tr("Runs"))
        self.open_files_button.setText(self.tr("Open logs…"))
        self.open_folder_button.setText(self.tr("Open folder…"))
        self.evidence_button.setText(self.tr("Export evidence…"))
        self.evidence_button.setToolTip(self.tr("att-evidence.jsonl + tool-manifest.json; an existing archive is "
                                                "never overwritten (a numbered folder is used instead)"))
        if self.loading is not None:
            self.title.setText(self.tr("Opening {name}…").format(name=self._opening))
        elif self.workspace is not None:
            self.title.setText(self._loaded_message(self.workspace))
        else:
            self.title.setText(self.tr("Drop an ATT log or a folder of logs here, or open one."))


    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        for button, slot in ((self.open_files_button, self._on_open_files),
                             (self.open_folder_button, self._on_open_folder)):
            button.clicked.connect(slot)
            bar.addWidget(button)
        bar.addWidget(self.title, 1)
        evidence = self.evidence_button
        evidence.clicked.connect(self._on_export_evidence)
        evidence.setEnabled(False)  # enabled once logs are loaded: there is nothing to archive before
        bar.addWidget(evidence)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.banner)
        layout.addWidget(self.strip)
        layout.addWidget(self.tabs, 1)

    def open_paths(self, paths: Sequence[str | Path]) -> TaskHandle | None:
        """Open log files and/or folders in the background (a running open is cancelled first)."""
        inputs = [Path(p) for p in paths]
        if not inputs:
            return None
        if self.loading is not None:
            self.jobs.cancel(self.loading)
        self.banner.hide()
        self._opening = ", ".join(p.name for p in inputs)
        self.title.setText(self.tr("Opening {name}…").format(name=self._opening))
        handle = self.jobs.run(self.tr("Scanning logs"), load_workspace, inputs, on_done=self._on_loaded)
        handle.failed.connect(lambda _exc: self._forget_loading(handle))
        handle.cancelled.connect(lambda: self._forget_loading(handle))
        handle.finished.connect(lambda _result: self._forget_loading(handle))  # a dropped (cancelled) result
        self.loading = handle
        return handle

    def open_run_root(self, path: str | Path) -> TaskHandle:
        """Show the Runs view and analyse a run root there (File > Open run root…, drops on the view)."""
        self.tabs.setCurrentWidget(self.runs)
        return self.runs.open_run_root(path)

    def open_run_root_dialog(self) -> None:
        """Ask for a run root and open it in the Runs view."""
        folder = dialogs.folder(self, self.tr("Open a run root"))
        if folder is not None:
            self.open_run_root(folder)

    def _forget_loading(self, handle: TaskHandle) -> None:
        if self.loading is handle:
            self.loading = None
            self.title.setText(self.workspace.title if self.workspace else self.tr("Nothing opened."))

    def _on_loaded(self, workspace: AttWorkspace) -> None:
        self.loading = None
        self.workspace = workspace
        self.evidence_button.setEnabled(True)
        for panel in (self.perf, self.summary, self.split):
            panel.set_workspace(workspace)
        if not self.compare.paths[0].text():
            self.compare.set_runs(workspace.inputs[0])
        message = self._loaded_message(workspace)
        self.title.setText(message)
        self.statusMessage.emit(message)
        if self.tabs.currentWidget() is self.split:
            self.split.ensure_split()
        self.loaded.emit(workspace)

    def _loaded_message(self, workspace: AttWorkspace) -> str:
        lines = sum(scan.line_count for scan in workspace.scans)
        return self.tr("{title}: {files} file(s), {lines} lines, {ops} operator(s) with [PERF] lines, "
                       "{rows} summary row(s)").format(
            title=workspace.title, files=len(workspace.logs), lines=lines, ops=len(workspace.cases.operators),
            rows=len(workspace.summary(False).export_rows))

    def export_evidence(self, target: Path) -> None:
        """Write the evidence archive into target (or a numbered sibling when target is not empty)."""
        workspace = self.workspace
        if workspace is None:
            return
        command = ["autofuse-studio", "att", "evidence", *map(str, workspace.inputs), "-o", str(target)]
        self.jobs.run(self.tr("Exporting evidence"), export_evidence, workspace.scans, workspace.logs, target,
                      command, on_done=self._on_evidence_done)

    def _on_evidence_done(self, result: tuple[Path, int]) -> None:
        folder, count = result
        self.statusMessage.emit(self.tr("{n} evidence record(s) written to {folder}").format(n=count, folder=folder))
        self.evidenceExported.emit(str(folder), count)

    def _on_export_evidence(self) -> None:
        if self.workspace is None:
            return
        target = dialogs.folder(self, self.tr("Export evidence to folder"))
        if target is not None:
            self.export_evidence(target)

    def _on_open_files(self) -> None:
        self.open_paths(dialogs.open_files(self, self.tr("Open ATT logs"), LOG_FILTERS))

    def _on_open_folder(self) -> None:
        folder = dialogs.folder(self, self.tr("Open a folder of ATT logs"))
        if folder is not None:
            self.open_paths([folder])

    def _on_tabs_current_changed(self, _index: int) -> None:
        if self.tabs.currentWidget() is self.split:
            self.split.ensure_split()

    def _on_summary_case_requested(self, operator: str, key: CaseKey) -> None:
        if self.perf.select_operator(operator):
            self.tabs.setCurrentWidget(self.perf)
            self.perf.show_case(key)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept drops of local files and folders."""
        accept_local_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        """Open the dropped files and folders."""
        paths = take_local_drop(event)
        if paths:
            self.open_paths(paths)

    def shutdown(self) -> None:
        """Cancel running work, stop an own TaskRunner and remove the split folders (call before closing)."""
        self.jobs.cancel_all()
        if self._own_runner:
            self.runner.shutdown(wait=True)
        self.split.cleanup()
