"""Saved filter presets: save, apply, delete, kept in the settings for a new window; the last filter (Signature
too) comes back after a restart and in case files; corrupt settings are ignored, never fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.case import load_case_file, save_case
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.filter_bar import FilterBar
from autofuse_studio.ui.settings import AppSettings
from tests.synth import generate_case
from tests.synth.spec import multi_rank_spec
from tests.ui.windows import shown_result_window


@pytest.fixture(scope="module")
def ranked_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("presets") / "ranked"
    generate_case(root, multi_rank_spec())
    return root


def _bar(qtbot: QtBot) -> FilterBar:
    bar = FilterBar()
    qtbot.addWidget(bar)
    return bar


def test_save_apply_delete_and_a_new_bar_sees_them(qtbot: QtBot) -> None:
    bar = _bar(qtbot)
    bar.set_statuses(["OK", "FILE_NOT_FOUND"])
    bar.set_signatures(["tail_block", "bias"])
    bar.verdict_combo.setCurrentIndex(bar.verdict_combo.findData("CULPRIT"))
    bar.signature_combo.setCurrentIndex(bar.signature_combo.findData("tail_block"))
    bar.search.setText("mul")
    assert bar.save_preset("tails")
    assert not bar.save_preset("   ")  # no name, no preset
    bar.clear()
    assert bar.row_filter().active is False
    with qtbot.waitSignal(bar.filterChanged) as blocker:
        assert bar.apply_preset("tails")
    shown = blocker.args[0]
    assert shown.verdicts == {"CULPRIT"} and shown.signatures == {"tail_block"} and shown.text == "mul"
    other = _bar(qtbot)  # a new window's bar reads the same settings
    assert other.presets() == {"tails": {"verdict": "CULPRIT", "signature": "tail_block", "text": "mul"}}
    other._fill_presets_menu()
    names = [action.text() for action in other.presets_menu.actions()]
    assert "tails" in names
    assert other.delete_preset("tails") and not other.delete_preset("tails")
    assert bar.presets() == {} and not bar.apply_preset("tails")


def test_corrupt_settings_are_ignored(qtbot: QtBot) -> None:
    settings = AppSettings()
    settings.qsettings.setValue("precision/filter_presets", "{not json")
    settings.qsettings.setValue("precision/last_filter", json.dumps({"verdict": 7, "text": ["x"]}))
    settings.sync()
    bar = _bar(qtbot)
    assert bar.presets() == {}
    assert AppSettings().last_filter() is None
    settings.qsettings.setValue("precision/filter_presets", json.dumps(
        {"good": {"text": "a"}, "bad": {"status": {"x": 1}}, "": {"text": "b"}, "list": [1, 2]}))
    assert bar.presets() == {"good": {"text": "a"}}  # only the valid entry
    assert not bar.set_state({"signature": 3}) and not bar.set_state("text") and not bar.set_state(None)
    window = MainWindow()  # a corrupt last filter: the window opens with no filter
    qtbot.addWidget(window)
    assert not window.workbench.filter_bar.row_filter().active


def test_last_filter_with_signature_survives_a_restart(qtbot: QtBot, ranked_root: Path) -> None:
    window = shown_result_window(qtbot, ranked_root)
    bar = window.workbench.filter_bar
    rank = "2"  # the culprit's rank: a filter that hides the first divergence is cleared when a result shows
    bar.rank_combo.setCurrentIndex(bar.rank_combo.findData(rank))
    bar.search.setText("autofuse")
    AppSettings().qsettings.remove("precision/last_filter")
    assert window.session.result is not None
    culprit = window.session.result.first_divergence
    assert culprit is not None and culprit.signature is not None
    code = culprit.signature.code
    bar.signature_combo.setCurrentIndex(bar.signature_combo.findData(code))
    window.close()
    assert AppSettings().last_filter() == {"signature": code, "rank": rank, "text": "autofuse"}
    again = shown_result_window(qtbot, ranked_root)  # a restart: the same filter before and after the result
    restored = again.workbench.filter_bar
    assert restored.row_filter().ranks == {rank} and restored.search.text() == "autofuse"
    assert restored.row_filter().signatures == {code}  # waited for the result that offers it
    visible = again.workbench.proxy.rowCount()
    assert again.session.result is not None and 0 < visible < len(again.session.result.rows)  # the table is filtered by it


def test_a_value_no_result_offers_is_dropped(qtbot: QtBot) -> None:
    bar = _bar(qtbot)
    assert bar.set_state({"signature": "tail_block", "text": ""})
    assert bar.state()["signature"] == "tail_block"  # waiting: no result yet
    bar.set_signatures(["bias"])  # a result without it: no empty table, the value is dropped
    assert "signature" not in bar.state() and not bar.row_filter().signatures
    assert bar.set_state({"signature": "bias"})
    assert bar.row_filter().signatures == {"bias"}


def test_case_files_keep_the_filter(qtbot: QtBot, ranked_root: Path, tmp_path: Path) -> None:
    window = shown_result_window(qtbot, ranked_root)
    bar = window.workbench.filter_bar
    bar.rank_combo.setCurrentIndex(bar.rank_combo.findData("1"))  # rank 1 hides the first divergence (rank 2)
    bar.search.setText("autofuse")
    path = save_case(window.current_case(), tmp_path / "filtered.afcase")
    assert load_case_file(path).view["filter"] == {"rank": "1", "text": "autofuse"}
    bar.clear()
    with qtbot.waitSignal(window.resultShown, timeout=60_000):
        window.open_case_file(str(path))
    assert bar.state() == {"rank": "1", "text": "autofuse"}  # as saved, once the rows are shown
    assert window.workbench.proxy.rowCount() > 0


def test_the_bar_fits_1280_with_ranks_steps_and_signatures(qtbot: QtBot, ranked_root: Path) -> None:
    window = shown_result_window(qtbot, ranked_root)
    bar = window.workbench.filter_bar
    window.resize(1280, 720)
    qtbot.wait(50)
    assert bar.rank_combo.isVisible() and bar.step_combo.isVisible() and bar.signature_combo.isVisible()
    assert not bar.rank_label.isVisible()  # the labels give way; the combos' tooltips name them
    assert bar.rank_combo.toolTip() == "Rank"
    assert bar.first_button.width() >= bar.first_button.sizeHint().width()  # whole
    assert bar.search.width() >= 120 and bar.presets_button.isVisible()
    assert bar.geometry().right() <= window.workbench.page_scroll.viewport().width()
    window.resize(1900, 1000)
    qtbot.wait(50)
    assert bar.rank_label.isVisible() and bar.verdict_label.isVisible()  # room again: labelled
