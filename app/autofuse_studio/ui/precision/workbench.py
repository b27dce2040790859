"""PrecisionWorkbench: filter bar, legend, rank × step overview, result table and tensor panel, wired together."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QScrollArea, QSplitter, QVBoxLayout, QWidget

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import ProducerIndex
from autofuse_studio.core.precision.verdict_summary import VerdictSummary
from autofuse_studio.core.session import FocusChanged, ResultChanged, ThresholdsChanged
from autofuse_studio.ui.precision import export
from autofuse_studio.ui.precision.analysis import Analysis
from autofuse_studio.ui.precision.column_fit import fit_result_columns
from autofuse_studio.ui.precision.column_texts import ColumnTexts
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.filter_bar import FilterBar
from autofuse_studio.ui.precision.filters import PrecisionProxyModel, RowFilter
from autofuse_studio.ui.precision.legend import VerdictLegend
from autofuse_studio.ui.precision.notices_panel import NoticesPanel, case_paths
from autofuse_studio.ui.precision.overview import RankStepOverview
from autofuse_studio.ui.precision.result_facts import ResultFacts, optional_columns, result_facts
from autofuse_studio.ui.precision.row_text import describe_row_here
from autofuse_studio.ui.precision.signature_resign import SignatureResigner
from autofuse_studio.ui.precision.table_model import PrecisionTableModel
from autofuse_studio.ui.precision.table_picture import TablePicture, make_picture, save_picture
from autofuse_studio.ui.precision.table_view import PrecisionTableView
from autofuse_studio.ui.session_adapter import SessionAdapter
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner

log = logging.getLogger(__name__)
PICTURE_MAX_ROWS = 1000  # rows in one table picture (about 24 000 px high)
TABLE_MIN_HEIGHT = 150  # px: the header and about five rows
TENSOR_MIN_HEIGHT = 290  # px: the title, the tabs and one row of histograms at their minimum height


class _CompactPage(QWidget):
    """The tab's content: in a scroll area too low for it, it takes its minimum height (only that much scrolls),
    not its preferred one (which would scroll a table and plots stretched beyond what the screen shows).
    It scrolls only vertically: sideways the table scrolls itself, and the page takes the tab's width."""

    def minimumSizeHint(self) -> QSize:
        """The layout's minimum height; no minimum width."""
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        """The minimum size: the scroll area stretches the page to any larger viewport anyway."""
        return self.minimumSizeHint()

    def heightForWidth(self, width: int) -> int:
        """The minimum height (wrapped warnings would otherwise ask for their preferred height)."""
        return min(super().heightForWidth(width), self.minimumSizeHint().height())


