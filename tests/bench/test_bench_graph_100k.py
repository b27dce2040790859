"""Benchmarks: the graph view of the 100k-op big model (issue 15 target 2), as the user meets it.

The case is the project's big model (20,000 fused ops, ~103k original ops, tiny tensors) from the synth
generator, analysed once by mode 1 for its first divergence (GRAPH_BENCH_CASE may name an already
generated case folder: generating takes about a minute). Targets: build + layout of a 100k-op graph
<= 2 s; first paint of the Graph tab <= 1 s; pan/zoom repaint <= 16 ms median; no GUI-thread block over
100 ms while the tab opens, switches or shows all nodes (a 10 ms heartbeat timer records the gaps).
Baselines measured in the same run: one plain pass over every op and input of the model (for the build),
and the background work the tab waited for (for the blocks).
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QTimer
from PySide6.QtWidgets import QLabel, QTabWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.ge.fusion import FusionMapping, build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview import build_display_graph, compute_layout
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.run.spec import RunSpec
from autofuse_studio.ui.app import prefer_gui_thread
from autofuse_studio.ui.graph.toolbar import FILTER_NONE
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.core.test_graphview_layout import random_model
from tests.synth import CaseSpec, generate_case, load_manifest

pytestmark = pytest.mark.bench

FUSED = int(os.environ.get("BIG_MODEL_FUSED", "20000"))
RUNS = 3
TIMEOUT_MS = 120000
Case = tuple[Model, Model, FusionMapping, PrecisionResult]


@pytest.fixture(scope="module")
def big_case(tmp_path_factory: pytest.TempPathFactory) -> Case:
    """(af-open, af-close, mapping, mode-1 result) of the big model, loaded as the app loads it.

    Each call of `reload` (the `case_root` attribute) gives fresh models: nothing cached from a run before.
    """
    given = os.environ.get("GRAPH_BENCH_CASE")
    root = Path(given) if given else tmp_path_factory.mktemp("graph100k") / "case"
    if not (root / "manifest.json").is_file():
        generate_case(root, CaseSpec(seed=5, n_fused=FUSED, elements=8, dtype="float16", steps=1,
                                     chains=max(1, FUSED // 6), culprit=FUSED // 2, description="big model"))
    manifest = load_manifest(root)
    graphs, data = manifest["graphs"], manifest["data"]
    result = run_mode1(RunSpec(root / graphs["af_open"], root / graphs["af_close"], root / data["af_open"],
                                    root / data["af_close"]))
    af_open, af_close = load_model(root / graphs["af_open"]), load_model(root / graphs["af_close"])
    mapping = build_fusion_mapping(af_open)
    gc.collect()
    gc.freeze()  # as the analysis does after loading: later collections skip the models
    _ROOTS[id(result)] = root
    return af_open, af_close, mapping, result


_ROOTS: dict[int, Path] = {}


def _fresh(case: Case) -> Case:
    """The same case with freshly loaded models (no look-ups or indexes left from an earlier run)."""
    root = _ROOTS[id(case[3])]
    manifest = load_manifest(root)
    af_open, af_close = load_model(root / manifest["graphs"]["af_open"]), load_model(root / manifest["graphs"]["af_close"])
    gc.collect()
    gc.freeze()
    return af_open, af_close, build_fusion_mapping(af_open), case[3]


def _plain_pass(model: Model) -> int:
    """The baseline: touch every op and input of the model once (a list of name pairs)."""
    pairs = [(ref.source, op.name) for op in model.ops_in_order() for ref in op.inputs if ref is not None]
    return len(pairs)


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def test_build_and_layout_100k(big_case: Case) -> None:
    af_open, af_close, _, _ = big_case
    deep = random_model(100000)  # the other shape: deep (9.7k layers) and narrow
    print()
    failures = []
    for name, model in (("af-close", af_close), ("af-open", af_open), ("random deep", deep)):
        times = [_timed(lambda m=model: compute_layout(build_display_graph(m))) for _ in range(RUNS)]
        base = min(_timed(lambda m=model: _plain_pass(m)) for _ in range(RUNS))
        graph = build_display_graph(model)
        print(f"{name} ({len(graph.nodes)} nodes, {len(graph.edges)} edges): build+layout {min(times):.2f}-"
              f"{max(times):.2f} s (target 2 s); plain pass {base:.2f} s; ratio {min(times) / base:.1f}x")
        if len(graph.nodes) >= 100000 and min(times) > 2.0:
            failures.append(name)
    assert not failures


class Heartbeat:
    """A 10 ms timer on the GUI thread; `longest()` is the longest gap since the last reset, as a user feels it."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._timer.start()

    def _on_timer_timeout(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self._last = now

    def longest(self) -> float:
        """The longest gap in ms since the last call, which resets the record."""
        self._on_timer_timeout()
        found, self.gaps = max(self.gaps, default=0.0) * 1000, []
        return found

    def stop(self) -> None:
        """Stop the timer."""
        self._timer.stop()


@pytest.fixture
def tab(qtbot: QtBot) -> Iterator[tuple[QTabWidget, GraphWorkbench]]:
    """The Graph tab behind a Precision tab, as in the main window (its own task runner)."""
    prefer_gui_thread()  # as run_app does
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    tabs.resize(1280, 800)
    tabs.addTab(QLabel("precision"), "Precision")
    bench = GraphWorkbench()
    tabs.addTab(bench, "Graph")
    tabs.show()
    qtbot.waitExposed(tabs)
    yield tabs, bench
    bench.shutdown()


def _open_case(qtbot: QtBot, bench: GraphWorkbench, case: Case, warm: FusionIndex) -> float:
    """set_case with the result and the analysis' warm look-ups (`warm`, _warm_index), as the main window does
    after an analysis (result_steps._show_graph); seconds until both panes are ready."""
    af_open, af_close, mapping, result = case
    start = time.perf_counter()
    with qtbot.waitSignals([bench.open_pane.layoutReady, bench.close_pane.layoutReady], timeout=TIMEOUT_MS):
        bench.set_case(af_open, af_close, mapping, result, warm)
    return time.perf_counter() - start


def _warm_index(case: Case) -> FusionIndex:
    """The fused op <-> rows look-ups of the result, worked out as the analysis worker works them out
    (ui.precision.analysis.finished_analysis: before the window shows the result, so not timed here)."""
    _, _, mapping, result = case
    with gc_paused():
        index = FusionIndex(mapping, result)
        index.warm()
        keep_long_lived()
    return index


def test_graph_tab_100k(qtbot: QtBot, tab: tuple[QTabWidget, GraphWorkbench], big_case: Case) -> None:
    tabs, bench = tab
    beat = Heartbeat()
    hidden_blocks, switch_blocks, paints, works = [], [], [], []
    for _ in range(RUNS):
        tabs.setCurrentIndex(0)  # the analysis finishes while the Precision tab is shown
        case = _fresh(big_case)
        warm = _warm_index(case)
        qtbot.wait(200)
        beat.longest()
        works.append(_open_case(qtbot, bench, case, warm))
        qtbot.wait(300)
        hidden_blocks.append(beat.longest())
        tabs.setCurrentIndex(1)
        qtbot.wait(500)
        switch_blocks.append(beat.longest())
        case = _fresh(big_case)
        warm = _warm_index(case)
        qtbot.wait(200)
        start = time.perf_counter()  # first paint: the case opened while the tab is shown
        _open_case(qtbot, bench, case, warm)
        bench.open_pane.view.viewport().repaint()
        bench.close_pane.view.viewport().repaint()
        paints.append(time.perf_counter() - start)
        qtbot.wait(300)
        beat.longest()
    _, _, _, result = big_case
    assert result.first_divergence is not None
    assert bench.open_pane.selected_op == result.first_divergence.fused_op  # opened around the culprit
    print(f"\nGraph tab of the 100k case, {RUNS} runs: opened behind the Precision tab, longest GUI block "
          f"{min(hidden_blocks):.0f}-{max(hidden_blocks):.0f} ms while {min(works):.2f}-{max(works):.2f} s of "
          f"background work ran (ratio {max(hidden_blocks) / 1000 / min(works):.3f}); switching to it "
          f"{min(switch_blocks):.0f}-{max(switch_blocks):.0f} ms; first paint {min(paints):.2f}-{max(paints):.2f} s "
          f"(targets: 100 ms, 100 ms, 1 s)")
    beat.stop()
    assert max(hidden_blocks + switch_blocks) <= 100 and min(paints) <= 1.0


def _repaint_ms(bench: GraphWorkbench) -> float:
    view = bench.close_pane.view
    start = time.perf_counter()
    view.viewport().repaint()
    return (time.perf_counter() - start) * 1000


def test_all_nodes_100k(qtbot: QtBot, tab: tuple[QTabWidget, GraphWorkbench], big_case: Case) -> None:
    tabs, bench = tab
    tabs.setCurrentIndex(1)
    _open_case(qtbot, bench, big_case, _warm_index(big_case))
    beat = Heartbeat()
    start = time.perf_counter()
    with qtbot.waitSignals([bench.open_pane.layoutReady, bench.close_pane.layoutReady], timeout=TIMEOUT_MS):
        bench.toolbar.filter.setCurrentIndex(bench.toolbar.filter.findData(FILTER_NONE))
    ready = time.perf_counter() - start
    qtbot.wait(500)
    block = beat.longest()
    view, graph, layout = bench.close_pane.view, bench.close_pane.graph, bench.close_pane.graph_layout
    assert graph is not None and layout is not None and len(graph.nodes) > 100000
    pans = []
    for step in range(20):  # pan: nodes spread over the execution order, at the reading zoom
        node = step * (len(graph.nodes) - 1) // 19
        view.centerOn(QPointF(float(layout.x[node]), float(layout.y[node])))
        pans.append(_repaint_ms(bench))
    drags = []
    for step in range(40):  # drag: the view moves 40 px a frame, as a hand drag or the arrow keys move it
        bar = view.horizontalScrollBar() if step % 10 else view.verticalScrollBar()
        bar.setValue(bar.value() + 40)
        drags.append(_repaint_ms(bench))
    zooms = []
    for _ in range(14):  # zoom out step by step to far beyond the whole graph, then back in
        view.zoom(0.5)
        zooms.append(_repaint_ms(bench))
    for _ in range(14):
        view.zoom(2.0)
        zooms.append(_repaint_ms(bench))
    moves = drags + pans + zooms
    print(f"\nAll nodes of the 100k case ({len(graph.nodes)} nodes): ready in {ready:.2f} s, longest GUI block "
          f"{block:.0f} ms (ratio {block / 1000 / ready:.3f} of the wait); repaint median {statistics.median(moves):.1f} "
          f"ms over {len(moves)} moves: drags {statistics.median(drags):.1f} (worst {max(drags):.0f}), jumps to nodes "
          f"{statistics.median(pans):.1f} (worst {max(pans):.0f}), zooms {statistics.median(zooms):.1f} (worst "
          f"{max(zooms):.0f}) (targets: 100 ms, 16 ms)")
    beat.stop()
    assert block <= 100 and statistics.median(moves) <= 16


def test_graph_alone_100k(qtbot: QtBot, tab: tuple[QTabWidget, GraphWorkbench], big_case: Case) -> None:
    """The af-close graph (~103k ops) opened alone, as File > Open graph does: parsed, built, laid out and drawn
    whole in the background; the longest GUI block against the wait (target 100 ms)."""
    tabs, bench = tab
    tabs.setCurrentIndex(1)
    root = _ROOTS[id(big_case[3])]
    graph = root / load_manifest(root)["graphs"]["af_close"]
    ready: list[float] = []
    for pane in (bench.open_pane, bench.close_pane):  # a graph alone lays out the one pane it is shown in
        pane.layoutReady.connect(lambda: ready.append(time.perf_counter()))
    blocks, waits = [], []
    for _ in range(RUNS):
        bench.clear()  # as File > Close: the next run parses and lays the graph out afresh
        qtbot.wait(300)
        ready.clear()
        beat = Heartbeat()
        start = time.perf_counter()
        bench.open_graphs(None, graph)
        qtbot.waitUntil(lambda: bool(ready), timeout=TIMEOUT_MS)
        waits.append(ready[0] - start)
        qtbot.wait(500)
        blocks.append(beat.longest())
        beat.stop()
    assert bench.active.graph is not None and len(bench.active.graph.nodes) > 100000  # the whole model
    print(f"\nThe 100k-op af-close graph opened alone, {RUNS} runs: ready in {min(waits):.2f}-{max(waits):.2f} s, "
          f"longest GUI block {min(blocks):.0f}-{max(blocks):.0f} ms (ratio {max(blocks) / 1000 / min(waits):.3f} "
          f"of the wait; target 100 ms)")
    assert max(blocks) <= 100
