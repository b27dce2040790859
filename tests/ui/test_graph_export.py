"""Graph exports: the current view as PNG is what is visible, fast; the GUI thread is never blocked long."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from autofuse_studio.core.graphview.style import VERDICT_FILLS
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.ui.test_graph_view import show_all

MAX_BLOCK_S = 0.25  # a quarter second: the longest the GUI thread may stall during an export


def longest_block(qtbot: QtBot, action: Callable[[], object], settle_ms: int = 400) -> float:
    """Run `action` from the event loop and return the longest gap between 5 ms heartbeats (seconds)."""
    gaps: list[float] = []
    last = [time.perf_counter()]

    def beat() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(beat)
    timer.start()
    QTimer.singleShot(30, action)
    qtbot.wait(settle_ms)
    timer.stop()
    return max(gaps)


def test_current_view_png_is_the_visible_view(demo_bench: GraphWorkbench, qtbot: QtBot, tmp_path: Path) -> None:
    show_all(demo_bench, qtbot)
    demo_bench.active = demo_bench.open_pane
    view = demo_bench.open_pane.view
    view.fit()  # the case that wrote a 5499×9759 picture, 90 % blank, in 4.6 s
    path = tmp_path / "view.png"
    block = longest_block(qtbot, lambda: demo_bench.export_picture(path, whole=False))
    print(f"\ncurrent view as PNG: longest GUI-thread block {block * 1000:.0f} ms")
    assert block < MAX_BLOCK_S
    image = QImage(str(path))
    ratio = view.devicePixelRatioF()
    assert (image.width(), image.height()) == (round(view.viewport().width() * ratio),
                                               round(view.viewport().height() * ratio))


def test_current_view_png_of_the_first_view_shows_the_culprit(demo_bench: GraphWorkbench, qtbot: QtBot,
                                                              tmp_path: Path) -> None:
    path = demo_bench.export_picture(tmp_path / "first.png", whole=False)
    assert path is not None
    image = QImage(str(path))
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)}
    assert VERDICT_FILLS[VERDICT_CULPRIT] in colours
    white = sum(image.pixelColor(x, y).name() == "#ffffff"
                for x in range(0, image.width(), 4) for y in range(0, image.height(), 4))
    assert white / ((image.width() // 4 + 1) * (image.height() // 4 + 1)) < 0.97


def test_current_view_svg_is_clipped_to_the_graph(demo_bench: GraphWorkbench, qtbot: QtBot, tmp_path: Path) -> None:
    show_all(demo_bench, qtbot)
    demo_bench.active = demo_bench.open_pane
    demo_bench.open_pane.view.fit()
    path = demo_bench.export_picture(tmp_path / "view.svg", whole=False)
    assert path is not None
    root = ET.parse(path).getroot()
    layout = demo_bench.open_pane.graph_layout
    assert layout is not None
    assert float(root.get("width", "0").rstrip("px")) <= layout.size[0] + 1
    assert float(root.get("height", "0").rstrip("px")) <= layout.size[1] + 40  # + the legend strip
