"""GraphWorkbench with pytest-qt: layouts arrive, selections sync both panes, search, filters, exports."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.ui.graph.export import write_first_divergence_pictures
from autofuse_studio.ui.graph.pane import GraphPane
from autofuse_studio.ui.graph.toolbar import FILTER_NONE
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.conftest import samples_dir
from tests.core.test_graphview_build import demo_case
from tests.core.test_graphview_compound import assert_compound_properties

TIMEOUT = 20000


def wait_idle(qtbot: QtBot, *panes: GraphPane) -> None:
    """Wait until every pane finished its background layout."""
    qtbot.waitUntil(lambda: all(not pane.busy() and pane.graph is not None for pane in panes), timeout=TIMEOUT)


@pytest.fixture
def bench(qtbot: QtBot) -> Iterator[GraphWorkbench]:
    af_open, af_close, mapping, result = demo_case()
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1400, 800)
    widget.show()
    with qtbot.waitSignals([widget.open_pane.layoutReady, widget.close_pane.layoutReady], timeout=TIMEOUT):
        widget.set_case(af_open, af_close, mapping, result)  # as the main window does
    widget.set_precision(result)
    yield widget
    widget.shutdown()


def showing_alone(qtbot: QtBot, model: Model, fused_side: bool = True, size: tuple[int, int] = (1400, 800),
                  timeout: int = TIMEOUT) -> GraphWorkbench:
    """A shown workbench with `model` opened alone in the af-open (fused_side) or af-close pane, laid out."""
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(*size)
    widget.show()
    pane = widget.open_pane if fused_side else widget.close_pane
    with qtbot.waitSignal(pane.layoutReady, timeout=timeout):
        widget.set_case(model if fused_side else None, None if fused_side else model, None)
    return widget


def show_all(bench: GraphWorkbench, qtbot: QtBot) -> None:
    """Switch both panes to "All nodes" (the tab opens around the first divergence)."""
    with qtbot.waitSignals([bench.open_pane.layoutReady, bench.close_pane.layoutReady], timeout=TIMEOUT):
        bench.toolbar.filter.setCurrentIndex(bench.toolbar.filter.findData(FILTER_NONE))


def test_scene_holds_one_item_per_pane(bench: GraphWorkbench, qtbot: QtBot) -> None:
    af_open, af_close, _, _ = demo_case()
    show_all(bench, qtbot)
    for pane, model in ((bench.open_pane, af_open), (bench.close_pane, af_close)):
        assert len(pane.view.scene().items()) == 1  # one custom item draws every node and edge
        assert pane.graph is not None and len(pane.graph.nodes) == len(model.ops_in_order()) - len(
            [op for op in model.ops_in_order() if op.subgraph_names and op.type == "PartitionedCall"])
    assert [label for label, _ in bench.legend.entries][:4] == ["culprit", "propagated", "ok", "unknown"]


def test_clicking_a_fused_op_highlights_its_originals_and_emits(bench: GraphWorkbench, qtbot: QtBot) -> None:
    _, _, mapping, result = demo_case()
    assert result.first_divergence is not None
    fused = result.first_divergence.fused_op
    pane = bench.open_pane
    assert pane.graph is not None and pane.graph_layout is not None
    node = pane.graph.node_of_op(fused)
    assert node is not None
    pane.view.reveal(node)
    point = pane.view.mapFromScene(QPointF(float(pane.graph_layout.x[node]), float(pane.graph_layout.y[node])))
    with qtbot.waitSignal(bench.fusedOpSelected, timeout=TIMEOUT) as fused_signal, \
            qtbot.waitSignal(bench.rowsSelected, timeout=TIMEOUT) as rows_signal:
        qtbot.mouseClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert fused_signal.args == [fused]
    assert {row.fused_op for row in rows_signal.args[0]} == {fused}
    originals = set(bench.index.originals_of(fused))
    assert set(mapping.get(fused).original_op_names) <= originals  # type: ignore[union-attr]
    assert bench.close_pane.highlighted_ops == originals
    close_item = bench.close_pane.view.item
    assert close_item is not None and len(close_item.highlighted) == len(originals)
    assert "Fusion mapping" in bench.details.toPlainText()


def test_slots_select_without_emitting(bench: GraphWorkbench, qtbot: QtBot) -> None:
    _, _, mapping, result = demo_case()
    fused = mapping.fused_ops[0]
    with qtbot.assertNotEmitted(bench.fusedOpSelected), qtbot.assertNotEmitted(bench.originalOpSelected):
        bench.select_fused_op(fused.op.name)
        bench.select_row(result.rows[0])
        bench.select_original_op(fused.original_op_names[0])
    assert bench.close_pane.selected_op == fused.original_op_names[0]
    assert fused.op.name in bench.open_pane.highlighted_ops


def test_original_click_selects_fused_op(bench: GraphWorkbench, qtbot: QtBot) -> None:
    _, _, mapping, _ = demo_case()
    fused = mapping.fused_ops[0]
    with qtbot.waitSignal(bench.originalOpSelected, timeout=TIMEOUT) as signal:
        bench.close_pane.opClicked.emit(fused.original_op_names[0])
    assert signal.args == [fused.original_op_names[0]]
    assert bench.open_pane.highlighted_ops == {fused.op.name}
    assert "Fused into" in bench.details.toPlainText()


def test_overlay_collapse_and_expand_groups(bench: GraphWorkbench, qtbot: QtBot) -> None:
    _, _, mapping, _ = demo_case()
    show_all(bench, qtbot)
    with qtbot.waitSignal(bench.close_pane.layoutReady, timeout=TIMEOUT):
        bench.toolbar.mode.setCurrentIndex(1)
    assert not bench.open_pane.isVisible()
    graph = bench.close_pane.graph
    assert graph is not None
    assert sum(c.kind == "fusion" for c in graph.clusters) == len(mapping.fused_ops)
    expanded_nodes = len(graph.nodes)
    with qtbot.waitSignal(bench.close_pane.layoutReady, timeout=TIMEOUT):
        bench.toolbar.collapse_groups.setChecked(True)
    collapsed = bench.close_pane.graph
    assert collapsed is not None and len(collapsed.nodes) < expanded_nodes
    name = mapping.fused_ops[0].op.name
    with qtbot.waitSignal(bench.fusedOpSelected, timeout=TIMEOUT):
        bench.close_pane.opClicked.emit(name)  # a collapsed group stands for its fused op
    with qtbot.waitSignal(bench.close_pane.layoutReady, timeout=TIMEOUT):
        bench.close_pane.toggle(f"fusion:{name}")  # double-click expands it again
    assert bench.close_pane.graph is not None and len(bench.close_pane.graph.nodes) > len(collapsed.nodes)


def test_search_reveals_and_selects(bench: GraphWorkbench, qtbot: QtBot, qtmodeltester: ModelTester) -> None:
    _, _, _, result = demo_case()
    assert result.first_divergence is not None
    target = result.first_divergence.fused_op
    with qtbot.waitSignal(bench.fusedOpSelected, timeout=TIMEOUT) as signal:
        found = bench.search_and_reveal(target.lower()[:-2])
    assert found == signal.args[0]
    assert bench.open_pane.selected_op == found
    bench.toolbar.search.setText("mul")
    bench.toolbar.searchEdited.emit("mul")
    qtbot.waitUntil(lambda: bench.toolbar.completions.rowCount() > 0, timeout=TIMEOUT)
    qtmodeltester.check(bench.toolbar.completions)


def test_neighbourhood_filter_and_trace(bench: GraphWorkbench, qtbot: QtBot) -> None:
    _, _, _, result = demo_case()
    assert result.first_divergence is not None
    show_all(bench, qtbot)
    bench.select_fused_op(result.first_divergence.fused_op)
    full = len(bench.open_pane.graph.nodes)  # type: ignore[union-attr]
    bench.toolbar.hops.setValue(1)
    with qtbot.waitSignals([bench.open_pane.layoutReady, bench.close_pane.layoutReady], timeout=TIMEOUT):
        bench.toolbar.filter.setCurrentIndex(1)
    assert 1 < len(bench.open_pane.graph.nodes) < full  # type: ignore[union-attr]
    with qtbot.waitSignals([bench.open_pane.layoutReady, bench.close_pane.layoutReady], timeout=TIMEOUT):
        bench.toolbar.filter.setCurrentIndex(2)  # around failing rows
    assert bench.open_pane.graph is not None and bench.open_pane.graph.node_of_op(result.first_divergence.fused_op)
    with qtbot.waitSignals([bench.open_pane.layoutReady, bench.close_pane.layoutReady], timeout=TIMEOUT):
        bench.toolbar.filter.setCurrentIndex(0)
    bench.active = bench.open_pane
    bench.trace_selection("down")
    item = bench.open_pane.view.item
    assert item is not None and item.dim_others and len(item.highlighted) > 1


def test_metric_colouring_updates_legend(bench: GraphWorkbench) -> None:
    bench.toolbar.colour.setCurrentIndex(1)  # cosine
    assert bench.legend.entries[0][0].startswith("cosine")


def test_exports_parse_back(bench: GraphWorkbench, tmp_path: Path) -> None:
    svg = bench.export_picture(tmp_path / "whole.svg", whole=True)
    assert svg is not None
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and list(root.iter("{http://www.w3.org/2000/svg}text"))
    png = bench.export_picture(tmp_path / "view.png", whole=False)
    assert png is not None
    image = QImage(str(png))
    assert not image.isNull() and image.width() > 100
    assert len({image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}) > 3


def test_first_divergence_pictures(qtbot: QtBot, tmp_path: Path) -> None:
    af_open, af_close, mapping, result = demo_case()
    paths = write_first_divergence_pictures(af_open, af_close, mapping, result, tmp_path)
    assert [p.name for p in paths] == ["graph_first_divergence.svg", "graph_first_divergence.png"]
    ET.parse(paths[0])
    image = QImage(str(paths[1]))
    assert not image.isNull()
    assert len({image.pixel(x, y) for x in range(0, image.width(), 5) for y in range(0, image.height(), 5)}) > 3


def test_offscreen_screenshot_shows_colours(bench: GraphWorkbench) -> None:
    image = bench.grab().toImage()
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)}
    assert "#a6d96a" in colours  # OK nodes are painted


def test_subgraph_sample_expands_and_collapses(qtbot: QtBot) -> None:
    model = load_model(samples_dir("ge", "tf_subgraphs_ge_proto_00000001_Build.txt"))
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.open_pane.layoutReady, timeout=TIMEOUT):
        widget.set_case(model, None, None)
    pane = widget.open_pane
    assert pane.graph is not None and len(pane.graph.clusters) == 4
    expanded = len(pane.graph.nodes)
    with qtbot.waitSignal(pane.layoutReady, timeout=TIMEOUT):
        widget.toolbar.subgraphs.setChecked(False)
    assert pane.graph is not None and len(pane.graph.nodes) == len(model.root.ops) < expanded
    with qtbot.waitSignal(pane.layoutReady, timeout=TIMEOUT):
        assert widget.search_and_reveal("GatherV2") == "GatherV2"  # hidden inside a subgraph: opened again
    assert pane.graph is not None and pane.graph.node_of_op("GatherV2") is not None
    widget.shutdown()


def test_resnet50_sample_lays_out(qtbot: QtBot) -> None:
    model = load_model(samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt"))
    pane_holder = GraphWorkbench()
    qtbot.addWidget(pane_holder)
    with qtbot.waitSignal(pane_holder.open_pane.layoutReady, timeout=TIMEOUT):
        pane_holder.set_case(model, None, None)
    assert pane_holder.open_pane.graph is not None
    assert len(pane_holder.open_pane.graph.nodes) == len(model.ops_in_order())
    pane_holder.shutdown()


def test_overlay_boxes_hold_exactly_their_members(bench: GraphWorkbench, qtbot: QtBot, tmp_path: Path) -> None:
    show_all(bench, qtbot)
    with qtbot.waitSignal(bench.close_pane.layoutReady, timeout=TIMEOUT):
        bench.toolbar.mode.setCurrentIndex(1)
    graph, layout = bench.close_pane.graph, bench.close_pane.graph_layout
    assert graph is not None and layout is not None
    assert assert_compound_properties(graph, layout) == len(graph.clusters)
    bench.close_pane.view.fit()
    shot = bench.close_pane.grab()
    assert shot.save(str(tmp_path / "overlay.png"))  # kept by pytest's tmp_path for a look by eye
    image = QImage(str(tmp_path / "overlay.png"))
    assert image.width() > 100 and image.height() > 100
