"""Layered layout properties: no overlaps within a layer, downward edges, determinism, samples, scale."""

from __future__ import annotations

import numpy as np
import pytest

from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Graph, InputRef, Model, Op
from autofuse_studio.core.graphview import build_display_graph, compute_layout
from autofuse_studio.core.graphview.layout import Layout
from tests.conftest import samples_dir


def make_model(edges: list[tuple[str, str]], names: list[str] | None = None) -> Model:
    """A one-graph Model whose ops are `names` (default: every endpoint, first-seen order) wired by edges."""
    order = names or list(dict.fromkeys(n for edge in edges for n in edge))
    ops = {name: Op(name, "Add", "g", i) for i, name in enumerate(order)}
    for src, dst in edges:
        ops[dst].inputs.append(InputRef(src, 0))
    return Model("mem", [Graph("g", list(ops.values()))])


def random_model(n: int, seed: int = 7, fan_in: int = 3) -> Model:
    """A wide DAG: each op reads up to fan_in recent ops (local skip connections, like real networks)."""
    rng = np.random.default_rng(seed)
    edges = []
    for i in range(1, n):
        for _ in range(int(rng.integers(1, fan_in + 1))):
            edges.append((f"n{max(0, i - int(rng.integers(1, 40)))}", f"n{i}"))
    return make_model(list(dict.fromkeys(edges)), [f"n{i}" for i in range(n)])


def assert_layout_properties(layout: Layout) -> None:
    """No two boxes overlap within a layer; non-back edges go strictly down; polylines start/end at nodes."""
    for layer in np.unique(layout.layer):
        ids = np.flatnonzero(layout.layer == layer)
        ids = ids[np.argsort(layout.x[ids])]
        left = layout.x[ids] - layout.width[ids] / 2
        right = layout.x[ids] + layout.width[ids] / 2
        assert np.all(left[1:] >= right[:-1] - 1e-6)
    forward = ~layout.edge_back
    assert np.all(layout.layer[layout.edge_dst[forward]] > layout.layer[layout.edge_src[forward]])
    assert np.all(layout.layer[layout.edge_dst[~forward]] <= layout.layer[layout.edge_src[~forward]])
    for index in range(len(layout.edge_src)):
        pts = layout.edge_points(index)
        assert pts[0, 0] == pytest.approx(layout.x[layout.edge_src[index]])
        assert pts[-1, 0] == pytest.approx(layout.x[layout.edge_dst[index]])
        if not layout.edge_back[index]:
            assert np.all(np.diff(pts[:, 1]) > 0)


@pytest.mark.parametrize("n", [1, 2, 30, 400])
def test_random_dags_have_layout_properties(n: int) -> None:
    layout = compute_layout(build_display_graph(random_model(n)))
    assert len(layout.x) == n
    assert_layout_properties(layout)


def test_cycles_become_back_edges() -> None:
    graph = build_display_graph(make_model([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]))
    layout = compute_layout(graph)
    assert int(layout.edge_back.sum()) == 1
    assert_layout_properties(layout)


def test_same_input_same_positions() -> None:
    first = compute_layout(build_display_graph(random_model(300, seed=3)))
    second = compute_layout(build_display_graph(random_model(300, seed=3)))
    np.testing.assert_array_equal(first.x, second.x)
    np.testing.assert_array_equal(first.y, second.y)
    np.testing.assert_array_equal(first.points, second.points)


def test_constants_sit_next_to_their_consumer() -> None:
    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("const", "e")]
    layout = compute_layout(build_display_graph(make_model(edges)))
    graph_ids = {name: i for i, name in enumerate(["a", "b", "c", "d", "e", "const"])}
    assert layout.layer[graph_ids["const"]] == layout.layer[graph_ids["e"]] - 1


def test_long_edges_bend_through_dummies() -> None:
    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")]
    layout = compute_layout(build_display_graph(make_model(edges)))
    lengths = np.diff(layout.offsets)
    assert sorted(lengths.tolist()) == [2, 2, 2, 6]  # a -> d crosses two dummy rows: top and bottom of each


def test_empty_graph() -> None:
    layout = compute_layout(build_display_graph(Model("mem", [Graph("g", [])])))
    assert len(layout.x) == 0
    assert layout.size[0] > 0


def test_resnet50_sample() -> None:
    model = load_model(samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt"))
    graph = build_display_graph(model)
    layout = compute_layout(graph)
    assert len(graph.nodes) == len(model.ops_in_order())
    assert_layout_properties(layout)


def test_subgraph_sample_boxes_hold_their_members() -> None:
    model = load_model(samples_dir("ge", "tf_subgraphs_ge_proto_00000001_Build.txt"))
    graph = build_display_graph(model)
    layout = compute_layout(graph)
    assert_layout_properties(layout)
    for cluster, members in enumerate(graph.cluster_members()):
        x0, y0, x1, y1 = layout.cluster_box[cluster]
        for node in members:
            nx, ny, nw, nh = layout.node_rect(node)
            assert x0 < nx and nx + nw < x1 and y0 < ny and ny + nh < y1
