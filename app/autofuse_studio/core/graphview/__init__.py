"""Graph view core: display graphs from GE models, layered layout, filters, search, colours, pictures."""

from autofuse_studio.core.graphview.build import ViewOptions, build_display_graph
from autofuse_studio.core.graphview.divergence import first_divergence_picture, write_first_divergence_svg
from autofuse_studio.core.graphview.filters import BOTH, DOWN, UP, neighbourhood, neighbourhood_graph, trace
from autofuse_studio.core.graphview.graph import DisplayGraph, Edge, Node
from autofuse_studio.core.graphview.layout import Layout, compute_layout
from autofuse_studio.core.graphview.picture import Picture, graph_display_list
from autofuse_studio.core.graphview.search import SearchHit, fuzzy_search
from autofuse_studio.core.graphview.style import BY_VERDICT, NodeStyle, style_nodes
from autofuse_studio.core.graphview.sync import FusionIndex

__all__ = [
    "BOTH", "BY_VERDICT", "DOWN", "UP", "DisplayGraph", "Edge", "FusionIndex", "Layout", "Node", "NodeStyle",
    "Picture", "SearchHit", "ViewOptions", "build_display_graph", "compute_layout", "first_divergence_picture",
    "fuzzy_search",
    "graph_display_list", "neighbourhood", "neighbourhood_graph", "style_nodes", "trace",
    "write_first_divergence_svg",
]
