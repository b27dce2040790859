"""What a graph pane's worker does: build, filter, lay out and colour a graph, index its edges, draw its overview.

Everything of size O(graph) happens here, off the GUI thread, so the GUI thread only wraps the result
in one item (a 100k-op graph: seconds of work, the longest GUI-thread block tens of milliseconds).
"""

from __future__ import annotations

import contextlib
import weakref
from dataclasses import dataclass

from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived, long_lived_result
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.around import around_graph
from autofuse_studio.core.graphview.build import ViewOptions, build_display_graph
from autofuse_studio.core.graphview.edge_index import EdgeIndex, graph_overview
from autofuse_studio.core.graphview.filters import AROUND_HOPS, BOTH, neighbourhood_graph
from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.layout import Layout, compute_layout
from autofuse_studio.core.graphview.raster import OVERVIEW_NODES, Overview
from autofuse_studio.core.graphview.style import NodeStyle, style_nodes
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.core.release import release_in_chunks
from autofuse_studio.ui.graph.item import EDGE
from autofuse_studio.ui.tasks import TaskRunner

__all__ = ["SYNC_STYLE_NODES", "FilterSpec", "Prepared", "StyleSpec", "prepare", "release_later", "restyle"]


@dataclass(frozen=True)
class FilterSpec:
    """Keep only the neighbourhood of these ops: `hops` steps (None: unlimited) up, down or both."""

    seed_ops: tuple[str, ...]
    hops: int | None = AROUND_HOPS
    direction: str = BOTH


SYNC_STYLE_NODES = 5000  # up to this many nodes a restyle runs on the GUI thread (~10 ms), beyond on a worker


@dataclass(frozen=True)
class StyleSpec:
    """What node colours depend on: the fusion index (mapping + rows), the pane's side and the colour mode."""

    index: FusionIndex
    fused_side: bool
    colour_by: str

    def style(self, graph: DisplayGraph) -> NodeStyle:
        """The node style of `graph` under this spec."""
        return style_nodes(graph, self.index, self.fused_side, self.colour_by)


@dataclass
class Prepared:
    """What the worker hands back: the unfiltered graph (None when not built), the shown graph, layout, style."""

    full: DisplayGraph | None
    graph: DisplayGraph
    layout: Layout
    style: NodeStyle | None = None
    style_spec: StyleSpec | None = None
    edges: EdgeIndex | None = None
    overview: Overview | None = None


def _overview(layout: Layout, edges: EdgeIndex, style: NodeStyle) -> Overview | None:
    """The far-zoom picture of a big graph (None for a small one: Qt draws it fast enough)."""
    style.palette()  # the minimap and far views read it on the GUI thread
    if len(layout.x) <= OVERVIEW_NODES:
        return None
    return graph_overview(layout, edges, style.palette(), (EDGE.red(), EDGE.green(), EDGE.blue(), 255))


@long_lived_result
def restyle(graph: DisplayGraph, layout: Layout, edges: EdgeIndex, spec: StyleSpec, *, progress: Progress,
            cancel: CancelToken) -> tuple[NodeStyle, Overview | None]:
    """style_nodes() and the overview for a big graph on a worker thread (the pane's restyle task)."""
    style = spec.style(graph)
    return style, _overview(layout, edges, style)


INLINE_CONSUMERS_OPS = 20000  # a neighbourhood of a bigger model leaves the consumer index to a later task
_WARM: weakref.WeakSet[Model] = weakref.WeakSet()


def warm_consumers(model: Model, *, progress: Progress | None = None, cancel: CancelToken | None = None) -> None:
    """Build the model's consumer index here (once): the details panel reads it next, on the GUI thread."""
    if model in _WARM:
        return
    with gc_paused():
        model.consumers("")
        keep_long_lived()  # it lives as long as the model: collections need not rescan it (nor stall the GUI)
    _WARM.add(model)


def consumers_ready(model: Model) -> bool:
    """True once warm_consumers(model) has run."""
    return model in _WARM


@long_lived_result
def prepare(model: Model, options: ViewOptions, filter_spec: FilterSpec | None, full: DisplayGraph | None = None,
            style_spec: StyleSpec | None = None, *, progress: Progress, cancel: CancelToken) -> Prepared:
    """Build (unless `full` is the graph of these options), filter, lay out and colour a graph (on a worker).

    A filter none of whose seeds is in the graph keeps the whole graph: an empty pane would say nothing.
    A neighbourhood of a graph whose ops are all drawn as themselves is built alone (around_graph).
    Everything of size O(graph) happens here, so the GUI thread only wraps the result in one item.
    """
    shown = None
    if full is None and filter_spec is not None:  # the tab's first view: no need for the whole graph
        shown = around_graph(model, options, filter_spec.seed_ops, filter_spec.hops, filter_spec.direction)
    if shown is not None and len(model.root.ops) <= INLINE_CONSUMERS_OPS:
        warm_consumers(model)  # cheap here: the details are ready with the layout, as for a whole graph
    if shown is None:
        if full is None:
            full = build_display_graph(model, options)
            warm_consumers(model)  # a whole graph takes longer anyway; big neighbourhoods are warmed later
        cancel.check()
        shown = full
        if filter_spec is not None:
            seeds = [n for n in (full.node_of_op(op) for op in filter_spec.seed_ops) if n is not None]
            if seeds:
                shown = neighbourhood_graph(full, seeds, filter_spec.hops, filter_spec.direction)
    graph = shown
    layout = compute_layout(graph, progress, cancel)
    edges = EdgeIndex(layout.points, layout.offsets)
    graph.collapsed_nodes()  # read by every repaint
    if style_spec is None:
        return Prepared(full, graph, layout, edges=edges)
    style_spec.index.warm()  # the look-ups the GUI thread makes next (selection, details) are ready then
    style = style_spec.style(graph)
    return Prepared(full, graph, layout, style, style_spec, edges, _overview(layout, edges, style))


def release_later(runner: TaskRunner, *dropped: object) -> None:
    """Let a worker free what the GUI drops: a 100k-op model or graph takes 0.1-1 s to deallocate.

    Whatever still has other references simply lives on; the last reference decides where it is freed.
    """
    kept = [thing for thing in dropped if thing is not None]
    if kept:
        with contextlib.suppress(RuntimeError):  # a runner already shut down: freed here then
            runner.submit(_release, kept)


def _release(dropped: list[object], *, progress: Progress, cancel: CancelToken) -> None:
    """The task that frees what the GUI dropped (a TaskRunner task: progress and cancel unused)."""
    release_in_chunks(dropped)
