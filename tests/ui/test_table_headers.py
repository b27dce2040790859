"""The precision table's headers: row numbers sized as Qt sizes them (from far fewer model calls), clickable."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QTableView
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.test_table_model import COSINE, make_rows


def _workbench(qtbot: QtBot, rows: int) -> PrecisionWorkbench:
    workbench = PrecisionWorkbench()
    qtbot.addWidget(workbench)
    workbench.resize(1200, 700)
    workbench.set_result(PrecisionResult(make_rows(rows), Thresholds()), {})
    with qtbot.waitExposed(workbench):
        workbench.show()
    return workbench


def test_row_numbers_are_as_wide_as_qt_makes_them(qtbot: QtBot) -> None:
    workbench = _workbench(qtbot, 9_990)
    plain = QTableView()  # Qt's own header over the same rows
    qtbot.addWidget(plain)
    plain.setModel(workbench.proxy)
    for extra in (0, 20):  # 4 and 5 digits
        if extra:
            workbench.model.append_rows(make_rows(extra, seed=extra))
        ours, qts = workbench.view.verticalHeader().sizeHint(), plain.verticalHeader().sizeHint()
        assert abs(ours.width() - qts.width()) <= 2 and ours.height() == qts.height(), (extra, ours, qts)
    assert workbench.view.verticalHeader().sizeHint().width() > plain.fontMetrics().horizontalAdvance("99999")


def test_headers_stay_clickable(qtbot: QtBot) -> None:
    workbench = _workbench(qtbot, 50)
    view = workbench.view
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(COSINE) + header.sectionSize(COSINE) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    assert header.sortIndicatorSection() == COSINE  # a click sorts
    vertical = view.verticalHeader()
    y = vertical.sectionViewportPosition(3) + vertical.sectionSize(3) // 2
    qtbot.mouseClick(vertical.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(vertical.width() // 2, y))
    assert view.selected_rows() == [workbench.proxy.row_at(3)]  # a row number selects its row
