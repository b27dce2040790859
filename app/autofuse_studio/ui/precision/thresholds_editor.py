"""ThresholdsEditor: default and per-dtype limits (cosine, max abs, max rel); empty means 'not checked'."""

from __future__ import annotations

import math

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.ui.widgets.retranslate import Retranslating

LIMIT_KEYS = ("cosine", "max_abs", "max_rel")


def parse_limit(text: str) -> float | None:
    """A limit typed by the user: a finite number, or None for empty/invalid text (= not checked)."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def format_limit(value: float | None) -> str:
    """The text shown for a limit."""
    return "" if value is None else f"{value:g}"


class ThresholdsEditor(Retranslating, QWidget):
    """Edits a Thresholds; every change emits thresholdsChanged at once (verdicts update live)."""

    thresholdsChanged = Signal(object)  # Thresholds

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("thresholdsEditor")
        self.edits = {key: QLineEdit() for key in LIMIT_KEYS}
        self.default_box = QGroupBox()
        form = QFormLayout(self.default_box)
        self.limit_labels = {key: QLabel() for key in LIMIT_KEYS}
        for key, edit in self.edits.items():
            edit.setObjectName(f"threshold_{key}")
            edit.editingFinished.connect(self._emit)
            form.addRow(self.limit_labels[key], edit)
        self.dtype_box = QGroupBox()
        self.dtype_table = QTableWidget(0, 4)
        self.dtype_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.dtype_table.verticalHeader().hide()
        self.dtype_table.itemChanged.connect(self._emit)
        self.add_button = QPushButton()
        self.remove_button = QPushButton()
        self.reset_button = QPushButton()
        self.add_button.clicked.connect(self._on_add_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.reset_button.clicked.connect(self._on_reset_clicked)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        dtype_layout = QVBoxLayout(self.dtype_box)
        dtype_layout.addWidget(self.dtype_table)
        dtype_layout.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.default_box)
        layout.addWidget(self.dtype_box, 1)
        layout.addWidget(self.reset_button)
        self.retranslate()
        self.set_thresholds(Thresholds())

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.default_box.setTitle(self.tr("Default limits"))
        labels = (self.tr("Cosine ≥"), self.tr("Max abs err ≤"), self.tr("Max rel err ≤"))
        for label, text in zip(self.limit_labels.values(), labels, strict=True):
            label.setText(text)
        for edit in self.edits.values():
            edit.setPlaceholderText(self.tr("not checked"))
        self.dtype_box.setTitle(self.tr("Per dtype (origin side)"))
        self.dtype_table.setHorizontalHeaderLabels(
            [self.tr("dtype"), self.tr("Cosine"), self.tr("Max abs"), self.tr("Max rel")])
        self.add_button.setText(self.tr("Add dtype"))
        self.remove_button.setText(self.tr("Remove"))
        self.reset_button.setText(self.tr("Reset to defaults"))


    def set_thresholds(self, thresholds: Thresholds) -> None:
        """Show `thresholds` without emitting thresholdsChanged."""
        blockers = [QSignalBlocker(self.dtype_table)]
        for key, edit in self.edits.items():
            edit.setText(format_limit(getattr(thresholds.default, key)))
        self.dtype_table.setRowCount(0)
        for dtype, limits in sorted(thresholds.per_dtype.items()):
            self._append_dtype(dtype, limits)
        del blockers

    def thresholds(self) -> Thresholds:
        """The thresholds shown (rows without a dtype name are ignored)."""
        default = Limits(**{key: parse_limit(edit.text()) for key, edit in self.edits.items()})
        per_dtype: dict[str, Limits] = {}
        for row in range(self.dtype_table.rowCount()):
            name_item = self.dtype_table.item(row, 0)
            name = name_item.text().strip() if name_item is not None else ""
            if not name:
                continue
            values = {}
            for column, key in enumerate(LIMIT_KEYS, start=1):
                item = self.dtype_table.item(row, column)
                values[key] = parse_limit(item.text()) if item is not None else None
            per_dtype[name] = Limits(**values)
        return Thresholds(default, per_dtype)

    def _append_dtype(self, dtype: str, limits: Limits) -> None:
        row = self.dtype_table.rowCount()
        self.dtype_table.insertRow(row)
        self.dtype_table.setItem(row, 0, QTableWidgetItem(dtype))
        for column, key in enumerate(LIMIT_KEYS, start=1):
            self.dtype_table.setItem(row, column, QTableWidgetItem(format_limit(getattr(limits, key))))

    def _emit(self) -> None:
        self.thresholdsChanged.emit(self.thresholds())

    def _on_add_clicked(self) -> None:
        with QSignalBlocker(self.dtype_table):
            self._append_dtype("float16", self.thresholds().default)
        item = self.dtype_table.item(self.dtype_table.rowCount() - 1, 0)
        if item is not None:
            self.dtype_table.editItem(item)
        self._emit()

    def _on_remove_clicked(self) -> None:
        rows = sorted({index.row() for index in self.dtype_table.selectedIndexes()}, reverse=True)
        for row in rows or [self.dtype_table.rowCount() - 1]:
            if row >= 0:
                self.dtype_table.removeRow(row)
        self._emit()

    def _on_reset_clicked(self) -> None:
        self.set_thresholds(Thresholds())
        self._emit()
