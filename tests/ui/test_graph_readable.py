"""The Graph tab is readable on first open: around the first divergence, labels drawn, both panes follow."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF
from pytestqt.qtbot import QtBot

from autofuse_studio.core.ge.load import load_model
from autofuse_studio.ui.graph import item as item_module
from autofuse_studio.ui.graph.item import LABEL_LOD, NAME_LOD, GraphItem
from autofuse_studio.ui.graph.pane import GraphPane
from autofuse_studio.ui.graph.toolbar import FILTER_NONE, FILTER_SELECTION
from autofuse_studio.ui.graph.view import GraphView
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.conftest import samples_dir
from tests.core.test_graphview_build import demo_case
from tests.synth import demo_spec, generate_case
from tests.ui.test_graph_view import TIMEOUT, show_all, wait_idle
from tests.ui.windows import shown_result_window


class LabelSpy:
    """Records which nodes got a label (name, or name and type) in the last paints."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.nodes: set[int] = set()
        labels, names = GraphItem._paint_labels, GraphItem._paint_names

        def spy_labels(item: GraphItem, painter: object, ids: np.ndarray) -> None:
            self.nodes |= set(ids.tolist())
            labels(item, painter, ids)  # type: ignore[arg-type]

        def spy_names(item: GraphItem, painter: object, ids: np.ndarray, lod: float) -> None:
            self.nodes |= set(ids.tolist())
            names(item, painter, ids, lod)  # type: ignore[arg-type]

        monkeypatch.setattr(GraphItem, "_paint_labels", spy_labels)
        monkeypatch.setattr(GraphItem, "_paint_names", spy_names)

    def labelled(self, view: GraphView) -> set[int]:
        """Paint the view now and return the nodes that got a label."""
        self.nodes = set()
        view.viewport().grab()
        return set(self.nodes)


def node_visible(pane: GraphPane, op: str) -> bool:
    """True when the op's node box lies inside the pane's viewport."""
    assert pane.graph is not None and pane.graph_layout is not None
    node = pane.graph.node_of_op(op)
    assert node is not None, op
    x, y, w, h = pane.graph_layout.node_rect(node)
    return pane.view.visible_scene_rect().contains(QRectF(x, y, w, h))


def assert_readable(pane: GraphPane, op: str, spy: LabelSpy) -> None:
    """The op is in view, at a zoom where its name and type are drawn."""
    assert node_visible(pane, op)
    assert pane.view.scale_factor() >= LABEL_LOD
    assert pane.graph is not None and pane.graph.node_of_op(op) in spy.labelled(pane.view)


