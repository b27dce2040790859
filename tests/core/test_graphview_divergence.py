"""The report's picture: the culprit's neighbourhood beside the original ops it replaced, mapped and coloured."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from autofuse_studio.core.graphview.divergence import MAPPING_COLOUR, first_divergence_picture
from autofuse_studio.core.graphview.style import VERDICT_FILLS
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT
from autofuse_studio.core.render.display import Group, Polyline, Rect, Text, walk
from tests.core.test_graphview_build import demo_case

SVG = "{http://www.w3.org/2000/svg}"


def panel_nodes(items: list, role: str) -> dict[str, Rect]:
    """Node name -> its rectangle inside the panel group with this role."""
    panel = next(item for item in items if isinstance(item, Group) and item.role == role)
    return {leaf.title.split("\n")[0]: leaf for leaf, _, _ in walk(panel.items)
            if isinstance(leaf, Rect) and leaf.role.startswith("node")}


def test_culprit_beside_the_ops_it_replaced() -> None:
    af_open, af_close, mapping, result = demo_case()
    first = result.first_divergence
    assert first is not None
    picture = first_divergence_picture(af_open, af_close, mapping, result)
    assert picture is not None
    fused = panel_nodes(picture.items, "panel-fused")
    original = panel_nodes(picture.items, "panel-original")
    originals = FusionIndex(mapping).originals_of(first.fused_op)
    assert set(mapping.get(first.fused_op).original_op_names) <= set(originals)  # type: ignore[union-attr]
    assert fused[first.fused_op].role == "node-first-divergence"
    assert fused[first.fused_op].fill == VERDICT_FILLS[VERDICT_CULPRIT]
    for name in originals:  # the ops it replaced, outlined and coloured by their own rows
        assert original[name].role == "node-first-divergence"
        assert original[name].fill in VERDICT_FILLS.values()
    assert len(original) > len(originals) and len(fused) > 1  # their neighbours too
    lines = [item for item in picture.items if isinstance(item, Polyline) and item.role == "fusion-mapping"]
    assert len(lines) == len(originals) and all(line.stroke == MAPPING_COLOUR for line in lines)
    left = next(item for item in picture.items if isinstance(item, Group) and item.role == "panel-original").x
    assert all(line.points[0][0] < left <= line.points[-1][0] for line in lines)  # from the left panel to the right
    titles = [item.text for item in picture.items if isinstance(item, Text) and item.role == "panel-title"]
    assert titles[0].startswith("af-open") and first.fused_op in titles[0] and titles[1].startswith("af-close")


def test_svg_of_the_mapping_picture_parses() -> None:
    af_open, af_close, mapping, result = demo_case()
    picture = first_divergence_picture(af_open, af_close, mapping, result)
    assert picture is not None
    root = ET.fromstring(picture.to_svg())
    roles = {element.get("class") for element in root.iter()}
    assert {"panel-fused", "panel-original", "fusion-mapping", "node-first-divergence"} <= roles
    assert "fusion mapping" in {t.text for t in root.iter(f"{SVG}text")}


def test_without_the_af_close_graph_only_the_fused_side() -> None:
    af_open, _, mapping, result = demo_case()
    picture = first_divergence_picture(af_open, None, mapping, result)
    assert picture is not None
    assert not [item for item in picture.items if isinstance(item, Group) and item.role == "panel-original"]
