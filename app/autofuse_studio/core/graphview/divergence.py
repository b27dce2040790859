"""The report's first-divergence picture: the culprit's neighbourhood beside the original ops it replaced.

The same view the Graph tab opens on ("Around selection", side by side): the af-open graph around the
culprit fused op on the left, the af-close graph around its original ops on the right, both coloured by
verdict, with dashed lines from the culprit to each op it replaced.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.build import build_display_graph
from autofuse_studio.core.graphview.filters import AROUND_HOPS, neighbourhood_graph
from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.layout import Layout, compute_layout
from autofuse_studio.core.graphview.picture import LEGEND_HEIGHT, Picture, graph_display_list, legend_group
from autofuse_studio.core.graphview.style import NodeStyle, style_nodes
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.core.precision.overview import focus_result
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.render.display import DisplayItem, Group, Polyline, Text
from autofuse_studio.core.reports.atomic import atomic_write_text

__all__ = ["FIRST_DIVERGENCE_HOPS", "MAPPING_COLOUR", "first_divergence_picture", "write_first_divergence_svg"]

FIRST_DIVERGENCE_HOPS = AROUND_HOPS  # as the Graph tab's first view
MAPPING_COLOUR = "#1f6fd1"  # the GUI's selection blue: culprit -> the ops it replaced
PANEL_GAP = 90.0  # room for the mapping lines between the two graphs
TITLE_HEIGHT = 22.0
TITLE_CHAR_WIDTH = 7.3  # a 12 px monospace character


@dataclass
class _Panel:
    """One side: its neighbourhood graph, layout, colours and title."""

    title: str
    graph: DisplayGraph
    layout: Layout
    style: NodeStyle


def _panel(model: Model, ops: list[str], index: FusionIndex, fused_side: bool, hops: int,
           title: str) -> _Panel | None:
    """The neighbourhood of `ops` in `model`, laid out and coloured; None when none of them is in it."""
    graph = build_display_graph(model)
    seeds = [node for node in (graph.node_of_op(op) for op in ops) if node is not None]
    if not seeds:
        return None
    local = neighbourhood_graph(graph, seeds, hops)
    return _Panel(title, local, compute_layout(local), style_nodes(local, index, fused_side))


def first_divergence_picture(af_open: Model, af_close: Model | None, mapping: FusionMapping,
                             result: PrecisionResult, hops: int = FIRST_DIVERGENCE_HOPS) -> Picture | None:
    """The culprit and its neighbours beside the original ops it replaced and theirs; None without a divergence.

    The colours are those of the rank and step where the divergence happens: other ranks and steps have
    their own verdicts for the same ops.
    """
    first = result.first_divergence
    if first is None:
        return None
    index = FusionIndex(mapping, focus_result(result, first.rank, first.step))
    culprit = first.fused_op
    fused = _panel(af_open, [culprit], index, True, hops, f"af-open (fused): {culprit}")
    if fused is None:
        return None
    originals = sorted(index.originals_of(culprit))
    original = None if af_close is None else _panel(
        af_close, originals, index, False, hops, f"af-close (original): the {len(originals)} op(s) it replaced")
    return _compose(fused, original, culprit, originals)


def _compose(fused: _Panel, original: _Panel | None, culprit: str, originals: list[str]) -> Picture:
    """Legend on top, the two panels side by side under their titles, mapping lines drawn beneath the nodes."""
    top = LEGEND_HEIGHT + TITLE_HEIGHT
    left_width, left_height = fused.layout.size
    items: list[DisplayItem] = []
    width, height = left_width, left_height
    if original is not None:
        dx = left_width + PANEL_GAP
        items += _mapping_lines(fused, original, culprit, originals, dx, top)
        width, height = dx + original.layout.size[0], max(left_height, original.layout.size[1])
    legend = [*fused.style.legend, ("fusion mapping", MAPPING_COLOUR)] if original is not None else fused.style.legend
    items.append(legend_group(legend))
    for panel, dx in ((fused, 0.0), (original, left_width + PANEL_GAP)):
        if panel is None:
            continue
        items.append(Text(dx + 10, LEGEND_HEIGHT + 15, panel.title, font_size=12, role="panel-title"))
        width = max(width, dx + 20 + TITLE_CHAR_WIDTH * len(panel.title))  # a narrow panel must not cut its title
        scene = graph_display_list(panel.graph, panel.layout, panel.style, legend=False)
        items.append(Group(dx, top, scene.items, role="panel-fused" if panel is fused else "panel-original"))
    return Picture(items, width, height + top)


def _mapping_lines(fused: _Panel, original: _Panel, culprit: str, originals: list[str], dx: float,
                   top: float) -> list[DisplayItem]:
    """Dashed lines from the culprit's right side, through the gap, to each original op's left side."""
    source = fused.graph.node_of_op(culprit)
    if source is None:
        return []
    sx, sy, sw, sh = fused.layout.node_rect(source)
    start = (sx + sw, top + sy + sh / 2)
    middle = fused.layout.size[0] + PANEL_GAP / 2
    lines: list[DisplayItem] = []
    for name in originals:
        node = original.graph.node_of_op(name)
        if node is None:
            continue
        ox, oy, _, oh = original.layout.node_rect(node)
        end = (dx + ox, top + oy + oh / 2)
        lines.append(Polyline((start, (middle, start[1]), (middle, end[1]), end), stroke=MAPPING_COLOUR, width=1.5,
                              arrow=True, dashed=True, role="fusion-mapping", title=f"{culprit} replaced {name}"))
    return lines


def write_first_divergence_svg(af_open: Model, af_close: Model | None, mapping: FusionMapping,
                               result: PrecisionResult, path: str | Path) -> Path | None:
    """Write graph_first_divergence.svg (or `path`) atomically; None when the run found no divergence."""
    picture = first_divergence_picture(af_open, af_close, mapping, result)
    if picture is None:
        return None
    target = Path(path)
    atomic_write_text(target, picture.to_svg())
    return target
