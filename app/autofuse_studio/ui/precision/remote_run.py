"""RemoteAnalysisController: a case compared on a host, through `autofuse-studio nwa --host … --emit-jsonl`.

The child process (ProcessRunner, never the GUI thread) relays the host's record stream; rows reach the table
in batches as they arrive, and cancel stops the child, its ssh and with them the run on the host.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.precision.row_stream import StreamError, encode_record
from autofuse_studio.core.remote.nwa_stream import LineSplitter, RecordReader
from autofuse_studio.core.run.spec import OnHost, RunSpec, spec_to_record
from autofuse_studio.ui.precision.analysis import Analysis
from autofuse_studio.ui.precision.row_batches import RowBatches
from autofuse_studio.ui.process_runner import ProcessOutcome, ProcessRunner, frozen_command

STDERR_KEPT = 4000


def remote_argv(spec: RunSpec) -> list[str]:
    """The local relay's command line: the spec (whose `where` is the host) as one JSON word."""
    record = encode_record(spec_to_record(spec)).strip()
    return frozen_command(["nwa", "--emit-jsonl", "--emit-producers", f"--run-spec={record}"])


class RemoteAnalysisController(QObject):
    """One remote analysis at a time, with the AnalysisController's signals (the window treats both alike)."""

    rowsArrived = Signal(object)  # list[PrecisionRow]
    indexed = Signal(object)  # SidesSummary
    progressed = Signal(int, int, str)
    finished = Signal(object)  # Analysis (without a loaded case: the graphs stay on the host)
    failed = Signal(object)  # AppError with the sentence
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._process = ProcessRunner(self)
        self._process.output.connect(self._on_process_output)
        self._process.stderrOutput.connect(self._on_process_stderr)
        self._process.finished.connect(self._on_process_finished)
        self._reader: RecordReader | None = None
        self._lines = LineSplitter("\n")  # the relay's lines were checked (and capped) there already
        self._stderr = ""
        self._error: AppError | None = None
        self._batches = RowBatches(self)
        self._batches.ready.connect(self.rowsArrived)

    @property
    def running(self) -> bool:
        """True while a remote run is in progress."""
        return self._process.is_running()

    def start(self, spec: RunSpec) -> None:
        """Start comparing on the spec's host, with paths as the host sees them (nothing is checked as a local path)."""
        assert isinstance(spec.where, OnHost)
        if self._process.is_running():
            self._process.kill_and_wait()
        self._reader = RecordReader(spec.where.host)
        self._lines, self._stderr, self._error = LineSplitter("\n"), "", None
        self._batches.clear()
        self._process.start(remote_argv(spec), what="remote analysis", merge_channels=False)

    def cancel(self) -> None:
        """Stop the run (the relay, its ssh and the host's process); a cancelled signal follows."""
        if self._batches.finishing:  # the host finished, finished not emitted yet: it never comes
            self._batches.clear()
            self.cancelled.emit()
            return
        self._process.cancel()


    def _on_process_output(self, text: str) -> None:
        for line in self._lines.feed(text):
            if line.startswith("{") and self._error is None:
                self._take(line)

    def _take(self, line: str) -> None:
        assert self._reader is not None
        try:
            event = self._reader.take_line(line)
        except AppError as error:  # an error record, or a broken line (StreamError)
            self._error = error
            return
        if event is None:
            return
        kind, payload = event
        if kind == "progress":
            self.progressed.emit(*payload)
        elif kind == "indexed":
            self.indexed.emit(payload)
        elif kind == "rows":
            self._batches.add(payload)

    def _on_process_stderr(self, text: str) -> None:
        self._stderr = (self._stderr + text)[-STDERR_KEPT:]

    def _on_process_finished(self, outcome: ProcessOutcome) -> None:
        reader, self._reader = self._reader, None
        if outcome.cancelled:
            self._batches.clear()
            self.cancelled.emit()
            return
        if reader is not None and reader.outcome is not None:
            done = reader.outcome
            analysis = Analysis(done.result, done.producers or {}, done.files_indexed, None)
            self._batches.finish(lambda: self.finished.emit(analysis))  # its result holds every row
            return
        self._batches.clear()
        self.failed.emit(self._error or _stopped(outcome, self._stderr))


def _stopped(outcome: ProcessOutcome, stderr: str) -> AppError:
    """The sentence for a relay that ended without a result or an error record."""
    last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    return StreamError(f"{outcome.message} {last}".strip())

