"""Columns once: every reader of core.precision.columns has every column; the docs table and translations follow it."""

from __future__ import annotations

import ast
import csv
import re
import xml.etree.ElementTree as ET
from dataclasses import fields
from pathlib import Path

import pytest
from openpyxl import load_workbook

from autofuse_studio.core.dumps.stats_csv import TensorStats
from autofuse_studio.core.graphview import style
from autofuse_studio.core.precision import columns, palette
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import EXTRA_METRICS, VERDICTS, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.stats import compare_stats
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports import precision_files
from tests.conftest import REPO_ROOT

APP = REPO_ROOT / "app" / "autofuse_studio"
UI_COLUMNS = APP / "ui" / "precision" / "columns.py"
TS_FILE = REPO_ROOT / "resources" / "translations" / "autofuse_studio_zh_CN.ts"
DOCS = REPO_ROOT / "docs" / "nwa.md"
GUI = [column for column in columns.COLUMNS if column.header is not None]


def _result() -> PrecisionResult:
    """A row of every sort: ranked and repeated, with metrics, with statistics, with a signature."""
    metrics = Metrics(0.5, 2.0, 1.0, 0.5, 0.7, 0.9, 0.25, 0.5, 8, 1, 0, 0, 2, 3)
    tensor = PrecisionRow("output", "Fused", 0, "Origin", 1, "OK", step="3", rank="1", occurrence=2,
                          metrics=metrics, verdict="CULPRIT", fused_shape=(2, 4), origin_shape=(8,),
                          signature=Signature("bias", 0.9, {}, "A constant bias."), message="Read twice.",
                          source_type="Data", fused_file="fused.npy", origin_file="origin.npy",
                          fused_dtype="float16", origin_dtype="float32")
    stats = compare_stats(TensorStats("output", 0, count=4, max=2.0, min=0.0, avg=1.0),
                          TensorStats("output", 0, count=4, max=3.0, min=0.0, avg=1.5))
    by_stats = PrecisionRow("output", "Fused2", 0, "Origin2", 0, "OK", step="3", stats=stats)
    return PrecisionResult([tensor, by_stats], Thresholds())


def test_the_files_write_every_export_column_in_definition_order(tmp_path: Path) -> None:
    result = _result()
    assert precision_files.TABLE_COLUMNS == columns.EXPORT_KEYS
    assert precision_files.table_columns(result) == columns.EXPORT_KEYS  # every optional column has a value here
    precision_files.write_csv(result, tmp_path / "rows.csv")
    with (tmp_path / "rows.csv").open(encoding="utf-8-sig", newline="") as handle:
        assert tuple(next(csv.reader(handle))) == columns.EXPORT_KEYS
    precision_files.write_xlsx(result, tmp_path / "rows.xlsx")
    sheet = load_workbook(tmp_path / "rows.xlsx")["precision"]
    assert tuple(cell.value for cell in sheet[1]) == columns.EXPORT_KEYS
    widths = [sheet.column_dimensions[cell.column_letter].width for cell in sheet[1]]
    assert widths == [columns.by_key(key).width for key in columns.EXPORT_KEYS]


def test_every_export_column_has_a_value_source() -> None:
    result = _result()
    records = precision_files.table_records(result, columns.EXPORT_KEYS)
    for key, cells in zip(columns.EXPORT_KEYS, zip(*records, strict=True), strict=True):
        assert any(cell not in (None, "") for cell in cells), f"no writer fills the column {key!r}"


def test_the_dataframe_has_every_export_column() -> None:
    from autofuse_studio.api.precision import PrecisionTable

    frame = PrecisionTable(_result()).to_dataframe()
    assert tuple(frame.columns) == columns.EXPORT_KEYS
    integers = {column.key for column in columns.export_columns() if column.kind == columns.INTEGER}
    assert {name for name in frame.columns if str(frame[name].dtype) == "Int64"} == integers
    assert frame["fused_shape"][0] == (2, 4) and frame["elements"][0] == 8


def test_the_json_rows_carry_exactly_the_json_columns() -> None:
    row = _result().rows[0]
    assert set(row.to_dict()) == {column.key for column in columns.COLUMNS if column.json}


def test_every_metric_is_a_column() -> None:
    metric_keys = [column.key for column in columns.COLUMNS if column.metric]
    assert sorted(metric_keys) == sorted(field.name for field in fields(Metrics))
    assert tuple(metric_keys[3:]) == EXTRA_METRICS  # after the reference's three, in the JSON order


def test_the_gui_order_names_every_gui_column_once() -> None:
    assert sorted(columns.GUI_ORDER) == sorted(column.key for column in GUI)
    assert [column.key for column in columns.gui_columns()] == list(columns.GUI_ORDER)
    assert all(column.tooltip.endswith(".") for column in columns.COLUMNS)


def _ui_markers() -> list[str]:
    """The literal QT_TRANSLATE_NOOP texts of ui/precision/columns.py (what pyside6-lupdate finds)."""
    texts = []
    for node in ast.walk(ast.parse(UI_COLUMNS.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "QT_TRANSLATE_NOOP":
            context, text = (argument.value for argument in node.args)  # type: ignore[attr-defined]
            assert context == "PrecisionColumns"
            texts.append(text)
    return texts


def test_the_ui_translation_markers_are_the_definition_texts() -> None:
    markers = _ui_markers()
    assert len(markers) == len(set(markers))
    expected = {"output", "input"} | {column.header for column in GUI} | {column.tooltip for column in GUI}
    assert set(markers) == expected, ("ui/precision/columns.py _TEXTS differs from core.precision.columns: "
                                      f"missing {expected - set(markers)}, extra {set(markers) - expected}")


def test_every_gui_text_has_a_chinese_translation() -> None:
    context = next(node for node in ET.parse(TS_FILE).getroot()
                   if node.findtext("name") == "PrecisionColumns")
    done = {message.findtext("source"): message.find("translation") for message in context.iter("message")}
    for text in _ui_markers():
        translation = done.get(text)
        assert translation is not None and translation.get("type") is None and translation.text, (
            f"no zh translation of {text!r}: run resources/translations/update_translations.py and translate it")


def test_the_docs_table_is_the_definition() -> None:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- precision-columns:begin[^>]*-->\n(.*?)<!-- precision-columns:end -->", text, re.S)
    assert found is not None
    assert found.group(1) == columns.markdown_table(), (
        "docs/nwa.md's column table is stale; replace it with core.precision.columns.markdown_table():\n"
        + columns.markdown_table())


def test_one_verdict_palette() -> None:
    assert [colours.verdict for colours in palette.PALETTE] == list(VERDICTS)
    assert precision_files.VERDICT_COLOURS is palette.VERDICT_COLOURS  # the xlsx rows and the ranks sheet
    assert style.VERDICT_FILLS == palette.VERDICT_FILLS  # the graph pictures
    # No other module spells a verdict background: the GUI turns the palette's hex strings into QColors.
    spelled = re.compile("|".join(palette.VERDICT_COLOURS.values()), re.IGNORECASE)
    holders = {path.relative_to(APP).as_posix() for path in APP.rglob("*.py")
               if spelled.search(path.read_text(encoding="utf-8"))}
    assert holders == {"core/precision/palette.py"}


@pytest.mark.parametrize("verdict", [*VERDICTS, "SOMETHING_NEW"])
def test_background_hex(verdict: str) -> None:
    expected = palette.VERDICT_COLOURS.get(verdict, palette.VERDICT_COLOURS["UNKNOWN"])
    assert palette.background_hex(verdict) == f"#{expected}"
