"""The warnings panel: every notice of a run, the files it concerns, its items; why a run has 0 rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.explain import CasePaths
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.notices_model import FILES, MESSAGE, NoticesModel
from autofuse_studio.ui.precision.notices_panel import NoticesPanel
from tests.synth import CaseManifest, demo_spec, generate_case

WAIT_MS = 30_000
PATHS = CasePaths({"af-open": "/g/open.json", "af-close": "/g/close.json"},
                  {"af-open": "/d/open", "af-close": "/d/close"})
ROWS = [{"fused_op": f"op{n}", "kind": "output", "fused_index": 0, "rank": None, "step": "0",
         "message": "Fused-side NPY not found", "fused_file": None, "origin_file": f"/d/close/x{n}.npy"}
        for n in range(250)]
NOTICES = [Notice("graph", "The af-close graph has a bad attribute.", side="af-close"),
           Notice("row_file_not_found", "250 rows are FILE_NOT_FOUND", 250, ROWS)]


@pytest.fixture(scope="module")
def demo_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    """A generated demo case shared by this module's tests (read-only)."""
    root = tmp_path_factory.mktemp("notices") / "demo"
    return root, generate_case(root, demo_spec())


def test_model_passes_the_model_tester(qtmodeltester: ModelTester) -> None:
    model = NoticesModel()
    model.set_notices(NOTICES, PATHS)
    qtmodeltester.check(model)
    assert model.rowCount() == 2
    assert model.rowCount(model.index(1, MESSAGE)) == 250  # the full item list
    assert model.rowCount(model.index(1, FILES)) == 0
    assert model.data(model.index(0, FILES)) == "close.json"
    assert model.data(model.index(0, FILES), Qt.ItemDataRole.ToolTipRole) == "/g/close.json"
    item = model.index(7, MESSAGE, model.index(1, MESSAGE))
    assert model.data(item) == "op7 output 0 (step 0): Fused-side NPY not found"
    assert model.data(item.siblingAtColumn(FILES)) == "x7.npy"
    assert model.notice_of(item) is NOTICES[1]


def test_panel_collapses_copies_and_hides_without_notices(qtbot: QtBot) -> None:
    panel = NoticesPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.set_notices(NOTICES, PATHS)
    assert panel.isVisible() and panel.badge.text() == "2" and not panel.body.isVisible()
    qtbot.mouseClick(panel.toggle, Qt.MouseButton.LeftButton)
    assert panel.body.isVisible()
    assert "/g/close.json" in panel.details.text()
    panel.view.selectAll()
    panel.copy_selection()
    copied = QApplication.clipboard().text().splitlines()
    assert copied[0] == "The af-close graph has a bad attribute.\t/g/close.json"
    assert len(copied) == 2  # the notice rows (their items are collapsed)
    panel.clear()
    assert not panel.isVisible()


def test_a_graph_without_fused_ops_explains_the_empty_run(qtbot: QtBot, demo_case: tuple[Path, CaseManifest],
                                                          tmp_path: Path) -> None:
    root, manifest = demo_case
    plain = tmp_path / "plain_af_open.json"
    plain.write_text(json.dumps({"graph": [{"name": "g", "op": [{"name": "a", "type": "Add"}]}]}), encoding="utf-8")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    edits = window.case_panel.edits
    edits["af_open_graph"].setText(str(plain))
    edits["af_close_graph"].setText(str(root / manifest.graphs["af_close"]))
    edits["af_open_data"].setText(str(root / manifest.data["af_open"]))
    edits["af_close_data"].setText(str(root / manifest.data["af_close"]))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.analyse()
    panel = window.workbench.notices
    assert panel.isVisible() and panel.body.isVisible()  # 0 rows: opened at once
    kinds = [notice.kind for notice in panel.model.notices]
    assert "no_fused_ops" in kinds
    row = kinds.index("no_fused_ops")
    assert panel.model.data(panel.model.index(row, FILES)) == "plain_af_open.json"
    expected = ("0 rows: the af-open graph has no fused operators (no AscBackend/FusedAscBackend op and no "
                "_datadump_origin_name attribute)")
    assert window.statusBar().currentMessage() == expected
    assert window.case_panel.progress_label.text() == expected


def test_a_normal_run_keeps_the_warnings_collapsed(qtbot: QtBot, demo_case: tuple[Path, CaseManifest]) -> None:
    root, _ = demo_case
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(root)])
    panel = window.workbench.notices
    result = window.workbench.result
    assert result is not None and result.rows
    assert panel.model.notices == result.notices and panel.badge.text() == str(len(result.notices))
    assert panel.isVisible() == bool(result.notices) and not panel.body.isVisible()
    assert window.statusBar().currentMessage().startswith(f"{len(result.rows)} rows; first divergence")


def test_concerns_never_repeats_a_name(qtbot: QtBot) -> None:
    model = NoticesModel()
    paths = CasePaths({}, {"af-open": "/case/af-open/dump", "af-close": "/case/af-close/dump/"})
    model.set_notices([Notice("dump", "Some NPYs are unreadable.")], paths)  # both sides: two folders named dump
    assert model.data(model.index(0, FILES)) == "af-open/dump, af-close/dump"
    same = CasePaths({}, {"af-open": "/case/dump", "af-close": "/case/dump"})
    model.set_notices([Notice("dump", "Some NPYs are unreadable.")], same)
    assert model.data(model.index(0, FILES)) == "dump"
    assert model.data(model.index(0, FILES), Qt.ItemDataRole.ToolTipRole) == "/case/dump"


def test_warnings_follow_a_dark_desktop_palette(qtbot: QtBot) -> None:
    from PySide6.QtGui import QColor, QPalette

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    light = app.palette()
    panel = NoticesPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.set_notices(NOTICES, PATHS)
    dark = QPalette(light)
    dark.setColor(QPalette.ColorRole.Window, QColor("#202124"))
    dark.setColor(QPalette.ColorRole.WindowText, QColor("#e8eaed"))
    dark.setColor(QPalette.ColorRole.Base, QColor("#2b2c30"))
    dark.setColor(QPalette.ColorRole.Text, QColor("#e8eaed"))
    app.setPalette(dark)
    try:
        # a pixel inside the frame, away from any text: dark amber behind pale text, not cream
        qtbot.waitUntil(lambda: panel.grab().toImage().pixelColor(panel.width() - 3, 3).lightnessF() < 0.35)
        assert panel.summary.palette().color(QPalette.ColorRole.WindowText).lightnessF() > 0.8
    finally:
        app.setPalette(light)
    qtbot.waitUntil(lambda: panel.grab().toImage().pixelColor(panel.width() - 3, 3).lightnessF() > 0.7)
