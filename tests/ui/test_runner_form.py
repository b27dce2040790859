"""The runner form shows what a run would use: the selected preset's own JSON, and no red error before any input."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from autofuse_studio.core.tiling.params import PRESETS
from autofuse_studio.ui.runner.form import RunForm


def shown_values(form: RunForm) -> dict[str, object]:
    return dict(json.loads(form.json_edit.toPlainText()))


def test_shown_json_is_always_the_selected_presets(qtbot: QtBot) -> None:
    form = RunForm()
    qtbot.addWidget(form)
    assert form.params_combo.currentText() == "Preset A"
    assert shown_values(form) == PRESETS["A"] and not form.json_edit.isEnabled()
    form.params_combo.setCurrentText("Preset B")
    assert shown_values(form) == PRESETS["B"]
    form.params_combo.setCurrentText("Preset A")
    assert shown_values(form)["abi"] == PRESETS["A"]["abi"]  # the shape_dims = 0 a run would use is on screen


def test_own_json_survives_a_look_at_a_preset(qtbot: QtBot) -> None:
    form = RunForm()
    qtbot.addWidget(form)
    form.params_combo.setCurrentText("Preset B")
    form.params_combo.setCurrentText("Input JSON")
    assert form.json_edit.isEnabled() and shown_values(form) == PRESETS["B"]  # editing starts from the last preset
    own = dict(PRESETS["B"], aiv_num=7)
    form.json_edit.setPlainText(json.dumps(own))
    form.params_combo.setCurrentText("Preset A")
    assert shown_values(form) == PRESETS["A"]
    form.params_combo.setCurrentText("Input JSON")
    assert shown_values(form) == own


def test_no_red_error_before_the_user_touched_anything(qtbot: QtBot, tmp_path: Path) -> None:
    form = RunForm()
    qtbot.addWidget(form)
    form.show()
    assert "Choose an existing source folder" not in form.problems_label.text()
    assert form.hint_label.isVisible() and "source folder" in form.hint_label.text()
    assert form.problems()  # still nothing to run
    form.source_edit.setText(str(tmp_path / "missing"))
    assert "Choose an existing source folder" in form.problems_label.text()
    assert not form.hint_label.isVisible()
    form.source_edit.setText(str(tmp_path))
    assert form.problems_label.text() == ""
    form.source_edit.clear()  # cleared by the user: now it is an error
    assert "Choose an existing source folder" in form.problems_label.text()


def test_preset_checked_against_the_scene(qtbot: QtBot, tmp_path: Path) -> None:
    form = RunForm()
    qtbot.addWidget(form)
    form.source_edit.setText(str(tmp_path))
    form.scene_combo.setCurrentText("inductor")
    assert "abi.kind = tf_static" in form.problems_label.text()
