"""Benchmark: how long the GUI thread blocks when the user moves to another row and its tensors appear.

The demo case in the main window; each switch selects another compared row and waits until its tensors
are shown and painted, with a 1 ms heartbeat timer on the GUI thread (tests/ui/gui_block.py) (what a user feels). The baseline,
measured in the same run, is the background work a switch starts: view_files of the same pairs (the
tensor view of small tensors). Run with `pytest -m bench tests/bench/test_bench_row_switch.py -s`.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.tensor_view import view_files
from autofuse_studio.ui.app import prefer_gui_thread
from tests.synth import demo_spec, generate_case
from tests.ui.gui_block import GuiBlockMeter
from tests.ui.windows import shown_result_window

pytestmark = pytest.mark.bench
SWITCHES = 12
SETTLE_MS = 400  # pyqtgraph finishes ranges and labels over a few paints


def test_row_switch_blocks_briefly(qtbot: QtBot, tmp_path: Path) -> None:
    prefer_gui_thread()  # as run_app does
    root = tmp_path / "demo"
    generate_case(root, demo_spec())
    window = shown_result_window(qtbot, root)
    rows = [row for row in window.workbench.result.rows if row.fused_file and row.origin_file and row.metrics]
    chosen = [rows[(number * 7 + 3) % len(rows)] for number in range(SWITCHES)]
    start = time.perf_counter()
    for row in chosen:
        view_files(row.fused_file, row.origin_file, row.fused_layout, row.origin_layout)  # type: ignore[arg-type]
    baseline = (time.perf_counter() - start) / len(chosen)
    longest = []
    panel = window.workbench.tensor_panel
    for row in chosen:
        with GuiBlockMeter() as meter:
            window.workbench.view.select_row(row)
            qtbot.waitUntil(lambda: not panel.busy, timeout=30_000)  # type: ignore[attr-defined]
            qtbot.wait(SETTLE_MS)
        longest.append(meter.longest_ms / 1000)
    worst, median = max(longest), sorted(longest)[len(longest) // 2]
    print(f"\nrow switch, {len(chosen)} rows: tensor view {baseline * 1000:.1f} ms per pair (baseline); longest "
          f"GUI-thread block per switch median {median * 1000:.0f} ms, worst {worst * 1000:.0f} ms "
          f"({worst / baseline:.1f}x the view); target <= 100 ms")
    assert worst < 0.1
