"""Graph exports: SVG from the core display list, PNG by painting the same display list with QPainter."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication, QImage, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QWidget

from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.divergence import first_divergence_picture
from autofuse_studio.core.graphview.picture import Picture
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.render.display import DisplayItem, Group, Line, Polyline, Rect, Text
from autofuse_studio.core.render.svg import arrow_head
from autofuse_studio.core.reports.atomic import atomic_write_bytes, atomic_write_text

MAX_PNG_SIDE = 16000  # QImage and viewers struggle beyond this; bigger pictures are scaled down
MAX_PNG_PIXELS = 120_000_000  # ~480 MB of ARGB: the whole-graph PNG of a huge graph is scaled to fit
FIRST_DIVERGENCE_NAME = "graph_first_divergence"
OPAQUE_WHITE = 0xFFFFFFFF  # an ARGB32 or RGB32 pixel


def _colour(value: str | None) -> QColor:
    return QColor(value) if value and value != "none" else QColor(0, 0, 0, 0)


def paint_display_list(painter: QPainter, items: list[DisplayItem]) -> None:
    """Draw a display list (rects, lines, polylines with arrows, text, translated groups)."""
    for item in items:
        if isinstance(item, Group):
            painter.save()
            painter.translate(item.x, item.y)
            paint_display_list(painter, item.items)
            painter.restore()
        elif isinstance(item, Rect):
            painter.setPen(QPen(_colour(item.stroke), item.stroke_width or 1) if item.stroke else Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(_colour(item.fill)))
            rect = QRectF(item.x, item.y, item.width, item.height)
            radius = item.corner_radius or 0
            painter.drawRoundedRect(rect, radius, radius)
        elif isinstance(item, Line):
            painter.setPen(QPen(_colour(item.stroke)))
            painter.drawLine(QPointF(item.x1, item.y1), QPointF(item.x2, item.y2))
        elif isinstance(item, Polyline):
            _paint_polyline(painter, item)
        else:
            _paint_text(painter, item)


def _paint_polyline(painter: QPainter, item: Polyline) -> None:
    pen = QPen(_colour(item.stroke), item.width)
    if item.dashed:
        pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in item.points]))
    if item.arrow and len(item.points) >= 2:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(_colour(item.stroke))
        painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in arrow_head(item.points)]))


def _paint_text(painter: QPainter, item: Text) -> None:
    font = QFont(item.font_family)
    font.setPixelSize(max(round(item.font_size), 1))
    painter.setFont(font)
    painter.setPen(_colour(item.fill))
    width = painter.fontMetrics().horizontalAdvance(item.text)
    x = item.x - (width / 2 if item.anchor == "middle" else width if item.anchor == "end" else 0)
    painter.drawText(QPointF(x, item.y), item.text)


@contextlib.contextmanager
def painted_picture(picture: Picture, scale: float = 1.0) -> Iterator[QImage]:
    """A Picture painted on a white image (scaled down if it would be too large); valid inside the block."""
    scale = min(scale, MAX_PNG_SIDE / max(picture.width, 1.0), MAX_PNG_SIDE / max(picture.height, 1.0))
    pixels = picture.width * picture.height * scale * scale
    if pixels > MAX_PNG_PIXELS:
        scale *= (MAX_PNG_PIXELS / pixels) ** 0.5
    _require_gui()
    with white_canvas(max(int(picture.width * scale), 1), max(int(picture.height * scale), 1)) as image:
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.scale(scale, scale)
        paint_display_list(painter, picture.items)
        painter.end()
        yield image


@contextlib.contextmanager
def white_canvas(width: int, height: int, form: QImage.Format = QImage.Format.Format_ARGB32) -> Iterator[QImage]:
    """An opaque white image of that size (a 32-bit format) over pixels filled without the GIL; valid inside the
    block. MemoryError when the pixels cannot be had.

    PySide6 holds the GIL through QImage.fill (any overload): a whole-graph picture's first fill touches up
    to 480 MB of fresh pages (50-160 ms here, over 1 s on a loaded machine), all of it taken from the GUI
    thread when a worker fills. numpy's ndarray.fill releases the GIL; the image borrows its buffer.
    """
    pixels = np.empty((height, width), dtype=np.uint32)
    pixels.fill(OPAQUE_WHITE)
    image = QImage(pixels.data, width, height, 4 * width, form)
    if image.isNull():
        raise MemoryError(f"Qt cannot hold a {width}×{height} image.")
    yield image


def encoded_png(image: QImage | QPixmap) -> QByteArray:
    """An image encoded as PNG, left in Qt's buffer (Qt encodes without the GIL; a bytes copy would hold it)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    encoded = image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; PySide6 wants str
    buffer.close()
    if not encoded:
        raise OSError("Qt could not encode the picture as PNG.")
    return data


def png_bytes(image: QImage | QPixmap) -> bytes:
    """An image as PNG bytes."""
    return bytes(encoded_png(image).data())


def write_png(image: QImage, path: str | Path) -> Path:
    """Write an image as PNG atomically, from Qt's buffer: a worker never holds the GIL for a copy of it.

    Copying a whole graph's PNG (7 MB for 5000 ops) into Python bytes held the GIL for 50-120 ms the
    first time (fresh pages), a stall the GUI thread felt; the file write releases it.
    """
    target = Path(path)
    atomic_write_bytes(target, memoryview(encoded_png(image)))  # type: ignore[arg-type]  # a buffer
    return target


def write_widget_png(widget: QWidget, path: str | Path) -> Path:
    """Write what a widget shows as PNG, at screen scale × devicePixelRatio (a repaint of it, milliseconds).

    The graph's "current view" export: exactly the visible part, as drawn, instead of a display list
    of the whole visible scene rectangle (which at a fitted zoom was mostly blank and took seconds).
    """
    target = Path(path)
    atomic_write_bytes(target, png_bytes(widget.grab()))
    return target


def _require_gui() -> None:
    """QPainter on a QImage needs a QGuiApplication for fonts; the report command may not have one yet."""
    if QGuiApplication.instance() is None:
        # Text rendering needs a platform plugin; offscreen works without a display (CLI on a server).
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        global _APP
        _APP = QGuiApplication([])


_APP: QGuiApplication | None = None


def write_picture(picture: Picture, path: str | Path) -> Path:
    """Write a Picture as .svg (text kept as text) or .png, chosen by the file suffix."""
    target = Path(path)
    if target.suffix.lower() == ".svg":
        atomic_write_text(target, picture.to_svg())
    else:
        with painted_picture(picture) as image:
            write_png(image, target)
    return target


def write_first_divergence_pictures(af_open: Model, af_close: Model | None, mapping: FusionMapping,
                                    result: PrecisionResult, out_dir: str | Path) -> list[Path]:
    """Write graph_first_divergence.svg and .png (culprit beside the ops it replaced); [] without a divergence."""
    picture = first_divergence_picture(af_open, af_close, mapping, result)
    if picture is None:
        return []
    folder = Path(out_dir)
    return [write_picture(picture, folder / f"{FIRST_DIVERGENCE_NAME}.svg"),
            write_picture(picture, folder / f"{FIRST_DIVERGENCE_NAME}.png")]
