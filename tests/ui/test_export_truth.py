"""Exports contain what their names say: the whole graph of both panes, the first-divergence border, crisp heatmaps."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from autofuse_studio.core.graphview.build import ViewOptions, build_display_graph
from autofuse_studio.core.precision.tensor_view import ViewOptions as TensorOptions
from autofuse_studio.ui.graph.toolbar import FILTER_SELECTION
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.precision.tensor_panel import TensorPanel

SVG = "{http://www.w3.org/2000/svg}"
WAIT_MS = 60_000


def node_rects(path: Path) -> list[ET.Element]:
    """The node boxes of an exported graph SVG."""
    return [rect for rect in ET.parse(path).getroot().iter(f"{SVG}rect")
            if rect.get("class", "").startswith("node-")]


def whole_export(bench: GraphWorkbench, qtbot: QtBot, path: Path) -> object:
    """The Export menu's whole-graph export, waited for; what pictureExported carried."""
    with qtbot.waitSignal(bench.pictureExported, timeout=WAIT_MS) as done:
        assert bench.start_picture_export(path, whole=True) is not None
    return done.args[0]


def test_whole_graph_svg_holds_every_node_of_both_panes(demo_bench: GraphWorkbench, qtbot: QtBot,
                                                        tmp_path: Path) -> None:
    assert demo_bench.toolbar.filter.currentData() == FILTER_SELECTION  # the tab opens around the culprit
    assert demo_bench.af_open is not None and demo_bench.af_close is not None
    shown = len(demo_bench.open_pane.graph.nodes) if demo_bench.open_pane.graph else 0
    every = (len(build_display_graph(demo_bench.af_open, ViewOptions()).nodes)
             + len(build_display_graph(demo_bench.af_close, ViewOptions()).nodes))
    assert shown < len(build_display_graph(demo_bench.af_open, ViewOptions()).nodes)  # a subset is on screen
    written = whole_export(demo_bench, qtbot, tmp_path / "whole.svg")
    assert len(node_rects(tmp_path / "whole.svg")) == every
    texts = {t.text for t in ET.parse(tmp_path / "whole.svg").getroot().iter(f"{SVG}text")}
    # Each pane titled in the picture by its role and file.
    assert {text.partition(":")[0] for text in texts if text and ":" in text} >= {"af-open (fused)", "af-close (original)"}
    assert "side by side" in str(written)  # the status sentence says how the panes were written


def test_whole_graph_png_is_both_panes(demo_bench: GraphWorkbench, qtbot: QtBot, tmp_path: Path) -> None:
    whole_export(demo_bench, qtbot, tmp_path / "whole.png")
    image = QImage(str(tmp_path / "whole.png"))
    layout = demo_bench.open_pane.graph_layout
    assert layout is not None
    assert image.width() > layout.size[0] and image.height() > 100


def test_exports_draw_the_first_divergence_border(demo_bench: GraphWorkbench, qtbot: QtBot,
                                                  tmp_path: Path) -> None:
    style = demo_bench.open_pane.node_style()
    assert style is not None and "first divergence" in [label for label, _colour in style.legend]
    for whole in (True, False):
        path = tmp_path / f"picture-{whole}.svg"
        if whole:
            whole_export(demo_bench, qtbot, path)
        else:
            assert demo_bench.export_picture(path, whole=False) is not None
        borders = [r for r in node_rects(path) if r.get("class") == "node-first-divergence"]
        assert borders, path.name
        assert all(float(r.get("stroke-width", "1")) >= 2.5 for r in borders)


@pytest.fixture
def tensor_panel(qtbot: QtBot) -> Iterator[TensorPanel]:
    widget = TensorPanel(options=TensorOptions(top_k=10, max_cells=64, block_elements=4096))
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.shutdown()


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="needs rsvg-convert (librsvg2-bin)")
def test_heatmap_svg_is_crisp_in_librsvg(qtbot: QtBot, tensor_panel: TensorPanel, tmp_path: Path) -> None:
    stripes = np.tile(np.array([0.0, 1.0], dtype=np.float32), (8, 4))  # 8 x 8 cells, columns alternate
    np.save(tmp_path / "fused.npy", stripes)
    np.save(tmp_path / "origin.npy", stripes)
    with qtbot.waitSignal(tensor_panel.viewReady, timeout=20_000):
        tensor_panel.show_pair(tmp_path / "fused.npy", tmp_path / "origin.npy")
    tensor_panel.tabs.setCurrentWidget(tensor_panel.heatmaps)
    svg = tensor_panel.heatmaps.export_svg(tmp_path / "heat.svg")
    images = list(ET.parse(svg).getroot().iter(f"{SVG}image"))
    subprocess.run(["rsvg-convert", str(svg), "-o", str(tmp_path / "heat.png")], check=True)
    picture = QImage(str(tmp_path / "heat.png"))
    # The first heatmap (fused) is the first long run of saturated (viridis) pixels across the middle row.
    y = picture.height() // 2
    colours = [picture.pixelColor(x, y) for x in range(picture.width())]
    saturated = [max(c.red(), c.green(), c.blue()) - min(c.red(), c.green(), c.blue()) > 30 for c in colours]
    start = saturated.index(True)
    end = saturated.index(False, start)
    assert end - start > 80  # the heatmap, not an axis tick
    greys = [c.red() + c.green() + c.blue() for c in colours[start + 2:end - 2]]
    contrast = max(greys) - min(greys)
    assert contrast > 300
    # A cell edge at a sub-pixel position blends one pixel; a blurred one ramps over a whole cell.
    steep = [abs(greys[i + 2] - greys[i]) > 0.8 * contrast for i in range(len(greys) - 2)]
    edges = sum(1 for i, hit in enumerate(steep) if hit and (i == 0 or not steep[i - 1]))
    assert edges >= 5  # the 7 stripe edges of the heatmap (the ends may be cut)
    assert images and all("pixelated" in image.get("style", "") for image in images)
