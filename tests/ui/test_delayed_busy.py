"""The busy widgets appear only for work that outlasts SHOW_AFTER_MS, then with its latest progress."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QProgressBar, QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.widgets.delayed_busy import SHOW_AFTER_MS, DelayedBusy

Busy = tuple[DelayedBusy, QProgressBar, QPushButton]


@pytest.fixture
def widgets(qtbot: QtBot) -> Iterator[Busy]:
    """A DelayedBusy over a progress bar and a cancel button in a shown window."""
    host = QWidget()
    qtbot.addWidget(host)
    progress, cancel = QProgressBar(), QPushButton("Cancel")
    layout = QVBoxLayout(host)
    layout.addWidget(progress)
    layout.addWidget(cancel)
    host.show()
    busy = DelayedBusy(progress, [cancel], "starting", host)
    yield busy, progress, cancel  # the host lives in this frame until the test ends
    busy.stop()


def test_quick_work_never_shows_the_widgets(qtbot: QtBot, widgets: Busy) -> None:
    busy, progress, cancel = widgets
    assert not progress.isVisible() and not cancel.isVisible()
    busy.start()
    busy.progressed(1, 2, "reading")
    qtbot.wait(SHOW_AFTER_MS // 5)
    busy.stop()
    qtbot.wait(SHOW_AFTER_MS + 100)
    assert not progress.isVisible() and not cancel.isVisible()


def test_long_work_shows_its_latest_progress_then_hides_when_done(qtbot: QtBot, widgets: Busy) -> None:
    busy, progress, cancel = widgets
    busy.start()
    busy.progressed(1, 4, "reading")
    busy.progressed(3, 4, "measuring")
    qtbot.waitUntil(progress.isVisible, timeout=SHOW_AFTER_MS * 10)
    assert cancel.isVisible()
    assert (progress.maximum(), progress.value(), progress.format()) == (1000, 750, "measuring %p%")
    busy.progressed(4, 4, "measuring")
    assert progress.value() == 1000
    busy.stop()
    assert not progress.isVisible() and not cancel.isVisible()


def test_work_without_progress_shows_the_starting_state(qtbot: QtBot, widgets: Busy) -> None:
    busy, progress, _cancel = widgets
    busy.start()
    qtbot.waitUntil(progress.isVisible, timeout=SHOW_AFTER_MS * 10)
    assert (progress.minimum(), progress.maximum(), progress.format()) == (0, 0, "starting")
    busy.stop()
    busy.start()  # a new run starts from nothing, not from the last run's progress
    busy.progressed(2, 5, "x")
    busy.stop()
    busy.start()
    qtbot.waitUntil(progress.isVisible, timeout=SHOW_AFTER_MS * 10)
    assert progress.maximum() == 0
