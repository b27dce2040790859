"""RunsPanel: the ATT tab's Runs view. Drop or open a run root; default vs candidate, causes, evidence.

The analysis, Export and Archive run the CLI's core functions (core/att/runs/session.py) on the
TaskRunner through AttJobs, so the window keeps painting and Cancel works.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.att.runs.archive import ArchiveResult
from autofuse_studio.core.att.runs.diff import CHANGED, OperatorDiff
from autofuse_studio.core.att.runs.session import RunSession, archive_session, export_run, open_run
from autofuse_studio.core.att.runs.texts import cause_text, percent
from autofuse_studio.ui.att import dialogs
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.runs_model import (
    EvidenceModel,
    RunFilesModel,
    RunOperatorsModel,
    report_language,
)
from autofuse_studio.ui.att.runs_pictures import SidePictures
from autofuse_studio.ui.tasks import TaskHandle
from autofuse_studio.ui.widgets.drops import accept_local_drag, take_local_drop
from autofuse_studio.ui.widgets.retranslate import Retranslating


def _table(model: RunFilesModel | RunOperatorsModel | EvidenceModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)  # one line per row; the whole text is the tooltip
    view.verticalHeader().hide()
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class RunsPanel(Retranslating, QWidget):
    """One run root at a time: files of both sides, operators (changed first), pictures and evidence."""

    loaded = Signal(object)  # RunSession
    exported = Signal(list)  # paths written
    archived = Signal(object)  # ArchiveResult
    statusMessage = Signal(str)

    def __init__(self, jobs: AttJobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attRunsPanel")
        self.setAcceptDrops(True)
        self.jobs = jobs
        self.session: RunSession | None = None
        self.loading: TaskHandle | None = None
        self.files, self.operators, self.evidence = RunFilesModel(self), RunOperatorsModel(self), EvidenceModel(self)
        self.files_view, self.operators_view = _table(self.files), _table(self.operators)
        self.evidence_view = _table(self.evidence)
        self.pictures = SidePictures()
        self.title, self.causes = QLabel(), QLabel()
        self.causes.setWordWrap(True)
        self.causes.setTextFormat(Qt.TextFormat.PlainText)  # names and pipes come from logs: never markup
        self.causes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button, self.export_button, self.archive_button = QPushButton(), QPushButton(), QPushButton()
        self._build_layout()
        self.retranslate()
        self.operators_view.selectionModel().currentRowChanged.connect(self._on_operators_view_current)
        self._enable()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.addWidget(self.open_button)
        bar.addWidget(self.title, 1)
        bar.addWidget(self.export_button)
        bar.addWidget(self.archive_button)
        self.open_button.clicked.connect(self._on_open_clicked)
        self.export_button.clicked.connect(self._on_export_clicked)
        self.archive_button.clicked.connect(self._on_archive_clicked)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.files_view)
        left.addWidget(self.operators_view)
        left.setSizes([220, 480])
        right = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.causes)
        top_layout.addWidget(self.pictures, 1)
        right.addWidget(top)
        right.addWidget(self.evidence_view)
        right.setSizes([520, 180])
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([480, 820])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)

    def retranslate(self) -> None:
        """Texts in the current language (the models translate their own)."""
        self.open_button.setText(self.tr("Open run root…"))
        self.export_button.setText(self.tr("Export…"))
        self.export_button.setToolTip(self.tr("report.md, summary.csv, root-cause.jsonl and summary.xlsx, as "
                                              "att analyze --output writes them"))
        self.archive_button.setText(self.tr("Archive…"))
        self.archive_button.setToolTip(self.tr("evidence-archive/<run>/ (the logs) and report-archive/<run>/ (the "
                                               "report) under a folder you choose; existing archives are never "
                                               "overwritten (<run>-2, -3, … instead)"))
        self._show_title()
        for model in (self.files, self.operators, self.evidence):
            model.retranslate()
        self._show_causes(self.current_diff())

    def _show_title(self) -> None:
        if self.loading is not None:
            self.title.setText(self.tr("Analysing the run root…"))
        elif self.session is None:
            self.title.setText(self.tr("Drop a run root (a folder with default/ and pgo/ or base/) here, or open "
                                       "one."))
        else:
            analysis = self.session.analysis
            counts = analysis.counts()
            self.title.setText(self.tr("%1: %2 ↔ %3, %4 operator(s), %5 changed").replace(
                "%1", analysis.name).replace("%2", analysis.sides.default.label + "/").replace(
                "%3", analysis.sides.candidate.label + "/").replace("%4", str(len(analysis.diffs))).replace(
                "%5", str(counts[CHANGED])))

    def _enable(self) -> None:
        for button in (self.export_button, self.archive_button):
            button.setEnabled(self.session is not None)

    # --- opening ---------------------------------------------------------------------------------
    def open_run_root(self, path: str | Path) -> TaskHandle:
        """Analyse a run root in the background (a running analysis is cancelled first)."""
        if self.loading is not None:
            self.jobs.cancel(self.loading)
        self.jobs.banner.hide()
        handle = self.jobs.run(self.tr("Analysing run root"), open_run, Path(path), on_done=self._on_loaded)
        for signal in (handle.failed, handle.cancelled, handle.finished):
            signal.connect(lambda *_args, h=handle: self._forget(h))
        self.loading = handle
        self._show_title()
        return handle

    def _forget(self, handle: TaskHandle) -> None:
        if self.loading is handle:
            self.loading = None
            self._show_title()

    def _on_loaded(self, session: RunSession) -> None:
        self.loading = None
        self.session = session
        self.files.set_analysis(session.analysis)
        self.operators.set_analysis(session.analysis)
        for view in (self.files_view, self.operators_view):
            view.resizeColumnsToContents()
        self._show_title()
        self._enable()
        if self.operators.diffs:
            self.operators_view.selectRow(0)
        self.statusMessage.emit(self.title.text())
        self.loaded.emit(session)

    # --- one operator ----------------------------------------------------------------------------
    def current_diff(self) -> OperatorDiff | None:
        """The operator shown on the right."""
        return self.operators.diff_at(self.operators_view.currentIndex().row())

    def select_operator(self, name: str) -> bool:
        """Show an operator by name; False when the run root has no such operator."""
        row = self.operators.row_of(name)
        if row >= 0:
            self.operators_view.selectRow(row)
        return row >= 0

    def _on_operators_view_current(self, current: object, _previous: object) -> None:
        diff = self.current_diff()
        self._show_causes(diff)
        self.evidence.set_operator(self.session.analysis if self.session else None, diff)
        self.evidence_view.resizeColumnToContents(1)
        self.pictures.show_operator(self.session, diff.name if diff else None)

    def _show_causes(self, diff: OperatorDiff | None) -> None:
        if diff is None:
            self.causes.setText("")
            return
        lang = report_language()
        head = f"{diff.name} — {self.operators.status_text(diff.status)}"
        if diff.status == CHANGED:
            head += f", {percent(diff.perf_delta_pct)}"
        lines = [f"• {cause_text(cause, lang)}" for cause in diff.causes] or [self.tr("No difference found.")]
        self.causes.setText("\n".join([head, *lines]))

    # --- export and archive ----------------------------------------------------------------------
    def export(self, target: str | Path, force: bool = False) -> TaskHandle | None:
        """Write the four report files into `target` in the background."""
        if self.session is None:
            return None
        return self.jobs.run(self.tr("Writing the report"), export_run, self.session, Path(target),
                             report_language(), force, on_done=self._on_exported)

    def archive(self, root: str | Path, name: str | None = None) -> TaskHandle | None:
        """Write both archives under `root` in the background (a fresh numbered name when one exists)."""
        if self.session is None:
            return None
        return self.jobs.run(self.tr("Archiving the run"), archive_session, self.session, Path(root),
                             report_language(), name, on_done=self._on_archived)

    def _on_exported(self, paths: list[Path]) -> None:
        if paths:
            self.statusMessage.emit(self.tr("Report written to %1").replace("%1", str(paths[0].parent)))
        self.exported.emit([str(p) for p in paths])

    def _on_archived(self, result: ArchiveResult) -> None:
        self.statusMessage.emit(self.tr("Archived as %1: %2 and %3").replace("%1", result.name).replace(
            "%2", str(result.evidence)).replace("%3", str(result.report)))
        self.archived.emit(result)

    def _on_open_clicked(self) -> None:
        folder = dialogs.folder(self, self.tr("Open a run root"))
        if folder is not None:
            self.open_run_root(folder)

    def _on_export_clicked(self) -> None:
        target = dialogs.folder(self, self.tr("Export the report to folder"))
        if target is None:
            return
        force = False
        if target.is_dir() and any(target.iterdir()):
            answer = QMessageBox.question(self, self.tr("Folder not empty"), self.tr(
                "%1 is not empty. Replace report.md, summary.csv, root-cause.jsonl and summary.xlsx in it? Other "
                "files are left alone.").replace("%1", str(target)))
            if answer != QMessageBox.StandardButton.Yes:
                return
            force = True
        self.export(target, force)

    def _on_archive_clicked(self) -> None:
        root = dialogs.folder(self, self.tr("Archive root (evidence-archive/ and report-archive/ go in it)"))
        if root is not None:
            self.archive(root)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept a dropped folder."""
        accept_local_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        """Open the dropped folder as a run root."""
        paths = take_local_drop(event)
        if paths:
            self.open_run_root(paths[0])
