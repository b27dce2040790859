"""A finished result shown with facts worked out off the GUI thread looks exactly as one shown without them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.ui.precision.filters import PrecisionProxyModel, RowFilter
from autofuse_studio.ui.precision.result_facts import result_facts
from autofuse_studio.ui.precision.table_model import PrecisionTableModel
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.test_table_model import make_rows


def _result(rows: list[PrecisionRow]) -> PrecisionResult:
    result = PrecisionResult(rows, Thresholds())
    result.first_divergence = assign_verdicts(rows, result.thresholds, {})
    return result


def _ranked(rows: list[PrecisionRow]) -> list[PrecisionRow]:
    return [replace(row, rank=str(number % 3), step=str(number % 2), occurrence=number % 4 or None)
            for number, row in enumerate(rows)]


def _shown(bench: PrecisionWorkbench) -> dict[str, object]:
    """What the user sees of a result: rows in order, hidden columns, filters offered, legend, grid."""
    proxy, bar, view = bench.proxy, bench.filter_bar, bench.view
    return {"rows": [proxy.row_at(number).fused_op for number in range(proxy.rowCount())],
            "hidden": [view.isColumnHidden(column) for column in range(bench.model.columnCount())],
            "statuses": [bar.status_combo.itemText(number) for number in range(bar.status_combo.count())],
            "ranks": [bar.rank_combo.itemText(number) for number in range(bar.rank_combo.count())],
            "legend": {key: label.text() for key, label in bench.legend.labels.items()},
            "grid": (bench.overview.grid.overview.ranks, bench.overview.grid.overview.steps),
            "widths": [view.columnWidth(column) for column in range(bench.model.columnCount())]}


@pytest.mark.parametrize("ranked", [False, True])
@pytest.mark.parametrize("search", ["", "origin_1", "float32"])
def test_facts_from_the_worker_show_the_same_table(qtbot: QtBot, ranked: bool, search: str) -> None:
    rows = make_rows(300)
    rows = _ranked(rows) if ranked else rows
    shown = []
    for with_facts in (False, True):
        bench = PrecisionWorkbench()
        qtbot.addWidget(bench)
        bench.filter_bar.search.setText(search)
        streamed = [replace(row) for row in rows]
        bench.append_rows(streamed[:120])  # some rows streamed in first, as during a run
        result = _result(streamed)
        bench.set_result(result, {}, result_facts(result) if with_facts else None)
        shown.append(_shown(bench))
    assert shown[0] == shown[1]
    matching = [row for row in rows if search.lower() in f"{row.fused_op} {row.origin_op} {row.origin_dtype}".lower()]
    assert len(shown[1]["rows"]) == len(matching) > 0  # type: ignore[arg-type]


def test_facts_of_another_result_are_not_used(qtbot: QtBot) -> None:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    other = _result(make_rows(10, seed=5))
    result = _result(make_rows(40))
    bench.set_result(result, {}, result_facts(other))
    assert bench.proxy.rowCount() == 40
    bench.filter_bar.search.setText(result.rows[7].fused_op)
    assert bench.proxy.row_at(0) is result.rows[7]


def test_search_texts_given_with_rows_are_the_filters_haystacks_and_a_wrong_count_is_ignored() -> None:
    rows = make_rows(30)
    facts = result_facts(_result(rows))
    for texts, expected in ((facts.search_texts, 1), (["no match"] * 29, 1), (["autofuse"] * 30, 30)):
        model = PrecisionTableModel()
        proxy = PrecisionProxyModel(model)
        proxy.setSourceModel(model)
        model.set_rows(rows, texts)
        proxy.set_filter(RowFilter(text=rows[3].origin_op or ""))
        if texts is facts.search_texts or len(texts) != len(rows):
            assert proxy.rowCount() == expected  # the real texts (given, or worked out when the count is off)
        else:
            proxy.set_filter(RowFilter(text="autofuse"))
            assert proxy.rowCount() == expected
        assert model.take_search_texts() is None  # given for one reset only


def test_without_a_filter_every_row_shows_and_with_one_only_matches() -> None:
    rows = make_rows(50)
    model = PrecisionTableModel()
    proxy = PrecisionProxyModel(model)
    proxy.setSourceModel(model)
    model.set_rows(rows)
    assert [proxy.row_at(number) for number in range(proxy.rowCount())] == rows
    proxy.set_filter(RowFilter(statuses=frozenset({"FILE_NOT_FOUND"})))
    assert {proxy.row_at(number).status for number in range(proxy.rowCount())} == {"FILE_NOT_FOUND"}
    proxy.set_filter(RowFilter())
    assert proxy.rowCount() == 50
