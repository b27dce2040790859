"""Display lists of a laid-out graph (whole or clipped), with a legend; the report's picture is divergence.py."""

from __future__ import annotations

from dataclasses import dataclass

from autofuse_studio.core.graphview.details import edge_text
from autofuse_studio.core.graphview.graph import CLUSTER_FUSION, DisplayGraph
from autofuse_studio.core.graphview.layout import Layout
from autofuse_studio.core.graphview.style import NodeStyle
from autofuse_studio.core.render.display import DisplayItem, Group, Polyline, Rect, Text
from autofuse_studio.core.render.svg import display_list_to_svg

__all__ = ["LEGEND_HEIGHT", "Picture", "graph_display_list", "legend_group", "side_by_side"]

LEGEND_HEIGHT = 28.0
FIRST_DIVERGENCE = "first divergence"  # the legend entry drawn as the border the graph view draws
FIRST_BORDER = "#000000"
FIRST_BORDER_WIDTH = 3.0  # as thick as on screen (GraphItem): a 1 px black edge was lost among the grey ones
EDGE_COLOUR = "#7a7a7a"
BACK_EDGE_COLOUR = "#b07aa1"
CLUSTER_FILLS = {CLUSTER_FUSION: "#fff4d6"}
CLUSTER_FILL = "#eef3fb"
MAX_LABEL_CHARS = 32


@dataclass
class Picture:
    """A display list with its canvas size."""

    items: list[DisplayItem]
    width: float
    height: float

    def to_svg(self) -> str:
        """The picture as a standalone SVG document."""
        return display_list_to_svg(self.items, self.width, self.height)


def _elide(text: str, width: float) -> str:
    limit = max(int((width - 8) / 6.6), 4)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _intersects(box: tuple[float, float, float, float], clip: tuple[float, float, float, float] | None) -> bool:
    if clip is None:
        return True
    return not (box[2] < clip[0] or box[0] > clip[2] or box[3] < clip[1] or box[1] > clip[3])


def legend_group(entries: list[tuple[str, str]]) -> Group:
    """A row of colour swatches with labels, at the top left of a picture."""
    items: list[DisplayItem] = []
    x = 0.0
    for label, colour in entries:
        if label == FIRST_DIVERGENCE:  # a border, not a fill: the swatch looks like the marked nodes
            items.append(Rect(x + 1, 1, 12, 12, fill="#ffffff", stroke=FIRST_BORDER, role="legend-swatch",
                              stroke_width=FIRST_BORDER_WIDTH))
        else:
            items.append(Rect(x, 0, 14, 14, fill=colour, stroke="#333", role="legend-swatch"))
        items.append(Text(x + 18, 11, label, font_size=11, role="legend-label"))
        x += 30 + 6.6 * len(label)
    return Group(10, 8, items, role="legend")


def graph_display_list(graph: DisplayGraph, layout: Layout, style: NodeStyle,
                       clip: tuple[float, float, float, float] | None = None, legend: bool = True) -> Picture:
    """Clusters, edges (with tensor tooltips), nodes and labels; `clip` (x0, y0, x1, y1) keeps one view."""
    x0, y0 = (clip[0], clip[1]) if clip is not None else (0.0, 0.0)
    top = LEGEND_HEIGHT if legend else 0.0
    items: list[DisplayItem] = []
    drawn_first = False
    for number, cluster in enumerate(graph.clusters):
        bx0, by0, bx1, by1 = (float(v) for v in layout.cluster_box[number])
        if bx1 > bx0 and _intersects((bx0, by0, bx1, by1), clip):
            items.append(Rect(bx0, by0, bx1 - bx0, by1 - by0, fill=CLUSTER_FILLS.get(cluster.kind, CLUSTER_FILL),
                              stroke="#8c8c8c", corner_radius=6, role=f"cluster-{cluster.kind}", title=cluster.label))
            items.append(Text(bx0 + 6, by0 + 12, _elide(cluster.label, bx1 - bx0), font_size=10, fill="#555",
                              role="cluster-label"))
    by_pair: dict[tuple[int, int], list[str]] = {}
    for edge in graph.edges:
        by_pair.setdefault((edge.src, edge.dst), []).append(
            edge_text(edge.src_op, edge.src_port, edge.dst_op, edge.dst_port, edge.desc, edge.control))
    controls = {(e.src, e.dst) for e in graph.edges if e.control}
    for index in range(len(layout.edge_src)):
        pts = layout.edge_points(index)
        box = (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))
        if not _intersects(box, clip):
            continue
        pair = (int(layout.edge_src[index]), int(layout.edge_dst[index]))
        back = bool(layout.edge_back[index])
        items.append(Polyline(tuple((float(px), float(py)) for px, py in pts),
                              stroke=BACK_EDGE_COLOUR if back else EDGE_COLOUR, arrow=True,
                              dashed=pair in controls and len(by_pair.get(pair, [])) == 1,
                              role="edge-back" if back else "edge", title="\n".join(by_pair.get(pair, []))))
    for number, node in enumerate(graph.nodes):
        nx, ny, nw, nh = layout.node_rect(number)
        if not _intersects((nx, ny, nx + nw, ny + nh), clip):
            continue
        first = number in style.first_divergence
        drawn_first = drawn_first or first
        items.append(Rect(nx, ny, nw, nh, fill=style.fills[number], stroke=FIRST_BORDER if first else "#555",
                          corner_radius=4, role="node-first-divergence" if first else f"node-{node.kind}",
                          title=f"{node.key}\n{node.type}", stroke_width=FIRST_BORDER_WIDTH if first else None))
        items.append(Text(nx + nw / 2, ny + 15, _elide(node.label, nw), font_size=11, anchor="middle",
                          role="node-label"))
        items.append(Text(nx + nw / 2, ny + 29, _elide(node.type, nw), font_size=9, fill="#444", anchor="middle",
                          role="node-type"))
    scene = Group(-x0, top - y0, items, role="graph")
    if clip is not None:
        width, height = clip[2] - clip[0], clip[3] - clip[1] + top
    else:
        width, height = layout.size[0], layout.size[1] + top
    # The legend lists the first divergence only where the picture draws its border (not outside a clip).
    entries = [entry for entry in style.legend if drawn_first or entry[0] != FIRST_DIVERGENCE]
    return Picture([legend_group(entries), scene] if legend else [scene], width, height)


PANE_GAP = 40.0
PANE_TITLE_HEIGHT = 24.0


def side_by_side(panes: list[tuple[str, Picture]]) -> Picture:
    """Pictures next to each other, left to right, each under its title (the graph tab's two panes)."""
    items: list[DisplayItem] = []
    x = 0.0
    height = 0.0
    for title, picture in panes:
        items.append(Text(x + 10, 17, title, font_size=14, role="pane-title"))
        items.append(Group(x, PANE_TITLE_HEIGHT, picture.items, role="pane"))
        x += picture.width + PANE_GAP
        height = max(height, picture.height + PANE_TITLE_HEIGHT)
    return Picture(items, max(x - PANE_GAP, 1.0), max(height, 1.0))
