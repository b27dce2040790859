"""A drop or File > Open goes where its content belongs, switches there and says what it opened (issue 28, 3 and 11)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from tests.synth.att_log import SyntheticShape
from tests.synth.att_perf_log import write_synthetic_perf_log

WAIT_MS = 30_000
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 32


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def drop_on(window: MainWindow, widget: QWidget, paths: list[Path]) -> QWidget:
    """Drop `paths` over the middle of `widget` as Qt delivers it.

    The drag enters the widget under the cursor; one that takes no drops, or ignores this one (a graphics view
    without drop items), passes it to its parent, up to the window. The drop goes to the widget that accepted.
    """
    point = widget.mapTo(window, QPoint(widget.width() // 2, widget.height() // 2))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    target: QWidget | None = window.childAt(point) or window
    while target is not None:
        if target.acceptDrops():
            local = target.mapFrom(window, point)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # QDragEnterEvent's only constructor
                enter = QDragEnterEvent(local, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                        Qt.KeyboardModifier.NoModifier)
            enter.ignore()
            QApplication.sendEvent(target, enter)
            if enter.isAccepted():
                QApplication.sendEvent(target, QDropEvent(QPointF(local), Qt.DropAction.CopyAction, mime,
                                                          Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
                return target
        target = None if target is window else target.parentWidget()
    raise AssertionError("no widget took the drag")


@pytest.mark.parametrize("tab", ["att", "graph"])
def test_the_demo_dropped_on_another_tab_opens_the_precision_case(qtbot: QtBot, demo_root: Path, tab: str) -> None:
    window = _window(qtbot)
    page: QWidget = getattr(window, tab)
    window.tabs.setCurrentIndex(window.tab_status.page(page))
    if tab == "att":
        assert not window.case_dock.isVisible()  # the ATT tab gets the whole width
    with qtbot.waitSignal(window.pathsOpened, timeout=WAIT_MS):
        target = drop_on(window, page, [demo_root])
    assert target is window  # not the ATT loader ("No log files found")
    assert window.tabs.currentWidget() is window.workbench
    assert window.case_dock.isVisible()
    assert window.statusBar().currentMessage() == "Opened the case demo: analysing…"
    assert window.att.workspace is None
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        pass
    assert window.workbench.result is not None and window.workbench.result.rows


def test_a_case_opened_from_the_runner_tab_shows_the_case_dock(qtbot: QtBot, demo_root: Path) -> None:
    window = _window(qtbot)
    window.case_dock.close()  # closed by the user: a newly opened case shows it again
    window.tabs.setCurrentIndex(window.tab_status.page(window.runner_panel))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(demo_root)])  # as File > Open folder does
        qtbot.waitSignal(window.pathsOpened, timeout=WAIT_MS).wait()
        assert window.tabs.currentWidget() is window.workbench
        assert window.case_dock.isVisible()
        assert window.statusBar().currentMessage().startswith("Opened the case demo")


def test_att_logs_dropped_on_the_precision_tab_switch_to_att(qtbot: QtBot, tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=1, results=1, groups=1, cases=1))
    window = _window(qtbot)
    with qtbot.waitSignal(window.att.loaded, timeout=WAIT_MS):
        drop_on(window, window.workbench, [log])
    assert window.tabs.currentIndex() == window.tab_status.page(window.att)
    assert not window.case_dock.isVisible()


def test_a_picture_and_a_readme_open_nothing_and_say_so_once(qtbot: QtBot, tmp_path: Path) -> None:
    picture = tmp_path / "picture.png"
    picture.write_bytes(PNG)
    readme = tmp_path / "README.md"
    readme.write_text("| tests each line for `[PROF]`/`[PERF]` |\n[PERF] lines\n", encoding="utf-8")
    window = _window(qtbot)
    for path in (picture, readme):
        with qtbot.waitSignal(window.pathsOpened, timeout=WAIT_MS):
            drop_on(window, window.workbench, [path])
        assert window.statusBar().currentMessage() == (
            f"Nothing opened: {path.name} is neither a graph, a dump folder, an NPY file nor an ATT log; "
            "it was ignored.")
        assert window.tabs.currentWidget() is window.workbench  # not the ATT tab
        assert window.att.workspace is None
        assert not window.case_panel.banner.isVisible()  # no red banner listing the missing roles
    assert not window.recent_menu.isEnabled()  # ignored files are not recent cases


def test_recent_cases_list_only_what_still_opens(qtbot: QtBot, tmp_path: Path, demo_root: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    window = _window(qtbot)
    for entry in ([str(tmp_path / "gone")], [str(empty)], [str(demo_root)]):
        window.settings.add_recent_case(entry)
    window._fill_recent_menu()
    labels = [action.text() for action in window.recent_menu.actions()]
    assert labels == ["demo"]
    with qtbot.waitSignal(window.pathsOpened, timeout=WAIT_MS):
        window.open_paths([str(empty), str(tmp_path / "gone")])
    assert window.statusBar().currentMessage().startswith("Nothing opened: ")
    assert [action.text() for action in window.recent_menu.actions()] == ["demo"]


def test_att_logs_with_a_picture_open_the_logs_and_name_the_picture(qtbot: QtBot, tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=1, results=1, groups=1, cases=1))
    picture = tmp_path / "picture.png"
    picture.write_bytes(PNG)
    window = _window(qtbot)
    with qtbot.waitSignal(window.pathsOpened, timeout=WAIT_MS):
        window.open_paths([str(log), str(picture)])
    assert window.tabs.currentIndex() == window.tab_status.page(window.att)
    assert window.statusBar().currentMessage() == (
        "Opened the ATT logs run.log: scanning… picture.png is neither a graph, a dump folder, an NPY file nor an "
        "ATT log; it was ignored.")
    qtbot.waitUntil(lambda: window.att.workspace is not None, timeout=WAIT_MS)
