"""TensorPanel: histograms, heatmaps, worst elements and statistics of one pair, computed in the background."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
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
from autofuse_studio.core.precision.tensor_view import TensorPair, TensorView, ViewOptions, compute_heatmap, view_files
from autofuse_studio.ui.errors import ErrorBanner, report_error
from autofuse_studio.ui.precision.tensor_export import PendingPicture, widget_png, widget_svg
from autofuse_studio.ui.precision.tensor_heatmaps import TensorHeatmaps
from autofuse_studio.ui.precision.tensor_models import StatsTableModel, TopKTableModel
from autofuse_studio.ui.precision.tensor_plots import TensorHistograms
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.widgets.delayed_busy import DelayedBusy
from autofuse_studio.ui.widgets.retranslate import Retranslating

STATUS_MS = 15000


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
        self._handle: TaskHandle | None = None
        self._on_done: Callable[[Any], None] | None = None
        self._title_text = ""  # the shown pair's title; empty: the translated hint
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancel)
        self.busy_widgets = DelayedBusy(self.progress, [self.cancel_button], parent=self)
        self.banner = ErrorBanner()
        self.histograms = TensorHistograms()
        self.heatmaps = TensorHeatmaps()
        self.heatmaps.axesChanged.connect(self._on_heatmaps_axes_changed)
        self.top_model, self.stats_model = TopKTableModel(self), StatsTableModel(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.histograms, "")
        self.tabs.addTab(self.heatmaps, "")
        self.tabs.addTab(_table(self.top_model), "")
        self.tabs.addTab(_table(self.stats_model), "")
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
        layout.addWidget(self.banner)
        layout.addWidget(self.tabs, 1)
        self._set_busy(False)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        if not self._title_text:
            self.title.setText(self.tr("No tensor pair selected."))
        self.cancel_button.setText(self.tr("Cancel"))
        self.export_button.setText(self.tr("Export"))
        self.export_button.setToolTip(self.tr("Save the plots or the whole panel as PNG or SVG"))
        self.export_plots_action.setText(self.tr("Shown plots (PNG, SVG)…"))
        self.export_panel_action.setText(self.tr("Whole panel (PNG, SVG)…"))
        titles = (self.tr("Histograms"), self.tr("Heatmaps"), self.tr("Worst elements"), self.tr("Statistics"))
        for number, text in enumerate(titles):
            self.tabs.setTabText(number, text)
        self.top_model.retranslate()
        self.stats_model.retranslate()


    @property
    def busy(self) -> bool:
        """True while a computation runs."""
        return self._handle is not None

    def show_row(self, row: PrecisionRow, fused_layout: LayoutInfo | None = None,
                 origin_layout: LayoutInfo | None = None) -> None:
        """Show a result-table row's pair (its layouts, when known, make the view match the metrics)."""
        if row.fused_file is None or row.origin_file is None:
            message = self.tr("%1:%2 has no file pair to show.").replace("%1", row.fused_op).replace(
                "%2", str(row.fused_index))
            report_error(self, InputError(message), self.banner)
            return
        title = f"{row.fused_op} {row.kind} {row.fused_index} vs {row.origin_op}:{row.origin_index}"
        self.show_pair(row.fused_file, row.origin_file, fused_layout or row.fused_layout,
                       origin_layout or row.origin_layout, title)

    def show_pair(self, fused_path: str | Path, origin_path: str | Path, fused_layout: LayoutInfo | None = None,
                  origin_layout: LayoutInfo | None = None, title: str = "") -> None:
        """Open and summarise two NPY files in the background; the panel updates when done."""
        self._title_text = title or f"{Path(fused_path).name} vs {Path(origin_path).name}"
        self.title.setText(self._title_text)
        self.banner.hide()
        self._start(self._on_view_finished, view_files, fused_path, origin_path, fused_layout, origin_layout,
                    self.options)

    def set_axes(self, axes: HeatmapAxes) -> None:
        """Recompute the heatmaps for other rows/columns (in the background)."""
        if self.pair is None:
            return
        self._start(self._on_heatmap_finished, compute_heatmap, self.pair, axes, self.options.max_cells,
                    block_elements=self.options.block_elements)

    def cancel(self) -> None:
        """Stop the running computation (silently) and keep what is shown."""
        if self._handle is not None:
            self._handle.cancel()

    def shutdown(self) -> None:
        """Cancel work; stop the runner when the panel created it (call before deleting the panel)."""
        self.cancel()
        if self._owns_runner:
            self.runner.shutdown(wait=True)

    def shown_plots(self) -> TensorHistograms | TensorHeatmaps | None:
        """The plots of the current tab (None on the table tabs)."""
        current = self.tabs.currentWidget()
        return current if isinstance(current, TensorHistograms | TensorHeatmaps) else None

    def plots_picture(self, suffix: str) -> PendingPicture:
        """The current tab's plots drawn for a '.png' or '.svg' file."""
        plots = self.shown_plots()
        if plots is None:
            raise InputError(self.tr("Choose the Histograms or Heatmaps tab to export its plots."))
        return plots.picture(suffix)

    def panel_picture(self, suffix: str) -> PendingPicture:
        """The whole panel as it looks now, drawn for a '.png' or '.svg' file."""
        return widget_svg(self, self.title.text()) if suffix.lower() == ".svg" else widget_png(self)

    def export_plots(self, path: str | Path) -> Path:
        """The current tab's plots as .png or .svg (by suffix), written now."""
        return self.plots_picture(Path(path).suffix).write(path)

    def export_picture(self, path: str | Path) -> Path:
        """The whole panel as .png or .svg (by suffix), written now."""
        return self.panel_picture(Path(path).suffix).write(path)

    def export_png(self, path: str | Path) -> Path:
        """The panel as it looks now, as PNG (atomic)."""
        return widget_png(self).write(path)

    def export_svg(self, path: str | Path) -> Path:
        """The panel as it looks now, as SVG (atomic)."""
        return widget_svg(self, self.title.text()).write(path)

    def _on_export_menu_about_to_show(self) -> None:
        self.export_plots_action.setEnabled(self.shown_plots() is not None and self.view is not None)
        self.export_panel_action.setEnabled(self.view is not None)

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

    def _on_task_cancelled(self) -> None:
        if self._current():
            self._end_task()

    def _on_view_finished(self, result: tuple[TensorPair, TensorView]) -> None:
        self.pair, self.view = result
        view = self.view
        axes = self.options.axes or default_axes(view.shape, self.pair.layout)
        self.heatmaps.set_axes_choices(view.axis_names, view.shape, axes)
        self.histograms.set_view(view)
        self.heatmaps.set_heatmap(view.heatmap)
        self.top_model.set_elements(view.top)
        self.stats_model.set_stats(view.fused_stats, view.origin_stats)
        self.viewReady.emit(view)

    def _on_heatmap_finished(self, heatmap: Heatmap) -> None:
        self.heatmaps.set_heatmap(heatmap)
        self.heatmapReady.emit(heatmap)

    def _on_heatmaps_axes_changed(self, axes: HeatmapAxes) -> None:
        self.set_axes(axes)
