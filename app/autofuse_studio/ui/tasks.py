"""The in-process task runner: core functions on a small thread pool, one queued signal back."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

from PySide6.QtCore import QObject, Qt, Signal

from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.progress import CancelToken
from autofuse_studio.ui.background_priority import lower_this_thread

log = logging.getLogger(__name__)

EventKind = Literal["progress", "done", "failed", "cancelled"]
TERMINAL_KINDS = frozenset({"done", "failed", "cancelled"})
PROGRESS_INTERVAL_S = 0.05  # ≈20 Hz: faster updates only cost the GUI thread time


@dataclass(frozen=True)
class TaskEvent:
    """One message from a task: progress (done, total, message), its result, its exception, or None."""

    task_id: int
    kind: EventKind
    payload: Any = None

    @property
    def terminal(self) -> bool:
        """True for the last event of a task (done, failed or cancelled)."""
        return self.kind in TERMINAL_KINDS


class _ThrottledProgress:
    """A core Progress that forwards at most one update per interval, plus the final one."""

    def __init__(self, emit: Callable[[int, int, str], None], token: CancelToken, interval: float) -> None:
        self._emit = emit
        self._token = token
        self._interval = interval
        self._last = float("-inf")
        self._lock = threading.Lock()  # core functions may report from several worker threads

    def __call__(self, done: int, total: int, message: str = "") -> None:
        if self._token.cancelled:
            return
        now = time.monotonic()
        with self._lock:
            if now - self._last < self._interval and done < total:
                return
            self._last = now
        self._emit(done, total, message)


class TaskHandle(QObject):
    """Per-task signals for panels that prefer them to filtering TaskRunner.taskEvent by id."""

    # `object` rather than int: byte counts overflow Qt's 32-bit int.
    progressed = Signal(object, object, str)
    finished = Signal(object)
    failed = Signal(object)
    cancelled = Signal()

    def __init__(self, runner: TaskRunner, task_id: int) -> None:
        super().__init__(runner)
        self.task_id = task_id
        self._runner = runner

    def cancel(self) -> None:
        """Ask the task to stop; it ends with the cancelled signal (or finishes if already done)."""
        self._runner.cancel(self.task_id)

    def dispatch(self, event: TaskEvent) -> None:
        """Re-emit one TaskEvent as the matching signal."""
        if event.kind == "progress":
            self.progressed.emit(*event.payload)
        elif event.kind == "done":
            self.finished.emit(event.payload)
        elif event.kind == "failed":
            self.failed.emit(event.payload)
        else:
            self.cancelled.emit()


class TaskRunner(QObject):
    """Runs `fn(*args, progress=..., cancel=..., **kwargs)` on worker threads; reports via taskEvent."""

    # TaskEvent, always emitted on the runner's (GUI) thread. Not named `event`: that would shadow
    # QObject.event(), which Qt calls to deliver every event, including the queued relays.
    taskEvent = Signal(object)
    _relay = Signal(object)  # emitted by workers; queued to the runner's thread

    def __init__(
        self,
        parent: QObject | None = None,
        max_workers: int = 2,
        progress_interval: float = PROGRESS_INTERVAL_S,
    ) -> None:
        super().__init__(parent)
        # Each worker (and what it starts) gives way to the GUI thread for a core: background_priority.
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="autofuse-task",
                                        initializer=lower_this_thread)
        self._interval = progress_interval
        self._ids = itertools.count(1)
        self._tokens: dict[int, CancelToken] = {}
        self._futures: dict[int, Future[None]] = {}
        self._handles: dict[int, TaskHandle] = {}
        self._closed = False
        # Held while a worker posts and while shutdown() closes: once shutdown() returned no worker is inside an emit
        # (an emit racing the C++ object's destruction aborts the process: "pure virtual method called").
        self._posting = threading.Lock()
        # Explicitly queued so `event` is emitted on this thread even for plain-callable receivers.
        self._relay.connect(self._on_relay_event, Qt.ConnectionType.QueuedConnection)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> int:
        """Start fn in the pool and return its task id; fn gets `progress` and `cancel` keywords."""
        if self._closed:
            raise RuntimeError("TaskRunner.submit() after shutdown()")
        task_id = next(self._ids)
        token = CancelToken()
        progress = _ThrottledProgress(
            lambda done, total, message: self._post(TaskEvent(task_id, "progress", (done, total, message))),
            token,
            self._interval,
        )
        self._tokens[task_id] = token
        self._futures[task_id] = self._pool.submit(self._work, task_id, token, fn, args, kwargs, progress)
        return task_id

    def start(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> TaskHandle:
        """Like submit(), but returns a TaskHandle with per-task signals."""
        task_id = self.submit(fn, *args, **kwargs)
        handle = TaskHandle(self, task_id)
        self._handles[task_id] = handle
        return handle

    def cancel(self, task_id: int) -> None:
        """Cooperatively cancel a task; unknown or finished ids are ignored."""
        token = self._tokens.get(task_id)
        if token is None:
            return
        token.cancel()
        future = self._futures.get(task_id)
        if future is not None and future.cancel():
            # It never started, so no worker will report: say it ourselves (still via the queue).
            self._post(TaskEvent(task_id, "cancelled"))

    def cancel_all(self) -> None:
        """Cancel every pending and running task."""
        for task_id in list(self._tokens):
            self.cancel(task_id)

    def active(self) -> list[int]:
        """Ids of the tasks that have not reported their final event yet."""
        return sorted(self._tokens)

    def shutdown(self, wait: bool = True) -> None:
        """Cancel everything and stop the pool; with wait, block until running tasks returned."""
        with self._posting:
            if self._closed:
                return
            self._closed = True
        for token in self._tokens.values():
            token.cancel()
        self._pool.shutdown(wait=wait, cancel_futures=True)

    def _work(
        self,
        task_id: int,
        token: CancelToken,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        progress: _ThrottledProgress,
    ) -> None:
        try:
            token.check()
            result = fn(*args, progress=progress, cancel=token, **kwargs)
            # A result that arrives after cancel() is not wanted any more: cancel stays silent.
            token.check()
        except Cancelled:
            self._post(TaskEvent(task_id, "cancelled"))
        except Exception as exc:  # noqa: BLE001 - every failure must reach the UI error boundary
            self._post(TaskEvent(task_id, "failed", exc))
        else:
            self._post(TaskEvent(task_id, "done", result))

    def _post(self, event: TaskEvent) -> None:
        try:
            with self._posting:  # the queued emit only posts an event: never held for long
                if self._closed:
                    return  # shut down: nobody is listening, and the C++ object may be on its way out
                self._relay.emit(event)
        except RuntimeError:
            # The runner's C++ object is gone (app quitting): nobody is listening any more.
            log.debug("dropped %s event of task %d after the runner was deleted", event.kind, event.task_id)

    def _on_relay_event(self, event: TaskEvent) -> None:
        if self._closed or event.task_id not in self._tokens:
            return  # after shutdown or the final event nothing more is reported
        token = self._tokens[event.task_id]
        if event.kind == "progress" and token.cancelled:
            return
        handle = self._handles.get(event.task_id)
        if event.terminal:
            del self._tokens[event.task_id]
            self._futures.pop(event.task_id, None)
            self._handles.pop(event.task_id, None)
        self.taskEvent.emit(event)
        if handle is not None:
            handle.dispatch(event)
            if event.terminal:
                handle.deleteLater()
