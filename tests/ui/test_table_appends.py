"""Streamed rows appended out of sight do not repaint the table; anything that changes what it shows does."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.precision.filters import RowFilter
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.test_table_model import make_rows


class PaintCounter(QObject):
    """Counts the paint events of the widgets it watches."""

    def __init__(self, *widgets: QWidget) -> None:
        super().__init__()
        self.paints = 0
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Count, never filter."""
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def _settle() -> None:
    for _turn in range(3):  # the delayed layout, then the paint it asks for
        QApplication.processEvents()


def _bench(qtbot: QtBot, rows: int) -> tuple[PrecisionWorkbench, PaintCounter]:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.resize(1280, 720)
    bench.show()
    bench.append_rows(make_rows(rows))
    _settle()
    return bench, PaintCounter(bench.view.viewport(), bench.view.frozen.viewport())


def test_rows_appended_below_the_visible_ones_grow_the_scroll_range_without_a_repaint(qtbot: QtBot) -> None:
    bench, counter = _bench(qtbot, 300)
    shown = bench.view.visible_rows()
    scroll = bench.view.verticalScrollBar()
    before = scroll.maximum()
    more = make_rows(600)[300:]
    bench.append_rows(more)
    _settle()
    assert counter.paints == 0
    assert scroll.maximum() > before and bench.proxy.rowCount() == 600
    assert bench.view.visible_rows() == shown
    scroll.setValue(scroll.maximum())  # the new rows are there when scrolled to, and painted
    _settle()
    assert counter.paints > 0 and bench.view.visible_rows()[-1] is more[-1]


def test_rows_appended_in_sight_are_painted(qtbot: QtBot) -> None:
    bench, counter = _bench(qtbot, 3)
    bench.append_rows(make_rows(6)[3:])
    _settle()
    assert counter.paints > 0
    assert len(bench.view.visible_rows()) == 6


def test_a_filter_with_an_append_out_of_sight_still_repaints(qtbot: QtBot) -> None:
    bench, counter = _bench(qtbot, 300)
    bench.append_rows(make_rows(600)[300:])
    bench.proxy.set_filter(RowFilter(statuses=frozenset({"OK"})))
    _settle()
    assert counter.paints > 0
    assert all(row.status == "OK" for row in bench.view.visible_rows())


def test_a_reset_after_an_append_out_of_sight_repaints(qtbot: QtBot) -> None:
    bench, counter = _bench(qtbot, 300)
    bench.append_rows(make_rows(600)[300:])
    bench.model.set_rows(make_rows(5))
    _settle()
    assert counter.paints > 0 and len(bench.view.visible_rows()) == 5
