"""The fast result-file writers write what the json.dumps / csv.writer / openpyxl code they replaced wrote (issue 29).

The replaced writers are kept below as the reference; every kind of row goes through both: generated cases
(every status and verdict, signatures, several ranks, statistics twins) and synthetic results with NaN/Inf,
huge and tiny numbers, unicode, control characters, formula leads and 300-character names.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import random
import shutil
import struct
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.precision.columns import by_key
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.palette import VERDICT_COLOURS
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports import precision_files, precision_json
from autofuse_studio.core.reports.precision_files import (
    RANK_COLUMNS,
    rank_records,
    summary_records,
    table_columns,
    table_records,
    write_precision,
)
from autofuse_studio.core.reports.signature_lines import signature_records
from autofuse_studio.core.reports.xlsx_cells import append_row, csv_cell, integer_cell, save_workbook
from autofuse_studio.core.run.spec import RunSpec
from tests.core.conftest import mode1_request
from tests.synth import generate_case
from tests.synth.raw_twin import descs_from_models
from tests.synth.result_rows import synthetic_result
from tests.synth.spec import multi_rank_spec
from tests.synth.stats_twin import stats_twin


def reference_json(result: PrecisionResult) -> bytes:
    """write_json before issue 29: json.dumps of to_dict()."""
    return (json.dumps(result.to_dict(), ensure_ascii=False, indent=2, allow_nan=False) + "\n").encode("utf-8")


def reference_csv(result: PrecisionResult) -> bytes:
    """write_csv before issue 29: csv.writer over table_records(), formula leads quoted, UTF-8 with BOM."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = table_columns(result)
    writer.writerow(columns)
    for record in table_records(result, columns):
        writer.writerow(["" if value is None else csv_cell(value) for value in record])
    return buffer.getvalue().encode("utf-8-sig")


def reference_xlsx(result: PrecisionResult, path: Path, language: str = "en") -> None:
    """write_xlsx before issue 29: openpyxl, a Cell object per value (xlsx_cells' rules)."""
    from openpyxl import Workbook
    from openpyxl.formatting.rule import FormulaRule
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "precision"
    columns = table_columns(result)
    append_row(sheet, columns)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    numbered = [position for position, name in enumerate(columns) if by_key(name).folder_number]
    for record in table_records(result, columns):
        for position in numbered:
            record[position] = integer_cell(record[position])
        append_row(sheet, record)
    last_column = get_column_letter(len(columns))
    last_row = max(2, len(result.rows) + 1)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{last_column}{last_row}"
    verdict_column = get_column_letter(columns.index("verdict") + 1)
    for verdict, colour in VERDICT_COLOURS.items():
        fill = PatternFill(start_color=colour, end_color=colour, fill_type="solid")
        rule = FormulaRule(formula=[f'${verdict_column}2="{verdict}"'], fill=fill)
        sheet.conditional_formatting.add(f"A2:{last_column}{last_row}", rule)
    for number, name in enumerate(columns, start=1):
        sheet.column_dimensions[get_column_letter(number)].width = by_key(name).width
    summary = workbook.create_sheet("summary")
    for label, value in summary_records(result):
        by_number = label in ("first divergence rank", "first divergence step")
        append_row(summary, [label, integer_cell(value) if by_number else value])
    for label, sentence in signature_records(result, language):
        append_row(summary, [label, sentence])
    summary.column_dimensions["A"].width = 28
    summary.column_dimensions["B"].width = 60
    ranks = workbook.create_sheet("ranks")
    append_row(ranks, RANK_COLUMNS)
    for cell in ranks[1]:
        cell.font = Font(bold=True)
    verdict_at = RANK_COLUMNS.index("worst verdict")
    for record in rank_records(result):
        append_row(ranks, [integer_cell(value) if position < 2 else value for position, value in enumerate(record)])
        colour = VERDICT_COLOURS[record[verdict_at]]
        ranks.cell(ranks.max_row, verdict_at + 1).fill = PatternFill(start_color=colour, end_color=colour,
                                                                      fill_type="solid")
    ranks.freeze_panes = "A2"
    ranks.column_dimensions["I"].width = 48
    save_workbook(workbook, path)


