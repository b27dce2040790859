"""RunnerPanel with real QProcess runs of `att verify-tiling`: live output, cancel, history, confirmation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.process_runner import ProcessRunner
from autofuse_studio.ui.runner.console import line_kind
from autofuse_studio.ui.runner.history import HistoryModel
from autofuse_studio.ui.runner.hosts import HostDialog
from autofuse_studio.ui.runner.panel import RunnerPanel
from tests.stub_sdk import expected, needs_build, write_tf_source

TIMEOUT_MS = 60000



@pytest.fixture
def panel(qtbot: QtBot) -> RunnerPanel:
    widget = RunnerPanel(runner=ProcessRunner(grace_period=1.0))
    qtbot.addWidget(widget)
    widget.asked: list[str] = []  # type: ignore[attr-defined]

    def ask(folder: str) -> bool:
        widget.asked.append(folder)  # type: ignore[attr-defined]
        return True

    widget.ask_confirmation = ask  # type: ignore[method-assign]
    return widget


def test_live_abi_validation_in_editor(panel: RunnerPanel, tmp_path: Path) -> None:
    panel.form.source_edit.setText(str(write_tf_source(tmp_path / "src")))
    assert panel.run_button.isEnabled()
    panel.form.params_combo.setCurrentText("Input JSON")
    panel.form.json_edit.setPlainText(json.dumps({"dynamic_dims": [0], "aiv_num": 4, "ub_size": 9,
                                                  "abi": {"kind": "tf_dynamic", "shape_dims": 1,
                                                          "block_dim_width": 32}}))
    assert "dynamic_dims[0] = 0" in panel.form.problems_label.text()
    assert not panel.run_button.isEnabled()
    panel.form.json_edit.setPlainText("{ broken")
    assert "not valid JSON" in panel.form.problems_label.text()


def test_console_marks_stages_and_errors() -> None:
    assert line_kind("=== Compile Check ===") == "stage"
    assert line_kind("✗ Runtime Error: boom") == "error"
    assert line_kind("✓ cmake OK") == "ok"


@needs_build
def test_run_streams_output_and_history_persists(panel: RunnerPanel, qtbot: QtBot, sdk: Path, tmp_path: Path,
                                                 qtmodeltester: object) -> None:
    source = write_tf_source(tmp_path / "src")
    panel.form.source_edit.setText(str(source))
    panel.form.aiv_spin.setValue(5)
    chunks: list[str] = []
    panel.runner.output.connect(chunks.append)
    with qtbot.waitSignal(panel.runFinished, timeout=TIMEOUT_MS) as blocker:
        assert panel.start_run()
    record = blocker.args[0]
    assert len(chunks) > 1  # output arrived in pieces while the run went on
    assert record.status == "SUCCEEDED"
    assert record.block_dim == expected("tf_static", [], aiv_num=5)["block_dim"]
    assert (record.aiv_num, record.aiv_source) == ("5", "--aiv-num")
    assert "=== Compile Check ===" in panel.console.stage_lines
    assert panel.card.labels["status"].text() == "SUCCEEDED"
    qtmodeltester.check(panel.history)  # type: ignore[attr-defined]
    # Persisted: a new model reads the run back; a second run of the same folder asks nothing again.
    again = HistoryModel()
    assert again.rowCount() == 1
    assert again.record(0).status == "SUCCEEDED"
    with qtbot.waitSignal(panel.runFinished, timeout=TIMEOUT_MS):
        assert panel.rerun(0)
    assert len(panel.asked) == 1  # type: ignore[attr-defined]
    assert panel.history.rowCount() == 2
    panel.history.export(tmp_path / "history.json")
    assert len(json.loads((tmp_path / "history.json").read_text())) == 2


@needs_build
def test_cancel_stops_a_hanging_run(panel: RunnerPanel, qtbot: QtBot, sdk: Path, tmp_path: Path) -> None:
    panel.form.source_edit.setText(str(write_tf_source(tmp_path / "src", behaviour="hang")))
    with qtbot.waitSignal(panel.runFinished, timeout=TIMEOUT_MS) as blocker:
        assert panel.start_run()
        qtbot.waitUntil(lambda: "=== Tiling Execution ===" in panel.console.stage_lines, timeout=TIMEOUT_MS)
        assert panel.cancel_button.isEnabled()
        panel.cancel_run()
    assert blocker.args[0].status == "CANCELLED"
    assert panel.card.labels["status"].text() == "CANCELLED"
    assert panel.run_button.isEnabled()


def test_declined_confirmation_does_not_run(panel: RunnerPanel, tmp_path: Path) -> None:
    panel.ask_confirmation = lambda folder: False  # type: ignore[method-assign]
    panel.form.source_edit.setText(str(write_tf_source(tmp_path / "src")))
    assert not panel.start_run()
    assert not panel.is_running()
    assert panel.history.rowCount() == 0


def test_host_dialog_saves_profiles(qtbot: QtBot, panel: RunnerPanel) -> None:
    dialog = HostDialog()
    qtbot.addWidget(dialog)
    dialog.edits["name"].setText("box")
    dialog.edits["destination"].setText("-oProxyCommand=evil")
    assert not dialog.save_current()
    dialog.edits["destination"].setText("me@box")
    assert dialog.save_current()
    panel.form.reload_hosts()
    assert panel.form.host_combo.findText("box") == 1
