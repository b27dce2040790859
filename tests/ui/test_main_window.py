"""The main window: menus, screenshots at several sizes, exports, language switching, persisted layout."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from autofuse_studio import __version__
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.table_model import verdict_colour

WAIT_MS = 30_000


@pytest.fixture
def analysed(qtbot: QtBot, demo_root: Path) -> MainWindow:
    """A shown window that finished analysing the demo case."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(demo_root)])
    return window


def colours(image: QImage, step: int = 7) -> set[int]:
    """Distinct pixel values on a grid."""
    return {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}


def test_main_window_has_menus_and_about(qtbot: QtBot, tmp_path: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    titles = [action.text().replace("&", "") for action in window.menuBar().actions()]
    assert titles == ["File", "View", "Analysis", "Help"]
    assert __version__ in window.about_text()
    with qtbot.waitSignal(window.pathsOpened, timeout=10_000):
        window.open_paths([str(tmp_path / "a"), str(tmp_path / "b")])  # paths that do not exist
    assert window.statusBar().currentMessage() == (
        "Nothing opened: a does not exist (any more); it was ignored. b does not exist (any more); it was ignored.")
    assert not window.case_panel.banner.isVisible()


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
def test_screenshots_show_the_table(qtbot: QtBot, analysed: MainWindow, tmp_path: Path,
                                    size: tuple[int, int]) -> None:
    window = analysed
    window.resize(*size)
    qtbot.waitExposed(window)
    window.workbench.go_to_first_divergence()
    image = window.grab().toImage()
    path = tmp_path / f"window_{size[0]}x{size[1]}.png"
    assert image.save(str(path))
    assert (image.width(), image.height()) == size
    assert len(colours(image)) > 20
    view = window.workbench.view
    assert view.isVisible() and view.height() > 120 and view.width() > 400
    assert view.mapTo(window, view.rect().bottomRight()).x() <= size[0]
    table = view.viewport().grab().toImage()
    seen = colours(table, 3)
    assert verdict_colour("OK").rgb() in seen
    assert verdict_colour("PROPAGATED").rgb() in seen  # the rows below the selected culprit keep their colours


def test_exports_open_back(qtbot: QtBot, analysed: MainWindow, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    bench = analysed.workbench
    xlsx = bench.export_table(tmp_path / "t.xlsx")
    book = load_workbook(xlsx, read_only=True)
    sheet = book["precision"]
    assert sheet.max_row == len(bench.result.rows) + 1 if bench.result else False
    assert "summary" in book.sheetnames
    book.close()
    assert bench.export_table(tmp_path / "t.csv").read_text(encoding="utf-8-sig").startswith("step,kind")
    png = bench.export_table_picture(tmp_path / "t.png")
    image = QImage(str(png))
    assert image.width() > 0 and len(colours(image)) > 5  # every shown column: see test_table_picture.py
    svg = bench.export_table_picture(tmp_path / "t.svg")
    assert ET.parse(svg).getroot().tag.endswith("svg")


def test_language_switch_translates_live(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: window.file_menu.title() == "文件(&F)", timeout=2000)
        assert window.workbench.model.headerData(1, Qt.Orientation.Horizontal) == "融合算子名"
        assert window.case_panel.analyse_button.text() == "分析"
        assert window.settings.language() == "zh_CN"
        help_actions = (window.help_actions.shortcuts_action, window.help_actions.documentation_action)
        assert all(any("\u4e00" <= char <= "\u9fff" for char in action.text()) for action in help_actions)
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: window.file_menu.title() == "&File", timeout=2000)
    assert window.help_actions.documentation_action.text() == "&Documentation"


def test_layout_and_thresholds_persist(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.resize(760, 560)  # inside the offscreen screen (800x600): restoreGeometry clamps to it
    window.thresholds_editor.edits["max_abs"].setText("0.25")
    window.thresholds_editor.edits["max_abs"].editingFinished.emit()
    window.thresholds_dock.hide()
    window.close()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    assert (again.width(), again.height()) == (760, 560)
    assert again.thresholds_editor.thresholds().default.max_abs == 0.25
    assert not again.thresholds_dock.isVisible()


def test_case_docks_make_room_on_att_and_runner_tabs(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.case_dock.isVisible()
    window.tabs.setCurrentIndex(2)
    assert not window.case_dock.isVisible()
    assert not window.thresholds_dock.isVisible()
    window.tabs.setCurrentIndex(3)
    assert not window.case_dock.isVisible()
    window.tabs.setCurrentIndex(1)  # the graph panes get the width too (a 1280 px laptop)
    assert not window.case_dock.isVisible()
    window.tabs.setCurrentIndex(0)
    assert window.case_dock.isVisible()
    assert window.thresholds_dock.isVisible()


def test_the_app_lets_the_gui_thread_take_the_gil_quickly(qtbot: QtBot, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from autofuse_studio.ui.app import GUI_SWITCH_INTERVAL, run_app

    default = sys.getswitchinterval()
    try:
        assert run_app(self_check=True) == 0
        assert "self-check: ok" in capsys.readouterr().out
        # Background tasks keep the GIL at most this long while a repaint waits for it.
        assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL)
        assert GUI_SWITCH_INTERVAL <= 0.001
    finally:
        sys.setswitchinterval(default)


def test_drops_are_sorted_in_the_background_and_a_newer_drop_wins(qtbot: QtBot, demo_root: Path,
                                                                   tmp_path: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    # open_paths returns before the roles are known: the dock says it is looking.
    window.open_paths([str(tmp_path / "older")])
    assert "Looking at 1 item" in window.case_panel.progress_label.text()
    assert not window.case_panel.case().af_open_graph
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(demo_root)])  # replaces the first drop before it was applied
    case = window.case_panel.case()
    assert case.af_open_graph is not None and demo_root in Path(case.af_open_graph).parents
    assert "older" not in window.case_panel.banner.text()
