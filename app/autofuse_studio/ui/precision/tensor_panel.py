"""TensorPanel: histograms, heatmaps, worst elements and statistics of one pair, computed in the background.

A statistics-mode row (compared by its statistics: no tensors were dumped) shows its two statistic sets instead.
Whatever is shown belongs to the selected row: while a pair is read, or when a row has nothing to show, a cover
over the plots says so, and the title always names the selected row.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.errors import AppError, InputError
from autofuse_studio.core.precision.heatmap import Heatmap, HeatmapAxes, default_axes
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.scatter_points import ScatterPoints, scatter_points
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds
from autofuse_studio.core.precision.stats_pair import stats_ref
from autofuse_studio.core.precision.tensor_stats import SideStats
from autofuse_studio.core.precision.tensor_view import TensorPair, TensorView, ViewOptions, compute_heatmap, view_files
from autofuse_studio.ui.errors import ErrorBanner, report_error
from autofuse_studio.ui.precision.scatter_plot import ScatterPlot
from autofuse_studio.ui.precision.signature_line import SignatureLine
from autofuse_studio.ui.precision.stats_view import StatsComparisonView
from autofuse_studio.ui.precision.tensor_export import PendingPicture, widget_png, widget_svg
from autofuse_studio.ui.precision.tensor_heatmaps import TensorHeatmaps
from autofuse_studio.ui.precision.tensor_models import StatsTableModel, TopKTableModel
from autofuse_studio.ui.precision.tensor_plots import ScenePlots, TensorHistograms
from autofuse_studio.ui.precision.trend_index import TrendIndex, index_rows, trend_key
from autofuse_studio.ui.precision.trend_plot import OpTrend
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.widgets.delayed_busy import DelayedBusy
from autofuse_studio.ui.widgets.progress_bar import ProgressBar
from autofuse_studio.ui.widgets.retranslate import Retranslating

STATUS_MS = 15000


class Cover(QLabel):
    """An opaque sentence over the tensor tabs: what is shown underneath is not the selected row's.

    Showing a child over the plots costs one paint of the label; hiding the plots instead laid the panel
    out again around them (see DelayedBusy).
    """

    def __init__(self, covered: QWidget) -> None:
        super().__init__(covered)
        self._covered = covered
        self.setObjectName("tensorCover")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setAutoFillBackground(True)
        self.setMargin(24)
        self.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # a hint, readable on light and dark palettes
        covered.installEventFilter(self)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Keep covering the widget when it is resized."""
        if event.type() == QEvent.Type.Resize and watched is self._covered:
            self.setGeometry(self._covered.rect())
        return False

    def show_text(self, text: str) -> None:
        """Cover the widget with `text`."""
        self.setText(text)
        self.setGeometry(self._covered.rect())
        self.raise_()
        self.show()


