"""A shown result's summary (under Analyse and in the status line) follows a language switch."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from tests.ui.windows import shown_result_window


def _is_chinese(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)


def _switch(qtbot: QtBot, window: MainWindow, code: str, analyse: str) -> None:
    window.set_language(code)
    qtbot.waitUntil(lambda: window.case_panel.analyse_button.text() == analyse, timeout=5000)


def test_the_summary_is_worded_again_after_a_language_switch(qtbot: QtBot, demo_root: Path) -> None:
    window = shown_result_window(qtbot, demo_root)
    try:
        english = window.statusBar().currentMessage()
        assert "first divergence" in english
        assert window.case_panel.progress_label.text() == english
        _switch(qtbot, window, "zh_CN", "分析")
        chinese = window.statusBar().currentMessage()
        assert _is_chinese(chinese) and "autofuse_" in chinese  # the same first divergence, in Chinese
        assert window.case_panel.progress_label.text() == chinese  # not the drop hint
        _switch(qtbot, window, "en", "Analyse")
        assert window.statusBar().currentMessage() == english
        assert window.case_panel.progress_label.text() == english
    finally:
        window.set_language("en")


def test_another_message_is_not_replaced_by_the_summary(qtbot: QtBot, demo_root: Path) -> None:
    window = shown_result_window(qtbot, demo_root)
    try:
        window.tab_status.show("Saved somewhere", window.workbench)
        _switch(qtbot, window, "zh_CN", "分析")
        assert window.statusBar().currentMessage() == "Saved somewhere"
    finally:
        window.set_language("en")