def test_opens_around_the_first_divergence(demo_bench: GraphWorkbench, monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, _, result = demo_case()
    assert result.first_divergence is not None
    culprit = result.first_divergence.fused_op
    spy = LabelSpy(monkeypatch)
    assert demo_bench.toolbar.filter.currentData() == FILTER_SELECTION and demo_bench.toolbar.hops.value() == 2
    assert demo_bench.open_pane.selected_op == culprit
    assert_readable(demo_bench.open_pane, culprit, spy)
    for original in demo_bench.index.originals_of(culprit):  # the ops it replaced, on the other side
        assert_readable(demo_bench.close_pane, original, spy)
    assert "autofuse" in demo_bench.details.toPlainText()


def test_selection_zooms_both_panes_from_a_smudge(demo_bench: GraphWorkbench, qtbot: QtBot,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, mapping, result = demo_case()
    show_all(demo_bench, qtbot)
    for pane in (demo_bench.open_pane, demo_bench.close_pane):
        pane.view.fit()  # the old first view: the whole graph, a grey line
        assert pane.view.scale_factor() < NAME_LOD
    spy = LabelSpy(monkeypatch)
    target = mapping.fused_ops[-1].op.name
    row = next(row for row in result.rows if row.fused_op == target)
    demo_bench.select_row(row)
    assert_readable(demo_bench.open_pane, target, spy)
    assert_readable(demo_bench.close_pane, sorted(demo_bench.index.originals_of(target))[0], spy)


def test_following_the_selection_in_around_selection(demo_bench: GraphWorkbench, qtbot: QtBot,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, mapping, _ = demo_case()
    spy = LabelSpy(monkeypatch)
    target = mapping.fused_ops[0].op.name
    with qtbot.waitSignals([demo_bench.open_pane.layoutReady, demo_bench.close_pane.layoutReady], timeout=TIMEOUT):
        demo_bench.open_pane.opClicked.emit(target)  # the user clicks another fused op
    assert demo_bench.open_pane.filter is not None and demo_bench.open_pane.filter.seed_ops == (target,)
    assert_readable(demo_bench.open_pane, target, spy)
    assert_readable(demo_bench.close_pane, sorted(demo_bench.index.originals_of(target))[0], spy)


def test_search_zooms_both_panes(demo_bench: GraphWorkbench, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, mapping, _ = demo_case()
    show_all(demo_bench, qtbot)
    for pane in (demo_bench.open_pane, demo_bench.close_pane):
        pane.view.fit()
    spy = LabelSpy(monkeypatch)
    target = mapping.fused_ops[1].op.name
    assert demo_bench.search_and_reveal(target) == target
    wait_idle(qtbot, demo_bench.open_pane, demo_bench.close_pane)
    assert_readable(demo_bench.open_pane, target, spy)
    assert_readable(demo_bench.close_pane, sorted(demo_bench.index.originals_of(target))[0], spy)


def test_labels_are_drawn_while_legible(demo_bench: GraphWorkbench, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    show_all(demo_bench, qtbot)
    spy = LabelSpy(monkeypatch)
    view = demo_bench.open_pane.view
    node = 0
    assert view.item is not None
    centre = QPointF(float(view.item.layout.x[node]), float(view.item.layout.y[node]))
    for scale, drawn in ((3.0, True), (1.0, True), (LABEL_LOD, True), (0.4, True), (NAME_LOD, True),
                         (NAME_LOD * 0.8, False), (0.1, False)):
        view.set_scale(scale, centre)
        assert (node in spy.labelled(view)) is drawn, scale
    assert item_module.NAME_PX * LABEL_LOD >= item_module.MIN_LEGIBLE_PX  # both lines are legible from there


def test_minimap_is_small_hidden_when_useless_and_switchable(demo_bench: GraphWorkbench, qtbot: QtBot) -> None:
    pane = demo_bench.close_pane
    minimap = pane.minimap
    assert minimap.width() <= 120 and minimap.height() <= 80
    assert not minimap.isVisible()  # the fitted neighbourhood is all in view: no map over its nodes
    show_all(demo_bench, qtbot)
    pane.view.set_scale(1.5, QPointF(0, 0))
    assert minimap.needed() and minimap.isVisible()
    pane.map_button.setChecked(False)
    assert not minimap.isVisible()
    pane.map_button.setChecked(True)
    assert minimap.isVisible()


def test_a_corner_node_can_be_centred_away_from_the_minimap(demo_bench: GraphWorkbench, qtbot: QtBot) -> None:
    show_all(demo_bench, qtbot)
    view = demo_bench.open_pane.view
    assert view.item is not None
    layout = view.item.layout
    corner = int(np.argmax(layout.x + layout.y))  # the bottom-right node, where the map sits
    view.reveal(corner)
    centre = view.mapFromScene(QPointF(float(layout.x[corner]), float(layout.y[corner])))
    middle = view.viewport().rect().center()
    assert abs(centre.x() - middle.x()) <= 2 and abs(centre.y() - middle.y()) <= 2
    assert not demo_bench.open_pane.minimap.geometry().contains(view.mapTo(demo_bench.open_pane, centre))


def test_a_plain_graph_opens_at_a_readable_zoom(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    model = load_model(samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt"))
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    spy = LabelSpy(monkeypatch)
    with qtbot.waitSignal(widget.open_pane.layoutReady, timeout=TIMEOUT):
        widget.set_case(model, None, None)
    assert widget.toolbar.filter.currentData() == FILTER_NONE  # nothing fused to centre on: all of it
    assert widget.close_pane.isHidden()
    first = model.ops_in_order()[0].name
    assert widget.open_pane.selected_op == first
    assert_readable(widget.open_pane, first, spy)
    widget.shutdown()


@pytest.fixture(scope="module")
def demo_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated demo case (read-only)."""
    root = tmp_path_factory.mktemp("graph_window") / "demo"
    generate_case(root, demo_spec())
    return root


def test_main_window_graph_tab_first_view(qtbot: QtBot, demo_root: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    window = shown_result_window(qtbot, demo_root, 30_000)
    graph = window.graph
    wait_idle(qtbot, graph.open_pane, graph.close_pane)
    window.tabs.setCurrentIndex(1)
    qtbot.waitExposed(graph)
    spy = LabelSpy(monkeypatch)
    shot = window.grab()
    assert shot.save(str(tmp_path / "graph_tab.png"))  # kept by pytest for a look by eye
    first = window.workbench.result.first_divergence if window.workbench.result else None
    assert first is not None
    assert_readable(graph.open_pane, first.fused_op, spy)
    assert_readable(graph.close_pane, sorted(graph.index.originals_of(first.fused_op))[0], spy)


@pytest.mark.parametrize("count", [0, 1, 7, 5000])
def test_hairball_pixels_are_deduplicated_as_rows_are(count: int) -> None:
    """The packed-key dedup of a hairball's pixel segments gives np.unique(axis=0)'s rows, in its order."""
    rng = np.random.default_rng(count)
    rows = np.round(rng.uniform(-20, 2600, (count, 4)))
    if count > 2:
        rows[count // 2:] = rows[: count - count // 2]  # every row twice
        rows[rows == 0] = -0.0
    found = item_module._unique_rows(rows)
    assert found.shape == np.unique(rows, axis=0).shape and np.array_equal(found, np.unique(rows, axis=0))


def test_hairball_pixels_beyond_16_bits_take_the_row_sort() -> None:
    rows = np.array([[70000.0, 1, 2, 3], [-70000.0, 1, 2, 3], [70000.0, 1, 2, 3]])
    assert np.array_equal(item_module._unique_rows(rows), np.unique(rows, axis=0))
