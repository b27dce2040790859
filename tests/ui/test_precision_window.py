"""The precision tab after the demo case is analysed: thresholds that say what is in force, readable columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from tests.ui.svg_bounds import read_svg
from tests.ui.table_checks import elided_columns
from tests.ui.test_main_window import analysed  # noqa: F401 - fixture (demo_root is in conftest)


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


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_screenshot_has_no_elided_column(qtbot: QtBot, analysed: MainWindow, tmp_path: Path,  # noqa: F811
                                         language: str) -> None:
    window = analysed
    window.set_language(language)
    try:
        window.resize(1600, 1000)
        qtbot.waitExposed(window)
        window.workbench.go_to_first_divergence()
        qtbot.wait(50)
        assert window.grab().save(str(tmp_path / f"window_{language}.png"))
        view = window.workbench.view
        assert elided_columns(view) == {}
        view.scrollToTop()  # the first rows too, not only those around the first divergence
        assert elided_columns(view) == {}
    finally:
        window.set_language("en")
    view = window.workbench.view
    # Rank/step and verdict sit right before the op name; the model's column indexes did not move.
    header = view.horizontalHeader()
    order = [COLUMN_KEYS[header.logicalIndex(visual)] for visual in range(header.count())]
    shown = [key for key in order if not view.isColumnHidden(COLUMN_KEYS.index(key))]
    assert shown[:4] == ["step", "verdict", "fused_op", "fused_index"]
    assert COLUMN_KEYS.index("verdict") == 9 and COLUMN_KEYS.index("step") == 11
    # Two steps: the step column is on screen, so repeated op names are told apart.
    step_left = view.columnViewportPosition(COLUMN_KEYS.index("step"))
    assert 0 <= step_left < view.viewport().width()


def test_file_menu_table_picture_is_written_off_the_gui_thread(qtbot: QtBot, analysed: MainWindow,  # noqa: F811
                                                               tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.ui import file_menu

    window = analysed
    target = tmp_path / "table.svg"
    monkeypatch.setattr(file_menu.QFileDialog, "getSaveFileName", lambda *_args: (str(target), "SVG (*.svg)"))
    window.export_picture_action.trigger()
    qtbot.waitUntil(lambda: str(target) in window.statusBar().currentMessage(), timeout=10_000)
    texts = [text for text, _x, _y in read_svg(target).texts]
    assert "Verdict" in texts and "CULPRIT" in texts  # the rows in view: the first divergence is selected
