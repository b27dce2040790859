"""ThresholdsEditor: default and per-dtype limits (cosine, max abs, max rel; empty means 'not checked') and the
statistics limits of statistics-mode rows (relative difference, absolute floor, NaN/Inf count difference).

Text that is not a valid limit never switches a check off: the field turns red, says why, and the last
valid value stays in force until the text is fixed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.ui.precision.limit_input import LimitField, accepted_text, kept_text, parse_limit_text
from autofuse_studio.ui.widgets.retranslate import Retranslating
from autofuse_studio.ui.widgets.wrap_label import WrapLabel

LIMIT_KEYS = ("cosine", "max_abs", "max_rel")
# Statistics limits: the LimitField key of each StatsLimits field (they are always checked).
STATS_KEYS = {"max_rel": "stats_max_rel", "abs_floor": "stats_abs_floor",
              "max_nonfinite_diff": "stats_max_nonfinite_diff"}
VALUE_ROLE = Qt.ItemDataRole.UserRole + 1  # a per-dtype cell's last valid value (None = not checked)
PROBLEM_ROLE = Qt.ItemDataRole.UserRole + 2  # why the cell's text was refused, or None
INVALID_BRUSH = QBrush(QColor("#f8d0d0"))


def format_limit(value: float | None) -> str:
    """The text shown for a limit."""
    return "" if value is None else f"{value:g}"


class LimitDelegate(QStyledItemDelegate):
    """Per-dtype limit cells: the editor is validated as the user types, like the default fields."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        """A line edit with a LimitField watching it."""
        editor = QLineEdit(parent)
        LimitField(editor, LIMIT_KEYS[index.column() - 1], index.data(VALUE_ROLE))
        return editor

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,
                     index: QModelIndex | QPersistentModelIndex) -> None:
        """Store the text; the table's itemChanged handler decides whether the value changes."""
        assert isinstance(editor, QLineEdit)
        model.setData(index, editor.text())


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
        self.fields = {key: LimitField(edit, key) for key, edit in self.edits.items()}
        for key, edit in self.edits.items():
            edit.setObjectName(f"threshold_{key}")
            edit.textChanged.connect(self._show_problems)
            edit.editingFinished.connect(self._on_edit_editing_finished)
            form.addRow(self.limit_labels[key], edit)
        # Statistics mode (a `dump_data: stats` side): a statistic fails beyond both its relative and absolute limit.
        self.stats_box = QGroupBox()
        self.stats_box.setObjectName("statsLimits")
        stats_form = QFormLayout(self.stats_box)
        self.stats_edits = {name: QLineEdit() for name in STATS_KEYS}
        self.stats_labels = {name: QLabel() for name in STATS_KEYS}
        self.stats_fields = {name: LimitField(edit, STATS_KEYS[name], getattr(StatsLimits(), name))
                             for name, edit in self.stats_edits.items()}
        for name, edit in self.stats_edits.items():
            edit.setObjectName(f"stats_threshold_{name}")
            edit.textChanged.connect(self._show_problems)
            edit.editingFinished.connect(self._on_edit_editing_finished)
            stats_form.addRow(self.stats_labels[name], edit)
        self._stats_per_dtype: dict[str, StatsLimits] = {}  # from a case or thresholds file: kept, not edited here
        # Says which typed text was refused and which value is still used (a tooltip alone is easy to miss).
        self.problem_label = QLabel()
        self.problem_label.setObjectName("thresholdProblems")
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet("color: #b00020;")
        self.problem_label.hide()
        self.dtype_box = QGroupBox()
        self.dtype_table = QTableWidget(0, 4)
        self.dtype_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.dtype_table.verticalHeader().hide()
        self.limit_delegate = LimitDelegate(self.dtype_table)
        for column in range(1, len(LIMIT_KEYS) + 1):
            self.dtype_table.setItemDelegateForColumn(column, self.limit_delegate)
        self.dtype_table.itemChanged.connect(self._on_dtype_table_item_changed)
        self.add_button = QPushButton()
        self.remove_button = QPushButton()
        self.reset_button = QPushButton()
        self.add_button.clicked.connect(self._on_add_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.reset_button.clicked.connect(self._on_reset_clicked)
        self.undo_reset_button = QPushButton()  # a reset is one click away from being undone, not a question
        self.undo_reset_button.setObjectName("undoReset")
        self.undo_reset_button.clicked.connect(self._on_undo_reset_clicked)
        self.undo_reset_button.hide()
        self._before_reset: Thresholds | None = None
        buttons = QHBoxLayout()
        for button in (self.add_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        dtype_layout = QVBoxLayout(self.dtype_box)
        dtype_layout.addWidget(self.dtype_table)
        dtype_layout.addLayout(buttons)
        # Two pages, so the dock needs no more room than before: tensor rows' limits, statistics rows' limits.
        tensor_page, stats_page = QWidget(), QWidget()
        tensor_layout = QVBoxLayout(tensor_page)
        tensor_layout.setContentsMargins(4, 4, 4, 4)
        tensor_layout.addWidget(self.default_box)
        tensor_layout.addWidget(self.dtype_box, 1)
        self.stats_rule = WrapLabel()  # the rule in words, not only in a tooltip
        self.stats_rule.setObjectName("statsRule")
        self.stats_rule.setStyleSheet("color: #444444;")
        stats_layout = QVBoxLayout(stats_page)
        stats_layout.setContentsMargins(4, 4, 4, 4)
        stats_layout.addWidget(self.stats_box)
        stats_layout.addWidget(self.stats_rule)
        stats_layout.addStretch(1)
        self.pages = QTabWidget()
        self.pages.setObjectName("thresholdPages")
        self.pages.addTab(tensor_page, "")
        self.pages.addTab(stats_page, "")
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.problem_label)
        reset_row = QHBoxLayout()
        reset_row.addWidget(self.reset_button, 1)
        reset_row.addWidget(self.undo_reset_button)
        layout.addLayout(reset_row)
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
        for field in self.fields.values():
            field.retranslate()
        self.pages.setTabText(0, self.tr("Tensors"))
        self.pages.setTabText(1, self.tr("Statistics"))
        self.pages.setTabToolTip(1, self.tr("Limits of rows compared by their statistics (statistics dumps)"))
        self.stats_box.setTitle(self.tr("Statistics limits (statistics dumps)"))
        self.stats_rule.setText(self.tr(
            "Rows of statistics dumps are judged by their statistics: Max, Min, Avg or L2 norm fails when it "
            "differs by more than the relative limit and more than the absolute floor; a NaN or Inf count "
            "fails when it differs by more than its limit."))
        stats_labels = (self.tr("Relative difference ≤"), self.tr("Absolute floor"),
                        self.tr("NaN/Inf count difference ≤"))
        for label, text in zip(self.stats_labels.values(), stats_labels, strict=True):
            label.setText(text)
        for field in self.stats_fields.values():
            field.retranslate()
        self.dtype_box.setTitle(self.tr("Per dtype (origin side)"))
        self.dtype_table.setHorizontalHeaderLabels(
            [self.tr("dtype"), self.tr("Cosine"), self.tr("Max abs"), self.tr("Max rel")])
        self.add_button.setText(self.tr("Add dtype"))
        self.remove_button.setText(self.tr("Remove"))
        self.reset_button.setText(self.tr("Reset to defaults"))
        self.reset_button.setToolTip(self.tr("Set every limit back to its default (Undo brings yours back)"))
        self.undo_reset_button.setText(self.tr("Undo reset"))
        with QSignalBlocker(self.dtype_table):
            for row in range(self.dtype_table.rowCount()):
                for column in range(1, len(LIMIT_KEYS) + 1):
                    self._check_cell(row, column)
        self._show_problems()


    def show_statistics_limits(self, statistics: bool) -> None:
        """Bring the statistics limits (True) or the tensor limits (False) to the front."""
        self.pages.setCurrentIndex(1 if statistics else 0)

    def set_thresholds(self, thresholds: Thresholds) -> None:
        """Show `thresholds` without emitting thresholdsChanged."""
        self._forget_reset()
        blockers = [QSignalBlocker(self.dtype_table)]
        for key, field in self.fields.items():
            value = getattr(thresholds.default, key)
            field.set_value(value, format_limit(value))
        for name, field in self.stats_fields.items():
            number = getattr(thresholds.stats.default, name)
            field.set_value(number, format_limit(number))
        self._stats_per_dtype = dict(thresholds.stats.per_dtype)
        self.dtype_table.setRowCount(0)
        for dtype, limits in sorted(thresholds.per_dtype.items()):
            self._append_dtype(dtype, limits)
        del blockers
        self._show_problems()

    def thresholds(self) -> Thresholds:
        """The thresholds in force: the last valid value of each field (rows without a dtype name are ignored)."""
        default = Limits(**{key: field.value for key, field in self.fields.items()})
        per_dtype: dict[str, Limits] = {}
        for row in range(self.dtype_table.rowCount()):
            name_item = self.dtype_table.item(row, 0)
            name = name_item.text().strip() if name_item is not None else ""
            if not name:
                continue
            values = {}
            for column, key in enumerate(LIMIT_KEYS, start=1):
                item = self.dtype_table.item(row, column)
                values[key] = item.data(VALUE_ROLE) if item is not None else None
            per_dtype[name] = Limits(**values)
        stats = StatsLimits(float(self.stats_fields["max_rel"].value or 0.0),
                            float(self.stats_fields["abs_floor"].value or 0.0),
                            int(self.stats_fields["max_nonfinite_diff"].value or 0))
        return Thresholds(default, per_dtype, StatsThresholds(stats, dict(self._stats_per_dtype)))

    def _append_dtype(self, dtype: str, limits: Limits) -> None:
        row = self.dtype_table.rowCount()
        self.dtype_table.insertRow(row)
        self.dtype_table.setItem(row, 0, QTableWidgetItem(dtype))
        for column, key in enumerate(LIMIT_KEYS, start=1):
            value = getattr(limits, key)
            item = QTableWidgetItem(format_limit(value))
            item.setData(VALUE_ROLE, value)
            item.setToolTip(accepted_text(key))
            self.dtype_table.setItem(row, column, item)

    def problems(self) -> list[str]:
        """One sentence per refused text (default fields, then per-dtype cells)."""
        found = [self.limit_labels[key].text() + " " + field.message()
                 for key, field in self.fields.items() if field.message()]
        found += [self.stats_labels[name].text() + " " + field.message()
                  for name, field in self.stats_fields.items() if field.message()]
        for row in range(self.dtype_table.rowCount()):
            name = self.dtype_table.item(row, 0)
            for column in range(1, len(LIMIT_KEYS) + 1):
                item = self.dtype_table.item(row, column)
                if item is not None and item.data(PROBLEM_ROLE):
                    header = self.dtype_table.horizontalHeaderItem(column)
                    where = f"{name.text() if name is not None else ''} {header.text() if header else ''}:"
                    found.append(where + " " + str(item.data(PROBLEM_ROLE)))
        return found

    def _show_problems(self) -> None:
        problems = self.problems()
        self.problem_label.setText("\n".join(problems))
        self.problem_label.setVisible(bool(problems))

    def _check_cell(self, row: int, column: int) -> bool:
        """Validate one per-dtype limit cell; True when its value in force changed."""
        item = self.dtype_table.item(row, column)
        if item is None or column == 0:
            return column == 0
        key = LIMIT_KEYS[column - 1]
        parsed = parse_limit_text(item.text(), key)
        kept = item.data(VALUE_ROLE)
        if parsed.valid:
            item.setData(PROBLEM_ROLE, None)
            item.setData(Qt.ItemDataRole.BackgroundRole, None)
            item.setToolTip(accepted_text(key))
            item.setData(VALUE_ROLE, parsed.value)
            return bool(parsed.value != kept)
        message = kept_text(parsed.error, kept)
        item.setData(PROBLEM_ROLE, message)
        item.setBackground(INVALID_BRUSH)
        item.setToolTip(message + "\n" + accepted_text(key))
        return False

    def _on_dtype_table_item_changed(self, item: QTableWidgetItem) -> None:
        with QSignalBlocker(self.dtype_table):  # the checks below edit the item again
            changed = self._check_cell(item.row(), item.column())
        self._show_problems()
        if changed:
            self._emit()

    def _on_edit_editing_finished(self) -> None:
        for field in (*self.fields.values(), *self.stats_fields.values()):
            field.commit()
        self._show_problems()  # the kept value named in a message may have changed
        self._emit()

    def _emit(self, *_args: Any) -> None:
        thresholds = self.thresholds()
        if self._before_reset is not None and thresholds != Thresholds():
            self._forget_reset()  # edited after the reset: the undo would throw that edit away
        self.thresholdsChanged.emit(thresholds)

    def _forget_reset(self) -> None:
        self._before_reset = None
        self.undo_reset_button.hide()

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
        before = self.thresholds()
        self.set_thresholds(Thresholds())
        if before != Thresholds():
            self._before_reset = before
            self.undo_reset_button.show()
        self._emit()

    def _on_undo_reset_clicked(self) -> None:
        if self._before_reset is not None:
            self.set_thresholds(self._before_reset)  # also hides this button
            self._emit()
