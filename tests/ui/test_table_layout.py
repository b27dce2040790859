"""Precision table layout and pictures: default column order, widths fitted to content, tooltips, table pictures."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.export import save_table_pictures
from autofuse_studio.ui.precision.table_model import PrecisionTableModel
from autofuse_studio.ui.precision.table_picture import make_picture, paint_picture, picture_size, png_bytes
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH
from tests.ui.table_checks import elided_columns
from tests.ui.test_table_model import make_rows

LONG_STATUS = "FORMAT_CONVERSION_FAILED_FOR_FRACTAL_Z"
LONG_OP = "model/encoder/layer_11/self_attention/" + "very_long_block_name/" * 3 + "MatMul"


def _rows(count: int = 40) -> list[PrecisionRow]:
    rows = make_rows(count)
    rows[5] = dataclasses.replace(rows[5], status=LONG_STATUS, message="the fused side is FRACTAL_Z")
    rows[6] = dataclasses.replace(rows[6], origin_op=LONG_OP, step="1")
    return rows


@pytest.fixture
def bench(qtbot: QtBot) -> PrecisionWorkbench:
    rows = _rows()
    result = PrecisionResult(rows, Thresholds())
    result.first_divergence = assign_verdicts(rows, result.thresholds, {})
    widget = PrecisionWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1400, 900)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_result(result, {})
    return widget


def test_verdict_and_step_lead_without_moving_model_columns(bench: PrecisionWorkbench) -> None:
    header = bench.view.horizontalHeader()
    shown = [COLUMN_KEYS[logical] for logical in bench.view.visible_columns()]
    assert shown[:6] == ["step", "verdict", "fused_op", "fused_index", "kind", "cosine"]
    assert header.visualIndex(COLUMN_KEYS.index("rank")) == 0  # first when a multi-rank case shows it
    assert COLUMN_KEYS[:3] == ("kind", "fused_op", "fused_index")  # model order (exports, saved views) as before
    state = bench.view_state()
    bench.view.sortByColumn(COLUMN_KEYS.index("verdict"), Qt.SortOrder.AscendingOrder)
    assert bench.view_state()["sort_column"] == "verdict" and state["sort_column"] is None


def test_columns_fit_numbers_and_long_statuses(bench: PrecisionWorkbench) -> None:
    view = bench.view
    origin = COLUMN_KEYS.index("origin_op")
    # Only the capped long name is elided (in the middle; its tooltip holds it); every number and status fits.
    assert elided_columns(view) == {} and view.columnWidth(origin) == MAX_WIDTH
    view.scrollTo(bench.proxy.index(30, 0))
    assert elided_columns(view) == {}
    # Every verdict fits, whatever a threshold change brings: no resize is needed later.
    verdict_width = view.columnWidth(COLUMN_KEYS.index("verdict"))
    assert verdict_width >= view.fontMetrics().horizontalAdvance("PROPAGATED") + 8


def test_long_cells_have_their_full_text_as_tooltip(bench: PrecisionWorkbench, qtmodeltester: object) -> None:
    model = bench.model
    status = model.index(5, COLUMN_KEYS.index("status"))
    tip = model.data(status, Qt.ItemDataRole.ToolTipRole)
    assert LONG_STATUS in tip and "FRACTAL_Z" in tip.splitlines()[-1]
    origin = model.data(model.index(6, COLUMN_KEYS.index("origin_op")), Qt.ItemDataRole.ToolTipRole)
    assert origin == LONG_OP
    assert model.data(model.index(0, COLUMN_KEYS.index("cosine")), Qt.ItemDataRole.ToolTipRole) is None
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    qtmodeltester.check(PrecisionTableModel())  # type: ignore[attr-defined]


def _svg_texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return ["".join(element.itertext()).strip() for element in root.iter() if element.tag.endswith("text")]


def test_table_picture_draws_visible_rows_with_full_text(bench: PrecisionWorkbench, tmp_path: Path) -> None:
    view = bench.view
    visible = view.visible_rows()
    assert 5 < len(visible) < 40  # the viewport holds part of the table
    png = bench.export_table_picture(tmp_path / "t.png")
    svg = bench.export_table_picture(tmp_path / "t.svg")
    picture = make_picture(visible, view.visible_columns())
    size = picture_size(picture, view.font())
    image = QImage(str(png))
    assert (image.width(), image.height()) == (size.width(), size.height())
    assert size.height() == (len(visible) + 1) * (view.fontMetrics().height() + 6) + 1  # header + rows, no bars
    texts = _svg_texts(svg)
    assert "Verdict" in texts and LONG_STATUS in texts and LONG_OP in texts  # full text, nothing elided
    assert not [text for text in texts if text.endswith("…")]
    assert texts.index("Step") < texts.index("Verdict") < texts.index("Fused op")  # the table's column order
    assert image.pixel(2, size.height() // 2) != image.pixel(2, 2)  # rows coloured by verdict below the header


def test_table_picture_of_selected_rows(bench: PrecisionWorkbench, tmp_path: Path) -> None:
    view = bench.view
    selection = view.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for row in (2, 30, 39):  # two of them far outside the viewport
        selection.select(bench.proxy.index(row, 0), flags)
    view.setColumnHidden(COLUMN_KEYS.index("kind"), True)
    texts = _svg_texts(bench.export_table_picture(tmp_path / "sel.svg"))
    names = [row.fused_op for row in view.selected_rows()]
    assert len(names) == 3 and all(name in texts for name in names)
    assert bench.proxy.row_at(10).fused_op not in texts and "Kind" not in texts


def test_report_pictures_skip_empty_optional_columns_and_elide(tmp_path: Path, qtbot: QtBot) -> None:
    rows = _rows()
    assign_verdicts(rows, Thresholds(), {})
    png, svg = save_table_pictures(rows, tmp_path / "table", rows[6])
    texts = _svg_texts(svg)
    assert "Rank" not in texts and "Occurrence" not in texts and "Verdict" in texts
    assert LONG_OP not in texts and any(text.endswith("…") for text in texts)  # report pictures stay compact
    assert QImage(str(png)).width() > 400


def test_table_png_is_the_picture_painted_on_white(bench: PrecisionWorkbench) -> None:
    """The PNG path paints on a canvas that comes white (no background fill): the pixels are the painted ones."""
    picture = make_picture(bench.view.visible_rows(), bench.view.visible_columns(), note="3 rows left out")
    size = picture_size(picture, bench.view.font())
    painted = QImage(size, QImage.Format.Format_RGB32)
    painted.fill(QColor("#000000"))  # not white: paint_picture's own background must cover it
    painter = QPainter(painted)
    paint_picture(painter, picture, bench.view.font())
    painter.end()
    decoded = QImage.fromData(png_bytes(picture, bench.view.font()), "PNG")
    assert decoded.convertToFormat(QImage.Format.Format_RGB32) == painted
