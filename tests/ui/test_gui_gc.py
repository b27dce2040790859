"""The GUI collects cyclic garbage on its own thread: a worker's allocations never free a Qt object there."""

from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.gui_gc import GuiThreadCollector


def _dropped_qt_object_in_a_cycle(freed_on: list[int]) -> None:
    """A parentless QObject whose wrapper is in a reference cycle, dropped; its collection records the thread."""
    widget = QObject()
    widget.me = widget  # type: ignore[attr-defined]
    weakref.finalize(widget, lambda: freed_on.append(threading.get_ident()))


def test_a_qt_object_in_cyclic_garbage_is_freed_by_the_gui_threads_timer(qtbot: QtBot, automatic_gc: None) -> None:
    collector = GuiThreadCollector()
    collector.install()
    try:
        assert not gc.isenabled()
        freed_on: list[int] = []
        _dropped_qt_object_in_a_cycle(freed_on)
        kept: list[list[int]] = []
        worker = threading.Thread(target=lambda: kept.extend([index] for index in range(100 * gc.get_threshold()[0])))
        worker.start()
        worker.join()
        assert freed_on == []  # automatic collection on: one of the worker's young collections freed it there
        qtbot.waitUntil(lambda: bool(freed_on), timeout=5_000)
        assert freed_on == [threading.get_ident()] and kept
    finally:
        collector.remove()
    assert gc.isenabled()  # given back as install() found it
