"""The tensor panel outlines where a row's signature puts its error (issue 31): the tail range of a tail_block
pair, pooled or not, matches the cells whose error is beyond rounding; other codes and views outline nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.heatmap import Heatmap, HeatmapAxes
from autofuse_studio.core.precision.rows import OUTPUT, VERDICT_CULPRIT, PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.tensor_view import ViewOptions
from autofuse_studio.ui.precision.signature_overlay import mask_rects, overlay_rects
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from tests.ui.signature_helpers import signed_case

TIMEOUT_MS = 20000
SHAPE = (24, 40)


@pytest.fixture(params=[64, 16], ids=["cell per element", "pooled"])
def panel(request: pytest.FixtureRequest, qtbot: QtBot) -> Iterator[TensorPanel]:
    widget = TensorPanel(options=ViewOptions(top_k=10, max_cells=request.param, block_elements=4096))
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()


def _signed_row(tmp_path: Path, fault: str, shape: tuple[int, ...]) -> tuple[PrecisionRow, Signature]:
    case, signature = signed_case(fault, shape)
    paths = tmp_path / "fused.npy", tmp_path / "origin.npy"
    np.save(paths[0], case.fused)
    np.save(paths[1], case.origin)
    row = PrecisionRow(OUTPUT, "autofuse_13", 0, "Add_1", 0, "OK", step="0", verdict=VERDICT_CULPRIT,
                       fused_file=str(paths[0]), origin_file=str(paths[1]), fused_dtype="float32",
                       origin_dtype="float32", fused_shape=shape, origin_shape=shape, signature=signature)
    return row, signature


def _show(qtbot: QtBot, panel: TensorPanel, row: PrecisionRow) -> Heatmap:
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS):
        panel.show_row(row)
    heatmap = panel.heatmaps.heatmap
    assert heatmap is not None
    return heatmap


def test_the_outline_is_the_tail_range(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    row, signature = _signed_row(tmp_path, "tail_block", SHAPE)
    heatmap = _show(qtbot, panel, row)
    assert heatmap.axes == HeatmapAxes((0,), (1,))
    axis, first = signature.params["axis"], signature.params["first_index"]
    rows, cols = heatmap.cells
    # The tail [first, length) of the axis, in the image's cells (a cell pools `step` grid positions).
    if axis == 1:
        expected = (first // heatmap.col_step, 0, cols, rows)
    else:
        expected = (0, first // heatmap.row_step, cols, rows)
    assert panel.heatmaps.outline_rects == [expected]
    # The truth: the cells whose worst error is beyond rounding are the outlined ones.
    wrong = heatmap.abs_error > 1e-3 * float(np.nanmax(np.abs(heatmap.origin)))
    assert mask_rects(wrong) == [expected]
    outline = panel.heatmaps.outlines[3].path().boundingRect()
    assert (outline.left(), outline.top(), outline.right(), outline.bottom()) == expected
    assert "Outlined: Tail block." in panel.heatmaps.hover_label.text()


def test_a_row_without_a_place_outlines_nothing(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    row, _signature = _signed_row(tmp_path, "tail_block", SHAPE)
    _show(qtbot, panel, row)
    assert panel.heatmaps.outline_rects
    (tmp_path / "bias").mkdir()
    bias_row, _bias = _signed_row(tmp_path / "bias", "bias", SHAPE)
    _show(qtbot, panel, bias_row)
    assert panel.heatmaps.outline_rects == []
    assert panel.heatmaps.outlines[0].path().isEmpty()


def _heatmap(shape: tuple[int, ...], axes: HeatmapAxes, cells: tuple[int, int], steps: tuple[int, int]
             ) -> Heatmap:
    empty = np.zeros(cells)
    return Heatmap(axes, shape, (cells[0] * steps[0], cells[1] * steps[1]), steps[0], steps[1], empty, empty,
                   empty, empty, empty, empty, empty)


def test_regions_on_inner_wrapped_and_pooled_axes() -> None:
    tail = Signature("tail_block", 1.0, {"axis": 1, "first_index": 5, "tile": 3, "length": 8})
    # NCHW-like (2, 8, 3, 4) with rows N×C: the tail of C is a band in each N block.
    heatmap = _heatmap((2, 8, 3, 4), HeatmapAxes((0, 1), (2, 3)), (16, 12), (1, 1))
    assert overlay_rects(heatmap, tail) == [(0, 5, 12, 8), (0, 13, 12, 16)]
    # Along an axis the view pools away, every cell holds part of the tail: nothing to outline.
    assert overlay_rects(_heatmap((2, 8, 3, 4), HeatmapAxes((0,), (2, 3)), (2, 12), (1, 1)), tail) == []
    # A 1-D tensor of 30 wrapped in rows of 6: the tail from 20 starts mid-row.
    wrapped = _heatmap((30,), HeatmapAxes((0,), (1,), wrap=6), (5, 6), (1, 1))
    one_d = Signature("tail_block", 1.0, {"axis": 0, "first_index": 20, "tile": 10, "length": 30})
    assert overlay_rects(wrapped, one_d) == [(2, 3, 6, 4), (0, 4, 6, 5)]
    # The first flagged element of an overflow; a localised signature's slices; a mixed one's region part.
    element = Signature("overflow", 1.0, {"count": 3, "first_index": [1, 6, 2, 3], "limit": 65504.0})
    assert overlay_rects(heatmap, element) == [(11, 14, 12, 15)]
    local = Signature("localised", 1.0, {"axis": 3, "indices": [0, 2], "count": 2, "length": 4})
    assert overlay_rects(heatmap, local) == [(0, 0, 1, 16), (2, 0, 3, 16), (4, 0, 5, 16), (6, 0, 7, 16),
                                             (8, 0, 9, 16), (10, 0, 11, 16)]
    mixed = Signature("mixed", 1.0, {"parts": [{"code": "bias", "params": {"offset": 1.0}},
                                               {"code": "tail_block", "params": tail.params}]})
    assert overlay_rects(heatmap, mixed) == overlay_rects(heatmap, tail)
    # An index outside the shown tensor (another layout): nothing rather than a wrong place.
    assert overlay_rects(heatmap, Signature("tail_block", 1.0, {"axis": 5, "first_index": 1, "tile": 1})) == []


def test_a_permutation_shows_sorted_values_that_coincide(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    row, signature = _signed_row(tmp_path, "layout_permutation", SHAPE)
    assert signature.code == "layout_permutation"
    _show(qtbot, panel, row)
    inset = panel.histograms.sorted_values
    assert inset.wanted and inset.shown
    fused_x, fused_y = inset.fused.getData()
    origin_x, origin_y = inset.origin.getData()
    # The same values in other places: the sorted curves are one curve, rising from 0 to every value.
    np.testing.assert_array_equal(fused_x, origin_x)
    np.testing.assert_array_equal(fused_y, origin_y)
    assert fused_x[0] == 0 and fused_x[-1] == pytest.approx(1.0) and np.all(np.diff(fused_x) >= 0)
    assert panel.histograms.values_plot.vb.geometry().contains(inset.plot.geometry())
    (tmp_path / "tail").mkdir()
    tail_row, _tail = _signed_row(tmp_path / "tail", "tail_block", SHAPE)
    _show(qtbot, panel, tail_row)
    assert not inset.wanted and not inset.shown
