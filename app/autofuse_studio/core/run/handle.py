"""RunHandle: a run on its own thread, read as a stream of events, cancellable from any thread."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator

from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.progress import CancelToken, Progress, no_progress
from autofuse_studio.core.run.events import Event, Failed, Finished, Progressed, RowsDone, RunOutcome

POLL_S = 0.2  # how often a waiting reader wakes (so Ctrl-C reaches the CLI while the run goes on)
PROGRESS_INTERVAL_S = 0.05  # progress events at most 20 a second (the last of a stage always)

Emit = Callable[[Event], None]
Work = Callable[[Emit, CancelToken], RunOutcome]


class RunHandle:
    """One started run: `events()` yields what it reports until Finished or Failed; `cancel()` stops it."""

    def __init__(self, work: Work, name: str = "run", cancel: CancelToken | None = None) -> None:
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._token = cancel or CancelToken()  # a caller's token (the GUI's task) cancels the run too
        self._work = work
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)
        self._thread.start()

    def _main(self) -> None:
        try:
            outcome = self._work(self._queue.put, self._token)
        except BaseException as error:  # noqa: BLE001 - every end of the run reaches the reader as an event
            self._queue.put(Failed(error))
        else:
            self._queue.put(Finished(outcome))

    def cancel(self) -> None:
        """Ask the run to stop; a Failed(Cancelled) event ends the stream."""
        self._token.cancel()

    @property
    def cancelled(self) -> bool:
        """True once cancel() was called."""
        return self._token.cancelled

    def events(self) -> Iterator[Event]:
        """Every event in order, the last one Finished or Failed; Ctrl-C here cancels the run and waits for it.

        A reader that stops at the last event (raising a Failed run's error) cancels nothing: the token may be the
        caller's, and a cancelled one would stop every later run given it (NEVER_CANCELLED among them)."""
        ended = False
        try:
            while True:
                try:
                    event = self._queue.get(timeout=POLL_S)
                except queue.Empty:
                    continue
                ended = isinstance(event, (Finished, Failed))
                yield event
                if ended:
                    self._thread.join()
                    return
        except BaseException:
            if not ended:
                self.cancel()
            self._thread.join()
            raise

    def wait(self, progress: Progress = no_progress, on_event: Emit | None = None) -> RunOutcome:
        """Read the events to the end: progress passed on, the outcome returned, the run's error raised here."""
        for event in self.events():
            if on_event is not None:
                on_event(event)
            if isinstance(event, Progressed):
                progress(event.done, event.total, event.message)
            elif isinstance(event, Finished):
                return event.outcome
            elif isinstance(event, Failed):
                raise event.error
        raise Cancelled()  # unreachable: events() always ends with Finished or Failed


class _ThrottledProgress:
    """A Progress that emits Progressed events, at most one per PROGRESS_INTERVAL_S within a stage (a new stage
    and the end of one always pass)."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self._last_time = 0.0
        self._last_message = ""

    def __call__(self, done: int, total: int, message: str = "") -> None:
        now = time.monotonic()
        with self._lock:
            if message == self._last_message and done < total and now - self._last_time < PROGRESS_INTERVAL_S:
                return
            self._last_time, self._last_message = now, message
        self._emit(Progressed(int(done), int(total), str(message)))


def progress_events(emit: Emit) -> Progress:
    """A Progress for the engine that emits throttled Progressed events."""
    return _ThrottledProgress(emit)


def rows_events(emit: Emit) -> Callable[[list[PrecisionRow]], None]:
    """An engine row sink that emits RowsDone events."""
    return lambda rows: emit(RowsDone(rows))
