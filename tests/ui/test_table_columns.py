"""The precision table at a laptop's size: frozen key columns, capped widths, middle elision, a remembered chooser."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLabel, QPushButton, QTableView
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.column_chooser import KEY_ROLE
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.table_view import PrecisionTableView
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH
from tests.synth import full_coverage_spec, generate_case

WAIT_MS = 60_000
KEY_COLUMNS = ("step", "verdict", "fused_op")


@pytest.fixture(scope="module")
def long_names_case(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated case with every feature, 300-character op names among them."""
    root = tmp_path_factory.mktemp("columns") / "case"
    generate_case(root, full_coverage_spec())
    return root


@pytest.fixture
def window(qtbot: QtBot, long_names_case: Path) -> MainWindow:
    """A shown 1280x800 window (the app's default size) showing the case's result."""
    shown = MainWindow()
    qtbot.addWidget(shown)
    shown.resize(1280, 800)
    shown.show()
    with qtbot.waitSignal(shown.resultShown, timeout=WAIT_MS):
        shown.open_paths([str(long_names_case)])
    return shown


def shown_on_screen(view: PrecisionTableView, key: str) -> bool:
    """True when the column's cells are inside the table's viewport and not covered (frozen ones lie on top)."""
    logical = COLUMN_KEYS.index(key)
    frozen, viewport = view.frozen, view.viewport().geometry()
    if frozen.isVisible() and not frozen.isColumnHidden(logical):
        top_left = frozen.viewport().mapTo(view, QPoint(frozen.columnViewportPosition(logical), 0))
        cells = QRect(top_left, QSize(frozen.columnWidth(logical), frozen.viewport().height()))
        return viewport.contains(cells) and cells.right() <= frozen.geometry().right()
    x = view.columnViewportPosition(logical)
    return x >= frozen.frozen_width() and x + view.columnWidth(logical) <= viewport.width()


