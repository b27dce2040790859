"""The precision table model, its fast sort/filter proxy, the view's copy and threshold-driven colours."""

from __future__ import annotations

import math

from PySide6.QtCore import QModelRoleData, Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.filters import PrecisionProxyModel, RowFilter
from autofuse_studio.ui.precision.table_model import ROW_ROLE, SORT_ROLE, PrecisionTableModel, verdict_colour
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench

COSINE = COLUMN_KEYS.index("cosine")
FUSED_OP = COLUMN_KEYS.index("fused_op")


def make_metrics(cosine: float, max_abs: float = 0.01) -> Metrics:
    """Metrics with the given cosine (other fields plausible)."""
    return Metrics(cosine, max_abs, max_abs * 10, max_abs / 2, max_abs / 3, 0.01, 0.9, 0.95, 1024, 0, 0, 0, 0)


def make_rows(count: int, seed: int = 0) -> list[PrecisionRow]:
    """`count` synthetic rows: every 7th uncompared, cosines spread around 0.99."""
    rows = []
    for number in range(count):
        mixed = (number * 7919 + seed) % 1000
        compared = number % 7 != 3
        row = PrecisionRow(OUTPUT, f"autofuse_{mixed}_Op{number}", number % 3, f"Origin_{number}", 0,
                           "OK" if compared else "FILE_NOT_FOUND", step="0", order=number,
                           metrics=make_metrics(0.95 + mixed / 20000) if compared else None,
                           fused_dtype="float16", origin_dtype="float16" if number % 2 else "float32")
        rows.append(row)
    return rows


def _models(rows: list[PrecisionRow]) -> tuple[PrecisionTableModel, PrecisionProxyModel]:
    model = PrecisionTableModel()
    model.set_rows(rows)
    proxy = PrecisionProxyModel(model)
    proxy.setSourceModel(model)
    return model, proxy


def test_models_pass_the_model_tester(qtmodeltester, qtbot: QtBot) -> None:  # type: ignore[no-untyped-def]
    model, proxy = _models(make_rows(50))
    qtmodeltester.check(model)
    qtmodeltester.check(proxy)
    proxy.set_filter(RowFilter(text="op1"))
    proxy.sort(COSINE, Qt.SortOrder.DescendingOrder)
    model.append_rows(make_rows(5, seed=3))
    qtmodeltester.check(proxy)


def test_sort_is_numeric_with_empty_cells_last(qtbot: QtBot) -> None:
    rows = make_rows(30)
    rows[0].metrics = make_metrics(math.nan)
    _, proxy = _models(rows)
    for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
        proxy.sort(COSINE, order)
        shown = proxy.visible_rows()
        values = [row.metric("cosine") for row in shown]
        numbers = [value for value in values if value is not None and not math.isnan(value)]
        assert numbers == sorted(numbers, reverse=order == Qt.SortOrder.DescendingOrder)
        tail = values[len(numbers):]
        assert all(value is None or math.isnan(value) for value in tail)
    proxy.sort(-1)
    assert proxy.visible_rows() == rows


def test_filters_by_status_verdict_and_text(qtbot: QtBot) -> None:
    rows = make_rows(70)
    assign_verdicts(rows, Thresholds(), {})
    _, proxy = _models(rows)
    proxy.set_filter(RowFilter(statuses=frozenset({"FILE_NOT_FOUND"})))
    assert proxy.rowCount() == 10
    proxy.set_filter(RowFilter(verdicts=frozenset({"CULPRIT"})))
    assert {row.verdict for row in proxy.visible_rows()} == {"CULPRIT"}
    proxy.set_filter(RowFilter(text="ORIGIN_42"))
    assert [row.origin_op for row in proxy.visible_rows()] == ["Origin_42"]
    assert proxy.data(proxy.index(0, 0), ROW_ROLE) is rows[42]
    proxy.set_filter(RowFilter())
    assert proxy.rowCount() == 70


