"""PerfPanel: operator list, the perf-formula canvas (per operator or the CLI's whole picture), case facts.

The whole picture of a big log has tens of thousands of leaves: it is laid out and prepared on a worker
(build_whole_picture) and kept per workspace, so switching views never blocks the GUI thread.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.att.case_details import CaseDetails, case_details
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.perf_cases_render import OperatorPicture, operator_picture
from autofuse_studio.core.att.perf_model import PerfFormulaModel
from autofuse_studio.core.att.perf_render import perf_display_list
from autofuse_studio.core.att.workspace import AttWorkspace
from autofuse_studio.core.errors import AppError
from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.ui.att import dialogs
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.perf_messages import no_logs, nothing_to_draw, skipped_operator
from autofuse_studio.ui.att.perf_models import CaseFactsModel, OperatorListModel
from autofuse_studio.ui.errors import report_error
from autofuse_studio.ui.i18n import translations
from autofuse_studio.ui.tasks import TaskHandle
from autofuse_studio.ui.widgets.display_canvas import DisplayCanvas, PreparedList, prepare_display_list
from autofuse_studio.ui.widgets.retranslate import Retranslating

OPERATOR_VIEW, WHOLE_VIEW = 0, 1
EXPORT_PNG, EXPORT_SVG = 2, 3  # positions in PerfPanel.buttons


def build_whole_picture(perf: PerfFormulaModel, *, progress: Progress, cancel: CancelToken) -> PreparedList:
    """The CLI's whole perf picture, laid out and prepared for the canvas (on a worker thread)."""
    cancel.check()
    progress(0, 2, "")
    with gc_paused():  # ~150k acyclic objects for a 140 MB log: collections would only rescan them
        items, width, height = perf_display_list(perf)
        cancel.check()  # the layout cannot stop midway; a cancel skips the preparation at least
        progress(1, 2, "")
        prepared = prepare_display_list(items, width, height)
        # The picture is cached for the session; every later full collection would rescan it while
        # holding the GIL (a stalled window), as the precision engine found for its models. The objects
        # stay refcounted (display lists hold no cycles), so a dropped picture is still freed.
        keep_long_lived()
    progress(2, 2, "")
    return prepared


