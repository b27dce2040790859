"""Display graphs from the demo case: subgraphs, overlay fusion groups, scopes, sync look-ups, search, filters."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from autofuse_studio.core.ge.fusion import FusionMapping, build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview import (
    DOWN,
    UP,
    FusionIndex,
    ViewOptions,
    build_display_graph,
    fuzzy_search,
    neighbourhood,
    trace,
)
from autofuse_studio.core.graphview.build import scopes
from autofuse_studio.core.graphview.details import describe_op
from autofuse_studio.core.graphview.graph import NODE_FUSION, NODE_SCOPE
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.run.spec import RunSpec
from tests.core.test_graphview_layout import make_model

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


@cache
def demo_case() -> tuple[Model, Model, FusionMapping, PrecisionResult]:
    """(af-open model, af-close model, mapping, mode-1 result) of the bundled demo case, computed once."""
    manifest = json.loads((DEMO / "manifest.json").read_text(encoding="utf-8"))
    graphs, data = manifest["graphs"], manifest["data"]
    af_open, af_close = load_model(DEMO / graphs["af_open"]), load_model(DEMO / graphs["af_close"])
    request = RunSpec(DEMO / graphs["af_open"], DEMO / graphs["af_close"], DEMO / data["af_open"],
                           DEMO / data["af_close"], jobs=1)
    return af_open, af_close, build_fusion_mapping(af_open), run_mode1(request)


def test_every_op_is_one_node_and_edges_follow_inputs() -> None:
    graph = build_display_graph(make_model([("a", "b"), ("b", "c"), ("a", "c")]))
    assert [node.key for node in graph.nodes] == ["a", "b", "c"]
    assert sorted((e.src, e.dst) for e in graph.edges) == [(0, 1), (0, 2), (1, 2)]


def test_overlay_groups_box_or_collapse_original_ops() -> None:
    _, af_close, mapping, _ = demo_case()
    index = FusionIndex(mapping)
    groups = index.groups()
    expanded = build_display_graph(af_close, ViewOptions(fusion_groups=groups))
    assert len(expanded.nodes) == len(build_display_graph(af_close).nodes)
    fusion_clusters = [c for c in expanded.clusters if c.kind == "fusion"]
    assert len(fusion_clusters) == len(mapping.fused_ops)
    first = mapping.fused_ops[0].op.name
    collapsed = build_display_graph(af_close, ViewOptions(fusion_groups=groups, collapsed_groups=frozenset({first})))
    node = collapsed.node_of_key(f"fusion:{first}")
    assert node is not None and collapsed.nodes[node].kind == NODE_FUSION
    for original in mapping.fused_ops[0].original_op_names:
        assert collapsed.node_of_op(original) == node
    assert len(collapsed.nodes) == len(expanded.nodes) - len(groups[first]) + 1


def test_sync_index_maps_both_ways_and_rows() -> None:
    _, _, mapping, result = demo_case()
    index = FusionIndex(mapping, result)
    fused = mapping.fused_ops[0]
    originals = index.originals_of(fused.op.name)
    assert set(fused.original_op_names) <= set(originals)
    assert all(fused.op.name in index.fused_of(name) for name in originals)
    assert index.rows_of_fused(fused.op.name)
    assert {row.fused_op for row in index.rows_of_original(originals[-1])} >= {fused.op.name}
    assert result.first_divergence is not None
    assert result.first_divergence.fused_op in index.failing_ops(fused_side=True)


def test_scopes_collapse_into_one_node() -> None:
    _, af_close, _, _ = demo_case()
    counts = scopes(af_close, depth=2)
    scope, count = max(counts.items(), key=lambda item: item[1])
    graph = build_display_graph(af_close, ViewOptions(collapsed_scopes=frozenset({scope})))
    node = graph.node_of_key(f"scope:{scope}")
    assert node is not None and graph.nodes[node].kind == NODE_SCOPE
    assert len(graph.nodes[node].ops) == count
    assert len(graph.nodes) == len(build_display_graph(af_close).nodes) - count + 1


def test_collapsed_subgraph_stands_for_its_ops() -> None:
    af_open, _, _, _ = demo_case()
    calls = [op.name for op in af_open.ops_in_order() if op.subgraph_names and op.type == "PartitionedCall"]
    full = build_display_graph(af_open)
    if calls:
        folded = build_display_graph(af_open, ViewOptions(expand_subgraphs=False))
        assert len(folded.nodes) < len(full.nodes)


def test_neighbourhood_and_trace() -> None:
    graph = build_display_graph(make_model([("a", "b"), ("b", "c"), ("c", "d"), ("x", "c")]))
    c = graph.node_of_op("c")
    assert c is not None
    names = lambda ids: {graph.nodes[i].key for i in ids}  # noqa: E731
    assert names(neighbourhood(graph, [c], 1)) == {"b", "c", "d", "x"}
    assert names(neighbourhood(graph, [c], 1, UP)) == {"b", "c", "x"}
    assert names(neighbourhood(graph, [c], 2, DOWN)) == {"c", "d"}
    assert names(trace(graph, c, UP)) == {"a", "b", "c", "x"}
    sub = graph.subgraph(neighbourhood(graph, [c], 1, UP))
    assert [n.key for n in sub.nodes] == ["b", "c", "x"] or {n.key for n in sub.nodes} == {"b", "c", "x"}
    assert len(sub.edges) == 2


def test_fuzzy_search_ranks_exact_then_substring_then_subsequence() -> None:
    model = make_model([("net/conv1/Conv2D", "net/conv1/Relu"), ("net/conv1/Relu", "net/fc/MatMul")])
    hits = fuzzy_search(model, "relu")
    assert hits[0].name == "net/conv1/Relu"
    assert [h.name for h in fuzzy_search(model, "cnv2d")] == ["net/conv1/Conv2D"]
    assert fuzzy_search(model, "add")  # type match: every op here is an Add
    assert fuzzy_search(model, "zzz") == []
    assert fuzzy_search(model, "  ") == []


def test_details_of_fused_and_original_ops() -> None:
    af_open, af_close, mapping, result = demo_case()
    index = FusionIndex(mapping, result)
    fused = mapping.fused_ops[0].op.name
    titles = [s.title for s in describe_op(af_open, fused, mapping, index, fused_side=True)]
    assert titles == ["Op", "Inputs", "Outputs", "Attributes", "Fusion mapping", "Precision rows"]
    original = mapping.fused_ops[0].original_op_names[0]
    sections = {s.title: s for s in describe_op(af_close, original, None, index, fused_side=False)}
    assert sections["Fused into"].rows == [[fused]]
    assert sections["Inputs"].rows and len(sections["Inputs"].rows[0]) == 7
    assert describe_op(af_close, "missing-op")[0].title.endswith("not in this graph")