@pytest.mark.parametrize("size", [(1280, 800), (1280, 720), (1440, 900)])
def test_key_columns_stay_in_view_when_scrolled_to_the_end(qtbot: QtBot, window: MainWindow,
                                                           size: tuple[int, int]) -> None:
    window.resize(*size)
    qtbot.wait(20)
    view = window.workbench.view
    for key in KEY_COLUMNS:  # as opened
        assert shown_on_screen(view, key), key
    scroll = view.horizontalScrollBar()
    assert scroll.maximum() > 0  # the table is wider than its viewport at this size
    for value in (0, scroll.maximum() // 2, scroll.maximum()):
        scroll.setValue(value)
        qtbot.wait(10)
        for key in KEY_COLUMNS:
            assert shown_on_screen(view, key), (key, value)
    # At the end, the last column is reachable too (nothing sits behind the frozen part for good).
    last = view.visible_columns()[-1]
    assert view.columnViewportPosition(last) + view.columnWidth(last) <= view.viewport().width()
    assert view.frozen.verticalScrollBar().value() == view.verticalScrollBar().value()
    kind = COLUMN_KEYS.index("kind")  # right after the key columns: scrolled to, it must not hide under them
    view.scrollTo(view.model().index(0, kind))
    assert shown_on_screen(view, "kind") and view.columnViewportPosition(kind) == view.frozen.frozen_width()
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    assert view.frozen.verticalScrollBar().value() == view.verticalScrollBar().value()


def test_long_names_are_elided_in_the_middle_with_full_tooltip(window: MainWindow) -> None:
    view, model = window.workbench.view, window.workbench.model
    assert view.textElideMode() == Qt.TextElideMode.ElideMiddle
    assert view.frozen.textElideMode() == Qt.TextElideMode.ElideMiddle
    long_cells = [(position, key) for position, row in enumerate(model.rows)
                  for key in ("fused_op", "origin_op") if len(getattr(row, key) or "") >= 300]
    assert long_cells
    for position, key in long_cells:
        column = COLUMN_KEYS.index(key)
        text = model.data(model.index(position, column))
        assert model.data(model.index(position, column), Qt.ItemDataRole.ToolTipRole).splitlines()[0] == text
        assert view.fontMetrics().horizontalAdvance(text) > view.columnWidth(column)  # so it is elided


def test_no_column_exceeds_the_cap(window: MainWindow) -> None:
    view = window.workbench.view
    widths = {COLUMN_KEYS[logical]: view.columnWidth(logical) for logical in view.visible_columns()}
    assert max(widths.values()) <= MAX_WIDTH, widths
    assert view.frozen.width() <= MAX_WIDTH + 300  # step and verdict beside a capped name


def test_selection_is_shared_by_frozen_and_scrolled_parts(qtbot: QtBot, window: MainWindow) -> None:
    view = window.workbench.view
    frozen: QTableView = view.frozen
    assert frozen.selectionModel() is view.selectionModel() and frozen.model() is view.model()
    proxy = window.workbench.proxy
    assert view.selected_rows() != [proxy.row_at(6)]  # the window selected the first divergence
    target = proxy.index(6, COLUMN_KEYS.index("verdict"))
    with qtbot.waitSignal(view.rowSelected, timeout=2000) as blocker:
        qtbot.mouseClick(frozen.viewport(), Qt.MouseButton.LeftButton, pos=frozen.visualRect(target).center())
    assert blocker.args == [proxy.row_at(6)]
    assert view.selected_rows() == [proxy.row_at(6)]
    view.select_row(proxy.row_at(5))
    assert frozen.selectionModel().isRowSelected(5) and not frozen.selectionModel().isRowSelected(6)


def test_chooser_hides_and_reorders_and_a_new_window_remembers(qtbot: QtBot) -> None:
    first = PrecisionWorkbench()
    qtbot.addWidget(first)
    view = first.view
    menu = view.column_menu()
    actions = {action.data(): action for action in menu.actions() if action.data()}
    assert not actions["verdict"].isEnabled() and actions["kind"].isEnabled()
    actions["kind"].setChecked(False)  # as a click in the header's context menu does
    assert view.isColumnHidden(COLUMN_KEYS.index("kind"))
    header = view.horizontalHeader()
    status = COLUMN_KEYS.index("status")
    header.moveSection(header.visualIndex(status), 0)  # as dragging its header to the far left does
    order = [COLUMN_KEYS[logical] for logical in view.visible_columns()]
    assert order[:4] == ["step", "verdict", "fused_op", "status"]  # key columns stay first
    second = PrecisionWorkbench()
    qtbot.addWidget(second)
    again = second.view
    assert again.isColumnHidden(COLUMN_KEYS.index("kind"))
    assert [COLUMN_KEYS[logical] for logical in again.visible_columns()] == order
    assert [COLUMN_KEYS[logical] for logical in range(len(COLUMN_KEYS))
            if not again.frozen.isColumnHidden(logical)] == ["fused_op", "verdict", "step"]  # model order
    reset = next(action for action in again.column_menu().actions() if action.objectName() == "resetColumns")
    reset.trigger()
    third = PrecisionWorkbench()
    qtbot.addWidget(third)
    assert not third.view.isColumnHidden(COLUMN_KEYS.index("kind"))
    assert [COLUMN_KEYS[logical] for logical in third.view.visible_columns()][:5] == [
        "step", "verdict", "fused_op", "fused_index", "kind"]


def test_hidden_choice_and_empty_optional_columns_combine(window: MainWindow, qtmodeltester: object) -> None:
    view = window.workbench.view
    view.set_column_shown("verdict", False)  # a key column cannot be hidden
    assert not view.isColumnHidden(COLUMN_KEYS.index("verdict"))
    view.set_column_shown("status", False)
    window.workbench.set_result(window.workbench.result, window.workbench.producers)  # type: ignore[arg-type]
    assert view.isColumnHidden(COLUMN_KEYS.index("status"))  # a new result keeps the user's choice
    assert view.isColumnHidden(COLUMN_KEYS.index("rank"))  # single device: no rank column, as before
    qtmodeltester.check(window.workbench.model)  # type: ignore[attr-defined]
    qtmodeltester.check(window.workbench.proxy)  # type: ignore[attr-defined]


def test_chooser_dialog_reorders_hides_and_resets(qtbot: QtBot) -> None:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    view = bench.view
    dialog = view.chooser()
    qtbot.addWidget(dialog)
    keys = [dialog.list.item(row).data(KEY_ROLE) for row in range(dialog.list.count())]
    assert keys[:3] == ["fused_index", "kind", "cosine"] and "verdict" not in keys  # key columns are not listed
    assert "rank" not in keys and "statistics" not in keys  # no values in an empty table
    dialog.list.setCurrentRow(2)
    dialog.move_current(-1)  # Cosine before Kind
    dialog.list.item(0).setCheckState(Qt.CheckState.Unchecked)  # hide Index
    view.apply_choice(*dialog.chosen())
    shown = [COLUMN_KEYS[logical] for logical in view.visible_columns()]
    assert shown[:5] == ["step", "verdict", "fused_op", "cosine", "kind"]
    again = PrecisionWorkbench()
    qtbot.addWidget(again)
    assert [COLUMN_KEYS[logical] for logical in again.view.visible_columns()] == shown
    reset = again.view.chooser()
    qtbot.addWidget(reset)
    with qtbot.waitSignal(reset.accepted, timeout=1000):
        reset.findChild(QPushButton, "resetColumnsButton").click()
    again.view._on_chooser_accepted(reset)
    assert [COLUMN_KEYS[logical] for logical in again.view.visible_columns()][:5] == [
        "step", "verdict", "fused_op", "fused_index", "kind"]


def test_chooser_speaks_chinese(window: MainWindow) -> None:
    window.set_language("zh_CN")
    try:
        view = window.workbench.view
        texts = [action.text() for action in view.column_menu().actions() if not action.isSeparator()]
        assert "结论" in texts and "列…" in texts and "恢复默认列" in texts
        dialog = view.chooser()
        assert dialog.windowTitle() == "表格列" and "、" in dialog.findChild(QLabel).text()
        dialog.deleteLater()
    finally:
        window.set_language("en")
