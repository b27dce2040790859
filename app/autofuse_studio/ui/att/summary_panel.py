"""SummaryPanel: the `att summary` table (best or all results), status filter and CSV/xlsx export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.summary import Summary
from autofuse_studio.core.att.summary_output import STATUS_COLUMN, write_summary_csv, write_summary_xlsx
from autofuse_studio.core.att.workspace import AttWorkspace
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.ui.att import dialogs
from autofuse_studio.ui.att.jobs import AttJobs, writing
from autofuse_studio.ui.att.summary_model import (
    ALL_STATUSES,
    PROBLEMS,
    ROW_ROLE,
    SummaryFilterProxy,
    SummaryTableModel,
    is_problem,
)
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH, header_width
from autofuse_studio.ui.widgets.retranslate import Retranslating


def export_summary(summary: Summary, path: Path, with_status: bool, *, progress: Progress,
                   cancel: CancelToken) -> Path:
    """Write the summary as CSV or xlsx (by suffix) with the CLI's writers; returns the path."""
    cancel.check()
    with writing(path):
        if path.suffix.lower() == ".xlsx":
            write_summary_xlsx(summary, path)
        else:
            write_summary_csv(summary, path, with_status=with_status)
    return path


def build_summary_of(workspace: AttWorkspace, all_results: bool, *, progress: Progress,
                     cancel: CancelToken) -> Summary:
    """The workspace's (cached) summary, built on a worker: all results of a 140 MB log take a second."""
    cancel.check()
    return workspace.summary(all_results)


