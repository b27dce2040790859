"""ProgressBar: a new value is painted with the window's next paint, not by painting the window there and then."""

from __future__ import annotations

from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QProgressBar, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.widgets.progress_bar import ProgressBar


class CountedPaints(QWidget):
    """A widget that counts its paints (a stand-in for the precision table beside the bar)."""

    def __init__(self) -> None:
        super().__init__()
        self.paints = 0
        self.setMinimumSize(200, 100)

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt's name
        self.paints += 1
        super().paintEvent(event)


def _window(qtbot: QtBot, bar: QProgressBar) -> tuple[QWidget, CountedPaints]:
    window = QWidget()
    qtbot.addWidget(window)
    neighbour = CountedPaints()
    column = QVBoxLayout(window)
    column.addWidget(neighbour)
    column.addWidget(bar)
    bar.setRange(0, 100)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(20)
    return window, neighbour


def _paints_inside_set_value(qtbot: QtBot, bar: QProgressBar) -> tuple[QWidget, int, int]:
    """(the window, the neighbour's paints during setValue, its paints after the next event-loop turn), the
    neighbour dirty."""
    window, neighbour = _window(qtbot, bar)
    neighbour.update()  # dirty, as the table is once rows arrive
    before = neighbour.paints
    bar.setValue(40)
    during = neighbour.paints - before
    qtbot.waitUntil(lambda: neighbour.paints > before, timeout=2000)
    return window, during, neighbour.paints - before


def test_a_plain_bar_paints_the_dirty_window_inside_set_value(qtbot: QtBot) -> None:
    """Why the class exists: QProgressBar.setValue repaints at once, which paints the dirty neighbour too."""
    _window_kept, during, _ = _paints_inside_set_value(qtbot, QProgressBar())
    assert during == 1


def test_the_value_is_painted_with_the_next_paint(qtbot: QtBot) -> None:
    bar = ProgressBar()
    _window_kept, during, after = _paints_inside_set_value(qtbot, bar)
    assert during == 0
    assert after == 1
    assert bar.value() == 40
    assert bar.updatesEnabled()


def test_the_same_value_again_changes_nothing(qtbot: QtBot) -> None:
    bar = ProgressBar()
    _window_kept = _window(qtbot, bar)
    bar.setValue(10)
    bar.setValue(10)
    assert bar.value() == 10
    assert bar.updatesEnabled()
