"""The far-zoomed-out picture of a big graph: its nodes and edges rasterised by numpy, drawn as one image.

Below DETAIL_LOD a node is a few pixels and an edge a grey hair; painting 100k rectangles and 500k
segments through QPainter took 0.2-0.5 s a frame, the same pixels from numpy take a few milliseconds.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QPoint, QRect, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QTransform

from autofuse_studio.core.graphview.raster import raster_boxes, raster_lines

__all__ = ["paint_far"]

FloatArray = NDArray[np.float64]
CLEAR = (0, 0, 0, 0)  # clusters drawn before show through


def paint_far(painter: QPainter, exposed: QRectF, boxes: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
              codes: NDArray[np.int64], colours: NDArray[np.uint8], lines: tuple[FloatArray, FloatArray],
              edge: QColor) -> None:
    """Draw node boxes (scene x0, y0, x1, y1 and palette codes) over edge segments (scene starts, ends)."""
    transform = painter.worldTransform()
    device = painter.device()
    target = transform.mapRect(exposed).toAlignedRect()
    if device is not None:
        target = target.intersected(QRect(0, 0, device.width(), device.height()))
    if target.isEmpty():
        return
    sx, sy, dx, dy = transform.m11(), transform.m22(), transform.dx() - target.x(), transform.dy() - target.y()
    size = (target.width(), target.height())
    pixels = np.zeros((size[1], size[0], 4), dtype=np.uint8)
    start, end = lines
    scale, shift = np.array([sx, sy]), np.array([dx, dy])
    raster_lines(pixels, start * scale + shift, end * scale + shift, (edge.red(), edge.green(), edge.blue(), 255))
    x0, y0, x1, y1 = boxes
    raster_boxes(x0 * sx + dx, y0 * sy + dy, x1 * sx + dx, y1 * sy + dy, codes, colours, size, CLEAR, under=pixels)
    image = QImage(pixels.data, size[0], size[1], size[0] * 4, QImage.Format.Format_RGBA8888_Premultiplied)
    painter.save()
    painter.setWorldTransform(QTransform())
    painter.drawImage(QPoint(target.x(), target.y()), image)  # drawn before `pixels` goes out of scope
    painter.restore()
