"""GraphPane: one graph (af-open, af-close or overlay) laid out off the GUI thread, with selection and reveal."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QToolButton, QWidget

from autofuse_studio.core.ge.model import FUSED_TYPES, Model
from autofuse_studio.core.graphview.build import ViewOptions
from autofuse_studio.core.graphview.graph import NODE_FUSION, NODE_SCOPE, DisplayGraph
from autofuse_studio.core.graphview.layout import Layout
from autofuse_studio.core.graphview.raster import Overview
from autofuse_studio.core.graphview.style import BY_VERDICT, NO_ROWS_FILL, NodeStyle
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.ui.errors import report_error
from autofuse_studio.ui.graph.item import GraphItem
from autofuse_studio.ui.graph.minimap import Minimap
from autofuse_studio.ui.graph.prepare import (
    SYNC_STYLE_NODES,
    FilterSpec,
    Prepared,
    StyleSpec,
    prepare,
    release_later,
    restyle,
)
from autofuse_studio.ui.graph.view import GraphView
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner

log = logging.getLogger(__name__)
__all__ = ["SYNC_STYLE_NODES", "FilterSpec", "GraphPane", "Prepared", "StyleSpec", "prepare", "restyle"]


class GraphPane(QWidget):
    """A titled GraphView with a minimap; selection is kept by op name across relayouts."""

    layoutReady = Signal()
    opClicked = Signal(str)  # user clicked a node: its op (or fused op for a collapsed group) name, "" background
    nodeToggled = Signal(str)  # user double-clicked a collapsible node or box: its key

    def __init__(self, title: str, runner: TaskRunner, fused_side: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.fused_side = fused_side
        self.model: Model | None = None
        self.options = ViewOptions()
        self.filter: FilterSpec | None = None
        self.index = FusionIndex(None)
        self.colour_by = BY_VERDICT
        self.full: DisplayGraph | None = None
        self.graph: DisplayGraph | None = None
        self.graph_layout: Layout | None = None
        self.selected_op: str | None = None
        self.highlighted_ops: set[str] = set()
        self.dim_others = False
        self._pending_reveal: str | None = None
        self._task: TaskHandle | None = None
        self._style_task: TaskHandle | None = None
        self._focus_next = True
        self.top_next = False  # the next layout opens on the whole graph's top (a graph alone, like Netron)
        self._full_options: ViewOptions | None = None  # the options self.full was built with
        self.title = QLabel(title)
        self.title.setStyleSheet("font-weight: bold; padding: 2px;")
        self.view = GraphView()
        self.minimap = Minimap(self.view)
        self.map_button = QToolButton()  # the workbench sets its text and tooltip
        self.map_button.setCheckable(True)
        self.map_button.setChecked(True)
        self.map_button.setAutoRaise(True)
        self.map_button.toggled.connect(self.minimap.set_wanted)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title, 1)
        header.addWidget(self.map_button)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addLayout(header, 0, 0)
        grid.addWidget(self.view, 1, 0)
        # The view pads its scroll range by half a viewport, so every node can be moved out from under the map.
        grid.addWidget(self.minimap, 1, 0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom)
        self.view.nodeClicked.connect(self._on_view_node_clicked)
        self.view.nodeDoubleClicked.connect(self._on_view_node_double_clicked)
        self.view.clusterDoubleClicked.connect(self._on_view_cluster_double_clicked)

    # --- content -------------------------------------------------------------------------------
    def set_model(self, model: Model | None, options: ViewOptions | None = None,
                  filter_spec: FilterSpec | None = None) -> None:
        """Show a model (None clears), optionally only a neighbourhood; layoutReady follows the background layout."""
        dropped = (self.full, self.model if self.model is not model else None)
        self.model = model
        self.options = options or ViewOptions()
        self.filter = filter_spec
        self.full = None
        self._full_options = None
        self._focus_next = True
        self.relayout()
        self._discard(*dropped)  # queued after the layout: freeing the old graph must not delay the new one

    def set_options(self, **changes: Any) -> None:
        """Change some ViewOptions fields (collapsed groups, scopes, subgraphs ...) and lay out again."""
        self.options = replace(self.options, **changes)
        self.relayout()

    def set_filter(self, spec: FilterSpec | None) -> bool:
        """Keep only a neighbourhood (None shows everything again); False when it is already shown."""
        if spec == self.filter and self.model is not None and (self.graph is not None or self.busy()):
            return False
        self.filter = spec
        self._focus_next = True
        self.relayout()
        return True

    def shows_any(self, ops: Iterable[str]) -> bool:
        """True when the whole graph (before any filter) has a node for one of these ops."""
        if self.full is None:  # not built (a neighbourhood was built alone, or a layout is pending): the model
            return self.model is None or any(self.model.op(op) is not None for op in ops)
        return any(self.full.node_of_op(op) is not None for op in ops)

    def set_index(self, index: FusionIndex, restyle: bool = True) -> None:
        """New precision rows or mapping: recolour without relayout (restyle=False: a relayout follows).

        While a layout is in flight nothing is recoloured now: the layout's own colours are checked
        against the index when it arrives (the old graph is about to go anyway).
        """
        self.index = index
        if restyle and not self.busy():
            self._restyle()

    def set_colour_by(self, colour_by: str) -> None:
        """Colour nodes by verdict or by one metric."""
        self.colour_by = colour_by
        self._restyle()

    def relayout(self) -> None:
        """Start (or restart) the background build + layout."""
        if self._task is not None:
            # A task that already finished still delivers its result: drop it, it shows stale options.
            self._task.finished.disconnect(self._on_task_finished)
            self._task.failed.disconnect(self._on_task_failed)
            self._task.cancel()
            self._task = None
        self._drop_style_task()  # the layout task colours its own graph
        if self.model is None:
            self.full = self.graph = self.graph_layout = None
            self.view.set_item(None)
            self.minimap.rebuild()
            return
        full = self.full if self._full_options == self.options else None  # filters re-use the built graph
        self._full_options = self.options
        self._task = self.runner.start(prepare, self.model, self.options, self.filter, full, self._style_spec())
        self._task.finished.connect(self._on_task_finished)
        self._task.failed.connect(self._on_task_failed)

    def _discard(self, *dropped: object) -> None:
        """Let a worker free what a pane stops showing (release_later).

        A replaced item keeps only its (Qt) self: its graph, layout and indexes go to the worker too.
        """
        heavy: list[object] = [thing for thing in dropped if not isinstance(thing, GraphItem)]
        for item in (thing for thing in dropped if isinstance(thing, GraphItem)):
            heavy.append(dict(vars(item)))
            vars(item).clear()  # the item leaves the scene right after: nothing reads these any more
        release_later(self.runner, *heavy)

    def busy(self) -> bool:
        """True while a layout is being computed."""
        return self._task is not None

    def _on_task_finished(self, prepared: Prepared) -> None:
        self._task = None
        self._discard(self.full, self.graph, self.graph_layout, self.view.item)
        self.full, self.graph, self.graph_layout = prepared.full, prepared.graph, prepared.layout
        fresh = prepared.style is not None and prepared.style_spec == self._style_spec()
        if fresh and prepared.style is not None:
            item = GraphItem(prepared.graph, prepared.layout, prepared.style, prepared.edges, prepared.overview)
        else:  # the colours changed while it was laid out: restyled now (in the background if big)
            item = GraphItem(prepared.graph, prepared.layout, prepared.style or self._small_style(prepared.graph),
                             prepared.edges)
        self.view.set_item(item)
        if not fresh:
            self._restyle()
        self._apply_emphasis()
        self.minimap.rebuild()
        pending, self._pending_reveal = self._pending_reveal, None
        if pending is not None:
            self.reveal_op(pending)
        elif self._focus_next and self.top_next and self.filter is None:
            self.top_next = False
            node = prepared.graph.node_of_op(self.selected_op) if self.selected_op else None
            self.view.focus_top(None if node is None else float(prepared.layout.x[node]))
        elif self._focus_next:
            self.focus_selection()
        self._focus_next = False
        self.layoutReady.emit()

    def _on_task_failed(self, exc: BaseException) -> None:
        self._task = None
        report_error(self, exc)

    def _style_spec(self) -> StyleSpec:
        return StyleSpec(self.index, self.fused_side, self.colour_by)

    def _style(self) -> NodeStyle:
        assert self.graph is not None
        return self._style_spec().style(self.graph)

    def _drop_style_task(self) -> None:
        if self._style_task is not None:
            self._style_task.finished.disconnect(self._on_style_task_finished)
            self._style_task.cancel()
            self._style_task = None

    def _restyle(self) -> None:
        """New colours for the shown graph: at once when it is small, from a worker when it is big."""
        self._drop_style_task()
        if self.view.item is None or self.graph is None:
            return
        if len(self.graph.nodes) <= SYNC_STYLE_NODES:
            self._apply_style((self._style(), None))
            return
        item = self.view.item
        self._style_task = self.runner.start(restyle, item.graph, item.layout, item.edge_index(), self._style_spec())
        self._style_task.finished.connect(self._on_style_task_finished)
        self._style_task.failed.connect(lambda exc: report_error(self, exc))

    def _on_style_task_finished(self, styled: tuple[NodeStyle, Overview | None]) -> None:
        self._style_task = None  # a relayout drops this task, so the style is for the graph shown
        self._apply_style(styled)

    def _apply_style(self, styled: tuple[NodeStyle, Overview | None]) -> None:
        if self.view.item is not None:
            self.view.item.set_style(*styled)
            self.minimap.rebuild()

    def _small_style(self, graph: DisplayGraph) -> NodeStyle:
        """Colours now for a small graph; a big one starts grey (every node 'not compared') until restyled."""
        if len(graph.nodes) <= SYNC_STYLE_NODES:
            return self._style_spec().style(graph)
        return NodeStyle([NO_ROWS_FILL] * len(graph.nodes))

    def node_style(self) -> NodeStyle | None:
        """The current node style (fills, legend, first divergence), None before the first layout."""
        return self.view.item.style if self.view.item is not None else None

    # --- selection -----------------------------------------------------------------------------
    def node_ops(self, node: int) -> tuple[str, ...]:
        """The op names a shown node stands for."""
        return self.graph.nodes[node].ops if self.graph is not None else ()

    def select(self, op: str | None, highlighted: set[str] | None = None, dim_others: bool = False) -> None:
        """Select op (blue), highlight others (purple; teal in a trace) by name; kept on relayout; never emits."""
        self.selected_op = op
        self.highlighted_ops = set(highlighted or ())
        self.dim_others = dim_others
        self._apply_emphasis()

    def _apply_emphasis(self) -> None:
        item, graph = self.view.item, self.graph
        if item is None or graph is None:
            return
        selected = graph.node_of_op(self.selected_op) if self.selected_op else None
        nodes = {n for n in (graph.node_of_op(op) for op in self.highlighted_ops) if n is not None}
        item.set_emphasis(selected, nodes, self.dim_others and bool(nodes))

    def focus_selection(self) -> None:
        """Show the selected and highlighted nodes at a zoom where labels are drawn (after a pending layout).

        A neighbourhood view is fitted whole when it is readable; otherwise the selection is centred at a
        readable zoom. Without a selection the first node (in execution order) is: never a grey smudge.
        """
        if self.busy():
            self._focus_next = True
            return
        graph, layout = self.graph, self.graph_layout
        if graph is None or layout is None or not len(graph.nodes):
            return
        chosen = [self.selected_op] if self.selected_op else []
        nodes = [n for n in (graph.node_of_op(op) for op in [*chosen, *sorted(self.highlighted_ops)]) if n is not None]
        anchor_node = nodes[0] if nodes else 0
        anchor = QPointF(float(layout.x[anchor_node]), float(layout.y[anchor_node]))
        if self.filter is not None or not nodes:
            rect = QRectF(0, 0, layout.size[0], layout.size[1])
        else:
            rect = _nodes_rect(layout, nodes)
        self.view.focus(rect, anchor)

    def reveal_op(self, op: str) -> bool:
        """Select and centre op, first opening whatever hides it (filter, collapsed group, scope, subgraph)."""
        if self.model is None or (self.model.op(op) is None and not (self.full and self.full.node_of_op(op))):
            return False
        if self.busy():
            self._pending_reveal = op
            return True
        node = self.graph.node_of_op(op) if self.graph is not None else None
        if node is not None and self.graph is not None and self.graph.nodes[node].kind not in (NODE_FUSION,
                                                                                             NODE_SCOPE):
            self.select(op, self.highlighted_ops)
            self.focus_selection()
            return True
        self._pending_reveal = op
        self._open_containers(op)
        return True

    def _open_containers(self, op: str) -> None:
        """Drop the filter and expand the group, scope and subgraphs hiding `op`, then lay out again."""
        assert self.model is not None
        self.filter = None
        groups = frozenset(g for g in self.options.collapsed_groups if op not in self.options.fusion_groups.get(g, ()))
        scopes = frozenset(s for s in self.options.collapsed_scopes if not op.startswith(s + "/"))
        toggled = set(self.options.toggled_subgraphs)
        found = self.model.op(op)
        graph = self.model.graph(found.graph) if found is not None else None
        while graph is not None and graph.parent_op is not None:
            parent = self.model.op(graph.parent_op)
            if parent is None or parent.type in FUSED_TYPES:
                break
            # Expanded means expand_subgraphs XOR toggled: flip only the closed ones.
            if self.options.expand_subgraphs == (parent.name in toggled):
                toggled ^= {parent.name}
            graph = self.model.graph(parent.graph)
        self.set_options(collapsed_groups=groups, collapsed_scopes=scopes, toggled_subgraphs=frozenset(toggled))

    # --- user input ----------------------------------------------------------------------------
    def _on_view_node_clicked(self, node: int) -> None:
        if node < 0 or self.graph is None:
            self.opClicked.emit("")
            return
        item = self.graph.nodes[node]
        if item.kind == NODE_SCOPE:
            self.select(item.ops[0], self.highlighted_ops)
            return
        self.opClicked.emit(item.ops[0])  # a fusion node's ops[0] is the fused op itself

    def _on_view_node_double_clicked(self, node: int) -> None:
        if self.graph is not None:
            self.nodeToggled.emit(self.graph.nodes[node].key)

    def _on_view_cluster_double_clicked(self, cluster: int) -> None:
        if self.graph is not None:
            self.nodeToggled.emit(self.graph.clusters[cluster].key)

    def toggle(self, key: str) -> None:
        """Collapse or expand the group, scope or subgraph named by a node or cluster key."""
        kind, _, name = key.partition(":")
        if kind == "fusion":
            self.set_options(collapsed_groups=self.options.collapsed_groups ^ {name})
        elif kind == "scope":
            self.set_options(collapsed_scopes=self.options.collapsed_scopes - {name})
        elif kind == "subgraph" or (self.model is not None and (op := self.model.op(key)) is not None
                                    and op.subgraph_names and op.type not in FUSED_TYPES):
            self.set_options(toggled_subgraphs=self.options.toggled_subgraphs ^ {name or key})


def _nodes_rect(layout: Layout, nodes: list[int]) -> QRectF:
    """The box around some nodes, with room for their direct neighbours (one layer and a node each way)."""
    x0 = min(float(layout.x[n] - layout.width[n] / 2) for n in nodes)
    x1 = max(float(layout.x[n] + layout.width[n] / 2) for n in nodes)
    y0 = min(float(layout.y[n] - layout.height[n] / 2) for n in nodes)
    y1 = max(float(layout.y[n] + layout.height[n] / 2) for n in nodes)
    pad_x, pad_y = 140.0, 80.0
    return QRectF(x0 - pad_x, y0 - pad_y, x1 - x0 + 2 * pad_x, y1 - y0 + 2 * pad_y)
