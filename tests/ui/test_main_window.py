"""The first main window starts, shows its menus and About text, and accepts paths."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from autofuse_studio import __version__
from autofuse_studio.ui.main_window import MainWindow


def test_main_window_has_menus_and_about(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    titles = [action.text().replace("&", "") for action in window.menuBar().actions()]
    assert titles[:1] == ["File"]
    assert "Help" in titles
    assert __version__ in window.about_text()
    window.open_paths(["/tmp/a", "/tmp/b"])
    assert "2 item" in window.statusBar().currentMessage()


def test_main_window_screenshot_not_blank(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1000, 700)
    window.show()
    qtbot.waitExposed(window)
    image = window.grab().toImage()
    assert image.width() >= 1000
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 41)}
    assert len(colours) > 2
