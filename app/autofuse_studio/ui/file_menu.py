"""The File menu's dialogs (open, save case, export), kept out of the main window's wiring."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog, QMainWindow

from autofuse_studio.core.case import PATH_ROLES, CaseFiles, save_case
from autofuse_studio.core.errors import AppError
from autofuse_studio.core.precision.explain import CasePaths
from autofuse_studio.core.session import ResultChanged, Session
from autofuse_studio.ui.errors import report_error
from autofuse_studio.ui.graph.browse import graphs_only_notice
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.precision.case_panel import CasePanel
from autofuse_studio.ui.precision.export import start_table_export
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner

_FILTER_SUFFIX = re.compile(r"\(\*(\.[A-Za-z0-9]+)")
TABLE_SUFFIXES = (".xlsx", ".csv", ".json")
PICTURE_SUFFIXES = (".png", ".svg")


def added_graph(found: CaseFiles, case: CaseFiles) -> Path | None:
    """The graph `found` adds beside one already open (a case of two graphs, no dumps), else None."""
    if not case.graphs_only() or case.af_open_graph is None or case.af_close_graph is None:
        return None
    added = [path for path in (found.af_open_graph, found.af_close_graph) if path is not None]
    return added[0] if len(added) == 1 else None


def chosen_path(path: str, chosen_filter: str, known: tuple[str, ...]) -> Path:
    """The typed name with the suffix of the filter chosen in the dialog (replacing a known other one).

    "precision" or "precision.csv" saved with "Excel (*.xlsx)" chosen is written as precision.xlsx: the
    writers pick the format by suffix, so the name decides what the user chose.
    """
    target = Path(path)
    found = _FILTER_SUFFIX.search(chosen_filter)
    if found is None or target.suffix.lower() == found.group(1):
        return target
    if target.suffix.lower() in known:
        return target.with_suffix(found.group(1))
    return target.with_name(target.name + found.group(1))


class FileMenuMixin(QMainWindow):
    """Slots of the File menu; the window provides the case and workbench they act on."""

    workbench: PrecisionWorkbench
    graph: GraphWorkbench
    case_panel: CasePanel
    session: Session
    runner: TaskRunner
    session_events: Any
    export_table_action: Any
    export_picture_action: Any

    def watch_table_exports(self) -> None:
        """Keep the table exports disabled while no result with rows is shown (they would write only headers).

        Called by the window once its actions and session exist.
        """
        self.session_events.resultChanged.connect(self._on_session_events_result_changed)
        self._enable_table_exports(self.workbench.result)

    def _on_session_events_result_changed(self, change: ResultChanged) -> None:
        self._enable_table_exports(change.result)

    def _enable_table_exports(self, result: object) -> None:
        rows = getattr(result, "rows", None)
        for action in (self.export_table_action, self.export_picture_action):
            action.setEnabled(bool(rows))

    def open_paths(self, paths: list[str]) -> None:
        """Open inputs (implemented by the window)."""
        raise NotImplementedError

    def open_case_file(self, path: str) -> None:
        """Open a case file (implemented by the window)."""
        raise NotImplementedError

    def current_case(self) -> CaseFiles:
        """The case as shown (implemented by the window)."""
        raise NotImplementedError

    def forget_graph(self, path: Path) -> None:
        """A graph replaced by an unrelated one (GraphWorkbench.unpaired): the case panel forgets it too."""
        case: CaseFiles = self.case_panel.case()
        if path in (case.af_open_graph, case.af_close_graph):
            case = replace(case, af_open_graph=None if case.af_open_graph == path else case.af_open_graph,
                           af_close_graph=None if case.af_close_graph == path else case.af_close_graph)
            self.case_panel.set_case(case)
            self.session.set_case(case)
            self.workbench.notices.set_notices([graphs_only_notice(case)], CasePaths(), expanded=True)

    def new_case(self) -> None:
        """File > New case: forget the case, its result and the graphs; back to the empty state."""
        cancel = getattr(self, "_cancel_analysis", None)
        if callable(cancel):
            cancel()
        self.case_panel.set_case(replace(CaseFiles(), thresholds=self.case_panel.case().thresholds))
        self.case_panel.set_progress(0, 1, "")
        self.workbench.clear()
        self.graph.clear()
        self.session.set_case(None)
        start = getattr(self, "show_start_page", None)
        if callable(start):
            start()
        self.statusBar().showMessage(self.tr("New case: nothing is open."), 10000)

    def close_current(self) -> None:
        """File > Close: close the open case or graph (the window then is as after New case) and name it."""
        case = self.case_panel.case()
        names = ", ".join(getattr(case, role).name for role in PATH_ROLES if getattr(case, role) is not None)
        self.new_case()
        if names:
            self.statusBar().showMessage(self.tr("Closed %1.").replace("%1", names), 10000)

    def _on_open_files_triggered(self) -> None:
        # Whatever is chosen goes where its content belongs (a case, a graph, ATT logs), as a drop does.
        filters = ";;".join((self.tr("Graphs, NPYs and ATT logs (*.json *.txt *.pbtxt *.npy *.afcase *.log *.gz)"),
                             self.tr("All files (*)")))
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Open graphs, NPY files or ATT logs"), "", filters)
        if files:
            self.open_paths(files)

    def _on_open_folder_triggered(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a run or dump folder"))
        if folder:
            self.open_paths([folder])

    def _on_open_case_triggered(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open case"), "", self.tr("Cases (*.afcase)"))
        if path:
            self.open_case_file(path)

    def _on_save_case_triggered(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save case"), "", self.tr("Cases (*.afcase)"))
        if path:
            self._guarded(lambda: self.statusBar().showMessage(str(save_case(self.current_case(), path))))

    def _on_export_table_triggered(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self, self.tr("Export table"), "precision.xlsx",
                                                   "Excel (*.xlsx);;CSV (*.csv);;JSON (*.json)")
        if path:
            target = chosen_path(path, chosen, TABLE_SUFFIXES)
            # Written on a worker: 100k rows take a second as JSON and far longer as xlsx.
            handle = self._guarded(lambda: start_table_export(self.runner, self.workbench.result, target))
            if isinstance(handle, TaskHandle):
                handle.finished.connect(lambda written: self.statusBar().showMessage(str(written)))
                handle.failed.connect(lambda error: report_error(self, error))

    def _on_export_picture_triggered(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self, self.tr("Export table picture"), "precision.png",
                                                   "PNG (*.png);;SVG (*.svg)")
        if path:
            path = str(chosen_path(path, chosen, PICTURE_SUFFIXES))
            # Cells are collected now; drawing and encoding (seconds for 1000 rows) run on a worker.
            handle = self._guarded(lambda: self.workbench.start_table_picture_export(self.runner, path))
            if isinstance(handle, TaskHandle):
                handle.finished.connect(lambda written: self.statusBar().showMessage(str(written)))
                handle.failed.connect(lambda error: report_error(self, error))

    def _guarded(self, work: Callable[[], object]) -> object:
        try:
            return work()
        except (AppError, OSError) as error:
            report_error(self, error if isinstance(error, AppError) else AppError(str(error)))
            return None
