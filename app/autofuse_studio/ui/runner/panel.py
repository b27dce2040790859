"""RunnerPanel: verify-tiling from the app — form, Run/Cancel, live console, result card and run history."""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.tiling.local import read_result
from autofuse_studio.ui.process_runner import ProcessOutcome, ProcessRunner, frozen_command
from autofuse_studio.ui.runner.console import LogConsole
from autofuse_studio.ui.runner.form import RunForm
from autofuse_studio.ui.runner.history import HistoryModel, RunRecord
from autofuse_studio.ui.runner.hosts import HostDialog
from autofuse_studio.ui.runner.messages import cli_error, finished_message, host_label, outcome_sentence
from autofuse_studio.ui.settings import AppSettings
from autofuse_studio.ui.widgets.retranslate import Retranslating

_CONFIG_RE = re.compile(r"input-config source=(\S+) aiv_num=(\d+)")
_AIV_ORIGIN_RE = re.compile(r"aiv_num ← (.+)")
TRUSTED_KEY = "runner/trusted_folders"


def runs_folder() -> Path:
    """Where each run's result.json, build.log and input.json are kept (for the history)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base) / "AutofuseStudio" / "runner_runs"


class ResultCard(Retranslating, QGroupBox):
    """Status, block_dim, workspace and the effective aiv_num with its source."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QFormLayout(self)
        self.labels = {name: QLabel("—", wordWrap=True) for name in ("status", "block_dim", "workspace", "aiv_num",
                                                                      "error")}
        self.names = {name: QLabel() for name in self.labels}
        for name, label in self.labels.items():
            layout.addRow(self.names[name], label)
        self._aiv = ("", "")  # aiv_num and its source, shown with a translated "(from ...)"
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language (block_dim and aiv_num are the CLI's field names)."""
        self.setTitle(self.tr("Result"))
        names = {"status": self.tr("status"), "block_dim": "block_dim", "workspace": self.tr("workspace"),
                 "aiv_num": "aiv_num", "error": self.tr("error")}
        for name, text in names.items():
            self.names[name].setText(text)
        aiv_num, aiv_source = self._aiv
        if aiv_num or aiv_source:
            shown = aiv_num or "—"
            if aiv_source:
                shown = self.tr("%1 (from %2)").replace("%1", shown).replace("%2", aiv_source)
            self.labels["aiv_num"].setText(shown)


    def show_record(self, record: RunRecord) -> None:
        """Fill the card from a run record."""
        colour = {"SUCCEEDED": "#1e8449", "RUNNING": "#1f5fbf"}.get(record.status, "#c0392b")
        self.labels["status"].setText(record.status)
        self.labels["status"].setStyleSheet(f"color: {colour}; font-weight: bold")
        self.labels["block_dim"].setText("—" if record.block_dim is None else str(record.block_dim))
        self.labels["workspace"].setText("—" if record.workspace_size is None else str(record.workspace_size))
        self._aiv = (record.aiv_num, record.aiv_source)
        self.labels["aiv_num"].setText(record.aiv_num or "—")
        self.retranslate()
        self.labels["error"].setText(record.error or "")


class RunnerPanel(Retranslating, QWidget):
    """The verify-tiling runner tab; runFinished(RunRecord) fires after every run."""

    runFinished = Signal(object)
    statusMessage = Signal(str)  # a sentence for the window's status bar, in the UI language

    def __init__(self, parent: QWidget | None = None, runner: ProcessRunner | None = None) -> None:
        super().__init__(parent)
        self.runner = runner or ProcessRunner(self)
        self.form = RunForm()
        self.console = LogConsole()
        self.card = ResultCard()
        self.history = HistoryModel(self)
        self.history_view = QTableView()
        self.history_view.setModel(self.history)
        self.history_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.run_button, self.cancel_button = QPushButton(), QPushButton()
        self.rerun_button, self.export_button = QPushButton(), QPushButton()
        self.hosts_button = QPushButton()
        self.history_label = QLabel()
        self.cancel_button.setEnabled(False)
        self._record: RunRecord | None = None
        self._output = ""
        self._build_layout()
        self.form.validityChanged.connect(self._on_form_validity_changed)
        self.run_button.clicked.connect(self.start_run)
        self.cancel_button.clicked.connect(self.cancel_run)
        self.rerun_button.clicked.connect(self._on_rerun_button_clicked)
        self.export_button.clicked.connect(self._on_export_button_clicked)
        self.hosts_button.clicked.connect(self._on_hosts_button_clicked)
        self.runner.output.connect(self._on_runner_output)
        self.runner.finished.connect(self._on_runner_finished)
        self.run_button.setEnabled(not self.form.problems())
        # Re-run needs a chosen history entry and Export a non-empty history: otherwise they could not act.
        self.history_view.selectionModel().selectionChanged.connect(self._on_history_changed)
        for signal in (self.history.rowsInserted, self.history.rowsRemoved, self.history.modelReset):
            signal.connect(self._on_history_changed)
        self._on_history_changed()
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language (the form, card and history translate their own)."""
        self.run_button.setText(self.tr("Run"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.rerun_button.setText(self.tr("Re-run"))
        self.export_button.setText(self.tr("Export…"))
        self.hosts_button.setText(self.tr("Hosts…"))
        self.history_label.setText(self.tr("History"))
        self.console_box.setTitle(self.tr("Console: verify-tiling output"))
        self.console.setPlaceholderText(self.tr(
            "Choose a source folder with *tiling_func*.cpp or output_code.py and press Run: the build and the "
            "tiling run are shown here line by line, stages in blue and errors in red."))
        self.history.retranslate()


    def _build_layout(self) -> None:
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.form)
        buttons = QHBoxLayout()
        for button in (self.run_button, self.cancel_button, self.hosts_button):
            buttons.addWidget(button)
        left_layout.addLayout(buttons)
        left_layout.addWidget(self.card)
        history_buttons = QHBoxLayout()
        history_buttons.addWidget(self.history_label)
        history_buttons.addStretch()
        history_buttons.addWidget(self.rerun_button)
        history_buttons.addWidget(self.export_button)
        left_layout.addLayout(history_buttons)
        left_layout.addWidget(self.history_view)
        # A titled box with a hint, not an empty white rectangle before the first run.
        self.console_box = QGroupBox()
        self.console_box.setObjectName("runnerConsole")
        QVBoxLayout(self.console_box).addWidget(self.console)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.console_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        QVBoxLayout(self).addWidget(splitter)

    def ask_confirmation(self, folder: str) -> bool:
        """Ask once per source folder before its code is compiled and run (replaceable in tests)."""
        answer = QMessageBox.question(
            self, self.tr("Run this code?"),
            self.tr("verify-tiling compiles the C++ code in\n%1\nand runs it with your privileges (on the chosen "
                    "host). Do you trust this folder?").replace("%1", folder))
        return answer == QMessageBox.StandardButton.Yes

    def confirm_folder(self, folder: str) -> bool:
        """True when the folder was trusted before or the user trusts it now (remembered in the settings)."""
        settings = AppSettings()
        trusted = json.loads(str(settings.qsettings.value(TRUSTED_KEY, "[]") or "[]"))
        key = str(Path(folder).resolve())
        if key in trusted:
            return True
        if not self.ask_confirmation(key):
            return False
        settings.qsettings.setValue(TRUSTED_KEY, json.dumps([*trusted, key]))
        settings.sync()
        return True

    def is_running(self) -> bool:
        """True while a run is in progress."""
        return self.runner.is_running()

    def start_run(self) -> bool:
        """Start a run from the form; False when the form is invalid or the user declined."""
        if self.is_running() or self.form.problems():
            return False
        source = self.form.source_edit.text().strip()
        if not self.confirm_folder(source):
            return False
        output = self._new_output_dir()
        json_path = None
        if self.form.uses_json():
            json_path = str(output / "input.json")
            Path(json_path).write_text(self.form.json_edit.toPlainText(), encoding="utf-8")
        args = self.form.arguments(str(output), json_path)
        record = RunRecord(datetime.now().isoformat(timespec="seconds"), str(Path(source).resolve()),
                           self.form.host_combo.currentText(), args, str(output),
                           input_json=self.form.json_edit.toPlainText() if json_path else "")
        self._start(record)
        return True

    def rerun(self, row: int) -> bool:
        """Run a history entry again with the same inputs (into a new output folder)."""
        old = self.history.record(row)
        if self.is_running() or not self.confirm_folder(old.source_dir):
            return False
        output = self._new_output_dir()
        args = list(old.args)
        if "-o" in args:
            args[args.index("-o") + 1] = str(output)
        if old.input_json and "--input-json" in args:
            json_path = output / "input.json"
            json_path.write_text(old.input_json, encoding="utf-8")
            args[args.index("--input-json") + 1] = str(json_path)
        self._start(RunRecord(datetime.now().isoformat(timespec="seconds"), old.source_dir, old.host, args,
                              str(output), input_json=old.input_json))
        return True

    def cancel_run(self) -> None:
        """Stop the run (the CLI stops the build, the tiling process or the remote process group)."""
        self.runner.cancel()

    def _new_output_dir(self) -> Path:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        folder = runs_folder() / f"{stamp}-{uuid.uuid4().hex[:6]}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _start(self, record: RunRecord) -> None:
        self._record, self._output = record, ""
        self.history.add(record)
        self.console.clear_log()
        self.console.append_line(f"[runner] {host_label(record.host)}: verify-tiling {' '.join(record.args)}")
        self.card.show_record(record)
        self._set_running(True)
        self.runner.start(frozen_command(["att", "verify-tiling", *record.args]), what="verify-tiling run")

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running and not self.form.problems())
        self.cancel_button.setEnabled(running)
        self._on_history_changed(running=running)

    def _on_history_changed(self, *_args: object, running: bool | None = None) -> None:
        """Re-run: a history entry is selected and nothing runs; Export: the history has entries."""
        chosen = bool(self.history_view.selectionModel().selectedRows())
        busy = self.is_running() if running is None else running
        self.rerun_button.setEnabled(chosen and not busy)
        self.export_button.setEnabled(self.history.rowCount() > 0)

    def _on_form_validity_changed(self, valid: bool) -> None:
        self.run_button.setEnabled(valid and not self.is_running())

    def _on_runner_output(self, chunk: str) -> None:
        self._output += chunk
        self.console.append_output(chunk)

    def _on_runner_finished(self, outcome: ProcessOutcome) -> None:
        self.console.flush()
        record = self._record
        self._set_running(False)
        if record is None:
            return
        result = read_result(Path(record.output_dir) / "result.json")
        if result is not None:
            record.status = str(result.get("status"))
            fields = result.get("fields") or {}
            record.block_dim, record.workspace_size = fields.get("block_dim"), fields.get("workspace_size")
            record.error = str(result.get("error") or "")
        else:  # no result.json: say how it ended in the UI language, then the CLI's own detail
            record.status = "CANCELLED" if outcome.cancelled else "FAILED"
            detail = "" if outcome.cancelled else cli_error(self.console.error_lines)
            record.error = "\n".join(part for part in (outcome_sentence(outcome), detail) if part)
        config = _CONFIG_RE.search(self._output)
        origin = _AIV_ORIGIN_RE.search(self._output)
        record.aiv_num = config.group(2) if config else ""
        record.aiv_source = origin.group(1).strip() if origin else ""
        self.console.append_line(f"[runner] {outcome_sentence(outcome)}")
        self.card.show_record(record)
        self.history.update_first(record)
        self.runFinished.emit(record)
        self.statusMessage.emit(finished_message(record.host, record.status))

    def _on_rerun_button_clicked(self) -> None:
        rows = self.history_view.selectionModel().selectedRows()
        if rows:
            self.rerun(rows[0].row())

    def _on_export_button_clicked(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export run history"), "runner_history.json",
                                              "JSON (*.json)")
        if path:
            self.history.export(path)

    def _on_hosts_button_clicked(self) -> None:
        HostDialog(self).exec()
        self.form.reload_hosts()