class PrecisionWorkbench(QWidget):
    """The precision tab: everything about one result; it follows a Session (its own unless one is given).

    The table's selection and the overview's cell go to the session; what the tensor panel shows, the focus
    and the verdict colours come back from the session's changes, so they always belong to its result.
    """

    rowSelected = Signal(object)  # PrecisionRow
    remoteRowSelected = Signal(str, object)  # host, PrecisionRow of a remote run (its files are on that host)
    focusChanged = Signal(object, object)  # (rank, step) the graph should colour by; None, None: no result

    def __init__(self, parent: QWidget | None = None, session: SessionAdapter | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("precisionWorkbench")
        self.session_events = session if session is not None else SessionAdapter(parent=self)
        self.session = self.session_events.session
        self.result: PrecisionResult | None = None
        self.producers: ProducerIndex = {}
        self.analysis: Analysis | None = None
        self.remote_host: str | None = None  # the rows' files are on this host (Run on: a host profile)
        self._statuses: set[str] = set()
        self.model = PrecisionTableModel(self)
        self.proxy = PrecisionProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.filter_bar = FilterBar()
        self.legend = VerdictLegend()
        self.notices = NoticesPanel()
        self.view = PrecisionTableView()
        self.view.set_proxy(self.proxy)
        self.overview = RankStepOverview()
        self.tensor_panel = self._make_tensor_panel()
        # Threshold edits sign the rows that now fail off the GUI thread (and unsign those that pass).
        self.resigner = SignatureResigner(self)
        self.resigner.changed.connect(self._on_signatures_changed)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("precisionSplitter")
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.tensor_panel)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([500, 500])
        self.splitter.setChildrenCollapsible(False)
        # A few table rows and one row of readable plots at any height; when the tab is lower than that (a 720 px
        # screen with the warnings open) the page scrolls instead of squeezing them or growing the window.
        self.view.setMinimumHeight(TABLE_MIN_HEIGHT)
        self.tensor_panel.setMinimumHeight(max(TENSOR_MIN_HEIGHT, self.tensor_panel.minimumSizeHint().height()))
        page = _CompactPage()
        page.setObjectName("precisionPage")
        column = QVBoxLayout(page)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.filter_bar)
        column.addWidget(self.legend)
        column.addWidget(self.notices)
        column.addWidget(self.overview)
        column.addWidget(self.splitter, 1)
        self.page_scroll = QScrollArea()
        self.page_scroll.setObjectName("precisionScroll")
        self.page_scroll.setWidgetResizable(True)
        self.page_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.page_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.page_scroll.setWidget(page)
        layout = QVBoxLayout(self)
        layout.addWidget(self.page_scroll)
        self.filter_bar.filterChanged.connect(self._on_filter_bar_filter_changed)
        self.overview.cellChosen.connect(self.filter_bar.choose_rank_step)
        self.filter_bar.firstDivergenceRequested.connect(self.go_to_first_divergence)
        self.view.rowSelected.connect(self._on_view_row_selected)
        self.session_events.thresholdsChanged.connect(self._on_session_thresholds_changed)
        self.session_events.resultChanged.connect(self._on_session_result_changed)
        self.session_events.focusChanged.connect(self._on_session_focus_changed)
        self._show_optional_columns(optional_columns([]))  # no rank or statistics column before a case says so

    def _make_tensor_panel(self) -> QWidget:
        panel_class = export.tensor_panel_class()
        if panel_class is not None:
            try:
                panel: QWidget = panel_class()
                return panel
            except Exception:  # a broken optional panel must not take the table down
                log.exception("the tensor panel could not be created")
        self._placeholder = QLabel()
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setWordWrap(True)
        self._placeholder.setText(self.tr("Select a row to see its tensors here."))
        return self._placeholder

    @property
    def focus(self) -> tuple[str | None, str | None]:
        """The rank and step the graph colours by (the session's); (None, None) without a result."""
        return self.session.focus.cell

    @property
    def has_tensor_panel(self) -> bool:
        """True when the real tensor panel (not the placeholder) is embedded."""
        return hasattr(self.tensor_panel, "show_row")

    def changeEvent(self, event: QEvent) -> None:
        """Headers and the placeholder follow the application language."""
        if event.type() == QEvent.Type.LanguageChange:
            self.model.retranslate()
            self.view.retranslate()
            if self.result is not None:  # headers change width with the language
                self._fit_columns(list(self.result.counts("status")))
            if not self.has_tensor_panel:
                self.tensor_panel.setText(self.tr("Select a row to see its tensors here."))  # type: ignore[attr-defined]
        super().changeEvent(event)

    # --- feeding rows ------------------------------------------------------------------------------
    def clear(self) -> None:
        """Forget the current result (the session's too: the graph and the tensor panel follow)."""
        self.result = None
        self.analysis = None
        self.producers = {}
        self._statuses = set()
        self._forget_signatures()
        self.model.clear()
        self.notices.clear()
        self.legend.set_counts({})
        self.filter_bar.set_statuses([])
        self.filter_bar.set_ranks_steps([], [])
        self.filter_bar.set_signatures([])
        self.overview.set_rows([])
        self._show_optional_columns(optional_columns([]))
        self.session.set_result(None)
        # Also when the session had no result already: the previous case's tensors must not stay on show.
        self._clear_tensors(self._no_result_text)

    def append_rows(self, rows: Sequence[PrecisionRow]) -> None:
        """Show streamed rows (verdicts are not known yet)."""
        self.model.append_rows(rows)
        self._show_optional_columns(optional_columns(rows), keep_shown=True)
        new = {row.status for row in rows} - self._statuses
        if new:
            self._statuses |= new
            self.filter_bar.set_statuses(sorted(self._statuses))

    def set_analysis(self, analysis: Analysis) -> None:
        """Show a finished analysis (its result, plus layouts for the tensor panel)."""
        self.set_result(analysis.result, analysis.producers, analysis.facts)
        self.analysis = analysis
        self.notices.set_notices(analysis.result.notices, case_paths(analysis.case),
                                 expanded=not analysis.result.rows)

    def set_result(self, result: PrecisionResult, producers: ProducerIndex, facts: ResultFacts | None = None) -> None:
        """Show a finished result in table order, keeping the selected row (`facts`: of it, if worked out)."""
        if facts is None or not facts.of(result):
            facts = result_facts(result)
        selected = self.view.selected_rows()
        self.analysis = None
        self._forget_signatures()
        self.result = result
        self.producers = producers
        # First: the tensor panel forgets the old result's row before the table shows the new rows.
        self.session.set_result(result, producers)
        self._set_stats_thresholds(result.thresholds)
        self.model.set_rows(result.rows, facts.search_texts)
        self._show_optional_columns(facts.optional_columns)
        self.overview.set_overview(facts.overview)
        grid = facts.overview
        self.filter_bar.set_ranks_steps([rank for rank in grid.ranks if rank is not None], grid.steps)
        self.filter_bar.set_statuses(facts.status_counts)
        if facts.signature_codes is not None:
            self.filter_bar.set_signatures(facts.signature_codes)
        else:
            self.filter_bar.set_signatures_of(result.rows)
        if facts.trend_index is not None and self.has_tensor_panel:
            self.tensor_panel.use_trend_index(result, facts.trend_index)  # type: ignore[attr-defined]
        # The reset above filtered and sorted the rows; again only if a chosen rank, step or status is gone.
        self.proxy.set_filter(self.filter_bar.row_filter())
        self.legend.set_counts(facts.verdict_counts)
        self._fit_columns(list(facts.status_counts), facts.column_texts)
        self._focus_default()
        if selected:
            self.view.select_row(selected[0])

    def apply_thresholds(self, thresholds: Thresholds) -> None:
        """Re-assign verdicts with new thresholds (no metric is recomputed) and recolour: through the session."""
        self.session.set_thresholds(thresholds)

    def _on_session_thresholds_changed(self, change: ThresholdsChanged) -> None:
        if change.summary is not None and self.result is not None and self.result is self.session.result:
            self._show_verdicts(change.thresholds, change.summary)
            self.resigner.settle(self.result, local_files=self.remote_host is None)

    def _forget_signatures(self) -> None:
        """Another result (or none): no signing for the old one goes on, nothing signed for its rows is kept."""
        self.resigner.forget()
        if self.has_tensor_panel:
            self.tensor_panel.forget_signatures()  # type: ignore[attr-defined]

    def _on_signatures_changed(self, rows: list[PrecisionRow]) -> None:
        """Rows gained or lost a signature: their cells, the Signature column and chooser, the tensor outline."""
        if self.result is None:
            return
        self.model.verdicts_changed()
        self._show_optional_columns(optional_columns(self.result.rows))
        self.filter_bar.set_signatures_of(self.result.rows)
        self.proxy.set_filter(self.filter_bar.row_filter())
        shown = self.session.focus.row
        if shown is not None and any(row is shown for row in rows) and self.has_tensor_panel:
            self.tensor_panel.row_signature_changed(shown)  # type: ignore[attr-defined]

    def _show_verdicts(self, thresholds: Thresholds, summary: VerdictSummary) -> None:
        """Recolour the table, legend and overview with verdicts the session assigned."""
        self._set_stats_thresholds(thresholds)
        self.model.verdicts_changed()
        self.legend.set_counts(summary.verdict_counts)
        self.overview.set_overview(summary.overview)
        self.overview.show_chosen(*self.filter_bar.chosen_rank_step())

    def _set_stats_thresholds(self, thresholds: Thresholds) -> None:
        """The statistics limits the table's tooltips and the tensor panel's statistics view judge by."""
        self.model.set_stats_thresholds(thresholds.stats)
        if self.has_tensor_panel:
            self.tensor_panel.set_stats_thresholds(thresholds.stats)  # type: ignore[attr-defined]

    def summary(self) -> str:
        """'58 rows; first divergence: …' for the status line ('' without a result)."""
        if self.result is None:
            return ""
        first = self.result.first_divergence
        text = self.tr("%1 rows; first divergence: %2").replace("%1", str(len(self.result.rows)))
        return text.replace("%2", describe_row_here(first) if first else "-")

    def go_to_first_divergence(self) -> bool:
        """Select the first CULPRIT (clearing filters that hide it); False when there is none."""
        first = self.result.first_divergence if self.result is not None else None
        if first is None:
            return False
        if not self.view.select_row(first):
            self.filter_bar.clear()
            return self.view.select_row(first)
        return True

    # --- view state and exports ----------------------------------------------------------------
    def view_state(self) -> dict[str, Any]:
        """Sort, filter, selection and splitter sizes, for case files."""
        header = self.view.horizontalHeader()
        section = header.sortIndicatorSection()
        row_filter = self.proxy.row_filter
        selected = self.view.selected_rows()
        return {
            "sort_column": COLUMN_KEYS[section] if 0 <= section < len(COLUMN_KEYS) else None,
            "sort_descending": header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder,
            "status": sorted(row_filter.statuses), "verdict": sorted(row_filter.verdicts), "text": row_filter.text,
            "selected": list(selected[0].key) if selected else None,
            "splitter": self.splitter.sizes(),
        }

    def restore_view_state(self, state: dict[str, Any]) -> None:
        """Apply a view_state() dictionary (unknown or stale entries are ignored)."""
        key = state.get("sort_column")
        if key in COLUMN_KEYS:
            order = Qt.SortOrder.DescendingOrder if state.get("sort_descending") else Qt.SortOrder.AscendingOrder
            self.view.sortByColumn(COLUMN_KEYS.index(key), order)
        bar = self.filter_bar
        statuses, verdicts = state.get("status") or [], state.get("verdict") or []
        if len(statuses) == 1:
            bar.status_combo.setCurrentIndex(max(0, bar.status_combo.findData(statuses[0])))
        if len(verdicts) == 1:
            bar.verdict_combo.setCurrentIndex(max(0, bar.verdict_combo.findData(verdicts[0])))
        elif len(verdicts) == 2:
            bar.verdict_combo.setCurrentIndex(1)
        bar.search.setText(str(state.get("text") or ""))
        sizes = state.get("splitter")
        if isinstance(sizes, list) and len(sizes) == 2:
            self.splitter.setSizes([int(size) for size in sizes])
        selected = state.get("selected")
        if selected and self.result is not None:
            wanted = tuple(selected)
            row = next((row for row in self.result.rows if list(row.key) == list(wanted)), None)
            if row is not None:
                self.view.select_row(row)

    def shutdown(self) -> None:
        """Stop the tensor panel's and the signatures' background work (before the window closes)."""
        self.resigner.shutdown()
        if hasattr(self.tensor_panel, "shutdown"):
            self.tensor_panel.shutdown()

    def export_table(self, path: str | Path) -> Path:
        """Write every row (not just the visible ones) as .csv, .json or .xlsx."""
        if self.result is None:
            from autofuse_studio.core.errors import InputError

            raise InputError.of("nothing_to_export")
        return export.export_table(self.result, path)

    def table_picture(self) -> TablePicture:
        """The selected rows (two or more), else the rows in view, with the shown columns in their order."""
        selected = self.view.selected_rows()
        rows = selected if len(selected) > 1 else self.view.visible_rows()
        note = ""
        if len(rows) > PICTURE_MAX_ROWS:
            note = self.tr("… and %1 more selected rows (a picture holds at most %2; export the table for all)")
            note = note.replace("%1", str(len(rows) - PICTURE_MAX_ROWS)).replace("%2", str(PICTURE_MAX_ROWS))
            rows = rows[:PICTURE_MAX_ROWS]
        return make_picture(rows, self.view.visible_columns(), note)

    def export_table_picture(self, path: str | Path) -> Path:
        """Write table_picture() as .png or .svg now."""
        return save_picture(self.table_picture(), path, self.view.font(), self.view.devicePixelRatioF())

    def start_table_picture_export(self, runner: TaskRunner, path: str | Path) -> TaskHandle:
        """Collect the cells now, draw, encode and write them on `runner` (its handle says when and where)."""
        return runner.start(save_picture, self.table_picture(), path, QFont(self.view.font()),
                            self.view.devicePixelRatioF())

    def _fit_columns(self, statuses: list[str], texts: ColumnTexts | None = None) -> None:
        """Size the columns to their contents once per result (see column_fit.fit_result_columns)."""
        assert self.result is not None
        fit_result_columns(self.view, self.proxy, self.result.rows, self.result.first_divergence, statuses, texts)

    # --- rank and step ---------------------------------------------------------------------------
    def _show_optional_columns(self, has_values: dict[str, bool], keep_shown: bool = False) -> None:
        """Rank and Occurrence columns only when some row has one (Rank is first in the default order)."""
        empty = {key for key, shown in has_values.items() if not shown}
        if keep_shown:  # streamed rows only ever add values
            empty &= self.view.empty_columns
        self.view.set_empty_columns(empty)

    def _focus_default(self) -> None:
        """The graph follows the first divergence's rank and step, else the first cell."""
        assert self.result is not None
        first = self.result.first_divergence
        grid = self.overview.grid.overview
        if first is not None:
            self._set_focus(first.rank, first.step)
        elif grid.cells:
            rank, step = next(iter(sorted(grid.cells, key=lambda key: (grid.ranks.index(key[0]),
                                                                            grid.steps.index(key[1])))))
            self._set_focus(rank, step)

    def _set_focus(self, rank: str | None, step: str | None) -> None:
        self.session.focus_cell(rank, step)

    def _on_filter_bar_filter_changed(self, row_filter: RowFilter) -> None:
        self.proxy.set_filter(row_filter)
        rank, step = self.filter_bar.chosen_rank_step()
        self.overview.show_chosen(rank, step)
        if step is not None or rank is not None:
            current_rank, current_step = self.focus
            self._set_focus(rank if rank is not None else current_rank, step if step is not None else current_step)

    def _on_view_row_selected(self, row: PrecisionRow) -> None:
        if self.result is not None and self.session.result is not self.result:
            # Shown without the session (a caller fed set_result's rows another way): the session catches up.
            self.session.set_result(self.result, self.producers)
        self.session.select_row(row)
        self.rowSelected.emit(row)

    def _on_session_result_changed(self, change: ResultChanged) -> None:
        if change.result is not self.result:  # set on the session by someone else: show it here too
            if change.result is None:
                self.clear()
            else:
                self.set_result(change.result, self.session.producers)
            return
        if self.session.focus.row is None:  # the old result's row is gone; a row of this one may follow
            self._clear_tensors(self._no_result_text if change.result is None else self._no_row_text)

    def _on_session_focus_changed(self, change: FocusChanged) -> None:
        if change.cell_changed:
            self.focusChanged.emit(*change.focus.cell)
        if not change.row_changed:
            return
        row = change.focus.row
        if row is None:
            self._clear_tensors(self._no_row_text if self.session.result is not None else self._no_result_text)
        elif self.has_tensor_panel and self.remote_host is not None and self.tensor_panel.needs_files(row):  # type: ignore[attr-defined]
            # Its files are on the host: the window copies them; until then the panel says so (no stale pair).
            self.tensor_panel.show_fetching(row, self.remote_host)  # type: ignore[attr-defined]
            self.remoteRowSelected.emit(self.remote_host, row)
        else:
            self.show_tensors(row)

    def _clear_tensors(self, reason: Callable[[], str]) -> None:
        """Empty the tensor panel (title, plots, tables), saying why."""
        if self.has_tensor_panel:
            self.tensor_panel.clear(reason)  # type: ignore[attr-defined]

    def _no_result_text(self) -> str:
        return self.tr("No result: open a case and analyse it to see tensors here.")

    def _no_row_text(self) -> str:
        if self.result is not None and not self.result.rows:
            return self.tr("This result has no rows: there are no tensors to show.")
        return self.tr("Select a row to see its tensors here.")

    def show_tensors(self, row: PrecisionRow) -> None:
        """Show a row's pair in the tensor panel (errors in its banner; the table stays usable)."""
        if not self.has_tensor_panel:
            return
        try:
            self.tensor_panel.show_row(row)  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - report, keep the table usable
            from autofuse_studio.ui.errors import report_error

            report_error(self, exc)

    def show_tensor_error(self, error: BaseException) -> None:
        """Show why a row's tensors cannot be shown, in the tensor panel's banner."""
        if self.has_tensor_panel:
            from autofuse_studio.ui.errors import report_error

            report_error(self, error, self.tensor_panel.banner)  # type: ignore[attr-defined]
