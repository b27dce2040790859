"""Display lists and SVG: colours by verdict or metric, first divergence, clipping, text kept as text."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from autofuse_studio.core.graphview import FusionIndex, ViewOptions, build_display_graph, compute_layout, style_nodes
from autofuse_studio.core.graphview.divergence import write_first_divergence_svg
from autofuse_studio.core.graphview.picture import graph_display_list
from autofuse_studio.core.graphview.style import NO_ROWS_FILL, VERDICT_FILLS, scale_colour
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT
from autofuse_studio.core.render.display import Polyline, Rect, walk
from autofuse_studio.core.render.svg import display_list_to_svg
from tests.core.test_graphview_build import demo_case

SVG = "{http://www.w3.org/2000/svg}"


def test_verdict_colours_and_first_divergence_on_both_sides() -> None:
    af_open, af_close, mapping, result = demo_case()
    index = FusionIndex(mapping, result)
    assert result.first_divergence is not None
    fused = build_display_graph(af_open)
    style = style_nodes(fused, index, fused_side=True)
    first = fused.node_of_op(result.first_divergence.fused_op)
    assert style.first_divergence == {first}
    assert first is not None and style.fills[first] == VERDICT_FILLS[VERDICT_CULPRIT]
    original = build_display_graph(af_close, ViewOptions(fusion_groups=index.groups()))
    style = style_nodes(original, index, fused_side=False)
    expected = {original.node_of_op(name) for name in index.originals_of(result.first_divergence.fused_op)}
    assert style.first_divergence == expected
    assert NO_ROWS_FILL in style.fills  # Data and Const ops were never compared


def test_metric_colours_span_the_scale() -> None:
    af_open, _, mapping, result = demo_case()
    graph = build_display_graph(af_open)
    style = style_nodes(graph, FusionIndex(mapping, result), fused_side=True, colour_by="cosine")
    assert scale_colour(1.0) in style.fills and scale_colour(0.0) in style.fills
    assert style.legend[0][0].startswith("cosine")


def test_svg_parses_and_keeps_text_and_tooltips() -> None:
    af_open, _, mapping, result = demo_case()
    graph = build_display_graph(af_open)
    layout = compute_layout(graph)
    picture = graph_display_list(graph, layout, style_nodes(graph, FusionIndex(mapping, result), True))
    root = ET.fromstring(picture.to_svg())
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert any(node.label in texts for node in graph.nodes)
    assert len(root.findall(f".//{SVG}polyline")) == len(layout.edge_src)
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    assert any("DT_" in title and "->" in title for title in titles)  # edge tooltips carry dtype and shape
    assert root.find(".//*[@class='node-first-divergence']") is not None


def test_clip_keeps_only_visible_items() -> None:
    af_open, _, mapping, result = demo_case()
    graph = build_display_graph(af_open)
    layout = compute_layout(graph)
    style = style_nodes(graph, FusionIndex(mapping, result), True)
    whole = graph_display_list(graph, layout, style)
    x, y, w, h = layout.node_rect(0)
    part = graph_display_list(graph, layout, style, clip=(x - 5, y - 5, x + w + 5, y + h + 5))
    count = lambda pic: sum(isinstance(i, Rect) and i.role.startswith("node") for i, _, _ in walk(pic.items))  # noqa: E731
    assert count(part) >= 1 and count(part) < count(whole)
    assert part.width == pytest.approx(w + 10)


def test_polyline_svg_with_arrow_and_dash() -> None:
    svg = display_list_to_svg([Polyline(((0, 0), (0, 10)), arrow=True, dashed=True, title="a<b")], 20, 20)
    root = ET.fromstring(svg)
    assert root.find(f".//{SVG}polygon") is not None
    assert root.find(f".//{SVG}polyline").get("stroke-dasharray") == "4 3"
    assert root.find(f".//{SVG}title").text == "a<b"


def test_first_divergence_svg_file(tmp_path: Path) -> None:
    af_open, af_close, mapping, result = demo_case()
    path = write_first_divergence_svg(af_open, af_close, mapping, result, tmp_path / "graph_first_divergence.svg")
    assert path is not None
    root = ET.parse(path).getroot()
    assert result.first_divergence is not None
    assert result.first_divergence.fused_op in {t.text for t in root.iter(f"{SVG}text")} | {
        (t.text or "").split("\n")[0] for t in root.iter(f"{SVG}title")}
    no_divergence = replace(result, first_divergence=None)
    assert write_first_divergence_svg(af_open, af_close, mapping, no_divergence, tmp_path / "none.svg") is None
