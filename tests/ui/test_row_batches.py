"""Streamed rows reach the table in paced slices the window can repaint between; the result replaces what still waits."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.case import detect_roles
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.ui.precision.analysis import AnalysisController
from autofuse_studio.ui.precision.row_batches import (
    FIRST_ROWS_PER_TICK,
    FLUSH_INTERVAL_MS,
    MIN_ROWS_PER_TICK,
    ROWS_PER_TICK,
    TICK_BUDGET_S,
    RowBatches,
    RowInbox,
    SliceSizer,
)
from autofuse_studio.ui.tasks import TaskRunner
from tests.synth import demo_spec, generate_case

WAIT_MS = 30_000


def _rows(count: int, start: int = 0) -> list[PrecisionRow]:
    return [PrecisionRow(OUTPUT, f"op{number}", 0, f"origin{number}", 0, "OK") for number in range(start, start + count)]


@pytest.mark.parametrize("count", [1, ROWS_PER_TICK, ROWS_PER_TICK + 1, 3 * ROWS_PER_TICK + 17])
def test_a_burst_goes_out_in_order_in_slices(qtbot: QtBot, count: int) -> None:
    batches = RowBatches()
    slices: list[list[PrecisionRow]] = []
    batches.ready.connect(slices.append)
    rows = _rows(count)
    batches.add(rows[: count // 2])
    batches.add(rows[count // 2:])
    qtbot.waitUntil(lambda: sum(map(len, slices)) == count, timeout=5000)
    assert [row for part in slices for row in part] == rows
    assert 0 < len(slices[0]) <= FIRST_ROWS_PER_TICK  # nothing timed yet
    assert all(0 < len(part) <= min(ROWS_PER_TICK, 2 * len(before))  # at most twice the slice before
               for before, part in itertools.pairwise(slices))


def test_slices_shrink_to_the_budget_when_the_table_is_slow_and_grow_back(qtbot: QtBot) -> None:
    batches = RowBatches()
    slices: list[int] = []
    per_row = [3 * TICK_BUDGET_S / FIRST_ROWS_PER_TICK]  # the first slice takes three budgets

    def take(rows: list[PrecisionRow]) -> None:
        slices.append(len(rows))
        time.sleep(per_row[0] * len(rows))

    batches.ready.connect(take)
    batches.add(_rows(3 * ROWS_PER_TICK))
    qtbot.waitUntil(lambda: sum(slices) == 3 * ROWS_PER_TICK, timeout=10_000)
    assert slices[0] == FIRST_ROWS_PER_TICK  # nothing measured yet
    assert all(size <= FIRST_ROWS_PER_TICK // 2 for size in slices[1:])  # then about a budget's worth each
    per_row[0] = 0.0
    batches.add(_rows(3 * ROWS_PER_TICK))
    qtbot.waitUntil(lambda: sum(slices) == 6 * ROWS_PER_TICK, timeout=10_000)
    assert slices[-1] == ROWS_PER_TICK or slices[-2] == ROWS_PER_TICK  # fast again: full slices


def test_the_sizer_stays_within_its_bounds_and_ignores_tiny_slices() -> None:
    sizer = SliceSizer()
    sizer.measured(ROWS_PER_TICK, 100.0)
    assert sizer.size == MIN_ROWS_PER_TICK
    sizer.measured(MIN_ROWS_PER_TICK - 1, 0.0)  # a tick's fixed cost would dominate: no new pace
    assert sizer.size == MIN_ROWS_PER_TICK
    sizer.measured(MIN_ROWS_PER_TICK, 0.0)
    assert sizer.size == 2 * MIN_ROWS_PER_TICK  # fast, but at most twice the slice measured
    sizer.measured(ROWS_PER_TICK // 2, 0.0)
    assert sizer.size == ROWS_PER_TICK  # and never more than the most
    sizer.measured(1000, TICK_BUDGET_S / 2)
    assert sizer.size == 2000


def test_a_backlog_goes_out_a_slice_per_interval(qtbot: QtBot) -> None:
    batches = RowBatches()
    times: list[float] = []
    batches.ready.connect(lambda rows: times.append(time.perf_counter()))
    batches.add(_rows(3 * ROWS_PER_TICK))
    qtbot.waitUntil(lambda: len(times) == 3, timeout=5000)
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(gap >= 0.8 * FLUSH_INTERVAL_MS / 1000 for gap in gaps), gaps  # the window free in between


def test_finish_drops_the_waiting_rows_calls_back_once_and_clear_forgets_it(qtbot: QtBot) -> None:
    batches = RowBatches()
    events: list[str] = []
    batches.ready.connect(lambda rows: events.append(f"rows {len(rows)}"))
    batches.add(_rows(2 * ROWS_PER_TICK + 1))
    batches.finish(lambda: events.append("then"))
    assert batches.finishing
    batches.add(_rows(5))  # late rows of the finished run: the result has them
    qtbot.waitUntil(lambda: "then" in events, timeout=5000)
    qtbot.wait(2 * FLUSH_INTERVAL_MS)
    assert events == ["then"]
    assert not batches.finishing
    batches.add(_rows(ROWS_PER_TICK + 1))
    batches.finish(lambda: events.append("then again"))
    batches.clear()
    qtbot.wait(200)
    assert events == ["then"]


def test_cancel_between_done_and_finished_means_no_finished(qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    generate_case(root, demo_spec())
    runner = TaskRunner()
    controller = AnalysisController(runner)
    cancelled_when_done: list[bool] = []

    def on_event(event: object) -> None:
        if getattr(event, "kind", None) == "done":  # the controller saw it first: finished is on its way
            cancelled_when_done.append(True)
            controller.cancel()

    runner.taskEvent.connect(on_event)
    with qtbot.assertNotEmitted(controller.finished, wait=300), qtbot.waitSignal(controller.cancelled, timeout=WAIT_MS):
        controller.start(detect_roles([str(root)]).case.spec())
    assert cancelled_when_done == [True]
    runner.shutdown(wait=True)


def test_every_row_reaches_the_table_through_the_finished_result(qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    generate_case(root, demo_spec())
    runner = TaskRunner()
    controller = AnalysisController(runner)
    streamed: list[PrecisionRow] = []
    controller.rowsArrived.connect(streamed.extend)
    with qtbot.waitSignal(controller.finished, timeout=WAIT_MS) as finished:
        controller.start(detect_roles([str(root)]).case.spec())
    rows, streamed_before = finished.args[0].result.rows, len(streamed)
    qtbot.wait(2 * FLUSH_INTERVAL_MS)
    assert len(streamed) == streamed_before  # nothing after finished: the table shows the result's rows then
    assert {row.fused_op for row in streamed} <= {row.fused_op for row in rows}
    runner.shutdown(wait=True)


def test_the_inbox_wakes_the_gui_once_per_take_and_keeps_every_row_in_order() -> None:
    inbox = RowInbox()
    groups = [_rows(3, start) for start in range(0, 3000, 3)]
    wakes, taken = 0, []
    for number, group in enumerate(groups):
        wakes += inbox.put(group)
        if number % 250 == 249:  # the GUI thread takes what waits now and then
            taken += inbox.take()
    taken += inbox.take()
    assert [row.fused_op for row in taken] == [row.fused_op for group in groups for row in group]
    assert wakes == 4  # once after each take, not once per group
    assert inbox.take() == []


def test_rows_put_from_many_threads_all_arrive_once() -> None:
    inbox = RowInbox()
    batches = [_rows(5, 5 * number) for number in range(400)]

    def put(part: list[list[PrecisionRow]]) -> None:
        for group in part:
            inbox.put(group)

    threads = [threading.Thread(target=put, args=(batches[start::4],)) for start in range(4)]
    for thread in threads:
        thread.start()
    taken: list[PrecisionRow] = []
    while any(thread.is_alive() for thread in threads):
        taken += inbox.take()
    for thread in threads:
        thread.join()
    taken += inbox.take()
    assert sorted(row.fused_op for row in taken) == sorted(row.fused_op for group in batches for row in group)

