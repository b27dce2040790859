"""ComparePanel: two runs (logs or summary CSVs), matched operators with coloured changes, text/xlsx export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.att.compare import Comparison
from autofuse_studio.core.att.compare_inputs import compare_runs
from autofuse_studio.core.att.compare_output import comparison_text, write_comparison_xlsx
from autofuse_studio.core.messages import EN, ZH, is_chinese
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.core.reports.atomic import atomic_write_text
from autofuse_studio.ui.att import dialogs
from autofuse_studio.ui.att.compare_model import (
    KEY_ROLE,
    VIEWS,
    CompareFilterProxy,
    CompareTableModel,
    FieldDiffModel,
)
from autofuse_studio.ui.att.jobs import AttJobs, writing
from autofuse_studio.ui.i18n import ENGLISH, translations
from autofuse_studio.ui.widgets.retranslate import Retranslating

RUN_FILTERS = "Logs or summary CSV (*.log *.gz *.csv);;All files (*)"


def export_comparison(result: Comparison, path: Path, *, progress: Progress, cancel: CancelToken,
                      language: str = ENGLISH) -> Path:
    """Write the text report, or the xlsx workbook for a .xlsx path, in the UI language (the reference's in Chinese)."""
    cancel.check()
    lang = ZH if is_chinese(language) else EN
    with writing(path):
        if path.suffix.lower() == ".xlsx":
            write_comparison_xlsx(result, path, lang)
        else:
            atomic_write_text(path, comparison_text(result, lang))
    return path


class ComparePanel(Retranslating, QWidget):
    """The compare tab: baseline and candidate paths, the comparison table and the diffs of a row."""

    compared = Signal(object)  # Comparison
    exported = Signal(str)

    def __init__(self, jobs: AttJobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attComparePanel")
        self.jobs = jobs
        self.result: Comparison | None = None
        self.paths = (QLineEdit(), QLineEdit())
        self._overview = "hint"  # "hint", "missing" or "result": which overview text to show
        self.model = CompareTableModel(self)
        self.proxy = CompareFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.fields = FieldDiffModel(self)
        self.view_filter = QComboBox()
        for view in VIEWS:
            self.view_filter.addItem(view, view)  # display texts in retranslate()
        self.overview = QLabel()
        self.run_labels = (QLabel(), QLabel())
        self.browse_buttons: list[tuple[QPushButton, QPushButton]] = []
        self.compare_button = QPushButton()
        self.export_buttons: list[QPushButton] = []
        self.overview.setWordWrap(True)
        self.table = _view(self.proxy)
        self.table.setSortingEnabled(True)
        self.field_table = _view(self.fields)
        self._build_layout()
        self.retranslate()
        self.view_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_view(self.view_filter.currentData() or "all"))
        self.table.selectionModel().selectionChanged.connect(self._on_table_selection_changed)

    def retranslate(self) -> None:
        """Texts in the current language (view identifiers stay as combo data)."""
        hints = (self.tr("baseline: log, folder or summary CSV (e.g. default)"),
                 self.tr("candidate: log, folder or summary CSV (e.g. PGO)"))
        for edit, hint in zip(self.paths, hints, strict=True):
            edit.setPlaceholderText(hint)
        texts = (self.tr("All operators"), self.tr("Changed"), self.tr("Regressions"), self.tr("Improvements"),
                 self.tr("Only in one run"))
        for number, text in enumerate(texts):
            self.view_filter.setItemText(number, text)
        for label, text in zip(self.run_labels, (self.tr("Baseline"), self.tr("Candidate")), strict=True):
            label.setText(text)
        for file_button, folder_button in self.browse_buttons:
            file_button.setText(self.tr("File…"))
            folder_button.setText(self.tr("Folder…"))
        self.compare_button.setText(self.tr("Compare"))
        for button, text in zip(self.export_buttons, (self.tr("Export text…"), self.tr("Export xlsx…")), strict=True):
            button.setText(text)
        self.model.retranslate()
        self.fields.retranslate()
        self._show_overview()


    def _show_overview(self) -> None:
        result = self.result
        if self._overview == "missing":
            self.overview.setText(self.tr("Both a baseline and a candidate are needed."))
        elif self._overview == "result" and result is not None:
            rows = self.model.rows
            self.overview.setText(self.tr(
                "{common} matched, {only1} only in baseline, {only2} only in candidate; {better} improved, "
                "{worse} regressed; {fields} field difference(s)").format(
                common=len(result.common_keys), only1=len(result.only_keys1), only2=len(result.only_keys2),
                better=sum(r.improved for r in rows), worse=sum(r.regressed for r in rows),
                fields=len(result.field_diffs)))
        else:
            self.overview.setText(self.tr("Choose two runs and press Compare."))

    def _build_layout(self) -> None:
        inputs = QGridLayout()
        for row, (label, edit) in enumerate(zip(self.run_labels, self.paths, strict=True)):
            inputs.addWidget(label, row, 0)
            inputs.addWidget(edit, row, 1)
            pair = (QPushButton(), QPushButton())
            self.browse_buttons.append(pair)
            for column, (button, folder) in enumerate(((pair[0], False), (pair[1], True)), 2):
                button.clicked.connect(lambda _=False, i=row, f=folder: self._on_browse(i, f))
                inputs.addWidget(button, row, column)
        tools = QHBoxLayout()
        self.compare_button.clicked.connect(self.compare)
        tools.addWidget(self.compare_button)
        tools.addWidget(self.view_filter)
        tools.addWidget(self.overview, 1)
        for suffix in (".txt", ".xlsx"):
            button = QPushButton()
            button.clicked.connect(lambda _=False, s=suffix: self._on_export(s))
            tools.addWidget(button)
            self.export_buttons.append(button)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.field_table)
        splitter.setSizes([500, 200])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(inputs)
        layout.addLayout(tools)
        layout.addWidget(splitter, 1)

    def set_runs(self, baseline: str | Path, candidate: str | Path | None = None) -> None:
        """Fill the two path fields (the candidate is kept when None)."""
        self.paths[0].setText(str(baseline))
        if candidate is not None:
            self.paths[1].setText(str(candidate))

    def compare(self) -> None:
        """Compare the two runs in the background; `compared` carries the result."""
        first, second = (edit.text().strip() for edit in self.paths)
        if not first or not second:
            self._overview = "missing"
            self._show_overview()
            return
        self.jobs.run(self.tr("Comparing runs"), compare_runs, first, second, on_done=self.show_comparison)

    def show_comparison(self, result: Comparison) -> None:
        """Show a comparison (also usable directly with a core Comparison)."""
        self.result = result
        self.model.set_comparison(result)
        self.fields.set_diffs([])
        self._overview = "result"
        self._show_overview()
        self.table.resizeColumnsToContents()
        self.compared.emit(result)

    def select_key(self, key: str) -> None:
        """Select a key's row (its field diffs appear below)."""
        for row in range(self.proxy.rowCount()):
            if self.proxy.data(self.proxy.index(row, 0), KEY_ROLE) == key:
                self.table.selectRow(row)
                return

    def _on_table_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        key = self.proxy.data(indexes[0], KEY_ROLE) if indexes else None
        row = next((r for r in self.model.rows if r.key == key), None)
        self.fields.set_diffs(row.fields if row else [])

    def export(self, path: Path) -> None:
        """Export the comparison (text, or xlsx by suffix) in the background."""
        if self.result is not None:
            self.jobs.run(self.tr("Exporting comparison"), export_comparison, self.result, path,
                          language=translations().language, on_done=lambda written: self.exported.emit(str(written)))

    def _on_export(self, suffix: str) -> None:
        if self.result is None:
            return
        filters = "Excel (*.xlsx)" if suffix == ".xlsx" else "Text (*.txt)"
        path = dialogs.save_file(self, self.tr("Export comparison"), f"comparison_report{suffix}", filters)
        if path is not None:
            self.export(path)

    def _on_browse(self, index: int, folder: bool) -> None:
        title = self.tr("Choose a run")
        path = dialogs.folder(self, title) if folder else dialogs.open_file(self, title, RUN_FILTERS)
        if path is not None:
            self.paths[index].setText(str(path))


def _view(model: CompareFilterProxy | FieldDiffModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().hide()
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setResizeContentsPrecision(200)  # sizing columns from every row is slow
    view.horizontalHeader().setStretchLastSection(True)
    return view
