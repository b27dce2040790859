"""The big-graph paths lay out exactly as before and build the same neighbourhoods as the general path."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.graphview import FusionIndex, ViewOptions, build_display_graph, neighbourhood_graph
from autofuse_studio.core.graphview.around import around_graph
from autofuse_studio.core.graphview.build import scopes
from autofuse_studio.core.graphview.edge_index import EdgeIndex
from autofuse_studio.core.graphview.filters import BOTH, DOWN, UP
from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.layout import compute_layout
from autofuse_studio.core.graphview.raster import fill_codes, raster_boxes
from autofuse_studio.core.render.svg import arrow_head
from tests.core.graph_shapes import KNOBS, digest, knob_groups, knob_model, shapes
from tests.core.test_graphview_build import demo_case

# Written with the layout code of main at df04f2b, before the speed-ups (see tests/core/graph_shapes.py);
# rewritten once when issue 28 routed edges clear of node boxes (test_graph_edges_clear_nodes.py).
BEFORE = json.loads((Path(__file__).parent / "data" / "graph_layouts_before.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("name", "model", "options"), list(shapes()), ids=[name for name, _, _ in shapes()])
def test_layouts_equal_the_previous_algorithm(name: str, model: object, options: ViewOptions) -> None:
    assert digest(model, options) == BEFORE[name]  # type: ignore[arg-type]


def test_demo_layouts_equal_the_previous_algorithm() -> None:
    af_open, af_close, mapping, _ = demo_case()
    groups = FusionIndex(mapping).groups()
    for name, model, options in (("demo-open", af_open, ViewOptions()),
                                 ("demo-open-nosub", af_open, ViewOptions(expand_subgraphs=False)),
                                 ("demo-close", af_close, ViewOptions()),
                                 ("demo-overlay", af_close, ViewOptions(fusion_groups=groups)),
                                 ("demo-folded", af_close, ViewOptions(fusion_groups=groups,
                                                                       collapsed_groups=frozenset(groups)))):
        assert digest(model, options) == BEFORE[name], name


def same_graph(a: DisplayGraph, b: DisplayGraph) -> None:
    """Equal nodes, edges (with their tensors) and clusters."""
    assert [(n.key, n.label, n.type, n.kind, n.ops, n.cluster) for n in a.nodes] == \
        [(n.key, n.label, n.type, n.kind, n.ops, n.cluster) for n in b.nodes]
    assert [(e.src, e.dst, e.src_op, e.src_port, e.dst_op, e.dst_port, e.desc, e.control) for e in a.edges] == \
        [(e.src, e.dst, e.src_op, e.src_port, e.dst_op, e.dst_port, e.desc, e.control) for e in b.edges]
    assert a.clusters == b.clusters


@pytest.mark.parametrize("knobs", KNOBS, ids=[f"n{k[0]}-seed{k[1]}" for k in KNOBS])
@pytest.mark.parametrize(("hops", "direction", "control"), [(0, BOTH, True), (1, UP, True), (2, BOTH, True),
                                                            (3, DOWN, False), (6, BOTH, False)])
def test_around_graph_is_the_filtered_whole_graph(knobs: tuple[int, int, int, int, float, float], hops: int,
                                                  direction: str, control: bool) -> None:
    model = knob_model(*knobs)
    options = ViewOptions(show_control=control)
    names = [op.name for op in model.ops_in_order()]
    seeds = [names[len(names) // 2], names[-1], "not-an-op"]
    full = build_display_graph(model, options)
    expected = neighbourhood_graph(full, [full.node_of_op(op) for op in seeds if full.node_of_op(op) is not None],
                                   hops, direction)
    found = around_graph(model, options, seeds, hops, direction)
    assert found is not None
    same_graph(found, expected)


def test_around_graph_declines_what_it_cannot_draw_alike() -> None:
    model = knob_model(300, 6, 3, 200, 0.02, 0.05)
    first = model.ops_in_order()[0].name
    assert around_graph(model, ViewOptions(), [first], None) is None  # unlimited: the whole graph anyway
    assert around_graph(model, ViewOptions(), ["missing"], 2) is None  # the caller keeps the whole graph
    for options in (ViewOptions(fusion_groups=knob_groups(model, 6)),
                    ViewOptions(collapsed_scopes=frozenset(scopes(model, 1)))):
        assert around_graph(model, options, [first], 2) is None
    af_open, _, mapping, _ = demo_case()  # it has a subgraph: its call op is a box, not a node
    assert around_graph(af_open, ViewOptions(), [mapping.fused_ops[0].op.name], 2) is None


def test_edge_index_finds_segments_arrows_and_the_nearest_edge() -> None:
    layout = compute_layout(build_display_graph(knob_model(600, 8, 4, 60, 0.01, 0.1)))
    index = EdgeIndex(layout.points, layout.offsets)
    for edge in range(0, len(layout.edge_src), 37):  # arrow heads as the SVG writer draws them
        run = layout.edge_points(edge)
        expected = arrow_head(tuple((float(x), float(y)) for x, y in run[-2:]))
        np.testing.assert_allclose(index.arrows[edge], np.asarray(expected))
    x0, y0, x1, y1 = 300.0, 400.0, 900.0, 1300.0
    found = set(index.segments_in(x0, y0, x1, y1).tolist())
    low, high = index.low, index.high
    brute = {s for s in range(len(low)) if high[s, 0] >= x0 and low[s, 0] <= x1 and high[s, 1] >= y0
             and low[s, 1] <= y1}
    assert found == brute
    start, end = index.clipped(np.asarray(sorted(found)), x0, y0, x1, y1)
    assert np.all((start >= [x0 - 1e-6, y0 - 1e-6]) & (start <= [x1 + 1e-6, y1 + 1e-6]))
    assert np.all((end >= [x0 - 1e-6, y0 - 1e-6]) & (end <= [x1 + 1e-6, y1 + 1e-6]))
    middle = (index.start[0] + index.end[0]) / 2
    assert index.nearest(float(middle[0]), float(middle[1]), 1.0) == index.edge[0]
    assert index.nearest(-1e6, -1e6, 4.0) is None


def test_raster_boxes_cover_every_box_and_the_last_one_wins() -> None:
    codes, colours = fill_codes(["#ff0000", "#00ff00", "#ff0000"], 3)
    assert codes.tolist() == [0, 1, 0] and colours[1].tolist() == [0, 255, 0, 255]
    x0, y0 = np.array([0.0, 1.0, 7.2]), np.array([0.0, 1.0, 3.1])
    x1, y1 = np.array([4.0, 3.0, 7.3]), np.array([4.0, 3.0, 3.2])
    image = raster_boxes(x0, y0, x1, y1, codes, colours, (10, 6), (255, 255, 255, 255))
    assert image[0, 0].tolist() == [255, 0, 0, 255]
    assert image[2, 2].tolist() == [0, 255, 0, 255]  # box 1 drawn over box 0
    assert image[3, 7].tolist() == [255, 0, 0, 255]  # a tenth of a pixel still shows
    assert image[5, 9].tolist() == [255, 255, 255, 255]