class CountsLabel(QLabel):
    """The row counts; while rows have parse problems it reads like a link and a click emits `clicked`."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.active = False

    def set_active(self, active: bool, tooltip: str) -> None:
        """Look clickable (link colour, underline, hand cursor) or like plain text."""
        self.active = active
        font = self.font()
        font.setUnderline(active)
        self.setFont(font)
        self.setForegroundRole(QPalette.ColorRole.Link if active else QPalette.ColorRole.WindowText)
        self.setCursor(Qt.CursorShape.PointingHandCursor if active else Qt.CursorShape.ArrowCursor)
        self.setToolTip(tooltip if active else "")

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """A left click on an active label emits `clicked`."""
        if self.active and event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(event)


class SummaryPanel(Retranslating, QWidget):
    """The summary tab; double-clicking a row asks for its case on the perf canvas."""

    caseRequested = Signal(str, object)  # operator, CaseKey
    exported = Signal(str)
    refreshed = Signal()

    def __init__(self, jobs: AttJobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attSummaryPanel")
        self.jobs = jobs
        self.workspace: AttWorkspace | None = None
        self.model = SummaryTableModel(self)
        self.proxy = SummaryFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.results = QComboBox()
        self.results.addItems(["", ""])  # best, all: texts in retranslate()
        self.status = QComboBox()
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.with_status = QCheckBox()
        self.status_label = QLabel()
        self.export_buttons: list[QPushButton] = []
        self.counts = CountsLabel()
        self.view = QTableView()
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # capped columns: the tooltip has the full text
        self.view.setWordWrap(False)  # one line per row: a long name is elided in the middle, not wrapped at `/`
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # keep the CLI's order until asked
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setAlternatingRowColors(True)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.horizontalHeader().setResizeContentsPrecision(200)  # sizing columns from every row is slow
        self._build_layout()
        self.retranslate()
        self.results.currentIndexChanged.connect(self.refresh)
        self.status.currentIndexChanged.connect(self._on_status_changed)
        self.search.textChanged.connect(self._on_search_changed)
        self.view.doubleClicked.connect(self._on_view_double_clicked)
        self.counts.clicked.connect(self._on_counts_clicked)

    def retranslate(self) -> None:
        """Texts in the current language (status tokens and the CLI's column names stay as they are)."""
        self.results.setItemText(0, self.tr("Best result per operator"))
        self.results.setItemText(1, self.tr("All schedule results (-a)"))
        self.search.setPlaceholderText(self.tr("Filter operators…"))
        self.with_status.setText(self.tr("Parse Status in CSV"))
        self.status_label.setText(self.tr("Status:"))
        for button, text in zip(self.export_buttons, (self.tr("Export CSV…"), self.tr("Export xlsx…")), strict=True):
            button.setText(text)
        for data, text in ((ALL_STATUSES, self.tr("All")), (PROBLEMS, self.tr("Problems only"))):
            index = self.status.findData(data)
            if index >= 0:
                self.status.setItemText(index, text)
        self.model.retranslate()
        self._update_counts()


    def _build_layout(self) -> None:
        tools = QHBoxLayout()
        for widget in (self.results, self.status_label, self.status, self.search):
            tools.addWidget(widget)
        tools.addWidget(self.counts, 1)
        tools.addWidget(self.with_status)
        for suffix in (".csv", ".xlsx"):
            button = QPushButton()
            button.clicked.connect(lambda _=False, s=suffix: self._on_export(s))
            tools.addWidget(button)
            self.export_buttons.append(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(tools)
        layout.addWidget(self.view, 1)

    @property
    def all_results(self) -> bool:
        """True when every schedule result is listed (`att summary -a`)."""
        return self.results.currentIndex() == 1

    @property
    def summary(self) -> Summary | None:
        """The summary on show."""
        return self.workspace.summary(self.all_results) if self.workspace else None

    def set_workspace(self, workspace: AttWorkspace | None) -> None:
        """Show the summary of newly opened logs."""
        self.workspace = workspace
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the table (best/all switch or new logs); the status filter keeps its choice if present."""
        workspace = self.workspace
        if workspace is not None and self.all_results not in workspace.summaries:
            self.jobs.run(self.tr("Building the summary"), build_summary_of, workspace, self.all_results,
                          on_done=lambda _summary: self.refresh())
            return
        summary = self.summary
        self.model.set_rows(summary.export_rows if summary else [])
        chosen = self.status.currentData()
        self.status.blockSignals(True)
        self.status.clear()
        self.status.addItem(self.tr("All"), ALL_STATUSES)
        self.status.addItem(self.tr("Problems only"), PROBLEMS)
        for token in self.model.statuses():
            self.status.addItem(token, token)
        self.status.setCurrentIndex(max(0, self.status.findData(chosen)))
        self.status.blockSignals(False)
        self.proxy.set_status(self.status.currentData())
        self._fit_columns()
        self._update_counts()
        self.refreshed.emit()

    def _fit_columns(self) -> None:
        """Columns sized to their texts but capped like the precision table's (long names elided in the middle)."""
        self.view.resizeColumnsToContents()
        header = self.view.horizontalHeader()
        for column in range(self.model.columnCount()):
            if self.view.columnWidth(column) > MAX_WIDTH:
                self.view.setColumnWidth(column, max(MAX_WIDTH, min(header_width(header, column), 2 * MAX_WIDTH)))

    def set_status_filter(self, status: str) -> None:
        """Choose a status filter by value (ALL_STATUSES, PROBLEMS or a token)."""
        self.status.setCurrentIndex(max(0, self.status.findData(status)))

    def _on_status_changed(self) -> None:
        self.proxy.set_status(self.status.currentData() or ALL_STATUSES)
        self._update_counts()

    def _on_search_changed(self, text: str) -> None:
        self.proxy.set_text(text)
        self._update_counts()

    def _update_counts(self) -> None:
        problems = sum(1 for row in self.model.rows if is_problem(row.status))
        self.counts.setText(self.tr("{shown} of {total} row(s) shown; {problems} with parse problems").format(
            shown=self.proxy.rowCount(), total=self.model.rowCount(), problems=problems))
        self.counts.set_active(problems > 0 and self.status.currentData() != PROBLEMS,
                               self.tr("Click to show only the rows with parse problems"))

    def show_problems(self) -> None:
        """Filter to the rows with parse problems, select the first and scroll its Parse Status into view."""
        self.set_status_filter(PROBLEMS)
        if self.proxy.rowCount() == 0 or STATUS_COLUMN not in self.model.columns:
            return
        first = self.proxy.index(0, self.model.columns.index(STATUS_COLUMN))
        self.view.setCurrentIndex(first)
        self.view.selectRow(0)
        self.view.scrollTo(first)

    def _on_counts_clicked(self) -> None:
        self.show_problems()

    def _on_view_double_clicked(self, index: QModelIndex) -> None:
        row = self.proxy.data(index, ROW_ROLE)
        if row is not None:
            self.caseRequested.emit(row.operator, CaseKey(row.graph, row.result, row.group, row.case))

    def export(self, path: Path) -> None:
        """Export the summary on show (CSV or xlsx by suffix) in the background; `exported` when written."""
        summary = self.summary
        if summary is None or not summary.export_rows:
            return
        self.jobs.run(self.tr("Exporting summary"), export_summary, summary, path, self.with_status.isChecked(),
                      on_done=lambda written: self.exported.emit(str(written)))

    def _on_export(self, suffix: str) -> None:
        name = f"{self.workspace.title if self.workspace else 'summary'}_summary{suffix}"
        filters = "Excel (*.xlsx)" if suffix == ".xlsx" else "CSV (*.csv)"
        path = dialogs.save_file(self, self.tr("Export summary"), name, filters)
        if path is not None:
            self.export(path)
