"""The precision tab after the demo case is analysed: thresholds that say what is in force, readable columns."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from tests.ui.test_main_window import analysed, demo_root  # noqa: F401 - fixtures


def test_invalid_threshold_keeps_the_check_and_the_status_follows_thresholds(
        qtbot: QtBot, analysed: MainWindow) -> None:  # noqa: F811
    window = analysed
    result = window.workbench.result
    assert result is not None and result.first_divergence is not None
    culprit = result.first_divergence.fused_op
    edit = window.thresholds_editor.edits["cosine"]
    for text in ("abc", "0,99,"):  # what silently disabled the check before
        edit.setText(text)
        edit.editingFinished.emit()
        assert result.first_divergence is not None and result.first_divergence.fused_op == culprit
        assert culprit in window.statusBar().currentMessage()
        assert window.thresholds_editor.problem_label.isVisible()
    edit.setText("0,5")  # a decimal comma: every demo row passes a cosine of 0.5
    edit.editingFinished.emit()
    assert window.thresholds_editor.thresholds().default.cosine == 0.5
    assert result.first_divergence is None or result.first_divergence.fused_op != culprit
    assert culprit not in window.statusBar().currentMessage()
    assert not window.thresholds_editor.problem_label.isVisible()