class LazyPage(QWidget):
    """A tab page whose content widget is made the first time it is needed (make())."""

    def __init__(self, kind: type[Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kind = kind
        self.made: Any = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    def make(self) -> Any:
        """The content widget, made now if it was not yet."""
        if self.made is None:
            self.made = self._kind()
            layout = self.layout()
            assert layout is not None
            layout.addWidget(self.made)
        return self.made


def all_zero(stats: SideStats) -> bool:
    """True when a side has elements and every one is exactly 0 (so its norm, and the cosine, is 0)."""
    return stats.elements > 0 and stats.finite == stats.elements and stats.min == 0 and stats.max == 0


def _table(model: TopKTableModel | StatsTableModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setAlternatingRowColors(True)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    view.verticalHeader().setVisible(False)
    return view


class TensorPanel(Retranslating, QWidget):
    """Shows one pair: stats + histograms + heatmaps + top-K from a background task (progress, Cancel)."""

    viewReady = Signal(object)  # TensorView, after the panel shows it
    heatmapReady = Signal(object)  # Heatmap, after new axes were applied
    exported = Signal(str)  # the path a menu export wrote
    scatterReady = Signal(object)  # ScatterPoints, after the scatter plot shows them

    def __init__(self, runner: TaskRunner | None = None, options: ViewOptions | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._owns_runner = runner is None
        # Two workers: a picture being written does not wait for a tensor being summarised.
        self.runner = runner if runner is not None else TaskRunner(self, max_workers=2)
        self._exports: set[TaskHandle] = set()
        self.options = options or ViewOptions()
        self.pair: TensorPair | None = None
        self.view: TensorView | None = None
        self._view_rest: TensorView | None = None  # its plots on the tab not in front: drawn in the next step
        self._handle: TaskHandle | None = None
        self._on_done: Callable[[Any], None] | None = None
        self._title_text = ""  # the shown pair's title; empty: the translated hint
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.zero_note = QLabel()  # why a green row shows cosine 0: both tensors are all zeros
        self.zero_note.setObjectName("zeroNote")
        self.zero_note.setWordWrap(True)
        self.zero_note.hide()
        self.progress = ProgressBar()
        self.progress.setTextVisible(True)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancel)
        self.busy_widgets = DelayedBusy(self.progress, [self.cancel_button], parent=self)
        self.banner = ErrorBanner()
        # The shown row's signature as a sentence, or a button that works it out for a row a run did not sign.
        self.signature_line = SignatureLine(self.runner)
        self.signature_line.signatureChanged.connect(self._show_signature)
        self.histograms = TensorHistograms()
        self.heatmaps = TensorHeatmaps()
        self.heatmaps.axesChanged.connect(self._on_heatmaps_axes_changed)
        self.top_model, self.stats_model = TopKTableModel(self), StatsTableModel(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.histograms, "")
        self.tabs.addTab(self.heatmaps, "")
        self.tabs.addTab(_table(self.top_model), "")
        self.tabs.addTab(_table(self.stats_model), "")
        # Fused against origin (a sample, computed when its tab is shown) and the op across steps and ranks.
        # Their plots are made when a tab is first shown: a panel whose user never looks there builds no
        # pyqtgraph scene for them (each is a GraphicsView, a scene and items that live as long as the panel).
        self.scatter_page, self.trend_page = LazyPage(ScatterPlot), LazyPage(OpTrend)
        self.tabs.addTab(self.scatter_page, "")
        self.tabs.addTab(self.trend_page, "")
        self._scatter_reason: Callable[[], str] | None = None  # what the scatter plot says while it has no points
        self._trend_shown: tuple[list[PrecisionRow], PrecisionRow | None] = ([], None)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self._scatter_handle: TaskHandle | None = None
        self._scatter_pair: TensorPair | None = None  # the pair the scatter plot shows or is computing
        self._trend_source: Any = None  # an object with .result (the session): the rows of every rank and step
        self._trend_result: Any = None
        self._trend_index: TrendIndex = {}
        self._set_scatter_reason(self._empty_text)
        self.cover = Cover(self.tabs)
        self._cover_text: Callable[[], str] | None = None  # the cover's sentence, worded in the current language
        # Statistics-mode rows: the two statistic sets side by side, in place of the tensor tabs.
        self.stats_view = StatsComparisonView()
        self.stats_thresholds = StatsThresholds()
        self.pages = QStackedWidget()
        self.pages.addWidget(self.tabs)
        self.pages.addWidget(self.stats_view)
        self.export_button = QToolButton()
        self.export_button.setObjectName("tensorExport")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.export_menu = QMenu(self.export_button)
        self.export_plots_action = QAction(self.export_menu)
        self.export_plots_action.triggered.connect(self._on_export_plots_triggered)
        self.export_panel_action = QAction(self.export_menu)
        self.export_panel_action.triggered.connect(self._on_export_panel_triggered)
        self.export_menu.addActions([self.export_plots_action, self.export_panel_action])
        self.export_menu.aboutToShow.connect(self._on_export_menu_about_to_show)
        self.export_button.setMenu(self.export_menu)
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.progress)
        header.addWidget(self.cancel_button)
        header.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.signature_line)
        layout.addWidget(self.banner)
        layout.addWidget(self.zero_note)
        layout.addWidget(self.pages, 1)
        self._set_busy(False)
        self.retranslate()
        self._cover(self._empty_text)  # no empty plots with made-up axes before a row is selected

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.zero_note.setText(self.tr(
            "Both tensors are all zeros: their cosine is 0 by its formula, a·b / (|a|·|b| + ε), and the row "
            "is OK because the two are identical."))
        if not self._title_text:
            self.title.setText(self.tr("No tensor pair selected."))
        self.cancel_button.setText(self.tr("Cancel"))
        self.export_button.setText(self.tr("Export"))
        self.export_button.setToolTip(self.tr("Save the plots or the whole panel as PNG or SVG"))
        self.export_plots_action.setText(self.tr("Shown plots (PNG, SVG)…"))
        self.export_panel_action.setText(self.tr("Whole panel (PNG, SVG)…"))
        titles = (self.tr("Histograms"), self.tr("Heatmaps"), self.tr("Worst elements"), self.tr("Statistics"),
                  self.tr("Scatter"), self.tr("Trend"))
        for number, text in enumerate(titles):
            self.tabs.setTabText(number, text)
        self.top_model.retranslate()
        self.stats_model.retranslate()
        if self._cover_text is not None:
            self.cover.setText(self._cover_text())


    @property
    def busy(self) -> bool:
        """True while a computation runs."""
        return self._handle is not None

    @staticmethod
    def row_title(row: PrecisionRow) -> str:
        """'autofuse_3_Mul output 0 vs Mul_1:0' (with the rank and step when the row has them)."""
        translate = QCoreApplication.translate
        where = [translate("TensorPanel", "rank %1").replace("%1", row.rank)] if row.rank is not None else []
        where += [translate("TensorPanel", "step %1").replace("%1", row.step)] if row.step else []
        kinds = {"output": translate("TensorPanel", "output"), "input": translate("TensorPanel", "input")}
        fused = f"{row.fused_op} {kinds.get(row.kind, row.kind)} {row.fused_index}"
        title = translate("TensorPanel", "%1 vs %2").replace("%2", f"{row.origin_op}:{row.origin_index}")
        title = title.replace("%1", fused)
        return f"{title} ({', '.join(where)})" if where else title

    @staticmethod
    def is_statistics_row(row: PrecisionRow) -> bool:
        """True for a row of statistics mode: compared by statistics, or a statistics CSV's tensor on a side."""
        return row.stats is not None or stats_ref(row.fused_file) is not None or stats_ref(row.origin_file) is not None

    def needs_files(self, row: PrecisionRow) -> bool:
        """True when showing the row reads its two tensor files (False: statistics, or no files at all)."""
        return not self.is_statistics_row(row) and row.fused_file is not None and row.origin_file is not None

    def show_row(self, row: PrecisionRow, fused_layout: LayoutInfo | None = None,
                 origin_layout: LayoutInfo | None = None) -> None:
        """Show a result-table row: its pair (its layouts, when known, make the view match the metrics), its
        statistics, or why there is nothing to show."""
        title = self.row_title(row)
        self._show_trend(row)
        self._show_signature(row.signature)
        if self.is_statistics_row(row):
            self.show_statistics(row, title)
        elif row.fused_file is None or row.origin_file is None:
            self._show_nothing(title, lambda: self._no_pair_text(row))
        else:
            self.show_pair(row.fused_file, row.origin_file, fused_layout or row.fused_layout,
                           origin_layout or row.origin_layout, title)
            self.signature_line.show_row(row)  # after show_pair, which forgets the pair shown before

    def row_signature_changed(self, row: PrecisionRow) -> None:
        """The shown `row` gained or lost its signature (a threshold edit): its line and outline follow."""
        self._show_signature(row.signature)
        if self.signature_line.row is row:
            self.signature_line.show_row(row)

    def forget_signatures(self) -> None:
        """Another result is shown: the signatures worked out on demand belonged to the old one's rows."""
        self.signature_line.forget()

    def _show_signature(self, signature: Signature | None) -> None:
        self.heatmaps.set_signature(signature)  # its place outlined (signature_overlay)
        self.histograms.set_signature(signature)  # a permutation's sorted values (sorted_values)

    def follow_results_of(self, source: Any) -> None:
        """Take the trend's rows from `source.result` (the session: every rank and step of the shown result)."""
        self._trend_source = source
        self._trend_result, self._trend_index = None, {}

    def use_trend_index(self, result: object, index: TrendIndex) -> None:
        """The trend's look-up of `result` (rows grouped by index_rows), worked out elsewhere: not again here."""
        self._trend_result, self._trend_index = result, index

    def _show_trend(self, row: PrecisionRow | None) -> None:
        """The selected row's op across the steps and ranks of the current result (none: empty)."""
        if row is None:
            self._set_trend([], None)
            return
        result = getattr(self._trend_source, "result", None)
        if result is not self._trend_result:  # indexed once per result, looked up per selection
            self._trend_result = result
            self._trend_index = index_rows(result.rows) if result is not None else {}
        rows = self._trend_index.get(trend_key(row), [])
        self._set_trend(rows if row in rows else [row], row)

    def _set_trend(self, rows: list[PrecisionRow], row: PrecisionRow | None) -> None:
        self._trend_shown = (rows, row)
        if self.trend_page.made is not None:
            self.trend_page.made.set_rows(rows, row)

    @property
    def trend(self) -> OpTrend:
        """The Trend tab's plots (made when first asked for, showing the selected row's op)."""
        made: OpTrend | None = self.trend_page.made
        if made is None:
            made = self.trend_page.make()
            made.set_rows(*self._trend_shown)
        return made

    @property
    def scatter(self) -> ScatterPlot:
        """The Scatter tab's plot (made when first asked for, saying why it has no points yet)."""
        made: ScatterPlot | None = self.scatter_page.made
        if made is None:
            made = self.scatter_page.make()
            if self._scatter_reason is not None:
                made.show_reason(self._scatter_reason)
        return made

    def _set_scatter_reason(self, text: Callable[[], str]) -> None:
        """Nothing on the scatter plot, and why (kept for a plot made later)."""
        self._scatter_reason = text
        if self.scatter_page.made is not None:
            self.scatter_page.made.show_reason(text)

    def _no_pair_text(self, row: PrecisionRow) -> str:
        text = self.tr("%1:%2 has no file pair to show.").replace("%1", row.fused_op).replace(
            "%2", str(row.fused_index))
        return f"{text}\n{row.message}" if row.message else text

    def show_statistics(self, row: PrecisionRow, title: str | None = None) -> None:
        """Show a statistics-mode row's two statistic sets (no file is read: the row holds them)."""
        self._forget_pair()
        self._set_scatter_reason(lambda: self.tr("Statistics rows have no tensors to plot."))
        self._set_title(title or self.row_title(row))
        self.cover.hide()
        self._cover_text = None
        self.stats_view.show_row(row, self._stats_limits(row))
        self.pages.setCurrentWidget(self.stats_view)

    def show_fetching(self, row: PrecisionRow, host: str) -> None:
        """A remote row's files are being copied from `host`: say so until show_row gets the copies."""
        self._show_nothing(self.row_title(row), lambda: self.tr("Copying the tensors from %1…").replace("%1", host))

    def set_stats_thresholds(self, thresholds: StatsThresholds) -> None:
        """The statistics limits the statistics view judges by; a shown statistics row is judged again."""
        self.stats_thresholds = thresholds
        row = self.stats_view.row
        if row is not None and self.pages.currentWidget() is self.stats_view:
            self.stats_view.show_row(row, self._stats_limits(row))

    def _stats_limits(self, row: PrecisionRow) -> StatsLimits:
        dtype = row.stats.dtype if row.stats is not None else (row.origin_dtype or row.fused_dtype)
        return self.stats_thresholds.limits_for(dtype)

    def clear(self, reason: Callable[[], str] | None = None) -> None:
        """Show nothing (no result, a new one, no row selected): stop the work, forget the pair and the row.

        `reason` words why in the current language (default: select a row).
        """
        self._show_nothing("", reason)

    def _show_nothing(self, title: str, reason: Callable[[], str] | None) -> None:
        """Forget what is shown; the title names the selected row and the cover (or statistics view) says why."""
        self._forget_pair()
        self._set_title(title)
        # Under the cover too: the worst elements and statistics of another pair must not be there to find
        # (the plots stay drawn under it; clearing them would lay the panel out again, see Cover).
        self.top_model.set_elements([])
        self.stats_model.clear()
        self._set_scatter_reason(reason if reason is not None else self._empty_text)
        if not title:  # no row selected (a row without a pair keeps its trend)
            self._show_trend(None)
        if self.pages.currentWidget() is self.stats_view:
            self.stats_view.show_nothing(reason if reason is not None else self._empty_text)
            return
        self._cover(reason if reason is not None else self._empty_text)

    def _empty_text(self) -> str:
        return self.tr("Select a row to see its tensors here.")

    def _cover(self, text: Callable[[], str]) -> None:
        self._cover_text = text
        self.cover.show_text(text())

    def _set_title(self, title: str) -> None:
        self._title_text = title
        self.title.setText(title or self.tr("No tensor pair selected."))

    def _forget_pair(self) -> None:
        """Stop the running computation and drop the shown pair: no late result or old view shows up."""
        if self._handle is not None:
            self._handle.cancel()
            self._end_task()
        self._cancel_scatter()
        self.signature_line.clear()
        self.pair, self.view, self._view_rest = None, None, None
        self.banner.hide()
        self.zero_note.hide()

    def show_pair(self, fused_path: str | Path, origin_path: str | Path, fused_layout: LayoutInfo | None = None,
                  origin_layout: LayoutInfo | None = None, title: str = "") -> None:
        """Open and summarise two NPY files in the background; the panel updates when done."""
        self._forget_pair()
        self._set_title(title or f"{Path(fused_path).name} vs {Path(origin_path).name}")
        self.pages.setCurrentWidget(self.tabs)
        self._cover(lambda: self.tr("Reading the tensors…"))
        self._set_scatter_reason(lambda: self.tr("Reading the tensors…"))
        self._start(self._on_view_finished, view_files, fused_path, origin_path, fused_layout, origin_layout,
                    self.options)

    def set_axes(self, axes: HeatmapAxes) -> None:
        """Recompute the heatmaps for other rows/columns (in the background)."""
        self._finish_view()  # the view's own heatmap first: the new axes' one replaces it, never the reverse
        if self.pair is None:
            return
        self._start(self._on_heatmap_finished, compute_heatmap, self.pair, axes, self.options.max_cells,
                    block_elements=self.options.block_elements)

    def cancel(self) -> None:
        """Stop the running computation (silently); a pair that was being read is not shown."""
        if self._handle is not None:
            self._handle.cancel()
            if self.view is None and self.pages.currentWidget() is self.tabs:
                self._cover(lambda: self.tr("Stopped: select the row again to show its tensors."))

    def shutdown(self) -> None:
        """Cancel work; stop the runner when the panel created it (call before deleting the panel)."""
        self.cancel()
        if self._owns_runner:
            self.runner.shutdown(wait=True)

    def shown_plots(self) -> TensorHistograms | TensorHeatmaps | ScenePlots | None:
        """The current tab's plots (None on the table tabs, the statistics view, or while nothing is shown)."""
        self._finish_view()
        if self.pages.currentWidget() is not self.tabs or self.view is None:
            return None
        current = self.tabs.currentWidget()
        if isinstance(current, LazyPage):
            current = current.made
        return current if isinstance(current, TensorHistograms | TensorHeatmaps | ScenePlots) else None

    def plots_picture(self, suffix: str) -> PendingPicture:
        """The current tab's plots drawn for a '.png' or '.svg' file."""
        plots = self.shown_plots()
        if plots is None:
            raise InputError(self.tr("Choose the Histograms or Heatmaps tab to export its plots."))
        return plots.picture(suffix)

    def panel_picture(self, suffix: str) -> PendingPicture:
        """The whole panel as it looks now, drawn for a '.png' or '.svg' file."""
        self._finish_view()
        return widget_svg(self, self.title.text()) if suffix.lower() == ".svg" else widget_png(self)

    def export_plots(self, path: str | Path) -> Path:
        """The current tab's plots as .png or .svg (by suffix), written now."""
        return self.plots_picture(Path(path).suffix).write(path)

    def export_picture(self, path: str | Path) -> Path:
        """The whole panel as .png or .svg (by suffix), written now."""
        return self.panel_picture(Path(path).suffix).write(path)

    def export_png(self, path: str | Path) -> Path:
        """The panel as it looks now, as PNG (atomic)."""
        self._finish_view()
        return widget_png(self).write(path)

    def export_svg(self, path: str | Path) -> Path:
        """The panel as it looks now, as SVG (atomic)."""
        self._finish_view()
        return widget_svg(self, self.title.text()).write(path)

    def _on_export_menu_about_to_show(self) -> None:
        self.export_plots_action.setEnabled(self.shown_plots() is not None)
        statistics = self.pages.currentWidget() is self.stats_view and self.stats_view.row is not None
        self.export_panel_action.setEnabled(self.view is not None or statistics)

    def _on_export_plots_triggered(self) -> None:
        self._export_via_dialog(self.tr("Export plots"), "tensor_plots.png", self.plots_picture)

    def _on_export_panel_triggered(self) -> None:
        self._export_via_dialog(self.tr("Export tensor panel"), "tensor_panel.png", self.panel_picture)

    def _export_via_dialog(self, caption: str, name: str, draw: Callable[[str], PendingPicture]) -> None:
        """Ask for a file, draw now (GUI thread), encode and write on a worker; say where it went."""
        path, chosen = QFileDialog.getSaveFileName(self, caption, name, "PNG (*.png);;SVG (*.svg)")
        if not path:
            return
        if not Path(path).suffix:
            path += ".svg" if "svg" in chosen.lower() else ".png"
        try:
            picture = draw(Path(path).suffix)
        except AppError as error:
            report_error(self, error, self.banner)
            return
        handle = self.runner.start(picture.write, path)
        self._exports.add(handle)
        handle.finished.connect(self._on_export_finished)
        handle.failed.connect(self._on_export_failed)

    def _on_export_finished(self, written: Path) -> None:
        self._exports.discard(self.sender())
        window = self.window()
        if isinstance(window, QMainWindow):  # where the table exports say what they wrote, too
            window.statusBar().showMessage(self.tr("Saved %1").replace("%1", str(written)), STATUS_MS)
        self.exported.emit(str(written))

    def _on_export_failed(self, error: BaseException) -> None:
        self._exports.discard(self.sender())
        if isinstance(error, OSError):
            error = InputError(self.tr("Could not write the picture: %1").replace("%1", str(error.strerror or error)))
        report_error(self, error, self.banner)

    def _start(self, on_done: Callable[[Any], None], fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self.cancel()
        handle = self.runner.start(fn, *args, **kwargs)
        self._handle, self._on_done = handle, on_done
        # Bound slots (not lambdas): Qt disconnects them when the panel is destroyed, and sender() tells a
        # superseded task's late events apart from the current task's.
        handle.progressed.connect(self._on_task_progressed)
        handle.finished.connect(self._on_task_finished)
        handle.failed.connect(self._on_task_failed)
        handle.cancelled.connect(self._on_task_cancelled)
        self._set_busy(True)

    def _set_busy(self, busy: bool) -> None:
        self.busy_widgets.starting_text = self.tr("starting")
        if busy:
            self.busy_widgets.start()
        else:
            self.busy_widgets.stop()

    def _current(self) -> bool:
        return self._handle is not None and self.sender() is self._handle

    def _end_task(self) -> Callable[[Any], None] | None:
        on_done, self._handle, self._on_done = self._on_done, None, None
        self._set_busy(False)
        return on_done

    def _on_task_progressed(self, done: int, total: int, message: str) -> None:
        if self._current() and total > 0:
            self.busy_widgets.progressed(done, total, message)

    def _on_task_finished(self, result: Any) -> None:
        if self._current():
            on_done = self._end_task()
            if on_done is not None:
                on_done(result)

    def _on_task_failed(self, exc: BaseException) -> None:
        if self._current():
            self._end_task()
            report_error(self, exc, self.banner)
            if self.view is None:  # the pair could not be read: nothing of another pair stays under its title
                self._cover(lambda: self.tr("Nothing to show: the tensors could not be read."))

    def _on_task_cancelled(self) -> None:
        if self._current():
            self._end_task()

    def _on_view_finished(self, result: tuple[TensorPair, TensorView]) -> None:
        self.pair, self.view = result
        self.cover.hide()
        self._cover_text = None
        view = self.view
        axes = self.options.axes or default_axes(view.shape, self.pair.layout)
        self.heatmaps.set_axes_choices(view.axis_names, view.shape, axes)
        # The histograms and the heatmaps take ~10 ms of pyqtgraph each: the tab in front gets its plots now,
        # the other one in the next event-loop step (after this one's paint), so no step holds the window for
        # both. Until then nothing can show the other tab's old plots: see _finish_view's callers.
        if self.tabs.currentWidget() is self.heatmaps:
            self.heatmaps.set_heatmap(view.heatmap)
        else:
            self.histograms.set_view(view)
        self._view_rest = view
        self.top_model.set_elements(view.top)
        self.stats_model.set_stats(view.fused_stats, view.origin_stats)
        self.zero_note.setVisible(all_zero(view.fused_stats) and all_zero(view.origin_stats))
        self._set_scatter_reason(lambda: self.tr("Sampling the pair…"))
        if self.tabs.currentWidget() is self.scatter_page:
            self._start_scatter()
        QTimer.singleShot(1, self, self._finish_view)

    def _finish_view(self) -> None:
        """The shown view's plots on the tab that was not in front (if still pending), then viewReady."""
        view, self._view_rest = self._view_rest, None
        if view is None or view is not self.view:
            return  # done already, or another pair (or none) is shown by now
        if self.histograms.view is not view:
            self.histograms.set_view(view)
        else:
            self.heatmaps.set_heatmap(view.heatmap)
        self.viewReady.emit(view)

    # --- scatter: sampled on a worker when its tab is shown, for the shown pair only --------------------
    def _on_tabs_current_changed(self, _index: int) -> None:
        self._finish_view()  # the tab coming to front must not show the previous pair's plots
        current = self.tabs.currentWidget()
        if current is self.trend_page:
            _ = self.trend  # made now, with the selected row's op
        if current is self.scatter_page:
            _ = self.scatter
            if self.pair is not None and self._scatter_pair is not self.pair:
                self._start_scatter()

    def _start_scatter(self) -> None:
        self._cancel_scatter()
        pair, view = self.pair, self.view
        if pair is None or view is None:
            return
        self._scatter_pair = pair
        handle = self._scatter_handle = self.runner.start(scatter_points, pair, list(view.top))
        handle.finished.connect(self._on_scatter_finished)
        handle.failed.connect(self._on_scatter_failed)

    def _cancel_scatter(self) -> None:
        if self._scatter_handle is not None:
            self._scatter_handle.cancel()
        self._scatter_handle, self._scatter_pair = None, None

    def _on_scatter_finished(self, points: ScatterPoints) -> None:
        if self._scatter_handle is None or self.sender() is not self._scatter_handle:
            return  # a superseded pair's sample
        self._scatter_handle, self._scatter_reason = None, None
        self.scatter.set_points(points)
        self.scatterReady.emit(points)

    def _on_scatter_failed(self, error: BaseException) -> None:
        if self._scatter_handle is None or self.sender() is not self._scatter_handle:
            return
        self._scatter_handle, self._scatter_pair = None, None
        self._set_scatter_reason(lambda: self.tr("Nothing to show: the tensors could not be read."))
        report_error(self, error, self.banner)

    def _on_heatmap_finished(self, heatmap: Heatmap) -> None:
        self.heatmaps.set_heatmap(heatmap)
        self.heatmapReady.emit(heatmap)

    def _on_heatmaps_axes_changed(self, axes: HeatmapAxes) -> None:
        self.set_axes(axes)
