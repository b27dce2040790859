"""The start page: shown over the Precision tab while no case is open, with the recent cases that still exist
(paths elided in the middle, whole in the tooltip), the open buttons and a drop hint; 'Open demo case' opens
the bundled demo and the page goes away; show_start_page() brings it back."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from autofuse_studio.core.resources import demo_case_dir
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.settings import AppSettings


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_start_page_lists_recent_cases_and_the_demo_opens(qtbot: QtBot, tmp_path: Path) -> None:
    deep = tmp_path / ("a_rather_long_folder_name_" * 4) / "dumps"
    deep.mkdir(parents=True)
    (deep / "x.npy").write_bytes(b"0")
    settings = AppSettings()
    settings.add_recent_case([str(tmp_path / "gone")])  # missing: not offered
    settings.add_recent_case([str(deep)])
    settings.sync()
    window = _window(qtbot)
    page = window.start_page
    assert page.isVisible() and page.geometry() == window.workbench.rect()  # covers the empty workbench
    assert [button.entry for button in page.recent_buttons] == [[str(deep)]]
    button = page.recent_buttons[0]
    assert button.toolTip() == str(deep) and "…" in button.text()  # elided in the middle, whole in the tooltip
    assert button.text().startswith(str(deep)[:5]) and button.text().endswith("dumps")
    assert page.drop_hint.text() == "Drop a dump folder, a graph or ATT logs here" and page.drop_hint.isVisible()
    for name in ("openDemo", "openCase", "openGraph", "openRunRoot"):
        found = page.findChild(QPushButton, name)
        assert found is not None and found.isVisible()
    with qtbot.waitSignal(window.resultShown, timeout=60_000):
        qtbot.mouseClick(page.demo_button, Qt.MouseButton.LeftButton)  # type: ignore[no-untyped-call]
    assert not page.isVisible()
    assert window.tabs.currentWidget() is window.workbench
    assert window.session.result is not None and window.session.result.rows  # the demo, analysed
    assert str(demo_case_dir().resolve()) in [path for entry in AppSettings().recent_cases() for path in entry]
    window.show_start_page()  # File > New case brings it back, with the demo now among the recent cases
    assert page.isVisible()
    assert any(str(demo_case_dir().resolve()) in button.entry for button in page.recent_buttons)


def test_a_recent_case_opens_from_the_start_page(qtbot: QtBot, demo_root: Path) -> None:
    AppSettings().add_recent_case([str(demo_root)])
    window = _window(qtbot)
    assert window.start_page.recent_buttons
    with qtbot.waitSignal(window.resultShown, timeout=60_000):
        window.start_page.recent_buttons[0].click()
    assert not window.start_page.isVisible()


def test_no_recent_cases_says_so(qtbot: QtBot) -> None:
    window = _window(qtbot)
    assert window.start_page.no_recent.isVisible() and not window.start_page.recent_buttons


def test_analyse_from_the_case_dock_hides_the_page(qtbot: QtBot, demo_root: Path) -> None:
    window = _window(qtbot)
    panel = window.case_panel
    case = panel.case()
    for role, name in (("af_open_graph", "af_open"), ("af_close_graph", "af_close")):
        graphs = sorted((demo_root / name).glob("*.json"))
        assert graphs
        setattr(case, role, graphs[0])
    case.af_open_data, case.af_close_data = demo_root / "af_open" / "dump", demo_root / "af_close" / "dump"
    panel.set_case(case)  # typed into the dock, not opened: the session has no case yet
    assert window.start_page.isVisible()
    with qtbot.waitSignal(window.resultShown, timeout=60_000):
        window.analyse()
    assert not window.start_page.isVisible()
