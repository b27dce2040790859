"""Benchmark: graph exports of a 20k-op graph, GUI-thread blocks of the direct export against the Export menu's."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.core.test_graphview_layout import random_model
from tests.ui.gui_block import GuiBlockMeter

pytestmark = pytest.mark.bench

N_OPS = int(os.environ.get("GRAPH_BENCH_OPS", "20000"))


@pytest.mark.usefixtures("app_switch_interval")
def test_graph_exports_block_the_gui_briefly(qtbot: QtBot, tmp_path: Path) -> None:
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1600, 1000)
    widget.show()
    with qtbot.waitSignal(widget.open_pane.layoutReady, timeout=60_000):
        widget.set_case(random_model(N_OPS), None, None)
    pane = widget.open_pane
    assert pane.graph_layout is not None
    print(f"\n{N_OPS} ops: the direct export_picture() (all on the GUI thread) against the Export menu's "
          "start_picture_export() (a grab, or nothing, on the GUI thread; the rest on a worker)")
    for label, zoom, whole in (("current view, reading zoom", 1.0, False), ("current view, zoomed out 4x", 0.25, False),
                               ("whole graph", None, True)):
        if zoom is None:
            pane.view.fit()
        else:
            pane.view.set_scale(zoom, QPointF(pane.graph_layout.size[0] / 2, 2000))
        for suffix in ("png", "svg"):
            qtbot.wait(20)
            pane.view.viewport().repaint()
            started = time.perf_counter()
            widget.export_picture(tmp_path / f"direct.{suffix}", whole)
            direct_ms = (time.perf_counter() - started) * 1000
            with GuiBlockMeter() as meter, qtbot.waitSignal(widget.pictureExported, timeout=120_000):
                started = time.perf_counter()
                widget.start_picture_export(tmp_path / f"menu.{suffix}", whole)
            written = time.perf_counter() - started
            print(f"  {label}, {suffix.upper()}: direct {direct_ms:.0f} ms blocked; Export menu longest block "
                  f"{meter.longest_ms:.1f} ms (written in {written:.2f} s); ratio "
                  f"{direct_ms / max(meter.longest_ms, 0.1):.0f}x")
            assert meter.longest_ms < 500
    widget.shutdown()
