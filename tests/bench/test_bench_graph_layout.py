"""Benchmarks: graph view layout (20k ops, 20k-op overlay, ResNet-50), first paint of 20k ops, memory at 100k ops."""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
from collections.abc import Callable

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.graphview import ViewOptions, build_display_graph, compute_layout
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.conftest import samples_dir
from tests.core.test_graphview_compound import random_groups
from tests.core.test_graphview_layout import random_model

pytestmark = pytest.mark.bench

N_OPS = int(os.environ.get("GRAPH_BENCH_OPS", "20000"))
N_HUGE = int(os.environ.get("GRAPH_BENCH_HUGE_OPS", "100000"))


def _best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def test_layout_20k_ops() -> None:
    model = random_model(N_OPS)
    graph = build_display_graph(model)
    # Baseline: one linear pass building the display graph (every op and edge touched once).
    baseline = _best_of(3, lambda: build_display_graph(model))
    layout_s = _best_of(3, lambda: compute_layout(graph))
    print(f"\nlayout {N_OPS} ops / {len(graph.edges)} edges: {layout_s:.3f} s; display-graph build {baseline:.3f} s; "
          f"ratio {layout_s / baseline:.2f}x (target: under 10 s)")
    assert layout_s < 10.0


def test_layout_20k_ops_overlay() -> None:
    model = random_model(N_OPS)
    flat = build_display_graph(model)
    # One fusion box per five ops (half of them scattered, so not convex): every box is laid out as a block.
    graph = build_display_graph(model, ViewOptions(fusion_groups=random_groups(model, N_OPS // 5, 1)))
    baseline = _best_of(3, lambda: compute_layout(flat))
    layout_s = _best_of(3, lambda: compute_layout(graph))
    print(f"\noverlay layout {N_OPS} ops / {len(graph.clusters)} boxes: {layout_s:.3f} s; same graph without boxes "
          f"{baseline:.3f} s; ratio {layout_s / baseline:.2f}x (target: under 10 s)")
    assert layout_s < 10.0


def test_layout_resnet50() -> None:
    model = load_model(samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt"))
    baseline = _best_of(5, lambda: build_display_graph(model))
    total = _best_of(5, lambda: compute_layout(build_display_graph(model)))
    print(f"\nResNet-50 ({len(model.ops_in_order())} ops): build+layout {total * 1000:.1f} ms; build alone "
          f"{baseline * 1000:.1f} ms; ratio {total / baseline:.1f}x (target: under 1 s)")
    assert total < 1.0


def test_first_paint_20k_ops(qtbot: QtBot) -> None:
    model = random_model(N_OPS)
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    start = time.perf_counter()
    with qtbot.waitSignal(widget.open_pane.layoutReady, timeout=30000):
        widget.set_case(model, None, None)
    widget.open_pane.view.viewport().repaint()
    first_paint = time.perf_counter() - start
    widget.open_pane.view.resetTransform()
    paints = []
    for step in range(10):  # pan: ten repaints at reading zoom
        widget.open_pane.view.centerOn(float(step * 300), float(step * 2000))
        started = time.perf_counter()
        widget.open_pane.view.viewport().repaint()
        paints.append(time.perf_counter() - started)
    widget.open_pane.view.fit()
    started = time.perf_counter()
    widget.open_pane.view.viewport().repaint()
    zoomed_out = time.perf_counter() - started
    print(f"\nfirst paint {N_OPS} ops: {first_paint:.2f} s (target 3 s); pan repaint median "
          f"{sorted(paints)[5] * 1000:.1f} ms; fitted repaint {zoomed_out * 1000:.1f} ms; "
          f"ratio fitted/pan {zoomed_out / max(sorted(paints)[5], 1e-6):.1f}x")
    widget.shutdown()
    assert first_paint < 3.0


def test_memory_100k_ops() -> None:
    model = random_model(N_HUGE)
    tracemalloc.start()
    start = time.perf_counter()
    graph = build_display_graph(model)
    layout = compute_layout(graph)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"\n{N_HUGE} ops: build+layout {elapsed:.2f} s, peak {peak / 1e6:.0f} MB traced "
          f"({peak / N_HUGE:.0f} bytes per op), canvas {layout.size[0]:.0f} x {layout.size[1]:.0f}")
    assert peak < 2e9
