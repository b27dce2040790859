"""The tensor panel's four heatmaps: in a row when the panel is wide enough, two rows of two when it is not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.precision.tensor_heatmaps import NARROW_COLUMNS, WIDE_COLUMNS, TensorHeatmaps
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from tests.ui.test_tensor_panel import _show

HEIGHT = 700


@pytest.fixture
def shown(qtbot: QtBot, tmp_path: Path) -> Iterator[TensorHeatmaps]:
    """The heatmaps tab of a panel showing a 4-D pair with one wrong element."""
    rng = np.random.default_rng(1)
    origin = rng.standard_normal((2, 3, 40, 50)).astype(np.float16)
    fused = origin.copy()
    fused[1, 2, 30, 40] = 9.0
    paths = tmp_path / "fused.npy", tmp_path / "origin.npy"
    np.save(paths[0], fused)
    np.save(paths[1], origin)
    panel = TensorPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, HEIGHT)
    panel.show()
    panel.tabs.setCurrentWidget(panel.heatmaps)
    _show(qtbot, panel, paths)
    yield panel.heatmaps
    panel.shutdown()


def _cut_off(heatmaps: TensorHeatmaps) -> list[str]:
    """Titles of the heatmaps whose right edge lies beyond the visible view."""
    visible = heatmaps.graphics.viewport().width()
    return [plot.titleLabel.text for plot in heatmaps.plots if plot.sceneBoundingRect().right() > visible]


def _rows(heatmaps: TensorHeatmaps) -> int:
    return len({round(plot.sceneBoundingRect().top()) for plot in heatmaps.plots})


def _resize(qtbot: QtBot, heatmaps: TensorHeatmaps, width: int, height: int = HEIGHT) -> None:
    """Give the heatmaps widget itself `width` x `height` px (the panel around it has its own minimum)."""
    heatmaps.setParent(None)
    heatmaps.resize(width, height)
    heatmaps.show()
    qtbot.wait(50)


def test_heatmaps_reflow_to_fit_the_width(qtbot: QtBot, shown: TensorHeatmaps) -> None:
    needed = shown.row_width()
    assert needed < 800  # the titles span image and colour bar: four fit a 1280 px window's panel
    for width, columns, rows in ((needed + 200, WIDE_COLUMNS, 1), (needed - 100, NARROW_COLUMNS, 2),
                                 (needed + 300, WIDE_COLUMNS, 1), (needed - 60, NARROW_COLUMNS, 2)):
        _resize(qtbot, shown, int(width))
        assert shown.columns == columns, width
        assert _rows(shown) == rows, width
        assert _cut_off(shown) == [], width


def test_low_panel_keeps_one_row(qtbot: QtBot, shown: TensorHeatmaps) -> None:
    """Two rows of 100 px heatmaps would show nothing: a low, narrow panel keeps the row."""
    _resize(qtbot, shown, int(shown.row_width()) - 100, 330)
    assert shown.columns == WIDE_COLUMNS
    assert _rows(shown) == 1


def test_hover_after_reflow(qtbot: QtBot, shown: TensorHeatmaps) -> None:
    _resize(qtbot, shown, int(shown.row_width()) - 100)
    assert shown.columns == NARROW_COLUMNS
    image = shown.images[3]  # bottom right after the reflow
    shown._on_scene_mouse_moved(image.mapToScene(image.boundingRect().center()))
    assert "worst at" in shown.hover_label.text()


def test_axis_labels_follow_each_heatmaps_pooling(shown: TensorHeatmaps) -> None:
    from dataclasses import replace

    first = shown.heatmap
    assert first is not None
    coarser = replace(first, row_step=first.row_step + 3, col_step=first.col_step + 5)
    for heatmap in (coarser, first, first):  # the same pooling twice keeps its labels
        shown.set_heatmap(heatmap)
        for plot in shown.plots:
            assert plot.getAxis("bottom").labelText == f"columns ({heatmap.col_step} per cell)"
            assert plot.getAxis("left").labelText == f"rows ({heatmap.row_step} per cell)"
