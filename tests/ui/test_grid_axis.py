"""GridAxis draws the same grid as pyqtgraph's translucent one, opaque and under the data."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.precision.grid_axis import add_grid_plot, on_background


@pytest.mark.parametrize(("colour", "alpha"), [("#000000", 51), ("#1f77b4", 128), ("#d62728", 255), ("#ffffff", 10)])
def test_on_background_is_the_colour_a_translucent_one_shows_on_white(colour: str, alpha: int) -> None:
    translucent = QColor(colour)
    translucent.setAlpha(alpha)
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.fillRect(0, 0, 1, 1, translucent)
    painter.end()
    shown, opaque = image.pixelColor(0, 0), on_background(translucent)
    assert opaque.alpha() == 255
    assert all(abs(a - b) <= 1 for a, b in zip(shown.getRgb()[:3], opaque.getRgb()[:3], strict=True))


def _picture(qtbot: QtBot, opaque_grid: bool, data: bool) -> np.ndarray:
    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    widget.setBackground("w")
    widget.resize(400, 300)
    if opaque_grid:
        plot = add_grid_plot(widget.ci, row=0, col=0)
    else:
        plot = widget.addPlot(row=0, col=0)
        plot.showGrid(x=True, y=True, alpha=0.2)
    plot.setRange(xRange=(0, 10), yRange=(0, 10), padding=0)
    if data:
        plot.plot([0, 10], [5, 5], pen=pg.mkPen("#1f77b4", width=3))
    widget.show()
    qtbot.waitExposed(widget)
    qtbot.wait(100)  # pyqtgraph lays out and ranges over a few turns
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    pointer = image.constBits()  # BGRA; copied below, before the image goes
    return np.frombuffer(pointer, np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)[:, :image.width(), :3].copy()


def test_the_grid_looks_the_same_as_pyqtgraphs_and_lies_under_the_curves(qtbot: QtBot) -> None:
    translucent, opaque = _picture(qtbot, False, False), _picture(qtbot, True, False)
    assert translucent.shape == opaque.shape
    grid = np.any(translucent < 250, axis=2)
    assert grid.mean() > 0.01  # there is a grid (and axes) to compare
    difference = translucent.astype(int) - opaque.astype(int)
    alike = np.abs(difference).max(axis=2) <= 2
    assert alike[grid].mean() > 0.9
    # Elsewhere translucent lines cross (a grid line over another, or a minor tick over a major one) and
    # darken each other; an opaque crossing is as light as either line.
    assert np.all(difference[~alike] < 0)
    with_curve = _picture(qtbot, True, True)
    middle = slice(opaque.shape[1] // 4, 3 * opaque.shape[1] // 4)
    line = middle.start + int(np.argmax(grid[:, middle].sum(axis=0)))  # a vertical grid line's column
    assert grid[:, line].mean() > 0.5
    column = with_curve[:, line].astype(int)
    blue = np.abs(column - np.array((0xb4, 0x77, 0x1f))).max(axis=1) <= 3  # BGR
    assert blue.sum() >= 2  # where the curve crosses the grid line it keeps its colour: the grid is under it