class PerfPanel(Retranslating, QWidget):
    """The perf-formula tab; `caseSelected` carries the CaseDetails of a clicked case."""

    caseSelected = Signal(object)  # CaseDetails
    exported = Signal(str)  # path written
    wholeShown = Signal()  # the whole picture is on the canvas (built in the background or from the cache)

    def __init__(self, jobs: AttJobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attPerfPanel")
        self.jobs = jobs
        self.workspace: AttWorkspace | None = None
        self.whole: tuple[AttWorkspace, PreparedList] | None = None  # the whole picture of that workspace
        self.building: tuple[AttWorkspace, TaskHandle] | None = None  # its build, while one runs
        self.picture: OperatorPicture | None = None
        self.details: CaseDetails | None = None
        self.operators = OperatorListModel(self)
        self.facts = CaseFactsModel(self)
        self.operator_view = _table(self.operators)
        # Sized once per workspace (set_workspace): in ResizeToContents mode every layout change (the
        # task strip showing up during a build) re-measured all rows on the GUI thread, ~150 ms for 400.
        self.operator_view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.operator_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.canvas = DisplayCanvas()
        self.canvas.hover_provider = self._hover_text
        self.mode = QComboBox()
        self.mode.addItems(["", ""])  # OPERATOR_VIEW, WHOLE_VIEW: texts in retranslate()
        self.case_label = QLabel()
        self.show_label = QLabel()
        self.buttons: list[QPushButton] = []
        self.case_label.setWordWrap(True)
        self.case_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.facts_view = _table(self.facts)
        self._build_layout()
        self.retranslate()
        self._redraw()  # nothing open yet: the canvas says how to open logs
        self.operator_view.selectionModel().currentRowChanged.connect(self._on_operator_view_current)
        self.mode.currentIndexChanged.connect(self._on_mode_changed)
        self.canvas.clicked.connect(self._on_canvas_clicked)

    def retranslate(self) -> None:
        """Texts in the current language (the canvas shows the core's pictures as they are)."""
        self.mode.setItemText(OPERATOR_VIEW, self.tr("Chosen operator: every case"))
        self.mode.setItemText(WHOLE_VIEW, self.tr("All operators (perf_formula.svg)"))
        self.show_label.setText(self.tr("Show:"))
        texts = (self.tr("Zoom +"), self.tr("Zoom −"), self.tr("Export PNG…"), self.tr("Export SVG…"))
        for button, text in zip(self.buttons, texts, strict=True):
            button.setText(text)
        self.operators.retranslate()
        self.facts.retranslate()
        self._show_case_label()
        if self.canvas.message or self.mode.currentIndex() == OPERATOR_VIEW:
            self._redraw()  # the note on the canvas, or the operator's captions, in the new language


    def _build_layout(self) -> None:
        tools = QHBoxLayout()
        tools.addWidget(self.show_label)
        tools.addWidget(self.mode)
        tools.addStretch(1)
        for slot in (lambda: self.canvas.zoom(1.25), lambda: self.canvas.zoom(0.8), self._on_export_png,
                     self._on_export_svg):
            button = QPushButton()
            button.clicked.connect(slot)
            tools.addWidget(button)
            self.buttons.append(button)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addLayout(tools)
        vertical = QSplitter(Qt.Orientation.Vertical)
        vertical.addWidget(self.canvas)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.case_label)
        bottom_layout.addWidget(self.facts_view, 1)
        vertical.addWidget(bottom)
        vertical.setSizes([520, 200])
        right_layout.addWidget(vertical, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.operator_view)
        splitter.addWidget(right)
        splitter.setSizes([300, 900])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    def set_workspace(self, workspace: AttWorkspace | None) -> None:
        """Show a newly opened set of logs; the first operator is chosen."""
        if self.building is not None and self.building[0] is not workspace:
            self._cancel_build()  # its picture would belong to the logs shown before
        if self.whole is not None and self.whole[0] is not workspace:
            self.whole = None
        self.workspace = workspace
        self.operators.set_model(workspace.cases if workspace else None)
        self.operator_view.resizeColumnsToContents()
        self._show_details(None)
        if self.operators.operators or self.operators.skipped:
            self.operator_view.selectRow(0)
        else:
            self.picture = None
            self.canvas.set_display_list([], 0, 0)
        self._redraw()

    def select_operator(self, name: str) -> bool:
        """Choose an operator by name; False when it has no picture."""
        for row, op in enumerate(self.operators.operators):
            if op.name == name:
                self.operator_view.selectRow(row)
                return True
        return False

    @property
    def current_operator(self) -> str | None:
        """The chosen operator's name."""
        op = self.operators.operator_at(self.operator_view.currentIndex().row())
        return op.name if op else None

    def _on_operator_view_current(self) -> None:
        self._show_details(None)
        self._redraw()

    def _on_mode_changed(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        workspace = self.workspace
        op = self.operators.operator_at(self.operator_view.currentIndex().row())
        self.picture = None
        self._enable_exports(workspace is not None)  # nothing loaded: an export would write a 1×1 picture
        if workspace is None:  # the first thing a user sees on the tab: say how to fill it
            self.canvas.show_message(no_logs())
            return
        if not self.operators.operators:  # nothing to draw: say what the logs hold instead of a blank canvas
            self.canvas.show_message(nothing_to_draw(workspace.scans))
            self._enable_exports(False)
        elif self.mode.currentIndex() == WHOLE_VIEW:
            self._show_whole(workspace)
        elif op is not None:
            self.picture = operator_picture(op, translations().language)
            self.canvas.set_display_list(self.picture.items, self.picture.width, self.picture.height)
        else:
            row = self.operator_view.currentIndex().row() - len(self.operators.operators)
            name = self.operators.skipped[row] if 0 <= row < len(self.operators.skipped) else "?"
            self.canvas.show_message(skipped_operator(name))
            self._enable_exports(False)

    def _show_whole(self, workspace: AttWorkspace) -> None:
        """The cached whole picture, or a note while it is built in the background."""
        if self.whole is not None and self.whole[0] is workspace:
            self.canvas.set_prepared(self.whole[1])
            self._enable_exports(True)
            self.wholeShown.emit()
            return
        self.canvas.show_message(self._building_text())
        self._enable_exports(False)  # an export now would write an empty picture
        if self.building is not None and self.building[0] is workspace:
            return  # already under way (e.g. the user went to the operator view and back)
        self._cancel_build()
        handle = self.jobs.run(self.tr("Drawing all operators"), build_whole_picture, workspace.perf,
                               on_done=lambda prepared: self._on_whole_built(workspace, prepared))
        for signal in (handle.finished, handle.failed, handle.cancelled):
            signal.connect(lambda *_args, h=handle: self._on_build_ended(h))
        self.building = (workspace, handle)

    def _building_text(self) -> str:
        return self.tr("Building the picture of all operators…")

    def _enable_exports(self, enabled: bool) -> None:
        for number in (EXPORT_PNG, EXPORT_SVG):
            self.buttons[number].setEnabled(enabled)

    def _on_whole_built(self, workspace: AttWorkspace, prepared: PreparedList) -> None:
        if workspace is not self.workspace:
            return  # stale: other logs were opened while it was built
        self.whole = (workspace, prepared)
        if self.mode.currentIndex() == WHOLE_VIEW:
            self._show_whole(workspace)  # otherwise kept for when the user switches

    def _on_build_ended(self, handle: TaskHandle) -> None:
        """After on_done (if any): a cancelled or failed build goes back to the operator view."""
        if self.building is None or self.building[1] is not handle:
            return
        workspace = self.building[0]
        self.building = None
        if workspace is self.workspace and self.whole is None and self.mode.currentIndex() == WHOLE_VIEW:
            self.mode.setCurrentIndex(OPERATOR_VIEW)  # choosing the whole view again retries

    def _cancel_build(self) -> None:
        if self.building is not None:
            handle, self.building = self.building[1], None
            self.jobs.cancel(handle)

    def _hover_text(self, x: float, y: float) -> str | None:
        spot = self.picture.hotspot_at(x, y) if self.picture else None
        return spot.text if spot else None

    def click_at(self, x: float, y: float) -> CaseDetails | None:
        """Act like a click at a canvas position: show the facts of the case there (if any)."""
        self._on_canvas_clicked(x, y)
        return self.details

    def show_case(self, key: CaseKey) -> CaseDetails | None:
        """Show the facts of one case of the chosen operator."""
        name = self.current_operator
        if self.workspace is None or name is None:
            return None
        self._show_details(case_details(self.workspace.scans, name, key))
        if self.picture is not None:
            frame = next((h for h in self.picture.hotspots if h.kind == "case" and h.key == key), None)
            self.canvas.set_highlight(QRectF(frame.x, frame.y, frame.width, frame.height) if frame else None)
        return self.details

    def _on_canvas_clicked(self, x: float, y: float) -> None:
        spot = self.picture.hotspot_at(x, y) if self.picture else None
        if spot is not None:
            self.show_case(spot.key)

    def _show_details(self, details: CaseDetails | None) -> None:
        self.details = details
        self.facts.set_details(details)
        self._show_case_label()
        if details is None:
            self.canvas.set_highlight(None)
            return
        self.caseSelected.emit(details)

    def _show_case_label(self) -> None:
        details = self.details
        if details is None:
            self.case_label.setText(self.tr("Click a case on the canvas to see its tiling values and log lines."))
            return
        objective, perf = details.value("objective"), details.value("result-perf")
        na = self.tr("n/a")
        text = (self.tr("%1 %2 — selected: objective %3, result performance %4, %5 fact(s) with their log lines")
                if details.selected else
                self.tr("%1 %2: objective %3, result performance %4, %5 fact(s) with their log lines"))
        values = (f"<b>{details.operator}</b>", details.key.label, na if objective is None else f"{objective:g}",
                  na if perf is None else f"{perf:g}", str(len(details.facts)))
        for number, value in enumerate(values, 1):
            text = text.replace(f"%{number}", value)
        self.case_label.setText(text)

    def export_png(self, path: Path) -> None:
        """Write the canvas as PNG."""
        self.canvas.export_png(path)
        self.exported.emit(str(path))

    def export_svg(self, path: Path) -> None:
        """Write the canvas' display list as SVG (byte-identical to the CLI for the whole picture)."""
        self.canvas.export_svg(path)
        self.exported.emit(str(path))

    def _default_name(self, suffix: str) -> str:
        if self.mode.currentIndex() == WHOLE_VIEW:
            return f"perf_formula{suffix}"
        return f"perf_{self.current_operator or 'operator'}{suffix}"

    def _on_export_png(self) -> None:
        path = dialogs.save_file(self, self.tr("Export canvas as PNG"), self._default_name(".png"), "PNG (*.png)")
        if path is None:
            return
        try:
            self.export_png(path)
        except AppError as exc:  # e.g. a picture too big for one PNG: a sentence on the banner
            report_error(self, exc, self.jobs.banner)

    def _on_export_svg(self) -> None:
        path = dialogs.save_file(self, self.tr("Export canvas as SVG"), self._default_name(".svg"), "SVG (*.svg)")
        if path is not None:
            self.export_svg(path)


def _table(model: OperatorListModel | CaseFactsModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    return view
