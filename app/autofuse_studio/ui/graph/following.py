"""Both graph panes follow the selection: marking across the fusion, neighbourhood filters, focus and traces."""

from __future__ import annotations

from typing import TYPE_CHECKING

from autofuse_studio.core.graphview.details import describe_op
from autofuse_studio.core.graphview.filters import trace
from autofuse_studio.ui.graph.pane import FilterSpec, GraphPane
from autofuse_studio.ui.graph.prepare import consumers_ready
from autofuse_studio.ui.graph.toolbar import FILTER_FAILING, FILTER_NONE, FILTER_SELECTION

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from autofuse_studio.core.ge.fusion import FusionMapping
    from autofuse_studio.core.ge.model import Model
    from autofuse_studio.core.graphview.sync import FusionIndex
    from autofuse_studio.ui.graph.details import DetailsPanel
    from autofuse_studio.ui.graph.toolbar import GraphToolbar


class SelectionFollowing:
    """Mixin of GraphWorkbench: user picks emit, slot-driven picks never do; both panes follow either way."""

    if TYPE_CHECKING:
        open_pane: GraphPane
        close_pane: GraphPane
        active: GraphPane
        index: FusionIndex
        toolbar: GraphToolbar
        details: DetailsPanel
        af_open: Model | None
        af_close: Model | None
        mapping: FusionMapping | None
        _auto_start: bool
        _pending_describe: tuple[str, bool] | None
        fusedOpSelected: SignalInstance
        originalOpSelected: SignalInstance
        rowsSelected: SignalInstance

        def overlay(self) -> bool: ...

        def _remember(self, name: str, fused_side: bool) -> None: ...

        def _describe_pending(self) -> None: ...

    def _mark_fused(self, name: str) -> None:
        originals = set(self.index.originals_of(name))
        self.open_pane.select(name, {name})
        if self.overlay():
            self.close_pane.select(name, originals | {name})
        else:
            self.close_pane.select(None, originals)

    def _mark_original(self, name: str) -> None:
        self.close_pane.select(name, set())
        self.open_pane.select(None, set(self.index.fused_of(name)))

    def _describe(self, name: str, fused_side: bool) -> None:
        self._pending_describe = None  # a pick made before the start's layout was ready wins
        model = self.af_open if fused_side else self.af_close
        if model is not None:
            self.details.show_sections(describe_op(model, name, self.mapping if fused_side else None, self.index,
                                                   fused_side=fused_side))

    def _describe_when_ready(self, name: str, fused_side: bool) -> None:
        """Describe a pick now if its model's consumer index is built, else once a worker has built it.

        The index takes 0.1-0.2 s of Python at 100k ops: built here, the window would freeze for it; until the
        worker is done the details panel says so rather than showing the previous pick.
        """
        self._pending_describe = (name, fused_side)
        model = self.af_open if fused_side else self.af_close
        if model is not None and not consumers_ready(model):
            self.details.show_pending(name)
        self._describe_pending()

    def _follow_selection(self) -> None:
        """Both panes follow the selection: a new neighbourhood around it, or a readable zoom onto it."""
        if self.toolbar.filter.currentData() == FILTER_SELECTION:
            self.apply_filter()
        else:
            for pane in (self.open_pane, self.close_pane):
                pane.focus_selection()

    def _select_fused(self, name: str, emit: bool) -> None:
        self._remember(name, True)
        self._mark_fused(name)
        self._follow_selection()
        self._describe_when_ready(name, fused_side=True)
        if emit:
            self.fusedOpSelected.emit(name)
            self.rowsSelected.emit(self.index.rows_of_fused(name))

    def _select_original(self, name: str, emit: bool) -> None:
        self._remember(name, False)
        self._mark_original(name)
        self._follow_selection()
        self._describe_when_ready(name, fused_side=False)
        if emit:
            self.originalOpSelected.emit(name)
            self.rowsSelected.emit(self.index.rows_of_original(name))

    def _on_open_pane_clicked(self, name: str) -> None:
        self.active = self.open_pane
        if name:
            self._auto_start = False
            self._select_fused(name, emit=True)

    def _on_close_pane_clicked(self, name: str) -> None:
        self.active = self.close_pane
        if not name:
            return
        self._auto_start = False
        if self.index.is_fused(name):  # a collapsed fusion group in the overlay
            self._select_fused(name, emit=True)
        else:
            self._select_original(name, emit=True)

    def _filter_spec(self, pane: GraphPane, fused_side: bool) -> FilterSpec | None:
        """The toolbar's neighbourhood filter for one pane (seeds mapped across the fusion), None for all nodes."""
        bar = self.toolbar
        mode = bar.filter.currentData()
        if mode == FILTER_NONE:
            return None
        if mode == FILTER_FAILING:
            seeds = self.index.failing_ops(fused_side)
        else:
            seeds = sorted({pane.selected_op, *pane.highlighted_ops} - {None})  # type: ignore[arg-type]
        return FilterSpec(tuple(seeds), bar.hops.value() or None, bar.direction.currentData())

    def apply_filter(self) -> None:
        """Apply the toolbar's neighbourhood filter to both panes; each then shows its selection readably.

        A pane whose graph has none of the selection keeps what it shows (an op that is only on one side).
        """
        for pane, fused_side in ((self.open_pane, True), (self.close_pane, False)):
            spec = self._filter_spec(pane, fused_side)
            if spec is not None and self.toolbar.filter.currentData() == FILTER_SELECTION and \
                    not pane.shows_any(spec.seed_ops):
                pane.focus_selection()
                continue
            if not pane.set_filter(spec):
                pane.focus_selection()

    def trace_selection(self, direction: str) -> None:
        """Highlight every node feeding (UP) or fed by (DOWN) the active pane's selection; fade the rest."""
        pane = self.active
        if pane.graph is None or pane.selected_op is None:
            return
        node = pane.graph.node_of_op(pane.selected_op)
        if node is None:
            return
        reached = trace(pane.graph, node, direction)
        pane.select(pane.selected_op, {pane.graph.nodes[n].ops[0] for n in reached if pane.graph.nodes[n].ops},
                    dim_others=True)

    def _on_toolbar_clear_trace(self) -> None:
        self.active.select(self.active.selected_op, set())
