"""The column-width fit measures only the texts an estimate puts near each column's widest: widths as before."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.palette import VERDICT_COLOURS
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.column_fit import cell_margin, fit_result_columns, widest
from autofuse_studio.ui.precision.column_texts import (
    MAX_CANDIDATES,
    column_texts,
    result_column_texts,
    sample,
    width_candidates,
)
from autofuse_studio.ui.precision.columns import COLUMNS, translated_texts
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH, header_width
from tests.ui.test_result_facts import _result
from tests.ui.test_table_model import make_rows

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"


def _odd_names(rows: list[PrecisionRow], seed: int) -> list[PrecisionRow]:
    """Rows whose op names differ in glyphs, not only in length: 'iiil…' against 'WWmm…' and in between."""
    pick = random.Random(seed)
    named = []
    for row in rows:
        length = pick.randint(4, 18)  # short enough not to reach the cap
        alphabet = pick.choice(["il1.", "mwMW", _LETTERS, "算子融合_op"])
        named.append(replace(row, fused_op="".join(pick.choice(alphabet) for _ in range(length)),
                             origin_op="".join(pick.choice(_LETTERS) for _ in range(pick.randint(5, 60)))))
    return named


def _exhaustive_widths(bench: PrecisionWorkbench, rows: list[PrecisionRow], statuses: list[str]) -> list[int]:
    """Widths the fit gave before: every distinct text of the sample and the rows the table opens on, measured."""
    proxy, view = bench.proxy, bench.view
    near = [proxy.row_at(number) for number in range(min(60, proxy.rowCount()))]
    first = bench.result.first_divergence if bench.result is not None else None
    position = proxy.proxy_row_of(first) if first is not None else -1
    if position >= 0:
        near += [proxy.row_at(number) for number in range(max(0, position - 60), min(proxy.rowCount(), position + 60))]
    chosen = sample(rows) + near
    extra = {"verdict": list(VERDICT_COLOURS), "status": statuses}
    widths = []
    for number, column in enumerate(COLUMNS):
        texts = [column.display(row) for row in chosen] + extra.get(column.key, [])
        cells = widest(texts, view.fontMetrics()) + cell_margin(view)
        widths.append(max(header_width(view.horizontalHeader(), number), min(cells, MAX_WIDTH)))
    return widths


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("search", ["", "a"])
def test_widths_from_the_candidates_match_measuring_every_text(qtbot: QtBot, seed: int, search: str) -> None:
    rows = _odd_names(make_rows(3000, seed=seed), seed)
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.filter_bar.search.setText(search)  # a filter: the table opens on other rows than the worker's
    result = _result(rows)
    bench.set_result(result, {}, None)
    view = bench.view
    shown = [number for number in range(len(COLUMNS)) if not view.isColumnHidden(number)]
    fitted = [view.columnWidth(number) for number in shown]
    expected = [_exhaustive_widths(bench, rows, list(result.counts("status")))[number] for number in shown]
    assert max(abs(a - b) for a, b in zip(fitted, expected, strict=True)) <= 2, f"{fitted} {expected}"
    assert 150 < fitted[shown.index(COLUMNS.index(next(c for c in COLUMNS if c.key == "fused_op")))] < MAX_WIDTH


def test_candidates_keep_the_widest_by_glyphs_not_by_length() -> None:
    texts = ["i" * 30, "W" * 12, "m" * 12] + [f"name_{number}" for number in range(200)]
    kept = width_candidates(texts)
    assert "W" * 12 in kept and "m" * 12 in kept and "i" * 30 not in kept
    assert len(kept) <= MAX_CANDIDATES
    assert sorted(width_candidates(["b", "a", "a"])) == ["a", "b"]  # few texts: all of them, once


def test_rows_the_worker_saw_add_nothing_and_new_rows_are_added() -> None:
    rows = make_rows(500)
    first = rows[250]
    texts = result_column_texts(rows, first)
    assert texts.with_rows(rows[200:300]) is texts and texts.with_rows(rows[:60]) is texts
    wide = replace(rows[400], fused_op="W" * 80)
    grown = texts.with_rows([wide])
    assert "W" * 80 in grown.texts["fused_op"] and "W" * 80 not in texts.texts["fused_op"]
    assert id(wide) in grown.rows_seen


def test_texts_of_another_language_are_worked_out_again(qtbot: QtBot) -> None:
    rows = make_rows(200)
    result = _result(rows)
    texts = column_texts(rows)
    stale = replace(texts, language="another language", texts={key: ["W" * 200] for key in texts.texts})
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.set_result(result, {}, None)
    widths = [bench.view.columnWidth(number) for number in range(len(COLUMNS))]
    fit_result_columns(bench.view, bench.proxy, rows, result.first_divergence, list(result.counts("status")), stale)
    assert [bench.view.columnWidth(number) for number in range(len(COLUMNS))] == widths


def test_the_worker_leaves_the_translation_cache_to_the_gui_thread(qtbot: QtBot) -> None:
    rows = make_rows(400)
    result = _result(rows)
    translated_texts.cache_clear()  # as a language change does, while the worker may be running
    texts = result_column_texts(rows, result.first_divergence)
    assert translated_texts.cache_info().currsize == 0 and "kind" not in texts.texts
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.set_result(result, {}, None)
    kind = [column.key for column in COLUMNS].index("kind")
    widths = bench.view.columnWidth(kind)
    fit_result_columns(bench.view, bench.proxy, rows, result.first_divergence, list(result.counts("status")), texts)
    assert bench.view.columnWidth(kind) == widths > 0
