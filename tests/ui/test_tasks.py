"""TaskRunner: results, failures, throttled progress and silent cancellation come back on the GUI thread."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.errors import Cancelled, InputError
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.ui.background_priority import BACKGROUND_NICE, lower_this_thread
from autofuse_studio.ui.tasks import TaskEvent, TaskRunner

TIMEOUT_MS = 10000


def double(n: int, *, progress: Progress, cancel: CancelToken, offset: int = 0) -> int:
    for i in range(n):
        cancel.check()
        progress(i + 1, n, f"step {i + 1}")
    return 2 * n + offset


def wait_until_cancelled(started: threading.Event, *, progress: Progress, cancel: CancelToken) -> None:
    started.set()
    while not cancel.cancelled:
        time.sleep(0.005)
    cancel.check()


def blocked(gate: threading.Event, *, progress: Progress, cancel: CancelToken) -> str:
    gate.wait(TIMEOUT_MS / 1000)
    return "released"


def boom(*, progress: Progress, cancel: CancelToken) -> None:
    raise ValueError("a bug in the analysis")


def record(runner: TaskRunner) -> list[TaskEvent]:
    events: list[TaskEvent] = []
    runner.taskEvent.connect(events.append)
    return events


def wait_terminal(qtbot: QtBot, runner: TaskRunner, task_id: int | None = None) -> Any:
    def is_final(event: TaskEvent) -> bool:
        return event.terminal and (task_id is None or event.task_id == task_id)

    return qtbot.waitSignal(runner.taskEvent, timeout=TIMEOUT_MS, check_params_cb=is_final)


def test_submit_returns_the_result_with_kwargs(qtbot: QtBot, runner: TaskRunner) -> None:
    with wait_terminal(qtbot, runner) as blocker:
        task_id = runner.submit(double, 5, offset=1)
    assert blocker.args == [TaskEvent(task_id, "done", 11)]
    assert runner.active() == []


def test_events_arrive_on_the_gui_thread_even_for_plain_callables(qtbot: QtBot, runner: TaskRunner) -> None:
    threads: list[threading.Thread] = []
    runner.taskEvent.connect(lambda _event: threads.append(threading.current_thread()))
    with wait_terminal(qtbot, runner):
        runner.submit(double, 3)
    assert threads
    assert set(threads) == {threading.main_thread()}


def test_progress_is_throttled_but_the_final_update_always_arrives(qtbot: QtBot) -> None:
    # A huge interval makes throttling deterministic: the first update passes, then only done == total.
    runner = TaskRunner(progress_interval=3600)
    try:
        events = record(runner)
        with wait_terminal(qtbot, runner):
            runner.submit(double, 1000)
    finally:
        runner.shutdown()
    progress = [event.payload for event in events if event.kind == "progress"]
    assert progress == [(1, 1000, "step 1"), (1000, 1000, "step 1000")]
    assert events[-1].kind == "done"


def test_failure_carries_the_exception(qtbot: QtBot, runner: TaskRunner) -> None:
    with wait_terminal(qtbot, runner) as blocker:
        runner.submit(boom)
    event = blocker.args[0]
    assert event.kind == "failed"
    assert isinstance(event.payload, ValueError)
    assert "a bug in the analysis" in str(event.payload)


def test_app_error_is_reported_as_failure_for_the_ui_boundary(qtbot: QtBot, runner: TaskRunner) -> None:
    def bad_input(*, progress: Progress, cancel: CancelToken) -> None:
        raise InputError("The file x.npy is truncated.", path="x.npy")

    with wait_terminal(qtbot, runner) as blocker:
        runner.submit(bad_input)
    assert isinstance(blocker.args[0].payload, InputError)


def test_cancel_running_task_is_silent(qtbot: QtBot, runner: TaskRunner) -> None:
    started = threading.Event()
    events = record(runner)
    with wait_terminal(qtbot, runner) as blocker:
        task_id = runner.submit(wait_until_cancelled, started)
        assert started.wait(TIMEOUT_MS / 1000)
        runner.cancel(task_id)
    assert blocker.args == [TaskEvent(task_id, "cancelled")]
    assert [event.kind for event in events] == ["cancelled"]
    runner.cancel(task_id)  # cancelling a finished task is harmless


def test_cancel_pending_task_before_it_starts(qtbot: QtBot) -> None:
    runner = TaskRunner(max_workers=1)
    gate = threading.Event()
    try:
        events = record(runner)
        first = runner.submit(blocked, gate)
        second = runner.submit(double, 3)
        with wait_terminal(qtbot, runner, second) as blocker:
            runner.cancel(second)
        assert blocker.args == [TaskEvent(second, "cancelled")]
        with wait_terminal(qtbot, runner, first):
            gate.set()
    finally:
        gate.set()
        runner.shutdown()
    assert [(event.task_id, event.kind) for event in events] == [(second, "cancelled"), (first, "done")]


def test_result_after_cancel_is_dropped(qtbot: QtBot, runner: TaskRunner) -> None:
    gate = threading.Event()
    with wait_terminal(qtbot, runner) as blocker:
        task_id = runner.submit(blocked, gate)  # never checks its token
        runner.cancel(task_id)
        gate.set()
    assert blocker.args[0].kind == "cancelled"


def test_task_handle_signals(qtbot: QtBot, runner: TaskRunner) -> None:
    def big(*, progress: Progress, cancel: CancelToken) -> str:
        progress(10**12, 10**12, "bytes")  # beyond Qt's 32-bit int
        return "ok"

    handle = runner.start(big)
    progressed: list[tuple[int, int, str]] = []
    handle.progressed.connect(lambda done, total, message: progressed.append((done, total, message)))
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT_MS) as blocker:
        pass
    assert blocker.args == ["ok"]
    assert progressed == [(10**12, 10**12, "bytes")]

    failing = runner.start(boom)
    with qtbot.waitSignal(failing.failed, timeout=TIMEOUT_MS) as blocker:
        pass
    assert isinstance(blocker.args[0], ValueError)

    started = threading.Event()
    cancelled = runner.start(wait_until_cancelled, started)
    with qtbot.waitSignal(cancelled.cancelled, timeout=TIMEOUT_MS):
        assert started.wait(TIMEOUT_MS / 1000)
        cancelled.cancel()


def test_shutdown_cancels_running_work_and_waits(qtbot: QtBot) -> None:
    runner = TaskRunner()
    started = threading.Event()
    seen: list[str] = []

    def worker(*, progress: Progress, cancel: CancelToken) -> None:
        try:
            wait_until_cancelled(started, progress=progress, cancel=cancel)
        except Cancelled:
            seen.append("cancelled")
            raise

    runner.submit(worker)
    assert started.wait(TIMEOUT_MS / 1000)
    runner.shutdown()
    assert seen == ["cancelled"]  # shutdown() returned only after the worker stopped
    with pytest.raises(RuntimeError, match="after shutdown"):
        runner.submit(double, 1)
    runner.shutdown()  # idempotent


class _RecordingSignal:
    """Stands in for the runner's relay signal: records what a worker would emit."""

    def __init__(self) -> None:
        self.emitted: list[TaskEvent] = []

    def emit(self, event: TaskEvent) -> None:
        self.emitted.append(event)


