"""A graph alone (or two without dumps) opens in the Graph tab for browsing; the Precision tab says what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.case import detect_roles
from autofuse_studio.core.graphview.style import NO_ROWS_FILL
from autofuse_studio.ui.graph.browse import GRAPHS_ONLY
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.main_window import MainWindow
from tests.conftest import SAMPLES, samples_dir
from tests.ui.test_graph_view import TIMEOUT, wait_idle

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
GE_SAMPLES = sorted(path.name for path in (SAMPLES / "ge").glob("*") if path.is_file()) or ["(none)"]


def browse(qtbot: QtBot, widget: GraphWorkbench, af_open: Path | None, af_close: Path | None) -> None:
    """Open graphs without dumps and wait for their layouts."""
    with qtbot.waitSignal(widget.loader.loaded, timeout=TIMEOUT):
        widget.open_graphs(af_open, af_close)
    wait_idle(qtbot, *(pane for pane in (widget.open_pane, widget.close_pane) if pane.model is not None))


@pytest.mark.parametrize("name", GE_SAMPLES)
def test_every_sample_graph_opens_alone(qtbot: QtBot, name: str) -> None:
    path = samples_dir("ge", name)
    case = detect_roles([path]).case
    assert case.graphs_only() and (case.af_open_graph or case.af_close_graph) == path
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    browse(qtbot, widget, case.af_open_graph, case.af_close_graph)
    pane = widget.active
    other = widget.close_pane if pane is widget.open_pane else widget.open_pane
    assert pane.isVisible() and other.isHidden() and not widget.toolbar.mode.isEnabled()
    assert pane.graph is not None and len(pane.graph.nodes) > 0
    assert name in pane.title.text()  # a graph alone is titled by its file
    assert pane.selected_op is not None and pane.view.labels_drawn()
    assert widget.legend.entries == [("not compared", NO_ROWS_FILL)]
    assert "Op" in widget.details.toPlainText() and "Precision rows" not in widget.details.toPlainText()
    if widget.mapping is not None and widget.mapping.fused_ops:  # fused graphs open on their first fused op
        assert pane.selected_op == widget.mapping.fused_ops[0].op.name
        assert "Fusion mapping" in widget.details.toPlainText()
    assert pane.model is not None
    target = pane.model.ops_in_order()[-1].name  # search reaches the last op, wherever it hides
    with qtbot.waitSignal(widget.fusedOpSelected if pane is widget.open_pane else widget.originalOpSelected,
                          timeout=TIMEOUT):
        assert widget.search_and_reveal(target) == target
    wait_idle(qtbot, pane)
    assert pane.graph is not None and pane.graph.node_of_op(target) is not None
    widget.shutdown()


def test_subgraphs_of_a_graph_alone_are_drawn_in_place(qtbot: QtBot) -> None:
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.show()
    browse(qtbot, widget, None, samples_dir("ge", "tf_subgraphs_ge_proto_00000001_Build.txt"))
    widget.toolbar.filter.setCurrentIndex(0)  # all nodes
    wait_idle(qtbot, widget.close_pane)
    assert widget.close_pane.graph is not None and widget.close_pane.graph.clusters
    widget.shutdown()


def test_two_graphs_without_dumps_show_the_fusion_mapping(qtbot: QtBot) -> None:
    af_open, af_close = next((DEMO / "af_open").glob("*.json")), next((DEMO / "af_close").glob("*.json"))
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1400, 800)
    widget.show()
    browse(qtbot, widget, af_open, af_close)
    assert widget.open_pane.isVisible() and widget.close_pane.isVisible()
    assert widget.mapping is not None and widget.mapping.fused_ops
    fused = widget.mapping.fused_ops[0]
    assert widget.open_pane.selected_op == fused.op.name  # opened around the first fused op
    assert widget.close_pane.highlighted_ops == set(widget.index.originals_of(fused.op.name))
    assert set(fused.original_op_names) <= widget.close_pane.highlighted_ops
    style = widget.close_pane.node_style()
    assert style is not None and set(style.fills) == {NO_ROWS_FILL} and not style.first_divergence
    assert widget.toolbar.mode.isEnabled()  # overlay boxes work from the graphs alone
    with qtbot.waitSignal(widget.close_pane.layoutReady, timeout=TIMEOUT):
        widget.toolbar.mode.setCurrentIndex(1)
    assert widget.close_pane.graph is not None
    assert any(cluster.kind == "fusion" for cluster in widget.close_pane.graph.clusters)
    widget.shutdown()


def test_a_broken_graph_is_a_sentence(qtbot: QtBot, tmp_path: Path) -> None:
    broken = tmp_path / "ge_proto_broken.json"
    broken.write_text('{"graph": [{"op": [', encoding="utf-8")
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    from autofuse_studio.ui.errors import ErrorBanner

    banner = ErrorBanner()
    qtbot.addWidget(banner)
    with qtbot.waitSignal(widget.loader.failed, timeout=TIMEOUT):
        widget.open_graphs(None, broken, banner)
    assert "ge_proto_broken.json" in banner.text()
    widget.shutdown()


def test_dropping_a_graph_opens_it_in_the_graph_tab(qtbot: QtBot) -> None:
    path = samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt")
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    with qtbot.waitSignal(window.graph.loader.loaded, timeout=TIMEOUT):
        window.open_paths([str(path)])
    assert window.tabs.currentIndex() == window.tab_status.page(window.graph)
    assert not window.case_panel.banner.isVisible()  # no "not set" banner
    notices = window.workbench.notices
    assert notices.isVisibleTo(window.workbench)
    assert [notice.kind for notice in notices.model.notices] == [GRAPHS_ONLY]
    sentence = notices.model.notices[0].message
    assert "dump folder" in sentence and "af-close graph" in sentence and sentence.endswith(".")
    wait_idle(qtbot, window.graph.open_pane)
    assert window.graph.open_pane.model is not None and window.graph.close_pane.isHidden()
    # A graph of another model dropped later replaces ResNet-50 (no pair of unrelated models) ...
    second = next((DEMO / "af_close").glob("*.json"))
    with qtbot.waitSignal(window.graph.unpaired, timeout=TIMEOUT):
        window.open_paths([str(second)])
    assert window.graph.af_open is None and window.graph.open_pane.isHidden()
    assert window.case_panel.case().af_open_graph is None and window.case_panel.case().af_close_graph == second
    # ... while the other graph of a case completes the pair (its fused ops replaced this graph's ops).
    with qtbot.waitSignal(window.graph.loader.loaded, timeout=TIMEOUT):
        window.open_paths([str(next((DEMO / "af_open").glob("*.json")))])
    assert window.graph.close_pane.isVisibleTo(window.graph) and window.graph.open_pane.isVisibleTo(window.graph)
    assert "af-close graph" not in window.workbench.notices.model.notices[0].message


def test_an_analysed_case_wins_over_graphs_still_parsing(qtbot: QtBot) -> None:
    from tests.core.test_graphview_build import demo_case

    af_open, af_close, mapping, result = demo_case()
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.open_graphs(None, samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt"))
    with qtbot.assertNotEmitted(widget.loader.loaded, wait=500):
        widget.set_case(af_open, af_close, mapping, result)
    assert widget.af_open is af_open and widget.result is result
    widget.shutdown()
