"""Thresholds editor: decimal commas are accepted, invalid text never switches a check off, it says so."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.ui.precision.limit_input import INVALID_STYLE, parse_limit_text
from autofuse_studio.ui.precision.thresholds_editor import PROBLEM_ROLE, ThresholdsEditor, format_limit


@pytest.mark.parametrize(("text", "value"), [
    ("0.99", 0.99), ("0,99", 0.99), (" 0.995 ", 0.995), ("1e-3", 0.001), ("1E-3", 0.001), (".5", 0.5),
    ("０．９９", 0.99), ("０，９９", 0.99), ("0。99", 0.99), ("-0,5", -0.5), ("−0.5", -0.5), ("", None), ("  ", None),
])
def test_parse_accepts_points_commas_and_full_width(text: str, value: float | None) -> None:
    parsed = parse_limit_text(text, "cosine", QLocale(QLocale.Language.English))
    assert parsed.valid and parsed.value == pytest.approx(value) if value is not None else parsed.value is None


@pytest.mark.parametrize(("text", "key"), [
    ("abc", "cosine"), ("0.9.9", "cosine"), ("nan", "cosine"), ("inf", "max_abs"), ("1,2,3", "max_abs"),
    ("1.5", "cosine"), ("-2", "cosine"), ("-0.1", "max_abs"), ("0x10", "max_rel"), ("1_000", "max_rel"),
])
def test_parse_refuses_non_numbers_and_out_of_range(text: str, key: str) -> None:
    parsed = parse_limit_text(text, key, QLocale(QLocale.Language.English))
    assert not parsed.valid and parsed.value is None and parsed.error.endswith(".")


def test_parse_uses_the_users_locale_for_group_separators() -> None:
    german = QLocale(QLocale.Language.German, QLocale.Country.Germany)
    assert parse_limit_text("1.000,5", "max_abs", german).value == pytest.approx(1000.5)
    assert not parse_limit_text("1.000,5", "max_abs", QLocale(QLocale.Language.English)).valid


def test_invalid_text_keeps_the_last_valid_value_and_says_so(qtbot: QtBot) -> None:
    editor = ThresholdsEditor()
    qtbot.addWidget(editor)
    editor.show()
    edit = editor.edits["cosine"]
    emitted: list[Thresholds] = []
    editor.thresholdsChanged.connect(emitted.append)
    edit.clear()
    qtbot.keyClicks(edit, "0,995")
    edit.editingFinished.emit()
    assert emitted[-1].default.cosine == pytest.approx(0.995)  # a decimal comma is a number
    assert edit.styleSheet() == "" and editor.problem_label.isHidden()
    edit.clear()
    qtbot.keyClicks(edit, "abc")  # validated while typing, before editing finishes
    assert edit.styleSheet() == INVALID_STYLE
    assert "abc" in edit.toolTip() and "0.995" in edit.toolTip() and "0,99" in edit.toolTip()
    assert editor.problem_label.isVisible() and "0.995" in editor.problem_label.text()
    edit.editingFinished.emit()
    assert emitted[-1].default.cosine == pytest.approx(0.995)  # still checked, with the last valid value
    assert editor.thresholds().default.cosine == pytest.approx(0.995)
    edit.clear()  # empty is valid: not checked
    edit.editingFinished.emit()
    assert emitted[-1].default.cosine is None and editor.problem_label.isHidden() and edit.styleSheet() == ""


def test_per_dtype_cells_are_validated_too(qtbot: QtBot) -> None:
    editor = ThresholdsEditor()
    qtbot.addWidget(editor)
    editor.set_thresholds(Thresholds(Limits(), {"float16": Limits(cosine=0.98)}))
    emitted: list[Thresholds] = []
    editor.thresholdsChanged.connect(emitted.append)
    item = editor.dtype_table.item(0, 1)
    item.setText("0,97")
    assert emitted[-1].per_dtype["float16"].cosine == pytest.approx(0.97)
    count = len(emitted)
    item.setText("zero")
    assert len(emitted) == count  # nothing in force changed
    assert editor.thresholds().per_dtype["float16"].cosine == pytest.approx(0.97)
    assert item.data(PROBLEM_ROLE) and "0.97" in item.toolTip()
    assert item.background().color().name() != "#000000" and "float16" in editor.problem_label.text()
    item.setText("0.96")
    assert emitted[-1].per_dtype["float16"].cosine == pytest.approx(0.96)
    assert item.data(PROBLEM_ROLE) is None and item.data(Qt.ItemDataRole.BackgroundRole) is None


def test_per_dtype_editor_outlines_invalid_text_while_typing(qtbot: QtBot) -> None:
    editor = ThresholdsEditor()
    qtbot.addWidget(editor)
    editor.show()
    editor.set_thresholds(Thresholds(Limits(), {"float16": Limits(cosine=0.98)}))
    table = editor.dtype_table
    table.editItem(table.item(0, 2))
    line = table.findChild(type(editor.edits["cosine"]))
    assert line is not None
    qtbot.keyClicks(line, "-1")
    assert line.styleSheet() == INVALID_STYLE  # a negative max abs error cannot be a limit


def test_reset_to_defaults_can_be_undone(qtbot: QtBot) -> None:
    editor = ThresholdsEditor()
    qtbot.addWidget(editor)
    editor.show()
    mine = Thresholds(Limits(0.9, 0.5, None), {"float16": Limits(0.8, None, None)})
    editor.set_thresholds(mine)
    emitted: list[Thresholds] = []
    editor.thresholdsChanged.connect(emitted.append)
    assert not editor.undo_reset_button.isVisible()
    qtbot.mouseClick(editor.reset_button, Qt.MouseButton.LeftButton)
    assert emitted[-1] == Thresholds() and editor.edits["cosine"].text() == format_limit(Thresholds().default.cosine)
    assert editor.undo_reset_button.isVisible() and editor.undo_reset_button.text() == "Undo reset"
    qtbot.mouseClick(editor.undo_reset_button, Qt.MouseButton.LeftButton)
    assert emitted[-1] == mine and editor.thresholds() == mine
    assert editor.edits["cosine"].text() == "0.9" and editor.dtype_table.rowCount() == 1
    assert not editor.undo_reset_button.isVisible()
    qtbot.mouseClick(editor.reset_button, Qt.MouseButton.LeftButton)
    edit = editor.edits["max_abs"]
    edit.setText("3")
    edit.editingFinished.emit()  # an edit after the reset: undoing would throw it away, so the offer goes
    assert not editor.undo_reset_button.isVisible()
    qtbot.mouseClick(editor.reset_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(editor.reset_button, Qt.MouseButton.LeftButton)  # already the defaults: nothing to undo
    assert not editor.undo_reset_button.isVisible()
