"""Small screens (issue 28, item 6): at 1280x720 Analyse, the status line and the Verdict column show without
scrolling, histograms keep a readable height with the warnings open, the graph toolbar never cuts a control off."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolBar, QToolButton, QWidget, QWidgetAction
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.graph.toolbar import GraphToolbar
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.tensor_plots import PLOT_MIN_HEIGHT, TensorHistograms

WAIT_MS = 60_000


def _window(qtbot: QtBot, case: Path, size: tuple[int, int]) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(case)])
    return window


def _shown_whole(widget: QWidget, rect: QRect | None = None) -> bool:
    """True when `rect` of the widget (all of it by default) is on screen: inside every ancestor up to the window,
    so not clipped by a scroll area's viewport, not scrolled away, not beyond the window's edge."""
    rect = rect or widget.rect()
    if not widget.isVisible():
        return False
    child: QWidget = widget
    while child.parentWidget() is not None and not child.isWindow():
        parent = child.parentWidget()
        rect = QRect(child.mapToParent(rect.topLeft()), rect.size())
        if not parent.rect().contains(rect):
            return False
        child = parent
    return True


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_analyse_status_and_verdict_show_without_scrolling(qtbot: QtBot, demo_root: Path,
                                                          size: tuple[int, int]) -> None:
    window = _window(qtbot, demo_root, size)
    assert (window.width(), window.height()) == size  # no minimum size made the window grow
    panel = window.case_panel
    assert _shown_whole(panel.analyse_button)
    assert _shown_whole(panel.progress_label) and "58 rows" in panel.progress_label.text()
    header = window.workbench.view.horizontalHeader()
    verdict = COLUMN_KEYS.index("verdict")
    section = QRect(header.sectionViewportPosition(verdict), 0, header.sectionSize(verdict), header.height())
    assert section.width() > 0 and _shown_whole(header, section)


def test_the_less_used_options_fold_away_and_open_when_used(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    panel = window.case_panel
    assert not panel.run_on_section.is_expanded() and not panel.mode2_box.is_expanded()
    assert panel.run_on_section.title() == "Run on: local (this machine)"
    panel.cluster_run.use_cluster("node1:8786")
    assert panel.run_on_section.is_expanded() and panel.cluster_run.isVisibleTo(panel)
    assert panel.run_on_section.title() == "Run on: a Dask cluster"


def test_histograms_stay_readable_with_the_warnings_open(qtbot: QtBot, demo_root: Path) -> None:
    window = _window(qtbot, demo_root, (1280, 720))
    bench = window.workbench
    panel = bench.tensor_panel
    bench.go_to_first_divergence()
    qtbot.waitUntil(lambda: panel.view is not None and not panel.busy, timeout=WAIT_MS)
    assert bench.notices.isVisible()  # the demo has warnings
    bench.notices.toggle.setChecked(True)
    qtbot.wait(100)
    histograms = panel.histograms
    assert histograms.isVisible()
    for name, plot in histograms.plots().items():
        assert plot.geometry().height() >= PLOT_MIN_HEIGHT - 1, name
        assert plot.getViewBox().height() >= 60, name  # room for the curve between title and axis labels
    # The three side by side, wholly shown: the histograms' own scroll area has nothing to scroll.
    assert histograms.one_row
    assert histograms.plot_scroll.viewport().height() >= histograms.graphics.height() - 1
    assert (window.width(), window.height()) == (1280, 720)


def test_histograms_use_one_row_when_low_and_wide(qtbot: QtBot) -> None:
    histograms = TensorHistograms()
    qtbot.addWidget(histograms)
    histograms.resize(1000, 220)
    histograms.show()
    qtbot.waitUntil(lambda: histograms.one_row)
    rows = {round(plot.geometry().top()) for plot in histograms.plots().values()}
    assert len(rows) == 1
    grid, scene = histograms.graphics.ci, histograms.graphics.scene()
    assert [grid.getItem(0, col) for col in range(3)] == [histograms.values_plot, histograms.error_plot,
                                                          histograms.abs_plot]
    histograms.resize(700, 600)
    qtbot.waitUntil(lambda: not histograms.one_row)
    assert histograms.values_plot.geometry().bottom() <= histograms.error_plot.geometry().top() + 1
    # Moved within the grid, not out of the scene and back: the grid's own look-up follows the move.
    assert [grid.getItem(*cell) for cell in ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1))] == [
        histograms.values_plot, histograms.values_plot, None, histograms.error_plot, histograms.abs_plot]
    assert all(plot.scene() is scene for plot in histograms.plots().values())
    assert grid.layout.count() == 3


def _clipped_actions(bar: GraphToolbar) -> list[str]:
    """Controls of the toolbar that are neither wholly shown nor reachable from a row's '>>' menu."""
    clipped = []
    for row in bar.rows:
        extension = row.findChild(QToolButton, "qt_toolbar_ext_button")
        overflow = extension.menu().actions() if extension is not None and extension.isVisible() else []
        limit = extension.x() if extension is not None and extension.isVisible() else row.width()
        for action in row.actions():
            if action.isSeparator() or not action.isVisible():  # hidden where it cannot act (e.g. Compare with…)
                continue
            widget = row.widgetForAction(action)
            if widget is not None and widget.isVisible():
                if widget.geometry().right() >= limit or not widget.visibleRegion().contains(widget.rect()):
                    clipped.append(_name(action, widget))
            elif isinstance(action, QWidgetAction) or action not in overflow:
                clipped.append(_name(action, widget))
    return clipped


def _name(action: QAction, widget: QWidget | None) -> str:
    return action.text() or (type(widget).__name__ if widget is not None else "?")


def test_the_graph_toolbar_cuts_nothing_off_at_1280(qtbot: QtBot, demo_root: Path) -> None:
    window = _window(qtbot, demo_root, (1280, 720))
    window.tabs.setCurrentIndex(window.tab_status.page(window.graph))
    qtbot.wait(100)
    assert not window.case_dock.isVisible()  # the graph panes get the width
    bar = window.graph.toolbar
    assert _clipped_actions(bar) == []
    assert all(row.widgetForAction(action).isVisible() for row in bar.rows for action in row.actions()
               if not action.isSeparator() and action.isVisible())  # at 1280 px everything fits
    assert window.graph.open_pane.width() >= 400 and window.graph.close_pane.width() >= 400
    window.tabs.setCurrentIndex(0)
    assert window.case_dock.isVisible()


def test_a_narrow_graph_toolbar_overflows_into_its_menu(qtbot: QtBot) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    bar = GraphToolbar(holder)
    bar.resize(720, bar.sizeHint().height())
    holder.resize(720, 200)
    holder.show()
    qtbot.waitExposed(holder)
    overflowing = [row for row in bar.rows if row.findChild(QToolButton, "qt_toolbar_ext_button").isVisible()]
    assert overflowing  # the buttons did not fit: they wait in '>>'
    assert _clipped_actions(bar) == []
    assert isinstance(bar.rows[0], QToolBar) and bar.fit in bar.rows[0].actions()
