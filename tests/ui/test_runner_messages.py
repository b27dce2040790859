"""The runner tab speaks one language per sentence, has a titled console, and its status stays on its tab."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.process_runner import ProcessOutcome, ProcessRunner
from autofuse_studio.ui.runner.messages import cli_detail, cli_error, finished_message, outcome_sentence
from autofuse_studio.ui.runner.panel import RunnerPanel

TIMEOUT_MS = 60_000


@pytest.mark.parametrize(("line", "detail"), [
    ("✗ 无法自动检测场景: '/src' holds neither output_code.py nor a *tiling_func*.cpp file (tf); pass --scene tf.",
     "'/src' holds neither output_code.py nor a *tiling_func*.cpp file (tf); pass --scene tf."),
    ("  ✗ aiv_num = 0 is out of range: it must be an integer in [1, 65535].",
     "aiv_num = 0 is out of range: it must be an integer in [1, 65535]."),
    ("[verify-tiling] 1 problem(s) found before compiling; nothing was built:",
     "1 problem(s) found before compiling; nothing was built:"),
])
def test_cli_detail_drops_the_reference_heading(line: str, detail: str) -> None:
    assert cli_detail(line) == detail


def test_cli_error_skips_lines_that_are_only_a_heading() -> None:
    assert cli_error(["✗ ASCEND_HOME_PATH is not set.", "✗ 编译失败:"]) == "ASCEND_HOME_PATH is not set."


@pytest.mark.parametrize(("outcome", "sentence"), [
    (ProcessOutcome("x", 2, "normal"), "The inputs were refused; nothing was built."),
    (ProcessOutcome("x", 1, "normal"), "The run failed with exit code 1."),
    (ProcessOutcome("x", None, "crashed", signal_name="SIGSEGV"), "verify-tiling crashed (SIGSEGV)."),
    (ProcessOutcome("x", None, "normal", cancelled=True), "The run was cancelled."),
])
def test_outcome_sentences(outcome: ProcessOutcome, sentence: str) -> None:
    assert outcome_sentence(outcome) == sentence
    assert finished_message("local", "FAILED") == "verify-tiling on this computer: FAILED"


@pytest.fixture
def panel(qtbot: QtBot) -> RunnerPanel:
    widget = RunnerPanel(runner=ProcessRunner(grace_period=1.0))
    qtbot.addWidget(widget)
    widget.ask_confirmation = lambda folder: True  # type: ignore[method-assign]
    return widget


def test_console_has_a_title_and_a_hint(panel: RunnerPanel) -> None:
    assert panel.console_box.title() == "Console: verify-tiling output"
    assert "press Run" in panel.console.placeholderText()


def test_a_refused_source_folder_is_said_without_the_reference_heading(panel: RunnerPanel, qtbot: QtBot,
                                                                       tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "other.cpp").write_text("int x;\n", encoding="utf-8")
    panel.form.source_edit.setText(str(source))
    messages: list[str] = []
    panel.statusMessage.connect(messages.append)
    with qtbot.waitSignal(panel.runFinished, timeout=TIMEOUT_MS) as blocker:
        assert panel.start_run()
    record = blocker.args[0]
    first, detail = record.error.splitlines()
    assert first == "The inputs were refused; nothing was built."
    assert "holds neither output_code.py" in detail and "无法" not in detail
    assert panel.card.labels["error"].text() == record.error
    assert panel.console.toPlainText().splitlines()[-1] == "[runner] The inputs were refused; nothing was built."
    assert messages == ["verify-tiling on this computer: FAILED"]


def test_status_messages_belong_to_their_tab(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.tabs.setCurrentIndex(window.tab_status.page(window.att))
    window.att.statusMessage.emit("run.log: 2 file(s)")
    assert window.statusBar().currentMessage() == "run.log: 2 file(s)"
    window.tabs.setCurrentIndex(window.tab_status.page(window.workbench))
    assert window.statusBar().currentMessage() == ""  # no stale ATT message over the table
    window.tab_status.show("58 rows; first divergence: x", window.workbench)
    window.tabs.setCurrentIndex(window.tab_status.page(window.graph))
    assert window.statusBar().currentMessage() == "58 rows; first divergence: x"  # the same case
    window.tabs.setCurrentIndex(window.tab_status.page(window.runner_panel))
    assert window.statusBar().currentMessage() == ""
    window.tabs.setCurrentIndex(0)
    assert window.statusBar().currentMessage() == "58 rows; first divergence: x"  # back again
