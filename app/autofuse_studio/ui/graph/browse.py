"""Graphs without dumps: parse them in the background for the Graph tab, and say what a comparison still needs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal

from autofuse_studio.core.case import CaseFiles
from autofuse_studio.core.graphview.browse import BrowsedGraphs, load_graphs
from autofuse_studio.core.notices import Notice
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner

GRAPHS_ONLY = "graphs-only"


def missing_for_comparison(case: CaseFiles) -> str:
    """One sentence for the Precision tab: the graphs are in the Graph tab, and which inputs a comparison needs."""
    labels = {
        "af_open_graph": QCoreApplication.translate("GraphBrowse", "the af-open graph"),
        "af_close_graph": QCoreApplication.translate("GraphBrowse", "the af-close graph"),
        "af_open_data": QCoreApplication.translate("GraphBrowse", "the af-open dump folder"),
        "af_close_data": QCoreApplication.translate("GraphBrowse", "the af-close dump folder"),
    }
    names = [labels[role] for role in case.missing_roles()]
    missing = names[-1] if len(names) < 2 else QCoreApplication.translate("GraphBrowse", "%1 and %2").replace(
        "%1", ", ".join(names[:-1])).replace("%2", names[-1])
    return QCoreApplication.translate(
        "GraphBrowse", "Only graphs are open, for browsing in the Graph tab; a precision comparison also needs "
                       "%1 (drop or browse them).").replace("%1", missing)


def graphs_only_notice(case: CaseFiles) -> Notice:
    """The Precision tab's notice for graphs without dumps, naming the graph files."""
    files = [{"file": str(path)} for path in (case.af_open_graph, case.af_close_graph) if path is not None]
    return Notice(GRAPHS_ONLY, missing_for_comparison(case), len(files), files)


class GraphLoader(QObject):
    """Parses one or two graphs on the TaskRunner; a new request cancels the previous one."""

    loaded = Signal(object)  # BrowsedGraphs
    failed = Signal(object)  # the exception (AppError: a sentence naming the file)

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self._task: TaskHandle | None = None

    def load(self, af_open: Path | None, af_close: Path | None) -> None:
        """Start parsing; ends with `loaded` or `failed` (nothing when cancelled by a newer request)."""
        self.cancel()
        self._task = self.runner.start(load_graphs, af_open, af_close)
        self._task.finished.connect(self._on_task_finished)
        self._task.failed.connect(self._on_task_failed)

    def busy(self) -> bool:
        """True while graphs are being parsed."""
        return self._task is not None

    def cancel(self) -> None:
        """Forget the running request (its result is dropped)."""
        if self._task is not None:
            self._task.finished.disconnect(self._on_task_finished)
            self._task.failed.disconnect(self._on_task_failed)
            self._task.cancel()
            self._task = None

    def _on_task_finished(self, graphs: BrowsedGraphs) -> None:
        self._task = None
        self.loaded.emit(graphs)

    def _on_task_failed(self, error: BaseException) -> None:
        self._task = None
        self.failed.emit(error)
