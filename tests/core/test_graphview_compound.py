"""Compound (overlay) layout: fusion boxes hold exactly their members and sibling boxes never overlap."""

from __future__ import annotations

import numpy as np
import pytest

from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview import FusionIndex, ViewOptions, build_display_graph, compute_layout
from autofuse_studio.core.graphview.graph import CLUSTER_FUSION, DisplayGraph
from autofuse_studio.core.graphview.layout import Layout
from tests.conftest import samples_dir
from tests.core.test_graphview_build import demo_case
from tests.core.test_graphview_layout import assert_layout_properties, random_model


def ancestors(graph: DisplayGraph, cluster: int) -> list[int]:
    """The cluster and every cluster around it, innermost first."""
    chain = []
    while cluster >= 0:
        chain.append(cluster)
        cluster = graph.clusters[cluster].parent
    return chain


def assert_compound_properties(graph: DisplayGraph, layout: Layout) -> int:
    """Boxes hold their members (nodes and nested boxes) strictly, no other node centre, and never overlap.

    Returns how many drawn boxes were checked.
    """
    assert_layout_properties(layout)
    box = layout.cluster_box
    inside: list[set[int]] = [set() for _ in graph.clusters]  # every node in the cluster or its nested ones
    for number, node in enumerate(graph.nodes):
        for cluster in ancestors(graph, node.cluster):
            inside[cluster].add(number)
    drawn = [c for c in range(len(graph.clusters)) if inside[c]]
    for cluster in drawn:
        x0, y0, x1, y1 = box[cluster]
        centre_in = (layout.x > x0) & (layout.x < x1) & (layout.y > y0) & (layout.y < y1)
        assert set(np.flatnonzero(centre_in).tolist()) == inside[cluster], graph.clusters[cluster].key
        for node in inside[cluster]:
            nx, ny, nw, nh = layout.node_rect(node)
            assert x0 < nx and nx + nw < x1 and y0 < ny and ny + nh < y1
        parent = graph.clusters[cluster].parent
        if parent >= 0:
            px0, py0, px1, py1 = box[parent]
            assert px0 < x0 and x1 < px1 and py0 < y0 and y1 < py1
    for first in drawn:
        for second in drawn:
            if first < second and first not in ancestors(graph, second) and second not in ancestors(graph, first):
                a, b = box[first], box[second]
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (first, second)
    return len(drawn)


def random_groups(model: Model, count: int, seed: int) -> dict[str, tuple[str, ...]]:
    """Disjoint groups: half runs of consecutive ops (like real fusions), half scattered ops (non-convex)."""
    rng = np.random.default_rng(seed)
    names = [op.name for op in model.ops_in_order()]
    free = np.ones(len(names), dtype=bool)
    groups: dict[str, tuple[str, ...]] = {}
    for number in range(count):
        size = int(rng.integers(1, 6))
        if number % 2 == 0:
            start = int(rng.integers(0, max(len(names) - size, 1)))
            picked = [i for i in range(start, min(start + size, len(names))) if free[i]]
        else:
            picked = [int(i) for i in rng.choice(np.flatnonzero(free), size=min(size, int(free.sum())), replace=False)]
        if picked:
            free[picked] = False
            groups[f"fused_{number}"] = tuple(names[i] for i in sorted(picked))
    return groups


def test_demo_overlay_boxes_hold_exactly_their_members() -> None:
    _, af_close, mapping, _ = demo_case()
    graph = build_display_graph(af_close, ViewOptions(fusion_groups=FusionIndex(mapping).groups()))
    layout = compute_layout(graph)
    checked = assert_compound_properties(graph, layout)
    assert checked == len(graph.clusters) and sum(c.kind == CLUSTER_FUSION for c in graph.clusters) >= 20


def test_demo_overlay_with_some_groups_collapsed() -> None:
    _, af_close, mapping, _ = demo_case()
    groups = FusionIndex(mapping).groups()
    folded = frozenset(sorted(groups)[::3])
    graph = build_display_graph(af_close, ViewOptions(fusion_groups=groups, collapsed_groups=folded))
    assert_compound_properties(graph, compute_layout(graph))


@pytest.mark.parametrize(("n", "groups", "seed"), [(12, 3, 1), (60, 12, 2), (200, 40, 3), (400, 120, 4)])
def test_random_dags_with_random_groups(n: int, groups: int, seed: int) -> None:
    model = random_model(n, seed=seed)
    graph = build_display_graph(model, ViewOptions(fusion_groups=random_groups(model, groups, seed)))
    assert assert_compound_properties(graph, compute_layout(graph)) > 0


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_random_groups_inside_subgraph_boxes(seed: int) -> None:
    model = load_model(samples_dir("ge", "tf_subgraphs_ge_proto_00000001_Build.txt"))
    graph = build_display_graph(model, ViewOptions(fusion_groups=random_groups(model, 8, seed)))
    assert any(c.parent >= 0 for c in graph.clusters)  # nested boxes are exercised
    assert_compound_properties(graph, compute_layout(graph))


def test_compound_layout_is_deterministic() -> None:
    model = random_model(300, seed=9)
    options = ViewOptions(fusion_groups=random_groups(model, 60, 9))
    first = compute_layout(build_display_graph(model, options))
    second = compute_layout(build_display_graph(model, options))
    np.testing.assert_array_equal(first.x, second.x)
    np.testing.assert_array_equal(first.y, second.y)
    np.testing.assert_array_equal(first.points, second.points)
    np.testing.assert_array_equal(first.cluster_box, second.cluster_box)
