"""The GUI shows errors in the UI language (rendered from their codes, core/error_messages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.errors import InputError
from autofuse_studio.ui.errors import ErrorBanner, report_error, user_message
from autofuse_studio.ui.main_window import MainWindow


@pytest.fixture
def window(chinese_window: MainWindow) -> MainWindow:
    """A shown main window in Chinese (tests/ui/conftest.py)."""
    return chinese_window


def _fill(window: MainWindow, tmp_path: Path, graph: Path) -> None:
    close_graph = tmp_path / "close.json"
    close_graph.write_text("{}", encoding="utf-8")
    for role, path in (("af_open_graph", graph), ("af_close_graph", close_graph), ("af_open_data", tmp_path),
                       ("af_close_data", tmp_path)):
        window.case_panel.edits[role].setText(str(path))


def test_a_missing_graph_file_is_said_in_chinese(window: MainWindow, tmp_path: Path) -> None:
    graph = tmp_path / "missing.json"
    _fill(window, tmp_path, graph)
    window.analyse()
    assert window.case_panel.banner.isVisible()
    assert window.case_panel.banner.text() == f"af-open 图 {graph} 不存在或不是文件。"


def test_and_in_english_as_core_says_it(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window.set_language("en")
    qtbot.waitUntil(lambda: window.workbench.notices.toggle.text() == "Warnings")
    graph = tmp_path / "missing.json"
    _fill(window, tmp_path, graph)
    window.analyse()
    assert window.case_panel.banner.text() == f"The af-open graph {graph} does not exist or is not a file."


def test_report_error_renders_a_coded_error_in_chinese(window: MainWindow, qtbot: QtBot) -> None:
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    error = InputError.of("dump_folder_missing", path="/no/such")
    assert report_error(window, error, banner) is banner
    assert banner.text() == "dump 文件夹 /no/such 不存在。" == user_message(error)
    plain = InputError("A sentence without a code.")
    report_error(window, plain, banner)
    assert banner.text() == "A sentence without a code."
