"""PrecisionWorkbench: filter bar, legend, result table and the tensor panel (when installed), wired together."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import ProducerIndex, assign_verdicts
from autofuse_studio.ui.precision import export
from autofuse_studio.ui.precision.analysis import Analysis
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.filter_bar import FilterBar
from autofuse_studio.ui.precision.filters import PrecisionProxyModel
from autofuse_studio.ui.precision.legend import VerdictLegend
from autofuse_studio.ui.precision.table_model import PrecisionTableModel
from autofuse_studio.ui.precision.table_view import PrecisionTableView

log = logging.getLogger(__name__)


class PrecisionWorkbench(QWidget):
    """The precision tab: everything about one result; the window feeds it rows and thresholds."""

    rowSelected = Signal(object)  # PrecisionRow

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("precisionWorkbench")
        self.result: PrecisionResult | None = None
        self.producers: ProducerIndex = {}
        self.analysis: Analysis | None = None
        self._statuses: set[str] = set()
        self.model = PrecisionTableModel(self)
        self.proxy = PrecisionProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.filter_bar = FilterBar()
        self.legend = VerdictLegend()
        self.view = PrecisionTableView()
        self.view.set_proxy(self.proxy)
        self.tensor_panel = self._make_tensor_panel()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("precisionSplitter")
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.tensor_panel)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([500, 500])
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.legend)
        layout.addWidget(self.splitter, 1)
        self.filter_bar.filterChanged.connect(self.proxy.set_filter)
        self.filter_bar.firstDivergenceRequested.connect(self.go_to_first_divergence)
        self.view.rowSelected.connect(self._on_view_row_selected)

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
    def has_tensor_panel(self) -> bool:
        """True when the real tensor panel (not the placeholder) is embedded."""
        return hasattr(self.tensor_panel, "show_row")

    def changeEvent(self, event: QEvent) -> None:
        """Headers and the placeholder follow the application language."""
        if event.type() == QEvent.Type.LanguageChange:
            self.model.retranslate()
            self.view.retranslate()
            if not self.has_tensor_panel:
                self.tensor_panel.setText(self.tr("Select a row to see its tensors here."))  # type: ignore[attr-defined]
        super().changeEvent(event)

    # --- feeding rows ------------------------------------------------------------------------------
    def clear(self) -> None:
        """Forget the current result."""
        self.result = None
        self.analysis = None
        self.producers = {}
        self._statuses = set()
        self.model.clear()
        self.legend.set_counts({})
        self.filter_bar.set_statuses([])

    def append_rows(self, rows: Sequence[PrecisionRow]) -> None:
        """Show streamed rows (verdicts are not known yet)."""
        self.model.append_rows(rows)
        new = {row.status for row in rows} - self._statuses
        if new:
            self._statuses |= new
            self.filter_bar.set_statuses(sorted(self._statuses))

    def set_analysis(self, analysis: Analysis) -> None:
        """Show a finished analysis (its result, plus layouts for the tensor panel)."""
        self.set_result(analysis.result, analysis.producers)
        self.analysis = analysis

    def set_result(self, result: PrecisionResult, producers: ProducerIndex) -> None:
        """Show a finished result in table order, keeping the selected row."""
        selected = self.view.selected_rows()
        self.analysis = None
        self.result = result
        self.producers = producers
        self.model.set_rows(result.rows)
        self.proxy.invalidate()
        self.filter_bar.set_statuses(result.counts("status"))
        self.legend.set_counts(result.counts("verdict"))
        if selected:
            self.view.select_row(selected[0])

    def apply_thresholds(self, thresholds: Thresholds) -> None:
        """Re-assign verdicts with new thresholds (no metric is recomputed) and recolour the table."""
        if self.result is None:
            return
        self.result.thresholds = thresholds
        self.result.first_divergence = assign_verdicts(self.result.rows, thresholds, self.producers)
        self.model.verdicts_changed()
        self.legend.set_counts(self.result.counts("verdict"))

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
        """Stop the tensor panel's background work (before the window closes)."""
        if hasattr(self.tensor_panel, "shutdown"):
            self.tensor_panel.shutdown()

    def export_table(self, path: str | Path) -> Path:
        """Write every row (not just the visible ones) as .csv, .json or .xlsx."""
        if self.result is None:
            from autofuse_studio.core.errors import InputError

            raise InputError("There is no finished analysis to export yet.")
        return export.export_table(self.result, path)

    def export_table_picture(self, path: str | Path) -> Path:
        """The table as seen on screen, as .png or .svg."""
        target = Path(path)
        if target.suffix.lower() == ".svg":
            return export.save_svg(self.view, target, "precision")
        return export.save_png(self.view, target.with_suffix(".png") if not target.suffix else target)

    def _on_view_row_selected(self, row: PrecisionRow) -> None:
        if self.has_tensor_panel:
            try:
                self.tensor_panel.show_row(row)  # type: ignore[attr-defined]
            except Exception as exc:  # noqa: BLE001 - report, keep the table usable
                from autofuse_studio.ui.errors import report_error

                report_error(self, exc)
        self.rowSelected.emit(row)
