"""Benchmark: the GUI thread's CPU per streamed 500-row batch while a big run fills the precision table.

Each batch goes the way a run's rows go (the workbench's append, then the event-loop turn that lays the table
out and paints it), timed with time.thread_time (the GUI thread's own CPU, which a loaded machine stretches
into blocks). The baseline, alternated batch by batch in the same run, is the table repainting its whole
viewport after every insert, as Qt does (AppendsBelow off). Run with
`pytest -m bench tests/bench/test_bench_row_stream.py -s`.
"""

from __future__ import annotations

import statistics
import time

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.test_table_model import make_rows

pytestmark = pytest.mark.bench
BATCH, BATCHES = 500, 60
BASELINE = "Qt's repaint"


def test_streamed_batches_cost_the_gui_thread_little(qtbot: QtBot) -> None:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.resize(1600, 1000)
    bench.show()
    QApplication.processEvents()
    rows = make_rows(BATCH * BATCHES)
    costs: dict[str, list[float]] = {BASELINE: [], "ours": []}
    for number in range(BATCHES):
        label = "ours" if number % 2 else BASELINE
        if label != "ours":  # as if AppendsBelow were not there: the layout repaints the viewports
            bench.view._owed = bench.view.frozen._owed = True
        start = time.thread_time()
        bench.append_rows(rows[number * BATCH:(number + 1) * BATCH])
        for _turn in range(3):  # the layout's timer, then the paint it asks for
            QApplication.processEvents()
        if number >= 2:  # the first batches fill the visible rows: they must paint
            costs[label].append((time.thread_time() - start) * 1000)
    print(f"\nGUI-thread CPU per {BATCH}-row batch, {BATCHES} batches at 1600x1000 (ms, median and min-max)")
    for label, values in costs.items():
        print(f"  {label:<14} {statistics.median(values):6.2f}   {min(values):.2f}-{max(values):.2f}")
    print(f"  ratio ours / baseline: {statistics.median(costs['ours']) / statistics.median(costs[BASELINE]):.2f}")
    assert bench.proxy.rowCount() == BATCH * BATCHES
    bench.shutdown()  # as the window does before it closes: no background work outlives the widget
