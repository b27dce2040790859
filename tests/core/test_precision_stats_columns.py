"""Statistics-mode rows in the CSV, xlsx and DataFrame exports: the stat_* columns, empty for tensor rows."""

from __future__ import annotations

import csv
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from autofuse_studio.api.precision import PrecisionTable
from autofuse_studio.core.dumps.stats_csv import TensorStats
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds, compare_stats
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports.precision_files import (
    STATS_COLUMNS,
    TABLE_COLUMNS,
    stats_cells,
    table_columns,
    write_csv,
    write_xlsx,
)
from tests.core.conftest import mode1_request
from tests.synth.raw_twin import twin_case
from tests.xlsx_checks import HOSTILE, assert_text_cells

NUMBER_COLUMNS = STATS_COLUMNS[1:]


@pytest.fixture(scope="module")
def stats_result(coverage_case: tuple[Path, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
                 ) -> PrecisionResult:
    root, manifest = coverage_case
    stats = twin_case(root, tmp_path_factory.mktemp("stats_columns"), "stats")
    request = mode1_request(root, manifest, jobs=2)
    request = replace(request, af_open_data=stats["af_open"], af_close_data=stats["af_close"])
    return run_mode1(request)


def _csv_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def _expected(row: PrecisionRow) -> dict[str, Any]:
    """What the stat_* cells of a row must say, straight from its StatsComparison."""
    expected: dict[str, Any] = dict.fromkeys(STATS_COLUMNS)
    if row.stats is None:
        return expected
    worst = row.stats.item(row.stats.worst_item() or "")
    if worst is not None:
        expected.update(stat_worst=worst.name, stat_fused=worst.fused, stat_origin=worst.origin,
                        stat_rel_diff=worst.rel_diff)
    for name in ("max", "min", "avg"):
        item = row.stats.item(name)
        if item is not None:
            expected[f"stat_{name}_fused"], expected[f"stat_{name}_origin"] = item.fused, item.origin
    return expected


def _same(cell: Any, value: Any, rel_tol: float = 0.0) -> bool:
    """A cell (CSV text or xlsx value) holds `value`; xlsx keeps floats to about 16 digits (rel_tol)."""
    if value is None:
        return cell in (None, "")
    if isinstance(value, str):
        return bool(cell == value)
    number = float(cell)
    return (math.isnan(number) and math.isnan(value)) or number == value or math.isclose(number, value,
                                                                                         rel_tol=rel_tol)


def test_the_statistics_run_has_rows_of_every_kind(stats_result: PrecisionResult) -> None:
    rows = stats_result.rows
    with_stats = [row for row in rows if row.stats is not None]
    assert len(with_stats) > 50 and len(with_stats) < len(rows)  # NO_MAPPING and missing files have none
    assert all(row.metrics is None for row in rows)
    worst = {_expected(row)["stat_worst"] for row in with_stats}
    assert {"avg", "max", "min", "count"} <= worst and {"CULPRIT", "OK"} <= {row.verdict for row in with_stats}


def test_csv_statistics_columns(stats_result: PrecisionResult, tmp_path: Path) -> None:
    path = tmp_path / "stats.csv"
    write_csv(stats_result, path)
    header, records = _csv_rows(path)
    start = header.index("stat_worst")
    assert tuple(header[start:start + len(STATS_COLUMNS)]) == STATS_COLUMNS
    assert header[start - 1] == "elements" and header[start + len(STATS_COLUMNS)] == "verdict"
    assert len(records) == len(stats_result.rows)
    for record, row in zip(records, stats_result.rows, strict=True):
        expected = _expected(row)
        assert all(_same(record[name], expected[name]) for name in STATS_COLUMNS), (row.key, record)
        assert record["cosine"] == "" and record["max_abs_err"] == ""  # tensor metrics: empty for stats rows
    culprit = next(record for record in records if record["verdict"] == "CULPRIT")
    assert culprit["stat_worst"] == "avg" and float(culprit["stat_rel_diff"]) > 0.01


def test_xlsx_statistics_columns(stats_result: PrecisionResult, tmp_path: Path) -> None:
    path = tmp_path / "stats.xlsx"
    write_xlsx(stats_result, path)
    sheet = load_workbook(path)["precision"]
    header = [cell.value for cell in sheet[1]]
    assert header == list(table_columns(stats_result))
    columns = {name: header.index(name) for name in STATS_COLUMNS}
    numbers = 0
    for cells, row in zip(sheet.iter_rows(min_row=2), stats_result.rows, strict=True):
        expected = _expected(row)
        for name, column in columns.items():
            cell = cells[column]
            assert _same(cell.value, expected[name], 1e-15), (row.key, name, cell.value)
            if name == "stat_worst" and cell.value is not None:
                assert cell.data_type == "s"
            elif name in NUMBER_COLUMNS and cell.value is not None and math.isfinite(expected[name]):
                assert cell.data_type == "n"
                numbers += 1
    assert numbers > 400
    assert_text_cells(path, ["avg", "max", "min", "count"])


def _stats_row(fused: TensorStats, origin: TensorStats, name: str = "op") -> PrecisionRow:
    return PrecisionRow(OUTPUT, name, 0, name, 0, "OK", stats=compare_stats(fused, origin), fused_dtype="DT_FLOAT16",
                        origin_dtype="DT_FLOAT16")


def _tensor_stats(**items: Any) -> TensorStats:
    base: dict[str, Any] = {"dtype": "DT_FLOAT16", "shape": (4,), "count": 4, "max": 2.0, "min": -1.0, "avg": 0.5,
                            "nan_count": 0, "neg_inf_count": 0, "pos_inf_count": 0}
    return TensorStats("output", 0, **{**base, **items})


def test_non_finite_statistics_are_text_and_names_from_inputs_stay_text(tmp_path: Path) -> None:
    rows = [_stats_row(_tensor_stats(max=math.inf), _tensor_stats(max=2.0), name) for name in HOSTILE]
    rows.append(_stats_row(_tensor_stats(nan_count=2), _tensor_stats(), "new_nan"))
    rows.append(PrecisionRow(OUTPUT, "tensor_row", 0, "origin", 0, "NO_MAPPING"))
    result = PrecisionResult(rows, Thresholds())
    cells = stats_cells(rows[0], result.thresholds.stats)
    assert (cells["stat_worst"], cells["stat_fused"], cells["stat_origin"]) == ("max", math.inf, 2.0)
    assert (cells["stat_rel_diff"], cells["stat_max_fused"], cells["stat_avg_origin"]) == (math.inf, math.inf, 0.5)
    assert stats_cells(rows[-2], result.thresholds.stats)["stat_worst"] == "nan_count"
    assert stats_cells(rows[-1], result.thresholds.stats) == dict.fromkeys(STATS_COLUMNS)
    xlsx, table = tmp_path / "hostile.xlsx", tmp_path / "hostile.csv"
    write_xlsx(result, xlsx)
    write_csv(result, table)
    assert_text_cells(xlsx, [*HOSTILE, "max", "nan_count", "inf"])
    sheet = load_workbook(xlsx)["precision"]
    header = [cell.value for cell in sheet[1]]
    lines = list(sheet.iter_rows(min_row=2))
    assert lines[0][header.index("stat_max_fused")].value == "inf"
    assert lines[0][header.index("stat_max_origin")].value == 2
    assert lines[-2][header.index("stat_fused")].value == 2 and lines[-2][header.index("stat_origin")].value == 0
    assert all(lines[-1][header.index(name)].value is None for name in STATS_COLUMNS)
    _, records = _csv_rows(table)
    assert records[0]["stat_max_fused"] == "inf" and records[0]["stat_worst"] == "max"
    assert records[-2]["stat_worst"] == "nan_count"
    assert all(records[-1][name] == "" for name in STATS_COLUMNS)


def test_the_worst_statistic_follows_the_rows_dtype_limits() -> None:
    # Avg 9% apart but 0.05 in absolute terms; Max 1% apart but 1.0 absolute. The default limits (1%, floor
    # 0.001) judge Avg worst; float16 limits of floor 1 and 0.1% find Avg within the floor and Max the worst.
    row = _stats_row(_tensor_stats(avg=0.55, max=101.0), _tensor_stats(avg=0.5, max=100.0))
    assert stats_cells(row, StatsThresholds())["stat_worst"] == "avg"
    strict = StatsThresholds(per_dtype={"float16": StatsLimits(abs_floor=1.0, max_rel=0.001)})
    assert stats_cells(row, strict)["stat_worst"] == "max"


def test_tensor_runs_keep_their_columns_and_the_dataframe_always_has_them(
        coverage_case: tuple[Path, dict[str, Any]], stats_result: PrecisionResult) -> None:
    root, manifest = coverage_case
    tensors = run_mode1(mode1_request(root, manifest, jobs=2))
    assert not set(STATS_COLUMNS) & set(table_columns(tensors))
    assert set(STATS_COLUMNS) <= set(table_columns(stats_result))
    frame = PrecisionTable(tensors).to_dataframe()
    assert list(frame.columns) == list(TABLE_COLUMNS)
    assert frame["stat_worst"].isna().all() and frame["stat_avg_fused"].isna().all()
    stats_frame = PrecisionTable(stats_result).to_dataframe()
    compared = [row for row in stats_result.rows if row.stats is not None and row.stats.item("avg") is not None]
    assert stats_frame["stat_avg_fused"].notna().sum() == len(compared)
    assert list(stats_frame["stat_worst"].dropna()) == [
        value for value in (_expected(row)["stat_worst"] for row in stats_result.rows) if value is not None]
