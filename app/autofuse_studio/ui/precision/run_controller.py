"""RunController: the window's one analysis at a time, whatever runs it — this process or a host's relay."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from autofuse_studio.core.run.spec import OnHost, RunSpec
from autofuse_studio.ui.precision.analysis import AnalysisController
from autofuse_studio.ui.precision.remote_run import RemoteAnalysisController
from autofuse_studio.ui.tasks import TaskRunner


class RunController(QObject):
    """Starts a RunSpec on the controller of its `where`; only the current run's signals come out.

    Local and cluster runs go through the task runner (core.run's runners on a worker thread); a host run
    through the relay child process (QProcess), so that cancel can stop ssh and the run on the host with it.
    """

    rowsArrived = Signal(object)  # list[PrecisionRow]
    indexed = Signal(object)  # SidesSummary: files, ranks and steps of both sides
    progressed = Signal(int, int, str)  # done, total, core message (core.phase.Phase values)
    finished = Signal(object)  # Analysis
    failed = Signal(object)  # the exception
    cancelled = Signal()

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.here = AnalysisController(runner, self)
        self.host = RemoteAnalysisController(self)
        self._current: AnalysisController | RemoteAnalysisController = self.here
        self.spec: RunSpec | None = None  # the spec of the current (or last) run
        for controller in (self.here, self.host):
            self._forward(controller)

    def _forward(self, controller: AnalysisController | RemoteAnalysisController) -> None:
        """Re-emit `controller`'s signals while it runs the current analysis (the other may still be stopping)."""
        pairs = ((controller.rowsArrived, self.rowsArrived), (controller.indexed, self.indexed),
                 (controller.progressed, self.progressed), (controller.finished, self.finished),
                 (controller.failed, self.failed), (controller.cancelled, self.cancelled))
        for source, target in pairs:
            source.connect(lambda *args, target=target, controller=controller:
                           target.emit(*args) if controller is self._current else None)

    @property
    def running(self) -> bool:
        """True while a run is in progress."""
        return self._current.running

    def start(self, spec: RunSpec) -> None:
        """Start `spec` (the previous run, wherever it ran, is cancelled)."""
        controller = self.host if isinstance(spec.where, OnHost) else self.here
        other = self.here if controller is self.host else self.host
        other.cancel()
        self._current, self.spec = controller, spec
        if controller is self.host:
            self.host.start(spec)
        else:
            self.here.start(spec)

    def cancel(self) -> None:
        """Stop the current run silently (a cancelled signal follows)."""
        self._current.cancel()
