"""A graph alone opens like a model in Netron; a pair is synced; history, layers, hover and File > New case (issue 28,
items 4 and 8): what a person checks by looking at the Graph tab."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from autofuse_studio.core.graphview import build_display_graph
from autofuse_studio.ui.graph.item import LABEL_LOD
from autofuse_studio.ui.graph.pane import GraphPane
from autofuse_studio.ui.graph.scope_tree import ScopeTree, scope_index
from autofuse_studio.ui.graph.toolbar import FILTER_NONE
from autofuse_studio.ui.graph.view import FIT_MIN_SCALE, GraphView
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.main_window import MainWindow
from tests.conftest import samples_dir
from tests.synth.ge_graph import synthetic_document
from tests.ui.test_graph_alone import browse
from tests.ui.test_graph_view import TIMEOUT, demo_case, wait_idle

NAME_PX = 11  # the node name's font (item.py): labels are this many pixels at zoom 1


def scoped_graph(path: Path, n_ops: int = 60) -> Path:
    """A chain whose ops sit in '/'-scopes: model/layer<k>/block<j>/op_<i> (ten ops a layer, five a block)."""
    doc = synthetic_document(n_ops, fused_every=0)

    def name(index: int) -> str:
        return f"model/layer{index // 10}/block{index % 10 // 5}/op_{index}"

    for op in doc["graph"][0]["op"]:
        index = int(op["name"].split("_")[1])
        op["name"] = name(index)
        op["input"] = [f"{name(int(ref.split(':')[0].split('_')[1]))}:{ref.split(':')[1]}"
                       for ref in op.get("input", [])]
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def shown_pane(widget: GraphWorkbench) -> GraphPane:
    panes = [pane for pane in (widget.open_pane, widget.close_pane) if not pane.isHidden()]
    assert len(panes) == 1, "a graph alone shows one pane"
    return panes[0]


def wheel(view: GraphView, steps: int) -> None:
    centre = QPointF(view.viewport().rect().center())
    event = QWheelEvent(centre, QPointF(view.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)


@pytest.fixture
def window(qtbot: QtBot) -> Any:
    made = MainWindow()
    qtbot.addWidget(made)
    made.resize(1600, 1000)
    made.show()
    yield made
    made.close()


def open_in(window: MainWindow, qtbot: QtBot, path: Path) -> None:
    with qtbot.waitSignal(window.graph.loader.loaded, timeout=TIMEOUT):
        window.open_paths([str(path)])
    pane = window.graph.active
    wait_idle(qtbot, pane)


def test_a_graph_alone_shows_one_pane_with_all_nodes_titled_by_its_file(window: MainWindow, qtbot: QtBot) -> None:
    path = samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt")
    open_in(window, qtbot, path)
    bench = window.graph
    pane = shown_pane(bench)
    assert bench.toolbar.filter.currentData() == FILTER_NONE  # the whole model, not a 2-hop neighbourhood
    assert pane.model is not None and pane.graph is not None
    assert len(pane.graph.nodes) == len(build_display_graph(pane.model, pane.options).nodes)
    assert pane.title.text() == path.name and pane.title.toolTip() == str(path)
    # Readable at once (names >= 9 px), opened on the top of the graph.
    scale = pane.view.scale_factor()
    assert scale >= FIT_MIN_SCALE - 1e-6 and NAME_PX * scale >= 9 and pane.view.labels_drawn()
    top = pane.view.visible_scene_rect().top()
    assert pane.graph_layout is not None and top <= float(min(pane.graph_layout.y)) + 1
    assert not bench.toolbar.sync.isVisible() and bench.toolbar.compare.isVisible()


def test_a_second_graph_replaces_the_first_and_its_search(window: MainWindow, qtbot: QtBot) -> None:
    first = samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt")
    second = samples_dir("ge", "tf_small_ge_proto_00000000_Build.txt")
    open_in(window, qtbot, first)
    window.graph.toolbar.search.setText("conv")
    open_in(window, qtbot, second)
    bench = window.graph
    pane = shown_pane(bench)  # not paired with ResNet-50
    assert pane.title.text() == second.name
    assert {m.path for m in (bench.af_open, bench.af_close) if m is not None} == {str(second)}
    assert bench.toolbar.search.text() == ""
    assert window.case_panel.case().af_open_graph in (None, second)
    assert first not in (window.case_panel.case().af_open_graph, window.case_panel.case().af_close_graph)


def test_new_case_empties_everything(window: MainWindow, qtbot: QtBot) -> None:
    open_in(window, qtbot, samples_dir("ge", "tf_small_ge_proto_00000000_Build.txt"))
    window.new_case_action.trigger()
    case = window.case_panel.case()
    assert case.af_open_graph is None and case.af_close_graph is None
    assert window.graph.af_open is None and window.graph.af_close is None
    assert window.graph.hint.isVisibleTo(window.graph) and not window.graph.outer.isVisibleTo(window.graph)
    assert window.workbench.result is None


def test_close_closes_the_graph(window: MainWindow, qtbot: QtBot) -> None:
    path = samples_dir("ge", "tf_small_ge_proto_00000000_Build.txt")
    open_in(window, qtbot, path)
    window.close_action.trigger()
    assert window.graph.af_open is None and window.graph.af_close is None
    assert path.name in window.statusBar().currentMessage()


def test_the_empty_graph_tab_shows_a_hint(qtbot: QtBot) -> None:
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1280, 720)
    widget.show()
    assert widget.hint.isVisible() and "Open a graph or a case" in widget.hint.text()
    assert not widget.open_pane.minimap.isVisible() and not widget.outer.isVisible()
    widget.shutdown()


@pytest.fixture
def pair(qtbot: QtBot) -> Any:
    af_open, af_close, mapping, result = demo_case()
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1280, 720)
    widget.show()
    with qtbot.waitSignals([widget.open_pane.layoutReady, widget.close_pane.layoutReady], timeout=TIMEOUT):
        widget.set_case(af_open, af_close, mapping, result)
    yield widget
    widget.shutdown()


def test_a_pair_opens_at_one_readable_zoom_titled_by_role_and_file(pair: GraphWorkbench) -> None:
    scales = [pane.view.scale_factor() for pane in (pair.open_pane, pair.close_pane)]
    assert abs(scales[0] - scales[1]) < 1e-6 and NAME_PX * scales[0] >= 9
    assert pair.toolbar.sync.isChecked()  # on by default for a pair
    assert pair.af_open is not None and pair.open_pane.title.text() == f"af-open (fused): {Path(pair.af_open.path).name}"
    assert pair.close_pane.title.text().startswith("af-close (original): ")


def test_synced_zoom_moves_the_other_pane(pair: GraphWorkbench, qtbot: QtBot) -> None:
    before = pair.close_pane.view.scale_factor()
    wheel(pair.open_pane.view, 2)
    assert pair.open_pane.view.scale_factor() == pytest.approx(before * 1.25 ** 2)
    assert pair.close_pane.view.scale_factor() == pytest.approx(pair.open_pane.view.scale_factor())
    centre = pair.close_pane.view.visible_scene_rect().center()
    pair.open_pane.view.pan_to(pair.open_pane.view.visible_scene_rect().center() + QPointF(120, 80))
    moved = pair.close_pane.view.visible_scene_rect().center() - centre
    assert moved.x() == pytest.approx(120, abs=2) and moved.y() == pytest.approx(80, abs=2)
    pair.toolbar.sync.setChecked(False)  # a toggle: off, the other pane stays
    scale = pair.close_pane.view.scale_factor()
    wheel(pair.open_pane.view, 1)
    assert pair.close_pane.view.scale_factor() == pytest.approx(scale)


def test_fit_fits_both_synced_panes(pair: GraphWorkbench) -> None:
    pair.toolbar.filter.setCurrentIndex(pair.toolbar.filter.findData(FILTER_NONE))
    pair.toolbar.fit.trigger()
    for pane in (pair.open_pane, pair.close_pane):
        item = pane.view.item
        assert item is not None
        visible = pane.view.visible_scene_rect()
        rect = item.boundingRect()
        assert visible.left() <= rect.left() and visible.right() >= rect.right()  # no node cut at the sides
    assert pair.open_pane.view.scale_factor() == pytest.approx(pair.close_pane.view.scale_factor())


def test_alt_left_returns_to_the_previous_selection(pair: GraphWorkbench, qtbot: QtBot) -> None:
    assert pair.mapping is not None and len(pair.mapping.fused_ops) >= 2 and pair.start is not None
    start = pair.start[0]
    first, second = [fused.op.name for fused in pair.mapping.fused_ops if fused.op.name != start][:2]
    pair._on_open_pane_clicked(first)  # what a click on the node does
    pair._on_open_pane_clicked(second)
    assert pair.open_pane.selected_op == second and pair.toolbar.back.isEnabled()
    pair.activateWindow()
    pair.open_pane.view.setFocus()
    qtbot.waitUntil(lambda: pair.open_pane.view.hasFocus() or QApplication.platformName() == "offscreen",
                    timeout=TIMEOUT)
    qtbot.keyClick(pair.open_pane.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert pair.open_pane.selected_op == first
    assert pair.toolbar.forward.isEnabled()
    pair.toolbar.forward.trigger()
    assert pair.open_pane.selected_op == second
    assert pair.go_history(-1) and pair.go_history(-1)  # back twice: where the tab opened
    assert pair.open_pane.selected_op == start and not pair.toolbar.back.isEnabled()


def test_traced_and_mapped_borders_are_not_the_verdict_orange(pair: GraphWorkbench) -> None:
    from autofuse_studio.core.precision.palette import VERDICT_FILLS
    from autofuse_studio.ui.graph.item import HIGHLIGHT, SELECTED, TRACED
    colours = {HIGHLIGHT.name(), TRACED.name(), SELECTED.name()}
    assert len(colours) == 3 and not colours & set(VERDICT_FILLS.values())
    text = pair.legend.text()
    assert "mapped" in text and "traced" in text and "selected" in text


def test_edge_hover_names_the_tensor_shape_and_dtype(pair: GraphWorkbench) -> None:
    view = pair.close_pane.view
    item, graph = view.item, pair.close_pane.graph
    assert item is not None and graph is not None
    edge = next(e for e in graph.edges if e.desc is not None and not e.control and e.desc.shape)
    layout = item.layout
    pair_index = next(i for i in range(len(layout.edge_src))
                      if int(layout.edge_src[i]) == edge.src and int(layout.edge_dst[i]) == edge.dst)
    # A point on the edge: search the segment index around the edge's endpoints for it.
    x0, y0 = float(layout.x[edge.src]), float(layout.y[edge.src]) + float(layout.height[edge.src]) / 2
    x1, y1 = float(layout.x[edge.dst]), float(layout.y[edge.dst]) - float(layout.height[edge.dst]) / 2
    point = None
    for k in range(1, 40):
        t = k / 40
        probe = QPointF(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
        if item.node_at(probe) is None and item.edge_at(probe, 3.0) == pair_index:
            point = probe
            break
    assert point is not None, "a point on the edge, clear of the nodes"
    text = view.tooltip_at(point)
    assert edge.desc is not None and edge.desc.dtype
    assert edge.src_op in text and edge.dst_op in text
    assert edge.desc.dtype in text and str(list(edge.desc.shape)) in text  # e.g. DT_FLOAT ND [8, 16, 32]


def test_the_layer_tree_lists_scopes_with_counts_and_selects_their_ops(qtbot: QtBot, tmp_path: Path) -> None:
    path = scoped_graph(tmp_path / "scoped.json")
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1280, 720)
    widget.show()
    browse(qtbot, widget, None, path)
    qtbot.waitUntil(lambda: not widget.scopes.busy() and widget.scopes.tree.topLevelItemCount() > 0, timeout=TIMEOUT)
    assert widget.scopes.isVisible()
    tree = widget.scopes.tree
    top = tree.topLevelItem(0)
    assert (top.text(0), top.text(1)) == ("model", "60")
    assert top.isExpanded() and top.childCount() == 6  # layer0..layer5, created when expanded
    layer2 = top.child(2)
    assert (layer2.text(0), layer2.text(1)) == ("layer2", "10")
    tree.scrollToItem(layer2)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(layer2).center())
    pane = shown_pane(widget)
    wanted = {f"model/layer2/block{i % 10 // 5}/op_{i}" for i in range(20, 30)}
    assert pane.highlighted_ops == wanted and pane.selected_op == "model/layer2/block0/op_20"
    wait_idle(qtbot, pane)
    visible = pane.view.visible_scene_rect()
    assert pane.graph is not None and pane.graph_layout is not None
    node = pane.graph.node_of_op("model/layer2/block0/op_20")
    assert node is not None
    assert visible.contains(QPointF(float(pane.graph_layout.x[node]), float(pane.graph_layout.y[node])))
    widget.shutdown()


def test_the_layer_tree_of_100k_ops_is_fast(qtbot: QtBot) -> None:
    ops = [SimpleNamespace(name=f"net/stage{i // 20000}/block{i // 500 % 40}/unit{i // 10 % 50}/op{i}")
           for i in range(100_000)]
    model: Any = SimpleNamespace(ops_in_order=lambda: ops)
    started = time.perf_counter()
    index = scope_index(model)
    assert time.perf_counter() - started < 2.0
    assert index.counts["net"] == 100_000 and index.counts["net/stage1"] == 20_000
    tree = ScopeTree(runner=None)  # type: ignore[arg-type]  # filled by hand: no worker needed
    qtbot.addWidget(tree)
    tree.index = index
    started = time.perf_counter()
    tree._on_task_finished(index)
    assert time.perf_counter() - started < 0.5  # only the first levels exist
    assert tree.tree.topLevelItem(0).childCount() == 5


def test_a_scope_makes_its_children_when_expanded_once(qtbot: QtBot) -> None:
    ops = [SimpleNamespace(name=f"net/block{i % 3}/unit{i % 7}/op{i}") for i in range(210)]
    model: Any = SimpleNamespace(ops_in_order=lambda: ops)
    tree = ScopeTree(runner=None)  # type: ignore[arg-type]  # filled by hand: no worker needed
    qtbot.addWidget(tree)
    tree._on_task_finished(scope_index(model))
    net = tree.tree.topLevelItem(0)
    block1 = net.child(1)
    assert (block1.text(0), block1.text(1), block1.toolTip(0)) == ("block1", "70", "net/block1")
    assert block1.childCount() == 0 and not block1.isExpanded()
    assert block1.childIndicatorPolicy() == QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator
    tree.tree.expandItem(block1)
    assert sorted(block1.child(i).text(0) for i in range(block1.childCount())) == [f"unit{i}" for i in range(7)]
    assert block1.child(0).childIndicatorPolicy() != QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator  # leaves
    tree.tree.collapseItem(block1)
    tree.tree.expandItem(block1)
    assert block1.childCount() == 7  # not made twice
    found = tree.item_of("net/block2/unit3")
    assert found is not None and found.toolTip(0) == "net/block2/unit3" and found.text(1) == "10"


def test_compare_with_opens_a_second_pane(qtbot: QtBot) -> None:
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1400, 800)
    widget.show()
    first = samples_dir("ge", "tf_small_ge_proto_00000000_Build.txt")
    browse(qtbot, widget, None, first)
    assert widget.toolbar.compare.isVisible()
    with qtbot.waitSignal(widget.loader.loaded, timeout=TIMEOUT):
        widget.compare_with(samples_dir("ge", "tf_train_ge_proto_00056_Build.txt"))
    wait_idle(qtbot, widget.open_pane, widget.close_pane)
    assert widget.open_pane.isVisible() and widget.close_pane.isVisible()
    assert widget.close_pane.title.text().endswith(first.name) and widget.toolbar.sync.isChecked()
    assert widget.open_pane.view.scale_factor() >= LABEL_LOD
    widget.shutdown()


def test_the_chinese_graph_tab_of_a_graph_alone_has_no_english(qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QToolBar

    from tests.ui.test_i18n_walk_chinese import english_words as words
    from tests.ui.test_i18n_walk_chinese import visible_texts

    def english_words(text: str) -> list[str]:  # names of tools and formats stay as they are
        return [word for word in words(text) if word not in {"Ctrl", "pbtxt", "Netron"}]

    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    window.set_language("zh_CN")
    try:
        window.tabs.setCurrentIndex(window.tab_status.page(window.graph))
        bench = window.graph
        qtbot.waitUntil(lambda: english_words(bench.hint.text()) == [], timeout=TIMEOUT)  # the empty tab's hint
        open_in(window, qtbot, scoped_graph(tmp_path / "scoped.json"))
        qtbot.waitUntil(lambda: not bench.scopes.busy(), timeout=TIMEOUT)
        texts = [(where, text) for where, text in visible_texts(bench) if "Title" not in where]
        texts += [(f"action {a.toolTip()}", a.text()) for row in bench.toolbar.findChildren(QToolBar)
                  for a in row.actions() if a.isVisible()]
        legend = re.sub(r"<[^>]*>", " ", bench.legend.text()).replace("&nbsp;", " ")
        texts += [("legend", legend), ("legend tip", bench.legend.toolTip())]
        english = [(where, text, english_words(text)) for where, text in texts
                   if english_words(text) and "scoped.json" not in text]
        assert english == []
    finally:
        window.set_language("en")
