"""GraphWorkbench: af-open and af-close panes kept in step, overlay mode, details, legend and the toolbar."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFileDialog, QLabel, QSplitter, QVBoxLayout, QWidget

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.browse import BrowsedGraphs
from autofuse_studio.core.graphview.build import ViewOptions, scopes
from autofuse_studio.core.graphview.filters import DOWN, UP
from autofuse_studio.core.graphview.picture import graph_display_list
from autofuse_studio.core.graphview.search import fuzzy_search
from autofuse_studio.core.graphview.start import start_op
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.core.precision.overview import focus_result
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.progress import NEVER_CANCELLED, no_progress
from autofuse_studio.ui.errors import ErrorBanner, report_error
from autofuse_studio.ui.graph.browse import GraphLoader
from autofuse_studio.ui.graph.details import DetailsPanel
from autofuse_studio.ui.graph.export import write_picture, write_widget_png
from autofuse_studio.ui.graph.following import SelectionFollowing
from autofuse_studio.ui.graph.legend import LegendBar
from autofuse_studio.ui.graph.pane import GraphPane
from autofuse_studio.ui.graph.prepare import StyleSpec, consumers_ready, release_later, warm_consumers
from autofuse_studio.ui.graph.scope_tree import ScopeTree, ops_in_scope
from autofuse_studio.ui.graph.toolbar import (
    FILTER_NONE,
    FILTER_SELECTION,
    MODE_OVERLAY,
    MODE_SIDE_BY_SIDE,
    GraphToolbar,
)
from autofuse_studio.ui.graph.view_export import WholeExport, WholePane, save_whole_graphs, start_export, visible_clip
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.widgets.retranslate import Retranslating

log = logging.getLogger(__name__)
SEARCH_DELAY_MS = 150  # fuzzy search over 100k names takes a while: wait for a pause in typing
SEARCH_LIMIT = 30
HISTORY_LIMIT = 200  # selections kept for back/forward


class GraphWorkbench(SelectionFollowing, Retranslating, QWidget):
    """Two synchronised graph panes plus details; user selections emit, slot-driven ones never do."""

    fusedOpSelected = Signal(str)  # the user picked a fused op (af-open pane or a collapsed overlay group)
    originalOpSelected = Signal(str)  # the user picked an original op (af-close or overlay pane)
    rowsSelected = Signal(object)  # list[PrecisionRow] belonging to the user's pick
    pictureExported = Signal(object)  # what start_picture_export() wrote: a Path, or an ExportedPicture
    unpaired = Signal(object)  # the Path of a graph replaced by an unrelated newer one (open_graphs' `newest`)

    def __init__(self, runner: TaskRunner | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphWorkbench")
        self._own_runner = runner is None
        self.runner = runner or TaskRunner(self)
        self.af_open: Model | None = None
        self.af_close: Model | None = None
        self.mapping: FusionMapping | None = None
        self.result: PrecisionResult | None = None
        self.focus: tuple[str | None, str | None] = (None, None)  # the rank and step the colours show
        self.start: tuple[str, bool] | None = None  # (op, fused side) the tab opened on
        self._auto_start = False  # True until the user picks something: a later result may move the start
        self._pending_describe: tuple[str, bool] | None = None  # the start op, described after its layout
        self._unshown_row: PrecisionRow | None = None  # selected in the table while another tab was in front
        self._warming: dict[int, TaskHandle] = {}  # id(model) -> the task building its consumer index
        self.index = FusionIndex(None)
        self.toolbar = GraphToolbar()
        self.legend = LegendBar()
        self.open_pane = GraphPane("", self.runner, fused_side=True)
        self.close_pane = GraphPane("", self.runner, fused_side=False)
        self.details = DetailsPanel()
        self.scopes = ScopeTree(self.runner)
        self.active: GraphPane = self.open_pane
        self.history: list[tuple[str, bool]] = []  # (op, fused side) picked, oldest first
        self.history_at = -1  # the entry shown
        self._navigating = False
        self._syncing = False
        self.paths: tuple[Path | None, Path | None] = (None, None)  # the graph files shown (open_graphs)
        panes = QSplitter(Qt.Orientation.Horizontal)
        panes.addWidget(self.open_pane)
        panes.addWidget(self.close_pane)
        self.outer = outer = QSplitter(Qt.Orientation.Horizontal)
        outer.addWidget(self.scopes)
        outer.addWidget(panes)
        outer.addWidget(self.details)
        outer.setStretchFactor(0, 0)
        outer.setStretchFactor(1, 3)
        outer.setStretchFactor(2, 1)
        # Three quarters for the two panes: on a 1280 px screen each keeps ~450 px (the details scroll).
        self.details.setMinimumWidth(300)
        outer.setSizes([220, 900, 300])
        self.scopes.hide()  # until a model with '/'-scopes is shown
        # The empty tab says what to do instead of showing empty frames.
        self.hint = QLabel()
        self.hint.setObjectName("graphEmptyHint")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: palette(mid); font-size: 15px; padding: 40px;")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.toolbar)  # rows that overflow into their ">>" menu, never cut off
        column.addWidget(self.legend)
        column.addWidget(outer, 1)
        column.addWidget(self.hint, 1)
        self.addActions([self.toolbar.back, self.toolbar.forward])  # Alt+Left/Right anywhere in the tab
        self.loader = GraphLoader(self.runner, self)
        self._banner: ErrorBanner | None = None
        self._newest: Path | None = None
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._connect()
        self.retranslate()
        self.update_export_actions()
        self._update_visibility()
        self._update_scopes_visibility()
        self._update_empty()

    def alone(self) -> bool:
        """True when one graph is shown on its own (opened like a model in Netron)."""
        return (self.af_open is None) != (self.af_close is None)

    def retranslate(self) -> None:
        """Pane titles in the current language (the toolbar, details and legend translate themselves).

        A graph alone is titled by its file name; each pane of a pair by its role and file name.
        """
        alone = self.alone()
        open_title = self.tr("af-open (fused)")
        close_title = (self.tr("af-close with fusion groups (overlay)") if self.overlay()
                       else self.tr("af-close (original)"))
        for pane, title in ((self.open_pane, open_title), (self.close_pane, close_title)):
            model = pane.model
            name = Path(model.path).name if model is not None and model.path else ""
            pane.title.setText(name if alone and name else f"{title}: {name}" if name else title)
            pane.title.setToolTip(model.path if model is not None else "")
            pane.map_button.setText(self.tr("Map"))
            pane.map_button.setToolTip(self.tr("Show or hide the minimap (shown while part of the graph is "
                                               "outside the view)"))
            pane.view.viewport().update()  # node labels such as "first divergence"
        self.hint.setText(self.tr("Open a graph or a case…\n\nFile > Open (Ctrl+O), or drop a GE graph (JSON, pbtxt) "
                                  "or a case folder on the window. A graph alone opens whole, like a model in "
                                  "Netron; a case shows its af-open and af-close graphs side by side."))

    def _connect(self) -> None:
        bar = self.toolbar
        bar.mode.currentIndexChanged.connect(self._on_toolbar_mode_changed)
        bar.colour.currentIndexChanged.connect(self._on_toolbar_colour_changed)
        bar.filter.currentIndexChanged.connect(self.apply_filter)
        bar.hops.valueChanged.connect(self.apply_filter)
        bar.direction.currentIndexChanged.connect(self.apply_filter)
        bar.trace_up.triggered.connect(lambda: self.trace_selection(UP))
        bar.trace_down.triggered.connect(lambda: self.trace_selection(DOWN))
        bar.clear_trace.triggered.connect(self._on_toolbar_clear_trace)
        bar.scope_depth.valueChanged.connect(self._on_toolbar_scopes_changed)
        bar.subgraphs.toggled.connect(self._on_toolbar_subgraphs_toggled)
        bar.collapse_groups.toggled.connect(self._on_toolbar_collapse_groups)
        bar.fit.triggered.connect(self.fit)
        bar.back.triggered.connect(lambda: self.go_history(-1))
        bar.forward.triggered.connect(lambda: self.go_history(1))
        bar.sync.toggled.connect(self._on_toolbar_sync_toggled)
        bar.compare.triggered.connect(self._on_toolbar_compare)
        bar.scopes_panel.toggled.connect(self._update_scopes_visibility)
        self.scopes.scopeChosen.connect(self.select_scope)
        self.scopes.indexed.connect(self._update_scopes_visibility)
        bar.exportRequested.connect(self._on_toolbar_export)
        bar.searchEdited.connect(lambda _text: self._search_timer.start())
        bar.searchChosen.connect(self.search_and_reveal)
        self._search_timer.timeout.connect(self._on_search_timer)
        for pane in (self.open_pane, self.close_pane):
            pane.layoutReady.connect(self._update_legend)
            pane.layoutReady.connect(self._describe_pending)
            pane.layoutReady.connect(self.update_export_actions)
            pane.nodeToggled.connect(pane.toggle)
            pane.view.userMoved.connect(lambda scale, centre, pane=pane: self._on_view_user_moved(pane, scale, centre))
            pane.view.focused.connect(self._equalize_zoom)
            pane.view.fitRequested.connect(lambda pane=pane: self._on_view_fit_requested(pane))
        self.open_pane.opClicked.connect(self._on_open_pane_clicked)
        self.loader.loaded.connect(self._on_loader_loaded)
        self.loader.failed.connect(self._on_loader_failed)
        self.close_pane.opClicked.connect(self._on_close_pane_clicked)

    # --- public API ------------------------------------------------------------------------------
    def set_case(self, af_open: Model | None, af_close: Model | None, mapping: FusionMapping | None,
                 result: PrecisionResult | None = None, warm_index: FusionIndex | None = None) -> None:
        """Show a case's graphs (either may be None), opened on its start op; layouts run in the background.

        The start is the first divergence, else the first fused op ("Around selection", both panes), else
        the first op of a plain graph (all nodes, at a readable zoom). Each pane emits layoutReady.
        `warm_index`: look-ups of this mapping and result already worked out (by the analysis worker).
        """
        self.loader.cancel()  # an analysed case supersedes graphs still being parsed for browsing
        self._unshown_row = None  # a row of the previous result (the new case opens on its own start op)
        kept = (af_open, af_close, mapping)  # by identity: comparing two mappings would compare every fused op
        dropped = [old for old in (self.af_open, self.af_close, self.mapping, self.index)
                   if all(old is not new for new in kept)]
        replaced = af_open is not self.af_open or af_close is not self.af_close
        self.af_open, self.af_close, self.mapping = af_open, af_close, mapping
        if replaced:  # other graphs: the old search text, suggestions and history belong to the old ones
            self.toolbar.search.clear()
            self.toolbar.set_completions([])
            self.history, self.history_at = [], -1
            self._update_history_actions()
            self.scopes.set_model(af_close if af_close is not None else af_open)
            sync = self.toolbar.sync
            sync.blockSignals(True)
            sync.setChecked(af_open is not None and af_close is not None)  # on by default for a pair
            sync.blockSignals(False)
            layers = self.toolbar.scopes_panel  # the layer tree shows beside a graph alone (a pair needs the width)
            layers.blockSignals(True)
            layers.setChecked((af_open is None) != (af_close is None))
            layers.blockSignals(False)
            self._update_scopes_visibility()
        if result is not None:
            self.result = result
        self.index = FusionIndex(mapping, None if self.result is None else focus_result(self.result, *self.focus),
                                 reuse=self.index if warm_index is None else warm_index)
        for pane in (self.open_pane, self.close_pane):
            pane.set_index(self.index, restyle=False)  # set_model lays out next
        self.details.show_sections([])
        self.open_pane.select(None, set())
        self.close_pane.select(None, set())
        self._auto_start = True
        self.start = self._start_op()
        self._mark_start()
        if self.start is not None and replaced:
            self._remember(*self.start)  # Back returns to where the tab opened
        alone = self.alone()
        self.open_pane.top_next = self.close_pane.top_next = alone  # the whole graph, opened on its top
        self.open_pane.set_model(af_open, self._options(fused_side=True), self._filter_spec(self.open_pane, True))
        self.close_pane.set_model(af_close, self._options(fused_side=False),
                                  self._filter_spec(self.close_pane, False))
        self._update_visibility()
        self.retranslate()
        self._update_legend()
        self.update_export_actions()
        self._update_empty()
        release_later(self.runner, *dropped)  # after the panes' layouts, which must not wait for it

    def set_precision(self, result: PrecisionResult | None) -> None:
        """Colour both panes by this run's rows and mark its first divergence (None removes colours).

        Until the user picks something, the view moves to the new first divergence.
        """
        self.result = result
        self._reindex()
        if self._auto_start and (self.af_open is not None or self.af_close is not None):
            start = self._start_op()
            if start != self.start:
                self.start = start
                self._mark_start()
                self._follow_selection()

    def _start_op(self) -> tuple[str, bool] | None:
        return start_op(self.af_open, self.af_close, self.mapping, self.result)

    def open_graphs(self, af_open: Path | None, af_close: Path | None, banner: ErrorBanner | None = None,
                    newest: Path | None = None) -> None:
        """Browse graphs without dumps (parsed in the background); failures go to `banner` as sentences.

        One graph opens alone (one pane, the whole model); two open side by side. `newest`: one of the two was
        just added to the other: unless they are a fusion pair (af-open ops fused from af-close ops), it
        replaces the other, which `unpaired` then names.
        """
        self._banner = banner
        self._newest = newest
        self.paths = (af_open, af_close)
        self.loader.load(af_open, af_close)

    def compare_with(self, path: Path) -> None:
        """Open a second graph beside the graph alone (the shown one keeps its side; the new one takes the other)."""
        if self.af_open is not None and self.af_close is None:
            self.open_graphs(Path(self.af_open.path), path, self._banner)
        elif self.af_close is not None and self.af_open is None:
            self.open_graphs(path, Path(self.af_close.path), self._banner)
        else:
            self.open_graphs(None, path, self._banner)

    def _on_toolbar_compare(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Compare with a graph"), "",
                                              self.tr("GE graphs (*.json *.txt *.pbtxt);;All files (*)"))
        if path:
            self.compare_with(Path(path))

    def _on_loader_loaded(self, graphs: BrowsedGraphs) -> None:
        self.result = None  # an earlier run's colours belong to other graphs
        newest, self._newest = self._newest, None
        opened, closed = graphs.af_open, graphs.af_close
        if newest is not None and opened is not None and closed is not None and not fusion_pair(graphs):
            if Path(closed.path) == newest:
                old, self.paths = Path(opened.path), (None, newest)
                graphs = BrowsedGraphs(None, closed, None)
            else:
                old, self.paths = Path(closed.path), (newest, None)
                graphs = BrowsedGraphs(opened, None, graphs.mapping)
            self.set_case(graphs.af_open, graphs.af_close, graphs.mapping)
            self.unpaired.emit(old)
            return
        self.set_case(graphs.af_open, graphs.af_close, graphs.mapping)

    def _on_loader_failed(self, error: BaseException) -> None:
        report_error(self, error, banner=self._banner)

    def _mark_start(self) -> None:
        """Select the start op in both panes and pick the view it opens on (no layout yet)."""
        if self.start is None:
            return
        name, fused_side = self.start
        around = fused_side and self.index.is_fused(name) and not self.alone()  # a graph alone opens whole
        combo = self.toolbar.filter
        combo.blockSignals(True)  # the caller lays out once, with this filter
        combo.setCurrentIndex(max(combo.findData(FILTER_SELECTION if around else FILTER_NONE), 0))
        combo.blockSignals(False)
        if fused_side:
            self._mark_fused(name)
        else:
            self._mark_original(name)
        # Its description reads the model's consumer index (~0.2 s to build at 100k ops): a worker builds it
        # after the pane's layout, and the details follow instead of stalling the GUI now.
        self._pending_describe = (name, fused_side)
        pane = self.open_pane if fused_side else self.close_pane
        if not pane.busy() and pane.model is (self.af_open if fused_side else self.af_close):
            self._describe_pending()

    def _describe_pending(self) -> None:
        """Describe the start op once its model's consumer index is built (by a worker, not here)."""
        for model in (self.af_open, self.af_close):  # the details of any later pick read them too
            key = id(model)
            if model is not None and not consumers_ready(model) and key not in self._warming:
                handle = self._warming[key] = self.runner.start(warm_consumers, model)
                handle.finished.connect(lambda _result, key=key: self._on_warming_finished(key))
                handle.failed.connect(lambda error: report_error(self, error))
        if self._pending_describe is None:
            return
        name, fused_side = self._pending_describe
        model = self.af_open if fused_side else self.af_close
        if model is None or consumers_ready(model):
            self._describe(name, fused_side)

    def showEvent(self, event: QShowEvent) -> None:
        """Follow the row selected while another tab was in front, before this one paints."""
        super().showEvent(event)
        row, self._unshown_row = self._unshown_row, None
        if row is not None:
            self._select_fused(row.fused_op, emit=False)

    def _on_warming_finished(self, key: int) -> None:
        self._warming.pop(key, None)
        self._describe_pending()

    def _update_visibility(self) -> None:
        """Side by side shows both panes; overlay only the af-close one; a graph alone only its own."""
        only_close = self.af_open is None and self.af_close is not None
        only_open = self.af_close is None and self.af_open is not None
        mode = self.toolbar.mode
        mode.setEnabled(not (only_open or only_close))  # fusion boxes need both graphs
        if not mode.isEnabled() and self.overlay():
            mode.blockSignals(True)
            mode.setCurrentIndex(mode.findData(MODE_SIDE_BY_SIDE))
            mode.blockSignals(False)
            self.toolbar.collapse_groups.setEnabled(False)
        overlay = self.overlay()
        self.open_pane.setVisible(not overlay and not only_close)
        self.close_pane.setVisible(overlay or not only_open)
        if self.open_pane.isHidden():  # isHidden: the workbench itself may not be shown yet
            self.active = self.close_pane
        elif self.close_pane.isHidden():
            self.active = self.open_pane
        pair = self.af_open is not None and self.af_close is not None and not overlay
        self.toolbar.sync.setVisible(pair)  # shown only where they act: the row keeps room on a laptop
        self.toolbar.compare.setVisible(self.alone())

    def _update_empty(self) -> None:
        """The empty tab shows its hint instead of empty panes and minimap frames."""
        empty = self.af_open is None and self.af_close is None
        self.outer.setHidden(empty)
        self.hint.setVisible(empty)
        self.legend.setHidden(empty)

    def _update_scopes_visibility(self) -> None:
        """The layer tree shows when its model has '/'-scopes and the toolbar's Layers is on."""
        has = self.scopes.index.scopes() > 0
        self.toolbar.scopes_panel.setVisible(has)
        self.scopes.setVisible(has and self.toolbar.scopes_panel.isChecked())

    def set_focus(self, rank: str | None, step: str | None) -> None:
        """Colour by the rows of one rank and step (each has its own verdicts for the same ops)."""
        self.focus = (rank, step)
        if self.result is not None:
            self._reindex()

    def _reindex(self) -> None:
        shown = None if self.result is None else focus_result(self.result, *self.focus)
        self.index = FusionIndex(self.mapping, shown, reuse=self.index)  # same mapping: only the rows are new
        for pane in (self.open_pane, self.close_pane):
            pane.set_index(self.index)
        self._update_legend()

    def clear(self) -> None:
        """Forget the case and the graphs (back to the empty tab with its hint)."""
        self.loader.cancel()
        self.result = None
        self.paths = (None, None)
        self.set_case(None, None, None)

    # --- history, sync and scopes ---------------------------------------------------------------------
    def _remember(self, name: str, fused_side: bool) -> None:
        """Add a selection to the back/forward history (not while walking it)."""
        if self._navigating:
            return
        entry = (name, fused_side)
        if self.history_at >= 0 and self.history[self.history_at] == entry:
            return
        del self.history[self.history_at + 1:]
        self.history.append(entry)
        del self.history[:-HISTORY_LIMIT]
        self.history_at = len(self.history) - 1
        self._update_history_actions()

    def _update_history_actions(self) -> None:
        self.toolbar.back.setEnabled(self.history_at > 0)
        self.toolbar.forward.setEnabled(0 <= self.history_at < len(self.history) - 1)

    def go_history(self, step: int) -> bool:
        """Back (-1) or forward (+1) through the selections; False at either end."""
        target = self.history_at + step
        if not 0 <= target < len(self.history):
            return False
        self.history_at = target
        name, fused_side = self.history[target]
        self._navigating = True
        try:
            self._auto_start = False
            pane = self.open_pane if fused_side else self.close_pane
            pane.reveal_op(name)
            if fused_side:
                self._select_fused(name, emit=False)
            else:
                self._select_original(name, emit=False)
        finally:
            self._navigating = False
        self._update_history_actions()
        return True

    def _synced_panes(self) -> list[GraphPane]:
        """Both panes when zoom is synced and both show a graph, else none."""
        panes = [self.open_pane, self.close_pane]
        if not self.toolbar.sync.isChecked() or any(p.isHidden() or p.view.item is None for p in panes):
            return []
        return panes

    def _on_view_user_moved(self, pane: GraphPane, scale: float, centre: QPointF) -> None:
        """The user zoomed or panned one pane: the other takes its zoom and moves as far (synced)."""
        panes = self._synced_panes()
        if self._syncing or pane not in panes:
            return
        other = panes[1] if pane is panes[0] else panes[0]
        view = pane.view
        moved = view.mapToScene(view.viewport().rect().center()) - centre
        self._syncing = True
        try:
            other.view.follow(view.scale_factor(), moved)
        finally:
            self._syncing = False

    def _on_toolbar_sync_toggled(self, on: bool) -> None:
        if on:
            self._equalize_zoom()

    def _equalize_zoom(self) -> None:
        """Panes of a synced pair open at the same zoom: the smaller of the two focus zooms (labels readable)."""
        panes = self._synced_panes()
        scales = [p.view.focus_scale for p in panes if p.view.focus_scale is not None]
        if self._syncing or len(scales) < 2:
            return
        self._syncing = True
        try:
            for pane in panes:
                pane.view.cap_focus(min(scales))
        finally:
            self._syncing = False

    def fit(self) -> None:
        """Fit the active pane, or both panes at one zoom when they are synced (the toolbar's Fit)."""
        panes = self._synced_panes() or [self.active]
        for pane in panes:
            pane.view.fit()
        if len(panes) > 1:
            scale = min(p.view.scale_factor() for p in panes)
            for pane in panes:
                view = pane.view
                view.set_scale(scale, view.mapToScene(view.viewport().rect().center()))

    def _on_view_fit_requested(self, pane: GraphPane) -> None:
        if pane in self._synced_panes() and not self._syncing:
            self.fit()

    def select_scope(self, scope: str) -> list[str]:
        """Select the ops under a '/'-scope (the layer tree's click) and show them all; returns their names."""
        model = self.scopes.model
        if model is None:
            return []
        ops = ops_in_scope(model, scope)
        if not ops:
            return []
        fused_side = model is self.af_open
        pane = self.open_pane if fused_side else self.close_pane
        self.active = pane
        self._auto_start = False
        combo = self.toolbar.filter
        if combo.currentData() != FILTER_NONE:  # the scope's ops may lie outside a neighbourhood
            combo.blockSignals(True)
            combo.setCurrentIndex(max(combo.findData(FILTER_NONE), 0))
            combo.blockSignals(False)
            for other, side in ((self.open_pane, True), (self.close_pane, False)):
                other.set_filter(self._filter_spec(other, side))
        if fused_side:
            self._select_fused(ops[0], emit=True)
        else:
            self._select_original(ops[0], emit=True)
        pane.select(ops[0], set(ops))
        pane.focus_selection()
        return ops

    def shutdown(self) -> None:
        """Stop background layouts (call before the window closes)."""
        if self._own_runner:
            self.runner.shutdown(wait=False)

    def overlay(self) -> bool:
        """True in overlay mode (one pane: original graph with fusion boxes)."""
        return bool(self.toolbar.mode.currentData() == MODE_OVERLAY)

    def select_fused_op(self, name: str) -> None:
        """Slot: select a fused op (e.g. from the table) and highlight its original ops; emits nothing."""
        self._select_fused(name, emit=False)

    def select_original_op(self, name: str) -> None:
        """Slot: select an original op and highlight the fused ops that replaced it; emits nothing."""
        self._select_original(name, emit=False)

    def select_row(self, row: PrecisionRow) -> None:
        """Slot: a precision table row was selected -> select its fused op (both panes follow).

        While another tab of a shown window is in front, the row is followed when this one is shown: marking,
        a new neighbourhood's layout and the details cost the table's row switch 20-30 ms and a worker's GIL.
        """
        self._auto_start = False
        if self.window().isVisible() and not self.isVisible():
            self._unshown_row = row
            return
        self._unshown_row = None
        self._select_fused(row.fused_op, emit=False)

    # --- toolbar -------------------------------------------------------------------------------
    def _options(self, fused_side: bool) -> ViewOptions:
        bar = self.toolbar
        model = self.af_open if fused_side else self.af_close
        depth = bar.scope_depth.value()
        collapsed = frozenset(scopes(model, depth)) if depth and model is not None else frozenset()
        groups = self.index.groups() if self.overlay() and not fused_side else {}
        folded = frozenset(groups) if bar.collapse_groups.isChecked() else frozenset()
        return ViewOptions(expand_subgraphs=bar.subgraphs.isChecked(), fusion_groups=groups,
                           collapsed_groups=folded, collapsed_scopes=collapsed)

    def _refresh_options(self) -> None:
        for pane, fused_side in ((self.open_pane, True), (self.close_pane, False)):
            if pane.model is not None:
                pane.options = self._options(fused_side)
                pane.relayout()

    def _on_toolbar_mode_changed(self) -> None:
        overlay = self.overlay()
        self.active = self.close_pane if overlay else self.open_pane
        self._update_visibility()
        self.retranslate()
        self.toolbar.collapse_groups.setEnabled(overlay)
        self._refresh_options()
        self.update_export_actions()

    def _on_toolbar_colour_changed(self) -> None:
        for pane in (self.open_pane, self.close_pane):
            pane.set_colour_by(self.toolbar.colour.currentData())
        self._update_legend()

    def _on_toolbar_scopes_changed(self) -> None:
        self._refresh_options()

    def _on_toolbar_subgraphs_toggled(self) -> None:
        self._refresh_options()

    def _on_toolbar_collapse_groups(self) -> None:
        self._refresh_options()

    def _update_legend(self) -> None:
        style = self.active.node_style() or self.close_pane.node_style()
        split = self.result is not None and self.index.result is not self.result  # colours of one rank/step
        self.legend.set_entries(style.legend if style is not None else [], self.focus if split else (None, None))

    # --- search and export -------------------------------------------------------------------------
    def _on_search_timer(self) -> None:
        model = self.active.model
        text = self.toolbar.search.text()
        hits = fuzzy_search(model, text, SEARCH_LIMIT) if model is not None else []
        self.toolbar.set_completions([f"{hit.name}  [{hit.type}]" for hit in hits])

    def search_and_reveal(self, text: str) -> str | None:
        """Jump to the best match of `text` (or a chosen suggestion) in the active pane and select it."""
        model = self.active.model
        if model is None or not text.strip():
            return None
        name = text.rpartition("  [")[0] if text.endswith("]") and "  [" in text else text
        if model.op(name) is None:
            hits = fuzzy_search(model, text, 1)
            if not hits:
                return None
            name = hits[0].name
        self._auto_start = False
        self.active.reveal_op(name)
        if self.active is self.open_pane:
            self._select_fused(name, emit=True)
        else:
            self._select_original(name, emit=True)
        return name

    def export_picture(self, path: str | Path, whole: bool = True) -> Path | None:
        """Write the whole graph of every shown pane (side by side) or the active pane's visible part.

        The visible part as PNG is the view as drawn (screen scale × devicePixelRatio); as SVG it is the
        display list clipped to the visible part of the graph. None when nothing is shown.
        """
        if whole:
            panes = self._whole_panes()
            if not panes:
                return None
            return save_whole_graphs(panes, Path(path), progress=no_progress, cancel=NEVER_CANCELLED).path
        pane = self.active
        style = pane.node_style()
        if pane.graph is None or pane.graph_layout is None or style is None:
            return None
        if Path(path).suffix.lower() != ".svg":
            return write_widget_png(pane.view.viewport(), path)
        clip = visible_clip(pane.view, pane.graph_layout)
        return write_picture(graph_display_list(pane.graph, pane.graph_layout, style, clip), path)

    def _whole_panes(self) -> list[WholePane]:
        """The shown panes' models with their view options and colours (no neighbourhood filter)."""
        panes = []
        for pane in (self.open_pane, self.close_pane):
            if pane.model is None or pane.isHidden():
                continue
            # Its unfiltered graph is re-used when it was built with the options shown (no layout pending).
            built = pane.full if not pane.busy() else None
            panes.append(WholePane(pane.title.text(), pane.model, pane.options,
                                   StyleSpec(pane.index, pane.fused_side, pane.colour_by), built))
        return panes

    def start_picture_export(self, path: str | Path, whole: bool = True) -> TaskHandle | None:
        """export_picture() without freezing the GUI: written by a worker, then pictureExported.

        What the Export menu uses: a whole 20k-op graph takes seconds to draw. Failures are said in the
        status bar (or a dialog for a bug). None when nothing is shown (the menu entries are disabled then).
        """
        if whole:
            panes = self._whole_panes()
            if not panes:
                return None
            handle = self.runner.start(save_whole_graphs, panes, Path(path))
            handle.finished.connect(lambda written: self.pictureExported.emit(self._exported(written)))
        else:
            pane = self.active
            style = pane.node_style()
            if pane.graph is None or pane.graph_layout is None or style is None:
                return None
            handle = start_export(self.runner, pane.view, pane.graph, pane.graph_layout, style, path, whole)
            handle.finished.connect(self.pictureExported.emit)
        handle.failed.connect(lambda error: report_error(self, error))
        return handle

    def _exported(self, written: WholeExport) -> ExportedPicture:
        """The status sentence of a whole-graph export: which panes, how many nodes, how they are arranged."""
        counts = [self.tr("%1: %2 nodes").replace("%1", title).replace("%2", str(count))
                  for title, count in written.panes]
        if len(counts) > 1:
            text = self.tr("whole graphs side by side in one picture (%1)").replace("%1", "; ".join(counts))
        else:
            text = self.tr("whole graph (%1)").replace("%1", counts[0])
        return ExportedPicture(written.path, text)

    def update_export_actions(self) -> None:
        """Enable the Export menu's entries only when they have something to write."""
        current = self.active.graph is not None and self.active.node_style() is not None
        whole = bool(self._whole_panes())
        for number, action in enumerate(self.toolbar.export_actions):
            action.setEnabled(whole if number >= 2 else current)  # current view PNG/SVG, whole graph PNG/SVG
        self.toolbar.export.setEnabled(current or whole)

    def _on_toolbar_export(self, fmt: str, whole: bool) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export graph"), f"graph.{fmt}",
                                              f"{fmt.upper()} (*.{fmt})")
        if not path:
            return
        target = Path(path)
        if target.suffix.lower() != f".{fmt}":
            target = target.with_name(f"{target.name}.{fmt}")  # the format chosen in the menu, whatever was typed
        if self.start_picture_export(target, whole) is None:
            report_error(self, InputError(self.tr("There is no graph to export: open a case or a graph first.")))


def fusion_pair(graphs: BrowsedGraphs) -> bool:
    """True when the af-open graph's fused ops replaced ops of the af-close graph (a case's two graphs)."""
    if graphs.mapping is None or graphs.af_close is None:
        return False
    close = graphs.af_close
    return any(close.op(name) is not None for fused in graphs.mapping.fused_ops for name in fused.original_op_names)


class ExportedPicture:
    """A written picture and what it holds; str() is the path followed by that description."""

    def __init__(self, path: Path, description: str) -> None:
        self.path = path
        self.description = description

    def __str__(self) -> str:
        return f"{self.path} ({self.description})"

    def __fspath__(self) -> str:
        return str(self.path)
