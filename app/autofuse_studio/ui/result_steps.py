"""ResultSteps: shows a finished analysis in event-loop steps, so the window never freezes while it appears.

Showing a 20k-row result in one go took 0.3-0.6 s of GUI-thread time (table, first-divergence selection,
tensor panel, graph index, then the first paints, while a graph layout worker competed for the GIL). In
steps, the window repaints and stays responsive between them: the table (by the caller), then the first
divergence (or the restored selection) with its tensors, then the graph. The graph's background layout
(a second of Python at 100k ops) starts once the tensors are shown, unless the Graph tab is open: run
alongside, it took the GIL from every first paint of the tensor plots and doubled their time.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from autofuse_studio.core.gc_pause import keep_long_lived
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.precision.analysis import Analysis
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench

# The graph step waits at most this long for the tensors of the selected row (big tensors take seconds),
# then until the plots have settled: pyqtgraph finishes ranges and labels over a few paints.
TENSOR_WAIT_MS = 2000
PLOTS_SETTLE_MS = 150
STEP_MS = 1


class ResultSteps(QObject):
    """The steps after the table shows a finished analysis; `shown` when the last one is done."""

    shown = Signal(object)  # the Analysis, once its selection and graph are shown too

    def __init__(self, workbench: PrecisionWorkbench, graph: GraphWorkbench, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workbench = workbench
        self._graph = graph
        self._analysis: Analysis | None = None
        self._view_state: dict[str, Any] = {}
        self._waiting_for_tensors = False
        self._tensor_timer = QTimer(self)
        self._tensor_timer.setSingleShot(True)
        self._tensor_timer.setInterval(TENSOR_WAIT_MS)
        self._tensor_timer.timeout.connect(self.hurry)
        if workbench.has_tensor_panel:
            workbench.tensor_panel.viewReady.connect(self._on_tensors_shown)  # type: ignore[attr-defined]

    @property
    def graph_pending(self) -> bool:
        """True while the graph still shows the previous case (it follows the table once it is set)."""
        return self._analysis is not None and self._analysis.case is not None

    def start(self, analysis: Analysis, view_state: dict[str, Any]) -> None:
        """Continue after the table shows `analysis`: restore `view_state` (a case file's) or select the culprit."""
        self._analysis, self._view_state = analysis, view_state
        self._next(self._select, analysis)

    def cancel(self) -> None:
        """Drop the steps not yet run (a new analysis started)."""
        self._analysis = None
        self._stop_waiting()

    def hurry(self) -> None:
        """Show the graph now if it waits for the tensors (e.g. the user opened the Graph tab)."""
        if self._waiting_for_tensors and self._analysis is not None:
            self._stop_waiting()
            self._show_graph(self._analysis)

    def _stop_waiting(self) -> None:
        self._waiting_for_tensors = False
        self._tensor_timer.stop()

    def _on_tensors_shown(self, _view: object) -> None:
        if self._waiting_for_tensors and self._analysis is not None:
            self._stop_waiting()
            self._next(self._show_graph, self._analysis, PLOTS_SETTLE_MS)  # after the plots' first paints

    def _next(self, step: Any, analysis: Analysis, delay_ms: int = STEP_MS) -> None:
        # A real timer, not 0 ms: Qt runs a zero single shot as a posted call, before the paints the last
        # step asked for and before overdue timers, so two steps ran as one block. A timer of 1 ms fires
        # after the posted events (the repaint) and with the other due timers, in the order they fell due.
        QTimer.singleShot(max(STEP_MS, delay_ms), self, lambda: step(analysis) if analysis is self._analysis else None)

    def _select(self, analysis: Analysis) -> None:
        workbench = self._workbench
        if self._view_state:
            workbench.restore_view_state(self._view_state)
            self._view_state = {}
        elif not workbench.view.selectionModel().hasSelection():
            # What the user opened the case for: show the culprit and its tensors straight away.
            workbench.go_to_first_divergence()
        tensors_coming = workbench.has_tensor_panel and workbench.tensor_panel.busy  # type: ignore[attr-defined]
        if tensors_coming and not self._graph.isVisible():
            self._waiting_for_tensors = True
            self._tensor_timer.start()
        else:
            self._next(self._show_graph, analysis)

    def _show_graph(self, analysis: Analysis) -> None:
        case, result = analysis.case, analysis.result
        if case is not None:
            # set_case with the result colours the panes too (set_precision would index the rows again).
            self._graph.set_case(case.af_open, case.af_close, case.mapping, result, analysis.fusion_index)
        self._analysis = None
        selected = self._workbench.view.selected_rows()
        if case is not None and selected:
            self._graph.select_row(selected[0])  # the graph follows the table's selection, as it does later
        # The views of a big result are 100k+ long-lived objects: without this the next collections
        # rescan them all while holding the GIL (80-200 ms each, the window frozen).
        keep_long_lived()
        self.shown.emit(analysis)
