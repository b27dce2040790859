"""GraphWorkbench: af-open and af-close panes kept in step, overlay mode, details, legend and the toolbar."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QSplitter, QVBoxLayout, QWidget

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


class GraphWorkbench(SelectionFollowing, Retranslating, QWidget):
    """Two synchronised graph panes plus details; user selections emit, slot-driven ones never do."""

    fusedOpSelected = Signal(str)  # the user picked a fused op (af-open pane or a collapsed overlay group)
    originalOpSelected = Signal(str)  # the user picked an original op (af-close or overlay pane)
    rowsSelected = Signal(object)  # list[PrecisionRow] belonging to the user's pick
    pictureExported = Signal(object)  # what start_picture_export() wrote: a Path, or an ExportedPicture

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
        self._warming: dict[int, TaskHandle] = {}  # id(model) -> the task building its consumer index
        self.index = FusionIndex(None)
        self.toolbar = GraphToolbar()
        self.legend = LegendBar()
        self.open_pane = GraphPane("", self.runner, fused_side=True)
        self.close_pane = GraphPane("", self.runner, fused_side=False)
        self.details = DetailsPanel()
        self.active: GraphPane = self.open_pane
        panes = QSplitter(Qt.Orientation.Horizontal)
        panes.addWidget(self.open_pane)
        panes.addWidget(self.close_pane)
        outer = QSplitter(Qt.Orientation.Horizontal)
        outer.addWidget(panes)
        outer.addWidget(self.details)
        outer.setStretchFactor(0, 3)
        outer.setStretchFactor(1, 1)
        # Three quarters for the two panes: on a 1280 px screen each keeps ~450 px (the details scroll).
        self.details.setMinimumWidth(300)
        outer.setSizes([900, 300])
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.toolbar)  # rows that overflow into their ">>" menu, never cut off
        column.addWidget(self.legend)
        column.addWidget(outer, 1)
        self.loader = GraphLoader(self.runner, self)
        self._banner: ErrorBanner | None = None
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._connect()
        self.retranslate()
        self.update_export_actions()

    def retranslate(self) -> None:
        """Pane titles in the current language (the toolbar, details and legend translate themselves)."""
        alone = (self.af_open is None) != (self.af_close is None)  # one graph opened for browsing
        open_title = self.tr("af-open (fused)")
        close_title = (self.tr("af-close with fusion groups (overlay)") if self.overlay()
                       else self.tr("af-close (original)"))
        for pane, title in ((self.open_pane, open_title), (self.close_pane, close_title)):
            model = pane.model
            pane.title.setText(f"{title}: {Path(model.path).name}" if alone and model is not None else title)
            pane.title.setToolTip(model.path if model is not None else "")
            pane.map_button.setText(self.tr("Map"))
            pane.map_button.setToolTip(self.tr("Show or hide the minimap (shown while part of the graph is "
                                               "outside the view)"))
            pane.view.viewport().update()  # node labels such as "first divergence"


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
        bar.fit.triggered.connect(lambda: self.active.view.fit())
        bar.exportRequested.connect(self._on_toolbar_export)
        bar.searchEdited.connect(lambda _text: self._search_timer.start())
        bar.searchChosen.connect(self.search_and_reveal)
        self._search_timer.timeout.connect(self._on_search_timer)
        for pane in (self.open_pane, self.close_pane):
            pane.layoutReady.connect(self._update_legend)
            pane.layoutReady.connect(self._describe_pending)
            pane.layoutReady.connect(self.update_export_actions)
            pane.nodeToggled.connect(pane.toggle)
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
        kept = (af_open, af_close, mapping)  # by identity: comparing two mappings would compare every fused op
        dropped = [old for old in (self.af_open, self.af_close, self.mapping, self.index)
                   if all(old is not new for new in kept)]
        self.af_open, self.af_close, self.mapping = af_open, af_close, mapping
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
        self.open_pane.set_model(af_open, self._options(fused_side=True), self._filter_spec(self.open_pane, True))
        self.close_pane.set_model(af_close, self._options(fused_side=False),
                                  self._filter_spec(self.close_pane, False))
        self._update_visibility()
        self.retranslate()
        self._update_legend()
        self.update_export_actions()
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

    def open_graphs(self, af_open: Path | None, af_close: Path | None, banner: ErrorBanner | None = None) -> None:
        """Browse graphs without dumps (parsed in the background); failures go to `banner` as sentences."""
        self._banner = banner
        self.loader.load(af_open, af_close)

    def _on_loader_loaded(self, graphs: BrowsedGraphs) -> None:
        self.result = None  # an earlier run's colours belong to other graphs
        self.set_case(graphs.af_open, graphs.af_close, graphs.mapping)

    def _on_loader_failed(self, error: BaseException) -> None:
        report_error(self, error, banner=self._banner)

    def _mark_start(self) -> None:
        """Select the start op in both panes and pick the view it opens on (no layout yet)."""
        if self.start is None:
            return
        name, fused_side = self.start
        around = fused_side and self.index.is_fused(name)
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
        """Forget the case."""
        self.result = None
        self.set_case(None, None, None)

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
        """Slot: a precision table row was selected -> select its fused op (both panes follow)."""
        self._auto_start = False
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


class ExportedPicture:
    """A written picture and what it holds; str() is the path followed by that description."""

    def __init__(self, path: Path, description: str) -> None:
        self.path = path
        self.description = description

    def __str__(self) -> str:
        return f"{self.path} ({self.description})"

    def __fspath__(self) -> str:
        return str(self.path)