def test_no_worker_emits_after_shutdown_without_waiting(qtbot: QtBot) -> None:
    """shutdown(wait=False) as the window closes: a task still running never emits into a runner being destroyed
    (that race aborted a process with "pure virtual method called")."""
    runner = TaskRunner()
    started, release = threading.Event(), threading.Event()

    def deaf_worker(*, progress: Progress, cancel: CancelToken) -> int:
        started.set()
        release.wait(TIMEOUT_MS / 1000)  # does not look at its cancel token
        progress(1, 2, "late")
        return 7

    runner.submit(deaf_worker)
    assert started.wait(TIMEOUT_MS / 1000)
    runner.shutdown(wait=False)
    recording = _RecordingSignal()
    runner._relay = recording  # type: ignore[assignment]
    release.set()
    runner._pool.shutdown(wait=True)  # the worker has returned and posted what it would
    assert recording.emitted == []


def own_and_started_nice(*, progress: Progress, cancel: CancelToken) -> tuple[int, int]:
    """This worker's nice and that of a thread it starts (Linux: per thread)."""
    found: list[int] = []
    started = threading.Thread(target=lambda: found.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id())))
    started.start()
    started.join()
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()), found[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priorities are Linux's")
def test_workers_and_their_threads_give_way_to_the_gui_thread(qtbot: QtBot, runner: TaskRunner) -> None:
    gui_nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    with wait_terminal(qtbot, runner) as blocker:
        task_id = runner.submit(own_and_started_nice)
    worker, started = blocker.args[0].payload
    assert blocker.args[0] == TaskEvent(task_id, "done", (worker, started))
    assert worker == started == max(gui_nice, BACKGROUND_NICE)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == gui_nice  # the GUI thread keeps its own


def test_a_worker_keeps_a_lower_priority_it_already_has(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int, int]] = []
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(os, "PRIO_PROCESS", 0, raising=False)  # absent on Windows
    monkeypatch.setattr(os, "getpriority", lambda which, who: BACKGROUND_NICE + 3, raising=False)
    monkeypatch.setattr(os, "setpriority", lambda *args: calls.append(args), raising=False)
    lower_this_thread()
    assert calls == []


def test_a_refused_priority_leaves_the_worker_running(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(os, "PRIO_PROCESS", 0, raising=False)  # absent on Windows
    monkeypatch.setattr(os, "getpriority", lambda which, who: 0, raising=False)

    def refuse(*_args: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "setpriority", refuse, raising=False)
    lower_this_thread()  # no exception: the worker keeps the GUI thread's priority
