"""AnalysisController: runs a case through the engine on the TaskRunner; rows stream back as they finish."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.graphview.around import plain_facts
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.core.precision.engine import LoadedCase
from autofuse_studio.core.precision.plan import producer_index
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.precision.verdict import ProducerIndex
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.core.run.events import CaseLoaded, Failed, Finished, Indexed, Progressed, RowsDone, Started
from autofuse_studio.core.run.runners import start
from autofuse_studio.core.run.spec import RunSpec
from autofuse_studio.ui.loading_interval import LoadingInterval
from autofuse_studio.ui.precision.result_facts import ResultFacts, result_facts
from autofuse_studio.ui.precision.row_batches import RowBatches, RowInbox
from autofuse_studio.ui.tasks import TaskEvent, TaskRunner

INDEXED = "indexed"


@dataclass
class Analysis:
    """A finished run: the result, the producer index that re-assigns verdicts, and the loaded case."""

    result: PrecisionResult
    producers: ProducerIndex
    files_indexed: int = 0
    case: LoadedCase | None = None
    fusion_index: FusionIndex | None = None  # the graph's look-ups of this case and result, worked out
    facts: ResultFacts | None = None  # what the precision tab derives from the result's rows


def analyse(spec: RunSpec, notify: Callable[[str, Any], None], *, progress: Progress,
            cancel: CancelToken) -> Analysis:
    """Run the spec here or on its cluster; `notify` gets ("indexed", SidesSummary) and ("rows", [PrecisionRow]).

    The graphs' look-ups (case_lookups) are worked out on this thread as soon as the case is loaded, while the
    runner's pool compares: this thread would only wait.
    """
    outcome = None
    links: FusionIndex | None = None
    loading = LoadingInterval()  # the run's threads load the case with fewer GIL switches among themselves
    try:
        for event in start(spec, live=True, cancel=cancel).events():
            if not isinstance(event, (Started, Progressed)):
                loading.end()  # loaded (or rows from a remote run): the table fills, the window's interval again
            if isinstance(event, Progressed):
                progress(event.done, event.total, event.message)
            elif isinstance(event, RowsDone):
                notify("rows", event.rows)
            elif isinstance(event, Indexed):
                notify(INDEXED, event.sides)
            elif isinstance(event, CaseLoaded):
                links = case_lookups(event.case)
            elif isinstance(event, Failed):
                raise event.error
            elif isinstance(event, Finished):
                outcome = event.outcome
    finally:
        loading.end()
    assert outcome is not None
    if outcome.case is None:  # mode 2: two tensor files, one row
        return Analysis(outcome.result, {})
    return finished_analysis(outcome.result, outcome.case, links)


def case_lookups(case: LoadedCase) -> FusionIndex:
    """Work out the look-ups the window needs that depend only on the graphs (each cached on its model).

    analyse_mode1 has them done while the pool compares, where the worker would only wait: at 100k ops
    they are 0.3 s less between the last compare and the result on the screen. Not the consumer indexes
    (0.1-0.2 s at 100k ops): the graph tab's details wait for a worker to build them after the result is shown,
    so the compares (Python for tiny tensors, sharing the GIL) do not wait for them.
    Returns the mapping's fused <-> original links (FusionIndex without rows), for finished_analysis to reuse.
    """
    with gc_paused():  # these live as long as the models: freeze them too (see run_mode1)
        # The graph panes' first layouts walk both graphs from the first divergence: their per-model
        # facts took both layout workers 100-150 ms at once, next to the window's first paints.
        for model in (case.af_open, case.af_close):
            plain_facts(model)
        links = FusionIndex(case.mapping)
        links.warm()  # 40-60 ms at 20k fused ops, no longer between the last compare and the result
        keep_long_lived()
    return links


def finished_analysis(result: PrecisionResult, case: LoadedCase, links: FusionIndex | None = None) -> Analysis:
    """The Analysis of a finished run, with every look-up the window needs to show it worked out here.

    Each of them costs 50-300 ms of Python at 100k ops; on the GUI thread that is a frozen window. `links`:
    case_lookups' index of the same case (its fused <-> original links are kept).
    """
    files = case.open_index.files_indexed + case.close_index.files_indexed
    if links is None:
        links = case_lookups(case)
    with gc_paused():  # these live as long as the result: freeze them too (see run_mode1)
        producers = producer_index(case.af_open)
        # The graph view's fused op <-> rows look-ups, read when the first divergence is selected.
        fusion_index = FusionIndex(case.mapping, result, reuse=links)
        fusion_index.warm()
        facts = result_facts(result)
        keep_long_lived()
    return Analysis(result, producers, files, case, fusion_index, facts)


class AnalysisController(QObject):
    """One analysis at a time; signals arrive on the GUI thread, stale runs are ignored."""

    rowsArrived = Signal(object)  # list[PrecisionRow]
    indexed = Signal(object)  # SidesSummary: files, ranks and steps of both sides
    progressed = Signal(int, int, str)  # done, total, core message
    finished = Signal(object)  # Analysis
    failed = Signal(object)  # the exception
    cancelled = Signal()
    _relay = Signal(object)  # (generation, kind, payload) from worker threads

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._generation = itertools.count(1)
        self._current = 0
        self._task_id: int | None = None
        self._relay.connect(self._on_relay, Qt.ConnectionType.QueuedConnection)
        runner.taskEvent.connect(self._on_task_event)
        # The engine delivers rows one by one; the table gets them in batches (one model insert per
        # tick), so 100k streamed rows cost 100s of inserts rather than 100k.
        self._batches = RowBatches(self)
        self._batches.ready.connect(self.rowsArrived)

    @property
    def running(self) -> bool:
        """True while a run is in progress."""
        return self._task_id is not None

    def start(self, spec: RunSpec) -> None:
        """Start running `spec` (here or on its Dask cluster) on the task runner."""
        self.cancel()
        self._batches.clear()
        generation = self._current = next(self._generation)
        inbox = RowInbox()

        def notify(kind: str, payload: Any) -> None:
            if kind != "rows":
                self._relay.emit((generation, kind, payload))
            elif inbox.put(payload):  # else the event that takes the rows waiting there is already queued
                self._relay.emit((generation, kind, inbox))

        self._task_id = self._runner.submit(analyse, spec, notify)

    def cancel(self) -> None:
        """Stop the current run silently (a cancelled signal follows)."""
        if self._task_id is not None:
            self._runner.cancel(self._task_id)
        elif self._batches.finishing:  # done, finished not emitted yet: it never comes
            self._batches.clear()
            self.cancelled.emit()


    def _on_relay(self, message: tuple[int, str, Any]) -> None:
        generation, kind, payload = message
        if generation != self._current:
            return  # a run the user already replaced
        if kind == "rows":
            self._batches.add(payload.take())
        elif kind == INDEXED:
            self.indexed.emit(payload)

    def _on_task_event(self, event: TaskEvent) -> None:
        if event.task_id != self._task_id:
            return
        if event.kind == "progress":
            done, total, message = event.payload
            self.progressed.emit(int(done), int(total), str(message))
            return
        self._task_id = None
        if event.kind == "done":
            # Rows still waiting for the table are dropped: the result that finished carries holds them all.
            self._batches.finish(lambda: self.finished.emit(event.payload))
            return
        self._batches.clear()
        if event.kind == "failed":
            self.failed.emit(event.payload)
        else:
            self.cancelled.emit()
