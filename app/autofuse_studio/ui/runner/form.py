"""The runner panel's input form: source folder (drag and drop), scene, parameters with live ABI checks, host."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.remote.profiles import load_entries
from autofuse_studio.core.tiling.params import PRESETS, parse_input_json, scene_problems, validate_params
from autofuse_studio.ui.errors import user_message
from autofuse_studio.ui.widgets.drops import local_paths, take_local_drop
from autofuse_studio.ui.widgets.retranslate import Retranslating

PARAM_MODES = ("A", "B", "json")  # item data of the parameters combo: preset letters or the JSON editor
INPUT_JSON = "json"
LOCAL = "local"


def preset_json(name: str) -> str:
    """A preset's values as the editor shows them."""
    return json.dumps(PRESETS[name], indent=2)


class RunForm(Retranslating, QWidget):
    """Collects one verify-tiling run; validityChanged tells whether Run may be pressed."""

    validityChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.source_edit = QLineEdit()
        self.scene_combo = QComboBox()
        self.scene_combo.addItems(["auto", "tf", "inductor"])
        self.params_combo = QComboBox()
        for mode in PARAM_MODES:
            self.params_combo.addItem(mode, mode)
        self.json_edit = QPlainTextEdit(preset_json(str(self.params_combo.currentData())))
        self.json_edit.setMaximumHeight(140)
        self._custom_json: str | None = None  # the user's own editor text, kept while a preset is shown
        self._shown_mode = str(self.params_combo.currentData())
        self._source_touched = False  # no red "choose a folder" before the user did anything
        self.hint_label = QLabel(wordWrap=True)  # neutral first step, in the palette's text colour
        self.problems_label = QLabel(wordWrap=True)
        self.problems_label.setStyleSheet("color: #c0392b")
        self.aiv_spin = QSpinBox(minimum=0, maximum=65535)
        self.config_edit = QLineEdit()
        self.host_combo = QComboBox()
        self.keep_check = QCheckBox()
        self.browse_buttons: list[QPushButton] = []
        self.row_labels: dict[str, QLabel] = {}
        self._build_layout()
        self.retranslate()
        self.reload_hosts()
        self.source_edit.textChanged.connect(self._on_source_changed)
        self.json_edit.textChanged.connect(self._on_input_changed)
        self.scene_combo.currentIndexChanged.connect(self._on_input_changed)
        self.params_combo.currentIndexChanged.connect(self._on_params_mode_changed)
        self._on_input_changed()

    def _build_layout(self) -> None:
        layout = QFormLayout(self)
        rows: tuple[tuple[str, QWidget], ...] = (
            ("source", self._with_browse(self.source_edit, folder=True)), ("scene", self.scene_combo),
            ("params", self.params_combo), ("json", self.json_edit), ("", self.hint_label),
            ("", self.problems_label),
            ("aiv", self.aiv_spin), ("config", self._with_browse(self.config_edit, folder=False)),
            ("host", self.host_combo), ("", self.keep_check))
        for key, widget in rows:
            if key:
                self.row_labels[key] = QLabel()
                layout.addRow(self.row_labels[key], widget)
            else:
                layout.addRow("", widget)

    def retranslate(self) -> None:
        """Texts in the current language (scene names, presets' letters and host names are identifiers)."""
        labels = {"source": self.tr("Source folder"), "scene": self.tr("Scene"), "params": self.tr("Parameters"),
                  "json": self.tr("Input JSON"), "aiv": self.tr("aiv_num override"),
                  "config": self.tr("Compile config"), "host": self.tr("Target host")}
        for key, text in labels.items():
            self.row_labels[key].setText(text)
        for number, text in enumerate((self.tr("Preset A"), self.tr("Preset B"), self.tr("Input JSON"))):
            self.params_combo.setItemText(number, text)
        self.source_edit.setPlaceholderText(self.tr("folder with *tiling_func*.cpp or output_code.py (drop it here)"))
        self.config_edit.setPlaceholderText(self.tr("compile.toml (default ~/.att_analyze/compile.toml)"))
        self.aiv_spin.setSpecialValueText(self.tr("from parameters"))
        self.keep_check.setText(self.tr("keep the build folder"))
        for button in self.browse_buttons:
            button.setText(self.tr("Browse…"))
        self._on_input_changed()


    def _with_browse(self, edit: QLineEdit, folder: bool) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(edit)
        button = QPushButton()
        self.browse_buttons.append(button)
        row.addWidget(button)

        def browse() -> None:
            path = (QFileDialog.getExistingDirectory(self, self.tr("Source folder")) if folder
                    else QFileDialog.getOpenFileName(self, "compile.toml", "", "TOML (*.toml)")[0])
            if path:
                edit.setText(path)

        button.clicked.connect(browse)
        return box

    def reload_hosts(self) -> None:
        """Refill the host list: local first, then the saved profiles."""
        current = self.host_combo.currentText()
        self.host_combo.clear()
        self.host_combo.addItem(LOCAL)
        try:
            entries = load_entries()
        except AppError as exc:
            self.problems_label.setText(user_message(exc))
            entries = []
        self.host_combo.addItems([entry.profile.name for entry in entries if entry.profile is not None])
        broken = [entry.problem for entry in entries if entry.problem]
        if broken:  # left out of the list; the Hosts… dialog shows and repairs them
            self.problems_label.setText("\n".join(f"✗ {problem}" for problem in broken))
        self.host_combo.setToolTip("\n".join(broken))
        index = self.host_combo.findText(current)
        self.host_combo.setCurrentIndex(max(index, 0))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept a dragged local folder."""
        paths = local_paths(event.mimeData())
        if paths and Path(paths[0]).is_dir():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """A dropped folder becomes the source folder."""
        paths = take_local_drop(event)
        if paths:
            self.source_edit.setText(paths[0])

    def uses_json(self) -> bool:
        """True when the input JSON editor supplies the parameters."""
        return bool(self.params_combo.currentData() == INPUT_JSON)

    def _on_source_changed(self) -> None:
        self._source_touched = True
        self._on_input_changed()

    def _on_params_mode_changed(self) -> None:
        """The editor always shows the parameters a run would use: a preset's own values, or the user's JSON."""
        mode = str(self.params_combo.currentData())
        if self._shown_mode == INPUT_JSON and mode != INPUT_JSON:
            self._custom_json = self.json_edit.toPlainText()
        self._shown_mode = mode
        if mode in PRESETS:
            self.json_edit.setPlainText(preset_json(mode))
        elif self._custom_json is not None:
            self.json_edit.setPlainText(self._custom_json)
        # else: start editing from the preset shown last
        self._on_input_changed()

    def _source_problem(self) -> str:
        return self.tr("Choose an existing source folder.")

    def problems(self) -> list[str]:
        """Everything that stops a run, one sentence each (live ABI and range checks of the editor)."""
        problems = []
        source = self.source_edit.text().strip()
        if not source or not Path(source).is_dir():
            problems.append(self._source_problem())
        values: dict[str, object] = dict(PRESETS.get(str(self.params_combo.currentData()), {}))
        if self.uses_json():
            try:
                values = parse_input_json(self.json_edit.toPlainText(), "editor").values
            except AppError as exc:
                return [*problems, user_message(exc)]
            problems += validate_params(values)
        scene = self.scene_combo.currentText()  # a preset is checked against the scene like the editor's JSON
        abi = values.get("abi")
        if scene != "auto" and isinstance(abi, dict):
            problems += scene_problems(scene, abi)
        return problems

    def _on_input_changed(self) -> None:
        self.json_edit.setEnabled(self.uses_json())
        problems = self.problems()
        shown = problems
        hint = ""
        if not self._source_touched and not self.source_edit.text().strip():
            shown = [p for p in problems if p != self._source_problem()]
            hint = self.tr("Start by choosing the source folder (or drop it here).")
        self.hint_label.setText(hint)
        self.hint_label.setVisible(bool(hint))
        self.problems_label.setText("\n".join(f"✗ {p}" for p in shown))
        self.validityChanged.emit(not problems)

    def arguments(self, output_dir: str, input_json_path: str | None) -> list[str]:
        """verify-tiling arguments for this form (after the subcommand)."""
        args = [self.source_edit.text().strip()]
        if self.scene_combo.currentText() != "auto":
            args += ["--scene", self.scene_combo.currentText()]
        if self.uses_json() and input_json_path:
            args += ["--input-json", input_json_path]
        else:
            args += ["--preset", str(self.params_combo.currentData())]
        if self.aiv_spin.value():
            args += ["--aiv-num", str(self.aiv_spin.value())]
        if self.config_edit.text().strip():
            args += ["--compile-config", self.config_edit.text().strip()]
        if self.keep_check.isChecked():
            args.append("--keep-build")
        if self.host_combo.currentText() != LOCAL:
            args += ["--host", self.host_combo.currentText()]
        return [*args, "-o", output_dir]