def test_threshold_edit_recolours_without_recomputing(qtbot: QtBot) -> None:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    rows = make_rows(20)
    result = PrecisionResult(rows, Thresholds())
    result.first_divergence = assign_verdicts(rows, result.thresholds, {})
    bench.set_result(result, {})
    metrics_before = [row.metrics for row in rows]
    failing = next(number for number, row in enumerate(rows) if row.verdict == "CULPRIT")
    index = bench.proxy.index(bench.proxy.proxy_row_of(rows[failing]), COSINE)
    assert bench.proxy.data(index, Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("CULPRIT")
    with qtbot.waitSignal(bench.model.dataChanged, timeout=1000):
        bench.apply_thresholds(Thresholds(Limits(cosine=0.5)))
    assert rows[failing].verdict == "OK"
    assert bench.proxy.data(index, Qt.ItemDataRole.BackgroundRole).color() == verdict_colour("OK")
    assert [row.metrics for row in rows] == metrics_before
    assert bench.legend.labels["CULPRIT"].text() == "CULPRIT 0"
    assert not bench.go_to_first_divergence()


def test_go_to_first_divergence_clears_hiding_filters(qtbot: QtBot) -> None:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    rows = make_rows(40)
    result = PrecisionResult(rows, Thresholds())
    result.first_divergence = assign_verdicts(rows, result.thresholds, {})
    bench.set_result(result, {})
    bench.filter_bar.search.setText("no such op")
    assert bench.proxy.rowCount() == 0
    with qtbot.waitSignal(bench.rowSelected, timeout=1000) as blocker:
        assert bench.go_to_first_divergence()
    assert blocker.args == [result.first_divergence]
    assert bench.filter_bar.search.text() == ""


def test_ctrl_c_copies_selected_rows_as_tsv(qtbot: QtBot) -> None:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    rows = make_rows(5)
    bench.set_result(PrecisionResult(rows, Thresholds()), {})
    bench.show()
    bench.view.selectRow(1)
    bench.view.setFocus()
    qtbot.keyClick(bench.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QGuiApplication.clipboard().text().splitlines()
    assert lines[0].split("\t")[FUSED_OP] == "Fused op"
    assert lines[1].split("\t")[FUSED_OP] == rows[1].fused_op
    assert len(lines) == 2


def test_streamed_rows_respect_the_filter(qtbot: QtBot) -> None:
    model, proxy = _models([])
    proxy.set_filter(RowFilter(statuses=frozenset({"OK"})))
    with qtbot.waitSignal(proxy.rowsInserted, timeout=1000):
        model.append_rows(make_rows(14))
    assert proxy.rowCount() == 12
    assert all(row.status == "OK" for row in proxy.visible_rows())


PAINT_ROLES = [Qt.ItemDataRole.FontRole, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ForegroundRole,
               Qt.ItemDataRole.CheckStateRole, Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.DisplayRole,
               Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole, SORT_ROLE]


def test_multi_data_gives_what_data_gives_and_clears_stale_roles(qtbot: QtBot) -> None:
    rows = make_rows(40)
    rows[5].message = "a message for the tooltip"
    assign_verdicts(rows, Thresholds(), {})
    model, proxy = _models(rows)
    proxy.sort(COSINE, Qt.SortOrder.DescendingOrder)
    proxy.set_filter(RowFilter(text="op1"))
    for tested in (model, proxy):
        entries = [QModelRoleData(role) for role in PAINT_ROLES]  # reused for every cell, as a delegate does
        for row in range(tested.rowCount()):
            for column in range(tested.columnCount()):
                index = tested.index(row, column)
                for entry in entries:
                    tested.multiData(index, entry)
                got = {entry.role(): entry.data() for entry in entries}
                assert got == {role: tested.data(index, role) for role in PAINT_ROLES}, (row, column)
    display = QModelRoleData(Qt.ItemDataRole.DisplayRole)
    proxy.multiData(proxy.index(0, FUSED_OP), display)
    assert display.data()
    proxy.multiData(proxy.index(proxy.rowCount() + 5, FUSED_OP), display)  # invalid: nothing left over
    assert display.data() is None


def test_table_paints_cells_through_multi_data(qtbot: QtBot) -> None:
    rows = make_rows(30)
    workbench = PrecisionWorkbench()
    qtbot.addWidget(workbench)
    workbench.resize(1200, 700)
    workbench.set_result(PrecisionResult(rows, Thresholds()), {})
    with qtbot.waitExposed(workbench):
        workbench.show()
    calls = []
    original = workbench.model.fill_roles
    workbench.model.fill_roles = lambda *args: (calls.append(args[:2]), original(*args))[1]  # type: ignore[method-assign]
    workbench.view.viewport().repaint()
    painted = {position for position, _column in calls}
    assert painted and painted <= set(range(len(rows)))
    assert len(calls) >= len(painted) * 5  # every shown column of every painted row, one call per cell


def test_painted_values_follow_verdict_changes_and_new_rows(qtbot: QtBot) -> None:
    rows = make_rows(30)
    result = PrecisionResult(rows, Thresholds())
    result.first_divergence = assign_verdicts(rows, result.thresholds, {})
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.set_result(result, {})
    failing = next(row for row in rows if row.verdict == "CULPRIT")

    def painted(row: PrecisionRow, column: int) -> dict[int, object]:
        index = bench.proxy.index(bench.proxy.proxy_row_of(row), column)
        entries = [QModelRoleData(role) for role in PAINT_ROLES]
        for _ in range(2):  # the second paint of a cell is served from what the first one worked out
            bench.proxy.multiData(index, entries)  # type: ignore[arg-type]
        return {entry.role(): entry.data() for entry in entries}

    assert painted(failing, COSINE)[Qt.ItemDataRole.BackgroundRole].color() == verdict_colour("CULPRIT")
    bench.apply_thresholds(Thresholds(Limits(cosine=0.5)))
    assert painted(failing, COSINE)[Qt.ItemDataRole.BackgroundRole].color() == verdict_colour("OK")
    others = make_rows(30, seed=11)
    bench.set_result(PrecisionResult(others, Thresholds()), {})
    assert painted(others[0], FUSED_OP)[Qt.ItemDataRole.DisplayRole] == others[0].fused_op


def test_mode_two_rows_show_file_names_with_the_path_in_the_tooltip(qtbot: QtBot) -> None:
    """Two NPY files compared (mode 2) name the row by their paths: the cells show the file names."""
    fused, origin = "/data/run a/fused.npy", "/data/run b/origin.npy"
    model = PrecisionTableModel()
    model.append_rows([PrecisionRow(OUTPUT, fused, 0, origin, 0, "OK", fused_file=fused, origin_file=origin),
                       PrecisionRow(OUTPUT, "autofuse_1", 0, "model/Add", 0, "OK", fused_file=fused)])
    fused_at, origin_at = COLUMN_KEYS.index("fused_op"), COLUMN_KEYS.index("origin_op")
    cell = model.index(0, fused_at)
    assert cell.data() == "fused.npy" and model.index(0, origin_at).data() == "origin.npy"
    assert fused in cell.data(Qt.ItemDataRole.ToolTipRole)
    assert origin in model.index(0, origin_at).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(1, fused_at).data() == "autofuse_1"  # op names of a case stay as they are
    assert model.index(1, origin_at).data() == "model/Add"
