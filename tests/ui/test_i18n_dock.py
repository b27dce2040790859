"""The texts this issue added follow a live switch to Chinese (and back): warnings panel, case dock, runner,
hosts dialog, the perf canvas' note and the 0-rows sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.workspace import load_workspace
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.runner.hosts import HostDialog
from tests.synth import demo_spec, generate_case

WAIT_MS = 30_000


@pytest.fixture
def window(chinese_window: MainWindow) -> MainWindow:
    """A shown main window in Chinese (tests/ui/conftest.py)."""
    return chinese_window


def test_new_texts_are_chinese(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    assert window.workbench.notices.toggle.text() == "警告"
    assert window.runner_panel.console_box.title() == "控制台：verify-tiling 输出"
    edit = window.case_panel.edits["af_open_graph"]
    edit.setText(str(tmp_path / "missing.json"))
    assert edit.toolTip().splitlines()[0] == "此路径下没有文件。"
    dialog = HostDialog()
    qtbot.addWidget(dialog)
    assert dialog.test_button.text() == "测试连接"
    junk = tmp_path / "junk.log"
    junk.write_text("hello\n", encoding="utf-8")
    window.att.perf.set_workspace(load_workspace([junk]))
    assert window.att.perf.canvas.message.startswith("1 个文件")
    window.set_language("en")
    qtbot.waitUntil(lambda: window.workbench.notices.toggle.text() == "Warnings")
    assert window.att.perf.canvas.message.startswith("No [PERF] lines")  # the note follows the switch


def test_the_empty_run_sentence_is_chinese(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    manifest = generate_case(root, demo_spec())
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"graph": [{"name": "g", "op": [{"name": "a", "type": "Add"}]}]}), encoding="utf-8")
    edits = window.case_panel.edits
    for role, path in (("af_open_graph", plain), ("af_close_graph", root / manifest.graphs["af_close"]),
                       ("af_open_data", root / manifest.data["af_open"]),
                       ("af_close_data", root / manifest.data["af_close"])):
        edits[role].setText(str(path))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.analyse()
    assert window.statusBar().currentMessage().startswith("0 行：af-open 图中没有融合算子")
