"""The GUI table reads core.precision.columns (keys, headers, tooltips, numbers) and its colours from the one palette."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision import columns as core_columns
from autofuse_studio.core.precision.overview import build_overview
from autofuse_studio.core.precision.palette import VERDICT_COLOURS
from autofuse_studio.core.precision.rows import OUTPUT, VERDICTS, PrecisionRow
from autofuse_studio.ui.i18n import CHINESE, ENGLISH, translations
from autofuse_studio.ui.precision.columns import COLUMN_KEYS, COLUMNS, OPTIONAL_COLUMNS
from autofuse_studio.ui.precision.legend import VerdictLegend
from autofuse_studio.ui.precision.overview import RankStepModel
from autofuse_studio.ui.precision.table_model import PrecisionTableModel, verdict_colour

HORIZONTAL = Qt.Orientation.Horizontal


def make_rows(count: int) -> list[PrecisionRow]:
    """`count` uncompared rows on two ranks."""
    return [PrecisionRow(OUTPUT, f"Op{number}", 0, f"Origin{number}", 0, "FILE_NOT_FOUND", step="0",
                         rank=str(number % 2), order=number) for number in range(count)]


@pytest.fixture
def model(qtbot: QtBot) -> Iterator[PrecisionTableModel]:
    """A table model over a few rows; English again afterwards."""
    table = PrecisionTableModel()
    table.set_rows(make_rows(8))
    yield table
    translations().apply(ENGLISH)


def test_the_table_columns_are_the_core_definition() -> None:
    assert COLUMN_KEYS == core_columns.GUI_ORDER
    for column in COLUMNS:
        spec = core_columns.by_key(column.key)
        assert (column.header, column.tooltip, column.numeric) == (spec.header, spec.tooltip, spec.numeric)
    assert {key for key, spec in zip(COLUMN_KEYS, core_columns.gui_columns(), strict=True)
            if spec.present_when is not None} == set(OPTIONAL_COLUMNS)


def test_headers_and_tooltips_follow_the_language(model: PrecisionTableModel) -> None:
    cosine = COLUMN_KEYS.index("cosine")
    for number, spec in enumerate(core_columns.gui_columns()):
        assert model.headerData(number, HORIZONTAL) == spec.header
        assert model.headerData(number, HORIZONTAL, Qt.ItemDataRole.ToolTipRole) == spec.tooltip
    assert "a·b / (‖a‖·‖b‖ + 1e-8)" in model.headerData(cosine, HORIZONTAL, Qt.ItemDataRole.ToolTipRole)
    assert translations().apply(CHINESE)
    model.retranslate()
    assert model.headerData(cosine, HORIZONTAL) == "余弦相似度"
    for number in range(len(COLUMNS)):
        tooltip = model.headerData(number, HORIZONTAL, Qt.ItemDataRole.ToolTipRole)
        assert any("\u4e00" <= char <= "\u9fff" for char in tooltip), tooltip
    assert model.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.ToolTipRole) is None


def test_gui_colours_come_from_the_core_palette(qtbot: QtBot, model: PrecisionTableModel) -> None:
    for verdict in VERDICTS:
        assert verdict_colour(verdict).name().upper() == f"#{VERDICT_COLOURS[verdict]}"
    rows = model.rows
    for position, verdict in enumerate(VERDICTS):
        rows[position].verdict = verdict
    model.verdicts_changed()
    for position, verdict in enumerate(VERDICTS):
        brush = model.data(model.index(position, 0), Qt.ItemDataRole.BackgroundRole)
        assert brush.color().name().upper() == f"#{VERDICT_COLOURS[verdict]}"
    legend = VerdictLegend()
    qtbot.addWidget(legend)
    for verdict, label in legend.labels.items():
        assert f"#{VERDICT_COLOURS[verdict]}".lower() in label.styleSheet()
    grid = RankStepModel()
    grid.set_overview(build_overview(list(rows)))
    brush = grid.data(grid.index(0, 0), Qt.ItemDataRole.BackgroundRole)
    assert brush.color().name().upper() in {f"#{colour}" for colour in VERDICT_COLOURS.values()}
