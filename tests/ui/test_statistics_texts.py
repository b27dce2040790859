"""Statistics-mode texts and widgets in isolation: cells, the dock's side facts, the limits' fields, remote rows."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QLocale
from pytestqt.qtbot import QtBot

from autofuse_studio.core.dumps.stats_csv import TensorStats
from autofuse_studio.core.precision.dump_pairs import SideFacts, SidesSummary
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds, compare_stats
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.ui.precision.case_panel import CasePanel
from autofuse_studio.ui.precision.columns import COLUMN_KEYS, COLUMNS
from autofuse_studio.ui.precision.limit_input import parse_limit_text
from autofuse_studio.ui.precision.stats_text import item_text, number_pair, relative_text, worst_statistic_text
from autofuse_studio.ui.precision.stats_view import StatsComparisonModel
from autofuse_studio.ui.precision.thresholds_editor import ThresholdsEditor
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench

ENGLISH = QLocale(QLocale.Language.English)


def _stats(avg: float, nan: int = 0, count: int = 100) -> TensorStats:
    return TensorStats("output", 0, 400, "DT_FLOAT16", "ND", (count,), count, max=1.0, min=-1.0, avg=avg,
                       nan_count=nan, neg_inf_count=0, pos_inf_count=0)


def _row(fused: TensorStats, origin: TensorStats, name: str = "autofuse_1_Mul") -> PrecisionRow:
    return PrecisionRow(OUTPUT, name, 0, "Mul_1", 0, "OK", stats=compare_stats(fused, origin),
                        fused_file=f"/x/{name}.1.2.1736171853005882.csv/output.0.npy",
                        origin_file="/y/Mul.Mul_1.3.4.1736171853005882.csv/output.0.npy")


def test_cells_of_a_statistics_row() -> None:
    row = _row(_stats(0.55), _stats(0.5))
    cells = {column.key: column.display(row) for column in COLUMNS}
    assert cells["statistics"] == "Avg 0.55 vs 0.5 (9.1%)"
    assert cells["cosine"] == cells["rmse"] == cells["nan_fused"] == "—"  # tensor metrics do not apply
    assert cells["max_abs_err"] == "5.000000e-02" and cells["max_rel_err"] == "9.090909e-02"
    assert worst_statistic_text(_row(_stats(0.5), _stats(0.5))) == "all equal"
    assert worst_statistic_text(_row(_stats(0.5, count=10), _stats(0.5))) == "Elements 10 vs 100"
    nan_row = _row(_stats(0.5, nan=3), _stats(0.5))
    assert worst_statistic_text(nan_row) == "NaN count 3 vs 0"
    tensor = PrecisionRow(OUTPUT, "a", 0, "b", 0, "OK")
    assert COLUMNS[COLUMN_KEYS.index("statistics")].display(tensor) == "-"


@pytest.mark.parametrize(("fused", "origin", "texts"), [
    (1.00001, 1.00002, ("1.00001", "1.00002")),  # as many digits as it takes to tell them apart
    (0.55, 0.5, ("0.55", "0.5")), (3.0, 3.0, ("3", "3")), (math.inf, 2.0, ("Inf", "2")),
    (-math.inf, math.nan, ("-Inf", "NaN")),
])
def test_number_pairs(fused: float, origin: float, texts: tuple[str, str]) -> None:
    assert number_pair(fused, origin) == texts


def test_relative_differences_read_as_percentages() -> None:
    row = _row(_stats(0.0469269), _stats(-0.315423))
    worst = row.stats.item("avg") if row.stats else None
    assert worst is not None and relative_text(worst) == "115%"
    assert item_text(worst) == "Avg 0.04693 vs -0.3154 (115%)"
    inf_row = _row(TensorStats("output", 0, 4, "DT_FLOAT", "ND", (1,), 1, max=math.inf), _stats(0.5, count=1))
    item = inf_row.stats.item("max") if inf_row.stats else None
    assert item is not None and relative_text(item) == "—" and item_text(item) == "Max Inf vs 1"


def test_statistics_view_model_marks_broken_limits(qtmodeltester: object) -> None:
    model = StatsComparisonModel()
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    row = _row(_stats(0.55, nan=1), _stats(0.5))
    assert row.stats is not None
    model.set_comparison(row.stats, StatsLimits())
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    broken = [model.item(number).name for number in range(model.rowCount()) if model.is_broken(number)]
    assert broken == ["avg", "nan_count"]
    model.set_comparison(row.stats, StatsLimits(max_rel=0.5, max_nonfinite_diff=1))
    assert not any(model.is_broken(number) for number in range(model.rowCount()))


def test_the_dock_words_each_side(qtbot: QtBot) -> None:
    panel = CasePanel()
    qtbot.addWidget(panel)
    ranks = tuple(str(rank) for rank in range(16))
    raw = SideFacts(ranks, ("0", "1"), 0, 18_344, 0, False)
    stats = SideFacts(("0",), (), 0, 0, 1_200, True)
    one = SideFacts((), ("0",), 1, 0, 3, False)
    panel.set_dump_summary(SidesSummary(0, "en", "en", None, raw, stats))
    assert panel.dump_summary.text().splitlines() == [
        "af-open: 16 ranks (0, 1, 2, 3, 4, 5, 6, …, 15), 2 steps (0, 1), 18,344 raw dump files, 0 NPYs",
        "af-close: statistics dumps (1,200 CSVs)"]
    assert panel.side_text(one) == "1 step (0), 1 NPY, 3 statistics CSVs ignored"
    panel.set_dump_summary(SidesSummary(0, "as the host said", "its close side", None))  # an older host's record
    assert panel.dump_summary.text() == "af-open: as the host said\naf-close: its close side"


@pytest.mark.parametrize(("text", "key", "value"), [
    ("0,05", "stats_max_rel", 0.05), ("1e-4", "stats_abs_floor", 1e-4), ("0", "stats_abs_floor", 0.0),
    ("２", "stats_max_nonfinite_diff", 2.0), ("3.0", "stats_max_nonfinite_diff", 3.0),
])
def test_statistics_limits_parse(text: str, key: str, value: float) -> None:
    parsed = parse_limit_text(text, key, ENGLISH)
    assert parsed.valid and parsed.value == pytest.approx(value)


@pytest.mark.parametrize(("text", "key", "why"), [
    ("", "stats_max_rel", "needs a number"), ("-1", "stats_abs_floor", "≥ 0"),
    ("1.5", "stats_max_nonfinite_diff", "whole number"), ("inf", "stats_max_rel", "not a number"),
])
def test_statistics_limits_refuse(text: str, key: str, why: str) -> None:
    parsed = parse_limit_text(text, key, ENGLISH)
    assert not parsed.valid and why in parsed.error


def test_the_editor_keeps_per_dtype_statistics_limits(qtbot: QtBot) -> None:
    editor = ThresholdsEditor()
    qtbot.addWidget(editor)
    per_dtype = {"float16": StatsLimits(0.02, 0.0, 1)}
    editor.set_thresholds(Thresholds(stats=StatsThresholds(StatsLimits(0.05, 0.01, 2), per_dtype)))
    assert [edit.text() for edit in editor.stats_edits.values()] == ["0.05", "0.01", "2"]
    emitted: list[Thresholds] = []
    editor.thresholdsChanged.connect(emitted.append)
    editor.stats_edits["abs_floor"].setText("0,5")
    editor.stats_edits["abs_floor"].editingFinished.emit()
    assert emitted[-1].stats == StatsThresholds(StatsLimits(0.05, 0.5, 2), per_dtype)


def test_remote_statistics_rows_are_shown_without_copying_files(qtbot: QtBot) -> None:
    stats_row = _row(_stats(0.55), _stats(0.5))
    tensor_row = PrecisionRow(OUTPUT, "autofuse_2_Add", 0, "Add_1", 0, "OK", fused_file="/h/a.npy",
                              origin_file="/h/b.npy")
    result = PrecisionResult([stats_row, tensor_row], Thresholds())
    result.first_divergence = assign_verdicts(result.rows, result.thresholds, {})
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.set_result(result, {})
    bench.remote_host = "npu-host"
    asked: list[PrecisionRow] = []
    bench.remoteRowSelected.connect(lambda _host, row: asked.append(row))
    panel = bench.tensor_panel
    assert bench.view.select_row(tensor_row)
    assert asked == [tensor_row] and "npu-host" in panel.cover.text() and panel.cover.isVisibleTo(panel)
    assert bench.view.select_row(stats_row)
    assert asked == [tensor_row] and panel.pages.currentWidget() is panel.stats_view
    assert panel.stats_view.row is stats_row
