"""Edges never run through a node box other than their own ends (issue 28 item 8), on skip-heavy graphs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Graph, InputRef, Model, Op
from autofuse_studio.core.graphview import FusionIndex, ViewOptions, build_display_graph, compute_layout
from autofuse_studio.core.graphview.build import scopes
from autofuse_studio.core.graphview.clearance import edge_box_hits
from autofuse_studio.core.graphview.layout import Layout
from tests.conftest import samples_dir
from tests.core.graph_shapes import knob_groups, knob_model
from tests.core.test_graphview_build import demo_case
from tests.core.test_graphview_layout import assert_layout_properties


def residual_model(n: int, span: int, fan_out: int, seed: int) -> Model:
    """A chain of ops with residual skips: every `span`-th op also reads fan_out ops span..2*span back."""
    rng = np.random.default_rng(seed)
    names = [f"block{i // 6}/op{i}" for i in range(n)]
    ops = [Op(name, ("Conv2D", "Add", "Relu", "Mul")[i % 4], "g", i) for i, name in enumerate(names)]
    for i in range(1, n):
        ops[i].inputs.append(InputRef(names[i - 1], 0))
        if i % span == 0:
            for _ in range(fan_out):
                ops[i].inputs.append(InputRef(names[max(0, i - span - int(rng.integers(0, span)))], 0))
        if i % 7 == 3:  # a short side branch next to the long edges
            ops[i].inputs.append(InputRef(names[max(0, i - 2)], 1))
    return Model("mem", [Graph("g", ops)])


def clear_layout(model: Model, options: ViewOptions) -> Layout:
    """The layout of a model's display graph, checked to have no edge through a foreign node box."""
    layout = compute_layout(build_display_graph(model, options))
    hits = edge_box_hits(layout)
    assert len(hits) == 0, f"{len(hits)} edge/box crossings, first {hits[:5].tolist()}"
    return layout


def test_checker_finds_an_edge_through_a_box() -> None:
    # Three boxes in a column; the edge 0 -> 2 drawn straight through box 1 is a hit, a detour is not.
    def layout(points: list[tuple[float, float]]) -> Layout:
        return Layout(np.array([0.0, 0.0, 0.0]), np.array([0.0, 80.0, 160.0]), np.full(3, 60.0), np.full(3, 36.0),
                      np.array([0, 1, 2]), np.array([0]), np.array([2]), np.array([False]), np.array(points),
                      np.array([0, len(points)]), np.zeros((0, 4)), (100.0, 200.0))

    assert edge_box_hits(layout([(0, 18), (0, 142)])).tolist() == [[0, 1]]
    assert edge_box_hits(layout([(0, 18), (40, 40), (40, 120), (0, 142)])).tolist() == []
    assert edge_box_hits(layout([(0, 18), (30, 55), (30, 105), (0, 142)])).tolist() == []  # along the border


@pytest.mark.parametrize(("n", "span", "fan_out"), [(40, 2, 1), (120, 5, 2), (300, 12, 3), (400, 25, 1),
                                                     (600, 40, 4)])
def test_long_skip_edges_pass_beside_the_boxes(n: int, span: int, fan_out: int) -> None:
    layout = clear_layout(residual_model(n, span, fan_out, seed=n), ViewOptions())
    assert_layout_properties(layout)
    # Skips pass in their own slot: the graph stays a narrow column rather than a wide spread.
    assert layout.size[0] < 40 * (fan_out + 2) * 28


@pytest.mark.parametrize("knobs", [(300, 6, 3, 200, 0.02, 0.05), (600, 8, 4, 60, 0.01, 0.1),
                                   (1000, 10, 3, 1000, 0.1, 0.2)], ids=["n300", "n600", "n1000"])
def test_random_long_edges_with_and_without_boxes(knobs: tuple[int, int, int, int, float, float]) -> None:
    model = knob_model(*knobs)
    clear_layout(model, ViewOptions())
    clear_layout(model, ViewOptions(show_control=False))
    groups = knob_groups(model, knobs[1])
    overlay = clear_layout(model, ViewOptions(fusion_groups=groups))
    assert_layout_properties(overlay)
    clear_layout(model, ViewOptions(fusion_groups=groups, collapsed_groups=frozenset(list(groups)[::2])))
    clear_layout(model, ViewOptions(collapsed_scopes=frozenset(scopes(model, 2))))


def test_demo_graphs_edges_clear_nodes() -> None:
    af_open, af_close, mapping, _ = demo_case()
    groups = FusionIndex(mapping).groups()
    for model, options in ((af_open, ViewOptions()), (af_open, ViewOptions(expand_subgraphs=False)),
                           (af_close, ViewOptions()), (af_close, ViewOptions(fusion_groups=groups)),
                           (af_close, ViewOptions(fusion_groups=groups, collapsed_groups=frozenset(groups)))):
        clear_layout(model, options)


@pytest.mark.samples
@pytest.mark.parametrize("name", ["resnet50_ge_proto_00000062_Build.txt", "tf_subgraphs_ge_proto_00000001_Build.txt",
                                  "atc_tdnn_test.om.json", "atc_nms_model.json"])
def test_public_graphs_edges_clear_nodes(name: str) -> None:
    path: Path = samples_dir("ge", name)
    clear_layout(load_model(path), ViewOptions())
