"""Pictures of the precision table drawn cell by cell: header, the chosen rows, full cell text, no scroll bars.

A grab of the table widget shows what fits in its viewport (scroll bars, cut-off cells). This draws the
rows and columns themselves with QPainter, so one drawing serves PNG (QImage) and SVG (QSvgGenerator).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.palette import VERDICT_COLOURS
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.render.svg import xml_safe
from autofuse_studio.core.reports.atomic import atomic_write_bytes
from autofuse_studio.ui.graph.export import encoded_png, white_canvas
from autofuse_studio.ui.precision.columns import COLUMNS, OPTIONAL_COLUMNS, visual_order

PADDING = 6  # px left and right of a cell's text
HEADER_FILL, GRID, TEXT = QColor("#eeeeee"), QColor("#c8c8c8"), QColor("#000000")
SVG_DPI = 96  # QSvgGenerator's default of 72 would shrink text relative to lines (what broke the plot SVGs)


@dataclass(frozen=True)
class TablePicture:
    """What to draw: headers, right-aligned columns, cell texts and a background colour per row."""

    headers: list[str]
    numeric: list[bool]
    cells: list[list[str]]
    fills: list[str]
    note: str = ""  # a line under the table, e.g. how many rows were left out


def picture_columns(rows: Sequence[PrecisionRow]) -> list[int]:
    """The default visual column order, without optional columns (rank, occurrence) no row fills."""
    hidden = {number for number, column in enumerate(COLUMNS)
              if column.key in OPTIONAL_COLUMNS and not any(OPTIONAL_COLUMNS[column.key](row) for row in rows)}
    return [number for number in visual_order() if number not in hidden]


def make_picture(rows: Sequence[PrecisionRow], columns: Sequence[int], note: str = "") -> TablePicture:
    """The cells of `rows` in `columns` (model indexes, in drawing order).

    Texts XML 1.0 forbids (control characters in op names) are drawn as visible escapes: QSvgGenerator would
    write them raw and the SVG would not parse.
    """
    chosen = [COLUMNS[number] for number in columns]
    unknown = VERDICT_COLOURS["UNKNOWN"]
    return TablePicture(
        headers=[column.translated_header() for column in chosen],
        numeric=[column.numeric and not column.left_aligned for column in chosen],
        cells=[[xml_safe(column.display(row)) for column in chosen] for row in rows],
        fills=[f"#{VERDICT_COLOURS.get(row.verdict, unknown)}" for row in rows],
        note=note,
    )


@dataclass(frozen=True)
class _Layout:
    widths: list[int]
    row_height: int
    size: QSize


def _layout(picture: TablePicture, metrics: QFontMetrics, max_width: int | None) -> _Layout:
    widths = []
    for number, header in enumerate(picture.headers):
        texts = [header, *(row[number] for row in picture.cells)]
        width = max(metrics.horizontalAdvance(text) for text in texts) + 2 * PADDING + 1
        widths.append(min(width, max_width) if max_width else width)
    row_height = metrics.height() + 6
    lines = len(picture.cells) + 1 + (1 if picture.note else 0)
    return _Layout(widths, row_height, QSize(sum(widths) + 1, lines * row_height + 1))


def picture_size(picture: TablePicture, font: QFont | None = None, max_width: int | None = None) -> QSize:
    """The size (px) the picture is drawn at."""
    return _layout(picture, QFontMetrics(font or QApplication.font()), max_width).size


def paint_picture(painter: QPainter, picture: TablePicture, font: QFont | None = None,
                  max_width: int | None = None, on_white: bool = False) -> None:
    """Draw the table at (0, 0); texts longer than `max_width` are elided, none otherwise (`on_white`: the
    device is white already, its background is not painted)."""
    font = font or QApplication.font()
    painter.setFont(font)
    metrics = QFontMetrics(font)
    layout = _layout(picture, metrics, max_width)
    height, full = layout.row_height, layout.size
    if not on_white:
        painter.fillRect(QRect(0, 0, full.width(), full.height()), QColor("#ffffff"))
    painter.fillRect(QRect(0, 0, full.width(), height), HEADER_FILL)
    for number, fill in enumerate(picture.fills, start=1):
        painter.fillRect(QRect(0, number * height, full.width(), height), QColor(fill))
    painter.setPen(TEXT)
    for line, texts in enumerate([picture.headers, *picture.cells]):
        _paint_line(painter, picture, layout, line, texts, metrics if max_width else None)
    _paint_grid(painter, layout, len(picture.cells) + 1)
    if picture.note:
        painter.setPen(TEXT)
        painter.drawText(QRectF(PADDING, (len(picture.cells) + 1) * height, full.width() - 2 * PADDING, height),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), picture.note)


def _paint_line(painter: QPainter, picture: TablePicture, layout: _Layout, line: int, texts: list[str],
                elide: QFontMetrics | None) -> None:
    """One header or row line: numbers right-aligned (not in the header), text left."""
    x, height = 0, layout.row_height
    for number, text in enumerate(texts):
        width = layout.widths[number]
        rect = QRectF(x + PADDING, line * height, width - 2 * PADDING - 1, height)
        side = Qt.AlignmentFlag.AlignRight if picture.numeric[number] and line > 0 else Qt.AlignmentFlag.AlignLeft
        shown = elide.elidedText(text, Qt.TextElideMode.ElideRight, int(rect.width())) if elide else text
        painter.drawText(rect, int(side | Qt.AlignmentFlag.AlignVCenter), shown)
        x += width


def _paint_grid(painter: QPainter, layout: _Layout, lines: int) -> None:
    right, bottom = layout.size.width() - 1, lines * layout.row_height
    painter.setPen(QPen(GRID, 1))
    for line in range(lines + 1):
        painter.drawLine(0, line * layout.row_height, right, line * layout.row_height)
    x = 0
    for width in [0, *layout.widths]:
        x = min(x + width, right)
        painter.drawLine(x, 0, x, bottom)


def png_bytes(picture: TablePicture, font: QFont | None = None, scale: float = 1.0,
              max_width: int | None = None) -> bytes:
    """The picture as PNG data, drawn at `scale` (the screen's device pixel ratio for sharp text)."""
    return bytes(_png_data(picture, font, scale, max_width).data())


def _png_data(picture: TablePicture, font: QFont | None, scale: float, max_width: int | None) -> QByteArray:
    """png_bytes() left in Qt's buffer (a worker writes it without holding the GIL for a copy).

    The canvas comes white from white_canvas (its fill, unlike QPainter's, lets the GUI thread run: a 1000-row
    picture's 100+ MB of fresh pages blocked it 1.3 s in a slow page-fault period).
    """
    size = picture_size(picture, font, max_width)
    try:
        with white_canvas(max(1, round(size.width() * scale)), max(1, round(size.height() * scale)),
                          QImage.Format.Format_RGB32) as image:
            image.setDevicePixelRatio(scale)
            painter = QPainter(image)
            try:
                paint_picture(painter, picture, font, max_width, on_white=True)
            finally:
                painter.end()
            return encoded_png(image)
    except MemoryError:
        raise InputError.of("table_picture_too_large", width=size.width(), height=size.height()) from None
    except OSError:
        raise InputError.of("table_png_encode_failed") from None


def svg_bytes(picture: TablePicture, font: QFont | None = None, title: str = "precision",
              max_width: int | None = None) -> bytes:
    """The picture as SVG data (vector text and lines)."""
    return bytes(_svg_data(picture, font, title, max_width).data())


def _svg_data(picture: TablePicture, font: QFont | None, title: str, max_width: int | None) -> QByteArray:
    """svg_bytes() left in Qt's buffer."""
    size = picture_size(picture, font, max_width)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setResolution(SVG_DPI)
    generator.setTitle(title)
    painter = QPainter(generator)
    try:
        paint_picture(painter, picture, font, max_width)
    finally:
        painter.end()
    return data


def save_picture(picture: TablePicture, path: str | Path, font: QFont | None = None, scale: float = 1.0,
                 max_width: int | None = None, **_task: object) -> Path:
    """Write the picture as .svg or .png (by suffix; anything else gets .png), atomically.

    Draws on a QImage or QSvgGenerator only, so it may run on a TaskRunner worker (whose progress and
    cancel keywords it ignores): a 1000-row PNG takes seconds to encode.
    """
    target = Path(path)
    if target.suffix.lower() == ".svg":
        data = _svg_data(picture, font, target.stem, max_width)
    else:
        target = target if target.suffix.lower() == ".png" else target.with_name(target.name + ".png")
        data = _png_data(picture, font, scale, max_width)
    atomic_write_bytes(target, memoryview(data))  # type: ignore[arg-type]  # QByteArray is a buffer
    return target
