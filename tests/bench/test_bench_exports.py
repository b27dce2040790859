"""The longest GUI-thread block of each precision-tab export (run with make bench; prints milliseconds).

A 1 ms timer ticks on the GUI thread while the export runs from the event loop; the longest gap
between ticks is how long the window could not repaint or take input.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, QTimer
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.ui.precision.plot_svg_exporter import install_svg_exporter
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from tests.synth import demo_spec, generate_case
from tests.ui.test_table_model import make_rows
from tests.ui.windows import shown_result_window

pytestmark = pytest.mark.bench
WAIT_MS = 60_000


def longest_block(qtbot: QtBot, work: Callable[[], object]) -> float:
    """Milliseconds of the longest GUI-thread stall while `work` runs from the event loop."""
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    done: list[bool] = []
    timer.start()
    qtbot.wait(30)
    QTimer.singleShot(0, lambda: (work(), done.append(True)))
    qtbot.waitUntil(lambda: bool(done), timeout=WAIT_MS)
    qtbot.wait(30)
    timer.stop()
    return max(b - a for a, b in itertools.pairwise(ticks)) * 1000


def _report(label: str, milliseconds: float) -> None:
    print(f"  {label:<62} {milliseconds:8.1f} ms")


def test_bench_export_blocks(qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    generate_case(root, demo_spec())
    window = shown_result_window(qtbot, root, WAIT_MS)
    panel = window.workbench.tensor_panel
    qtbot.waitUntil(lambda: panel.view is not None and not panel.busy, timeout=WAIT_MS)
    bench = window.workbench
    print("\nlongest GUI-thread block per export (demo case, 1600×1000 window)")
    for suffix in ("png", "svg"):
        _report(f"table picture, visible rows, all on the GUI thread (.{suffix})",
                longest_block(qtbot, lambda s=suffix: bench.export_table_picture(tmp_path / f"t.{s}")))
    for name, plots in (("histograms", panel.histograms), ("heatmaps", panel.heatmaps)):
        panel.tabs.setCurrentWidget(plots)
        qtbot.wait(50)
        for suffix in ("png", "svg"):
            _report(f"tensor {name}, all on the GUI thread (.{suffix})",
                    longest_block(qtbot, lambda s=suffix: panel.export_plots(tmp_path / f"p.{s}")))
            _report(f"tensor {name}, as the Export menu does it (.{suffix})", longest_block(
                qtbot, lambda s=suffix: _wait_for(qtbot, panel.runner.start(
                    panel.plots_picture(f".{s}").write, tmp_path / f"q.{s}"))))
        _report(f"pyqtgraph Export… → SVG, {name} scene", longest_block(
            qtbot, lambda p=plots: install_svg_exporter()(p.graphics.scene()).export(fileName=str(tmp_path / "d.svg"))))
    for suffix in ("png", "svg"):
        _report(f"whole tensor panel, all on the GUI thread (.{suffix})",
                longest_block(qtbot, lambda s=suffix: panel.export_picture(tmp_path / f"w.{s}")))
        _report(f"whole tensor panel, as the Export menu does it (.{suffix})", longest_block(
            qtbot, lambda s=suffix: _wait_for(qtbot, panel.runner.start(
                panel.panel_picture(f".{s}").write, tmp_path / f"x.{s}"))))
    runner = TaskRunner()
    try:
        for suffix in ("png", "svg"):
            _report(f"table picture, as the File menu does it (.{suffix})", longest_block(
                qtbot, lambda s=suffix: _wait_for(qtbot, bench.start_table_picture_export(runner, tmp_path / f"f.{s}"))))
    finally:
        runner.shutdown()


def test_bench_table_picture_of_1000_selected_rows(qtbot: QtBot, tmp_path: Path) -> None:
    rows = make_rows(100_000)
    result = PrecisionResult(rows, Thresholds())
    result.first_divergence = assign_verdicts(rows, result.thresholds, {})
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.resize(1400, 900)
    bench.show()
    bench.set_result(result, {})
    selection = bench.view.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for row in range(0, 100_000, 100):
        selection.select(bench.proxy.index(row, 0), flags)
    runner = TaskRunner()
    print("\nlongest GUI-thread block, table picture of 1000 selected rows (100k-row table)")
    try:
        for suffix in ("png", "svg"):
            _report(f"selected rows, written on the GUI thread (.{suffix})",
                    longest_block(qtbot, lambda s=suffix: bench.export_table_picture(tmp_path / f"s.{s}")))
            _report(f"selected rows, as the File menu does it (.{suffix})", longest_block(
                qtbot, lambda s=suffix: _wait_for(qtbot, bench.start_table_picture_export(runner, tmp_path / f"m.{s}"))))
    finally:
        runner.shutdown()


def _wait_for(qtbot: QtBot, handle: TaskHandle) -> None:
    """Return once the task finished; the event loop (and the tick timer) keep running meanwhile."""
    with qtbot.waitSignal(handle.finished, timeout=WAIT_MS):
        pass
