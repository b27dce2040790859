"""A finished analysis is shown in event-loop steps: table, then the first divergence, then the graph."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.analysis import Analysis

WAIT_MS = 30_000


def test_the_table_comes_first_then_the_selection_and_the_graph(qtbot: QtBot, demo_root: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    seen: dict[str, object] = {}

    def on_finished(analysis: Analysis) -> None:  # connected after the window's own handler: the table is set
        seen["rows at finish"] = window.workbench.model.rowCount()
        seen["selected at finish"] = window.workbench.view.selected_rows()
        seen["graph at finish"] = window.graph.af_open

    window.analysis.finished.connect(on_finished)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS) as shown:
        window.open_paths([str(demo_root)])
    analysis = shown.args[0]
    assert seen["rows at finish"] == len(analysis.result.rows) > 0
    assert seen["selected at finish"] == [] and seen["graph at finish"] is None
    first = analysis.result.first_divergence
    assert window.workbench.view.selected_rows() == [first]
    assert window.graph.af_open is analysis.case.af_open
    assert first in window.graph.index.rows_of_fused(first.fused_op)


def test_a_new_run_drops_the_steps_of_the_old_one(qtbot: QtBot, demo_root: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS) as shown:
        window.open_paths([str(demo_root)])
    analysis = shown.args[0]
    window.workbench.view.clearSelection()
    window.result_steps.start(analysis, {})
    window.result_steps.cancel()  # what starting another analysis does
    with qtbot.assertNotEmitted(window.resultShown, wait=300):
        pass
    assert window.workbench.view.selected_rows() == []  # the dropped selection step never ran
    shown_again: list[object] = []
    window.resultShown.connect(shown_again.append)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.analyse()
    assert len(shown_again) == 1
    assert window.workbench.view.selected_rows() == [window.workbench.result.first_divergence]


def test_the_graph_waits_for_the_tensors_unless_its_tab_is_opened(qtbot: QtBot, demo_root: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.ui.precision import tensor_panel

    release = threading.Event()

    def slow_view_files(*args: object, **kwargs: object) -> object:
        release.wait(10)  # the tensors of the selected row take their time
        return view_files(*args, **kwargs)

    view_files = tensor_panel.view_files
    monkeypatch.setattr(tensor_panel, "view_files", slow_view_files)
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.analysis.finished, timeout=WAIT_MS):
        window.open_paths([str(demo_root)])
    qtbot.waitUntil(lambda: window.workbench.view.selected_rows() != [])  # the selection step ran
    qtbot.wait(100)
    assert window.graph.af_open is None  # its layout would slow the tensor plots' first paint down
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.tabs.setCurrentIndex(1)  # the Graph tab: no more waiting
    assert window.graph.af_open is not None and window.workbench.tensor_panel.busy
    release.set()
    qtbot.waitUntil(lambda: not window.workbench.tensor_panel.busy, timeout=WAIT_MS)


def test_the_graph_follows_once_the_tensors_are_shown(qtbot: QtBot, demo_root: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    order: list[str] = []
    window.workbench.tensor_panel.viewReady.connect(lambda _view: order.append("tensors"))
    window.resultShown.connect(lambda _analysis: order.append("graph"))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(demo_root)])
    assert order == ["tensors", "graph"]


class _PaintCounter(QObject):
    """Counts the paint events of a widget."""

    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Count, never filter."""
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def test_the_window_repaints_and_runs_its_timers_between_the_steps(qtbot: QtBot, demo_root: Path) -> None:
    """Each step is its own event-loop turn: the table is painted, and due timers fire, before the next."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    counter = _PaintCounter()
    window.workbench.view.viewport().installEventFilter(counter)
    ticks = [0]
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    timer.start()
    seen: dict[str, tuple[int, int]] = {}
    window.analysis.finished.connect(lambda _analysis: seen.setdefault("table", (ticks[0], counter.paints)))
    window.workbench.rowSelected.connect(lambda _row: seen.setdefault("selection", (ticks[0], counter.paints)))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(demo_root)])
    seen["shown"] = (ticks[0], counter.paints)
    timer.stop()
    (table_ticks, table_paints), (selection_ticks, selection_paints) = seen["table"], seen["selection"]
    assert selection_paints > table_paints  # the table was on screen before its selection was made
    assert selection_ticks > table_ticks and seen["shown"][0] > selection_ticks
