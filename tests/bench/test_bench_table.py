"""Precision table with 100k rows: prints sort, filter, append and verdict-update times (run with make bench)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.ui.precision.column_fit import fit_columns
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.filters import RowFilter
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.test_table_model import make_rows

pytestmark = pytest.mark.bench
ROWS = 100_000


def _timed(label: str, work) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    work()
    elapsed = time.perf_counter() - start
    print(f"  {label:<38} {elapsed * 1000:8.1f} ms")
    return elapsed


def test_bench_table_100k(qtbot: QtBot) -> None:
    rows = make_rows(ROWS)
    result = PrecisionResult(rows, Thresholds())
    result.first_divergence = assign_verdicts(rows, result.thresholds, {})
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.resize(1400, 900)
    bench.show()
    proxy, view = bench.proxy, bench.view
    print(f"\nprecision table, {ROWS} rows")
    times = {
        "load": _timed("set_result (reset + statuses)", lambda: bench.set_result(result, {})),
        "sort_cosine": _timed("sort by cosine (numeric)", lambda: view.sortByColumn(
            COLUMN_KEYS.index("cosine"), Qt.SortOrder.DescendingOrder)),
        "sort_text": _timed("sort by fused op (text)", lambda: view.sortByColumn(
            COLUMN_KEYS.index("fused_op"), Qt.SortOrder.AscendingOrder)),
        "filter_text": _timed("filter text 'op12'", lambda: proxy.set_filter(RowFilter(text="op12"))),
        "filter_verdict": _timed("filter verdict CULPRIT", lambda: proxy.set_filter(
            RowFilter(verdicts=frozenset({"CULPRIT"})))),
        "filter_clear": _timed("clear filter", lambda: proxy.set_filter(RowFilter())),
        "thresholds": _timed("threshold change (verdicts + recolour)", lambda: bench.apply_thresholds(
            Thresholds(Limits(cosine=0.97)))),
        "paint": _timed("repaint visible rows", lambda: view.viewport().grab()),
        "fit": _timed("fit columns to contents (sample)", lambda: fit_columns(view, rows)),
    }
    baseline = _timed("baseline: sorted() of 100k floats", lambda: sorted(
        row.metric("cosine") or 0.0 for row in rows))
    print(f"  sort-by-cosine / baseline ratio: {times['sort_cosine'] / baseline:.1f}x")
    assert proxy.rowCount() == ROWS
    bench.shutdown()  # as the window does before it closes: no background work outlives the widget