def _rgb(colour: Any) -> str | None:
    """A fill colour's RRGGBB (openpyxl writes alpha 00, the stream writer FF: Excel ignores it)."""
    return None if colour is None or colour.rgb is None else str(colour.rgb)[-6:]


def _same_number(value: Any) -> Any:
    """Numbers as openpyxl wrote them ("%.16g": one digit fewer than repr for some floats, big ints rounded);
    the stream writer writes the exact number, which Excel shows alike."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return value
    return f"{float(f'{value:.16g}') + 0.0:.16g}"  # its largest float read back as inf; -0 as 0


def xlsx_contents(path: Path) -> list[Any]:
    """What a user sees of a workbook: per sheet its cells (value, type, bold, quote prefix, fill), frozen pane,
    filter, column widths and conditional fills."""
    from openpyxl import load_workbook

    book = load_workbook(path)
    sheets: list[Any] = []
    for sheet in book.worksheets:
        cells = [[(_same_number(cell.value), cell.data_type, bool(cell.font.b), bool(cell.quotePrefix),
                   _rgb(cell.fill.fgColor) if cell.fill.fill_type == "solid" else None)
                  for cell in row if cell.value is not None or (cell.has_style and cell.fill.fill_type)]
                 for row in sheet.iter_rows()]
        rules = sorted((str(ranges.sqref), rule.formula, _rgb(rule.dxf.fill.bgColor))
                       for ranges in sheet.conditional_formatting for rule in ranges.rules)
        widths = {key: dim.width for key, dim in sheet.column_dimensions.items() if dim.customWidth}
        sheets.append((sheet.title, cells, sheet.freeze_panes, sheet.auto_filter.ref, rules, widths))
    return sheets


def _assert_same_files(result: PrecisionResult, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    written = write_precision(result, folder / "r.json").read_bytes()
    assert written == reference_json(result)
    assert write_precision(result, folder / "r.csv").read_bytes() == reference_csv(result)
    reference_xlsx(result, folder / "reference.xlsx")
    assert xlsx_contents(write_precision(result, folder / "r.xlsx")) == xlsx_contents(folder / "reference.xlsx")


@pytest.fixture(scope="module")
def run_results(coverage_case: tuple[Path, dict[str, Any]],
                tmp_path_factory: pytest.TempPathFactory) -> dict[str, PrecisionResult]:
    """Results of real runs: the coverage case (signatures), two ranks, and both in statistics mode."""
    root, manifest = coverage_case
    results = {"coverage": run_mode1(mode1_request(root, manifest, jobs=2))}
    ranks = tmp_path_factory.mktemp("ranks")
    generate_case(ranks, multi_rank_spec(ranks=2, culprit_rank=1, steps=1))
    rank_manifest = json.loads((ranks / "manifest.json").read_text(encoding="utf-8"))
    results["ranks"] = run_mode1(mode1_request(ranks, rank_manifest, jobs=2))
    for name, (case, found) in {"coverage_stats": (root, manifest), "ranks_stats": (ranks, rank_manifest)}.items():
        graphs = [case / found["graphs"][side] for side in ("af_open", "af_close")]
        descs = descs_from_models([load_model(path) for path in graphs])
        stats = {}
        for side in ("af_open", "af_close"):
            stats[side] = tmp_path_factory.mktemp(f"{name}_{side}")
            shutil.rmtree(stats[side])
            stats_twin(case / found["data"][side], stats[side], descs)
        results[name] = run_mode1(RunSpec(*graphs, stats["af_open"], stats["af_close"], jobs=2))
    return results


@pytest.mark.parametrize("name", ["coverage", "ranks", "coverage_stats", "ranks_stats"])
def test_runs_write_the_same_bytes(run_results: dict[str, PrecisionResult], name: str, tmp_path: Path) -> None:
    result = run_results[name]
    assert result.rows
    if name.endswith("_stats"):
        assert any(row.stats is not None for row in result.rows)
    if name == "coverage":
        assert any(row.signature is not None for row in result.rows)
    _assert_same_files(result, tmp_path)


@pytest.mark.parametrize(("count", "seed", "hostile"), [(0, 0, False), (1, 1, True), (700, 2, False),
                                                        (3000, 3, True), (4096, 4, False), (9000, 5, True)])
def test_synthetic_results_write_the_same_bytes(count: int, seed: int, hostile: bool, tmp_path: Path) -> None:
    result = synthetic_result(count, seed, hostile)
    if count > 1000:
        assert any(row.stats is not None for row in result.rows)
        assert any(row.signature is not None for row in result.rows)
        assert any(row.metrics is not None and math.isnan(row.metrics.cosine) for row in result.rows)
    _assert_same_files(result, tmp_path)


@pytest.mark.parametrize(("count", "seed", "hostile"), [(500, 21, False), (3000, 22, True)])
def test_statistics_runs_write_the_same_bytes(count: int, seed: int, hostile: bool, tmp_path: Path) -> None:
    """Every compared row from statistics, as a statistics-mode run gives them (the result-file bench's shape)."""
    result = synthetic_result(count, seed, hostile, statistics=True)
    assert sum(row.stats is not None for row in result.rows) > count * 0.8
    _assert_same_files(result, tmp_path)


def test_a_few_statistics_rows_with_non_finite_items_write_the_same_bytes(tmp_path: Path) -> None:
    """A tensor run with a few statistics rows (the JSON spells them by columns of their own rows) whose items
    hold NaN, Inf and -Inf."""
    tensors = synthetic_result(600, 5, False)
    statistics = synthetic_result(300, 6, False, statistics=True)
    odd = [row for row in statistics.rows if row.stats is not None and any(
        not math.isfinite(value) for item in row.stats.items for value in (item.fused, item.origin, item.diff,
                                                                           item.rel_diff))][:30]
    assert {text for row in odd for item in row.stats.items  # type: ignore[union-attr]
            for text in map(str, (item.fused, item.origin, item.diff, item.rel_diff))} >= {"nan", "inf", "-inf"}
    result = dataclasses.replace(tensors, rows=[row for row in tensors.rows if row.stats is None][:500] + odd)
    _assert_same_files(result, tmp_path)


def _row(metrics: Metrics | None = None, **fields: Any) -> PrecisionRow:
    return PrecisionRow("output", "op", 0, "origin", 0, "OK", metrics=metrics, **fields)


def _metrics(*values: Any) -> Metrics:
    return Metrics(*values, 64, 0, 0, 0, 0)  # type: ignore[arg-type]


EDGE_ROWS = {
    "every float spelling": [_row(_metrics(value, -value, value * 3, 1e-5, 1.5e-5, 0.000123, 1e16, 1.2345e22))
                             for value in (1e-7, 5e-324, 1.7976931348623157e308, -0.0, 0.0, 1.0, 9.999e15,
                                           123456789.123, 0.1, 1e-4, 1e-300)],
    "non-finite metrics": [_row(_metrics(math.nan, math.inf, -math.inf, math.nan, 0.0, 1.0, 0.5, 0.25))],
    "int metrics": [_row(_metrics(1, 10**17, 0, 3, 2**70, 1, 1, 1))],
    "numpy floats": [_row(_metrics(np.float64(0.5), np.float64(1e-7), 0.1, 0.1, 0.1, 0.1, 0.1, 0.1))],
    "float subclass in a signature": [_row(signature=Signature("bias", 0.5, {"x": np.float64(1e-9)}))],
    "non-text keys": [_row(signature=Signature("bias", 0.5, {1: 2, 2.5e-7: "x"}))],  # type: ignore[dict-item]
    "nested params": [_row(signature=Signature("scale", 0.25, {"a": [1e-8, [2e20, {"b": -3e-5}]], "t": (1, 2.5)}))],
    "empty shapes": [_row(fused_shape=(), origin_shape=(1,))],
}


@pytest.mark.parametrize("name", sorted(EDGE_ROWS))
def test_edge_rows_write_the_same_bytes(name: str, tmp_path: Path) -> None:
    _assert_same_files(PrecisionResult(EDGE_ROWS[name], Thresholds()), tmp_path)


def test_nan_outside_the_metrics_is_refused_as_before(tmp_path: Path) -> None:
    result = PrecisionResult([_row(signature=Signature("bias", math.nan))], Thresholds())
    with pytest.raises(ValueError, match="JSON compliant"):
        reference_json(result)
    with pytest.raises(ValueError, match="JSON compliant"):
        write_precision(result, tmp_path / "r.json")
    assert not (tmp_path / "r.json").exists()


def test_the_fast_json_path_is_taken() -> None:
    """The msgspec path holds to_dict()'s keys (else every file would quietly take the slow path)."""
    row = synthetic_result(60).rows[7]
    assert tuple(row.to_dict()) == precision_json.ROW_KEYS
    assert precision_json._FAST
    result = synthetic_result(50, hostile=True)
    assert len(precision_json.result_json_parts(result)) > 1  # the stdlib fallback writes one part
    broken = dataclasses.replace(result, rows=[*result.rows, _row(signature=Signature("x", 0.5, {1.5: 1}))])
    assert len(precision_json.result_json_parts(broken)) == 1  # type: ignore[dict-item]


def test_floats_are_spelled_as_repr_spells_them() -> None:
    rng = random.Random(29)
    values: list[float] = []
    while len(values) < 100_000:
        value = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if rng.random() < 0.5:
            value = rng.random() * 10.0 ** rng.randint(-12, 20) * rng.choice((1, -1))
        if rng.random() < 0.3:
            value = float(f"{value:.2g}")
        if math.isfinite(value) and value != 0:
            values.append(value)
    assert [bytes(raw) for raw in precision_json.as_repr(values)] == [repr(value).encode() for value in values]


def test_the_fast_csv_path_is_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Synthetic rows of every kind never need the csv.writer fallback (else CSV would quietly be slow again)."""
    result = synthetic_result(1500, seed=5, hostile=True)
    expected = reference_csv(result)

    def refused(*args: object) -> str:
        raise AssertionError("the csv.writer fallback ran")

    monkeypatch.setattr(precision_files, "_csv_writer_lines", refused)
    assert write_precision(result, tmp_path / "r.csv").read_bytes() == expected


def test_a_late_unspellable_value_rewrites_the_csv_through_csv_writer(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A value the column-wise writer cannot spell, in a block read after earlier lines were written: the file is
    csv.writer's, whole, with no line of the first attempt left."""
    from autofuse_studio.core.reports.precision_csv import BLOCK_ROWS

    rows = [*synthetic_result(BLOCK_ROWS + 700, seed=6).rows, *EDGE_ROWS["numpy floats"]]
    result = PrecisionResult(rows, Thresholds())
    fallbacks: list[int] = []
    writer_lines = precision_files._csv_writer_lines

    def counted(*args: Any) -> str:
        fallbacks.append(1)
        return writer_lines(*args)

    monkeypatch.setattr(precision_files, "_csv_writer_lines", counted)
    assert write_precision(result, tmp_path / "r.csv").read_bytes() == reference_csv(result)
    assert fallbacks == [1]


def test_a_csv_into_a_pipe_is_checked_before_its_first_line(tmp_path: Path) -> None:
    """A pipe cannot be rewound: every column is checked before the first line goes into it."""
    rows = [*synthetic_result(300, seed=7).rows, *EDGE_ROWS["numpy floats"]]
    for result in (synthetic_result(300, seed=7), PrecisionResult(rows, Thresholds())):
        fifo = tmp_path / "pipe.csv"
        os.mkfifo(fifo)
        received: list[bytes] = []
        reader = threading.Thread(target=lambda into=received, pipe=fifo: into.append(pipe.read_bytes()))
        reader.start()
        write_precision(result, fifo)
        reader.join(timeout=60)
        assert received == [reference_csv(result)]
        fifo.unlink()


def test_column_letters_past_z() -> None:
    from autofuse_studio.core.reports.xlsx_stream import column_letter

    assert [column_letter(n) for n in (1, 26, 27, 52, 53, 702, 703, 16384)] == \
        ["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA", "XFD"]


def test_read_only_readers_see_the_size(tmp_path: Path) -> None:
    """The sheet's used range is written: openpyxl's read-only mode (and pandas) take the size from it."""
    from openpyxl import load_workbook

    result = synthetic_result(5000, seed=9, hostile=True)
    book = load_workbook(write_precision(result, tmp_path / "r.xlsx"), read_only=True)
    try:
        sheet = book["precision"]
        assert (sheet.max_row, sheet.max_column) == (5001, len(table_columns(result)))
        assert book["ranks"].max_row == len(rank_records(result)) + 1
    finally:
        book.close()
