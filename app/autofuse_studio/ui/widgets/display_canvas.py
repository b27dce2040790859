"""DisplayCanvas: draws a core/render display list with Qt (same items, colours and texts as the SVG writer).

The whole list is one scene item whose paint() draws only the leaves meeting the exposed area: one
QGraphicsItem per leaf took the GUI thread over a second to create (and again to clear) for the 23,800
leaves of a big perf picture. prepare_display_list() flattens a list into leaves and culling bands
without touching Qt, so a worker can prepare a big picture. PNG export renders the scene; SVG export
writes display_list_to_svg of the very same list.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QToolTip,
    QWidget,
)

from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.render.display import DisplayItem, Line, Rect, Text, walk
from autofuse_studio.core.render.svg import display_list_to_svg
from autofuse_studio.core.reports.atomic import atomic_write_bytes, atomic_write_text

HoverProvider = Callable[[float, float], str | None]
Drawable = Rect | Line | Text
Box = tuple[float, float, float, float]  # left, top, right, bottom in scene coordinates
BAND = 256.0  # height of a culling band: a viewport meets a handful of them
BLACK = "#000000"


@dataclass(frozen=True)
class DrawnItem:
    """What the canvas draws for one leaf: kind, role, fill/stroke colour names (#rrggbb) and text."""

    kind: str
    role: str
    fill: str | None
    stroke: str | None
    text: str | None


@dataclass(frozen=True, slots=True)
class PlacedLeaf:
    """One drawable leaf, the offset of its groups and a box that surely holds everything it paints."""

    leaf: Drawable
    dx: float
    dy: float
    box: Box


@dataclass(frozen=True)
class PreparedList:
    """A display list ready to draw: its drawable leaves in drawing order, indexed by horizontal band."""

    items: list[DisplayItem]
    width: float
    height: float
    leaves: list[PlacedLeaf]
    bands: dict[int, list[int]]  # band number -> ascending positions in leaves
    bounds: Box  # the picture and every leaf's box

    def visible(self, left: float, top: float, right: float, bottom: float) -> list[PlacedLeaf]:
        """The leaves whose boxes meet the area, in drawing order."""
        positions: set[int] = set()
        for band in range(math.floor(top / BAND), math.floor(bottom / BAND) + 1):
            positions.update(self.bands.get(band, ()))
        leaves = self.leaves
        return [leaves[n] for n in sorted(positions) if _meets(leaves[n].box, left, top, right, bottom)]


def _meets(box: Box, left: float, top: float, right: float, bottom: float) -> bool:
    return box[0] <= right and box[2] >= left and box[1] <= bottom and box[3] >= top


def _text_box(item: Text, dx: float, dy: float) -> Box:
    # Without font metrics (Qt stays on the GUI thread): no glyph is wider than two em or reaches
    # further than two em above or one em below its baseline.
    size = max(1, round(item.font_size))
    length = 2.0 * size * len(item.text) + 2
    left = item.x + dx - {"middle": length / 2, "end": length}.get(item.anchor, 0.0)
    return left, item.y + dy - 2 * size, left + length, item.y + dy + size


def leaf_box(leaf: Drawable, dx: float, dy: float) -> Box:
    """A conservative box around what a leaf paints (pens and antialiasing included)."""
    if isinstance(leaf, Text):
        return _text_box(leaf, dx, dy)
    if isinstance(leaf, Line):
        return (min(leaf.x1, leaf.x2) + dx - 2, min(leaf.y1, leaf.y2) + dy - 2,
                max(leaf.x1, leaf.x2) + dx + 2, max(leaf.y1, leaf.y2) + dy + 2)
    left, top = leaf.x + dx + min(leaf.width, 0), leaf.y + dy + min(leaf.height, 0)
    return left - 2, top - 2, left + abs(leaf.width) + 2, top + abs(leaf.height) + 2


def prepare_display_list(items: list[DisplayItem], width: float, height: float) -> PreparedList:
    """Flatten a display list for the canvas (Qt-free: safe on worker threads); polylines are not drawn."""
    leaves: list[PlacedLeaf] = []
    bands: dict[int, list[int]] = {}
    left, top, right, bottom = 0.0, 0.0, float(width), float(height)
    for leaf, dx, dy in walk(items):
        if not isinstance(leaf, (Rect, Line, Text)):
            continue
        box = leaf_box(leaf, dx, dy)
        for band in range(math.floor(box[1] / BAND), math.floor(box[3] / BAND) + 1):
            bands.setdefault(band, []).append(len(leaves))
        leaves.append(PlacedLeaf(leaf, dx, dy, box))
        left, top, right, bottom = min(left, box[0]), min(top, box[1]), max(right, box[2]), max(bottom, box[3])
    return PreparedList(list(items), width, height, leaves, bands, (left, top, right, bottom))


EMPTY = prepare_display_list([], 0, 0)


MAX_PNG_SIDE = 32_000  # PNG viewers and QImage handle sides up to about 32k pixels
MAX_PNG_PIXELS = 100_000_000  # 400 MB of ARGB while rendering
MIN_PNG_SCALE = 0.5  # below this the text is unreadable: refuse instead


def png_scale(width: float, height: float, wanted: float) -> float:
    """The scale to render a width x height picture at: `wanted` or smaller; UsageError when too big."""
    width, height = max(width, 1.0), max(height, 1.0)
    scale = min(wanted, MAX_PNG_SIDE / width, MAX_PNG_SIDE / height, math.sqrt(MAX_PNG_PIXELS / (width * height)))
    if scale < min(wanted, MIN_PNG_SCALE):
        raise UsageError.of("png_too_big", width=width, height=height, side=MAX_PNG_SIDE)
    return scale


def qcolor(name: str | None) -> QColor | None:
    """An SVG colour name or #hex as QColor; None for "none"/empty (nothing drawn)."""
    if not name or name == "none":
        return None
    color = QColor(name)
    return color if color.isValid() else QColor("#000")


def text_font(item: Text) -> QFont:
    """The font of a Text item: its family (monospace falls back to the system's fixed font), pixel size."""
    font = QFont(item.font_family)
    if item.font_family == "monospace":
        font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPixelSize(max(1, round(item.font_size)))
    return font


class _Styles:
    """QColor, QFont and metrics per name, made once on the GUI thread (a picture uses a handful)."""

    def __init__(self) -> None:
        self.colours: dict[str | None, QColor | None] = {}
        self.fonts: dict[tuple[str, int], tuple[QFont, QFontMetricsF]] = {}

    def colour(self, name: str | None) -> QColor | None:
        """qcolor(name), cached."""
        if name not in self.colours:
            self.colours[name] = qcolor(name)
        return self.colours[name]

    def font(self, item: Text) -> tuple[QFont, QFontMetricsF]:
        """text_font(item) and its metrics, cached by family and pixel size."""
        key = (item.font_family, max(1, round(item.font_size)))
        if key not in self.fonts:
            font = text_font(item)
            self.fonts[key] = (font, QFontMetricsF(font))
        return self.fonts[key]


STYLES = _Styles()


def text_origin(item: Text, dx: float, dy: float) -> tuple[QFont, QFontMetricsF, QPointF]:
    """Font, metrics and baseline start of a Text item (anchor applied: SVG's middle/end)."""
    font, metrics = STYLES.font(item)
    width = metrics.horizontalAdvance(item.text)
    shift = {"middle": width / 2, "end": width}.get(item.anchor, 0.0)
    return font, metrics, QPointF(item.x + dx - shift, item.y + dy)


def _paint_rect(painter: QPainter, item: Rect, dx: float, dy: float) -> None:
    fill, stroke = STYLES.colour(item.fill), STYLES.colour(item.stroke)
    painter.setBrush(QBrush(fill) if fill is not None else QBrush(Qt.BrushStyle.NoBrush))
    painter.setPen(QPen(stroke, 1) if stroke is not None else QPen(Qt.PenStyle.NoPen))
    box = QRectF(item.x + dx, item.y + dy, item.width, item.height)
    opacity = painter.opacity()
    if item.opacity is not None:
        painter.setOpacity(opacity * item.opacity)
    if item.corner_radius:
        path = QPainterPath()
        path.addRoundedRect(box, item.corner_radius, item.corner_radius)
        painter.drawPath(path)
    else:
        painter.drawRect(box)
    painter.setOpacity(opacity)


def paint_leaf(painter: QPainter, placed: PlacedLeaf) -> None:
    """Draw one leaf like the SVG writer: text baselines at y, group offsets applied."""
    leaf, dx, dy = placed.leaf, placed.dx, placed.dy
    if isinstance(leaf, Rect):
        _paint_rect(painter, leaf, dx, dy)
    elif isinstance(leaf, Line):
        painter.setPen(QPen(STYLES.colour(leaf.stroke) or QColor(BLACK), 1))
        painter.drawLine(QLineF(leaf.x1 + dx, leaf.y1 + dy, leaf.x2 + dx, leaf.y2 + dy))
    else:
        font, _metrics, origin = text_origin(leaf, dx, dy)
        painter.setFont(font)
        painter.setPen(STYLES.colour(leaf.fill) or QColor(BLACK))
        painter.drawText(origin, leaf.text)


class ListItem(QGraphicsItem):
    """A whole prepared display list as one scene item; paint() draws only the leaves in the exposed rect."""

    def __init__(self, prepared: PreparedList) -> None:
        super().__init__()
        self.prepared = prepared
        left, top, right, bottom = prepared.bounds
        self._rect = QRectF(left, top, right - left, bottom - top)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)  # fills exposedRect

    def boundingRect(self) -> QRectF:
        """The picture and everything its leaves may paint."""
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Draw the leaves that meet the exposed rect, in display-list order."""
        area = option.exposedRect
        if area.isEmpty():
            area = self._rect
        for placed in self.prepared.visible(area.left(), area.top(), area.right(), area.bottom()):
            paint_leaf(painter, placed)


class DisplayCanvas(QGraphicsView):
    """A zoomable view of one display list; hover asks a provider for a tooltip, clicks are signalled."""

    clicked = Signal(float, float)  # scene coordinates = display-list coordinates
    hovered = Signal(str)  # the hover text shown ("" when none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("displayCanvas")
        self.setScene(QGraphicsScene(self))
        self.scene().setBackgroundBrush(QBrush(QColor("#ffffff")))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.setMouseTracking(True)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.prepared = EMPTY
        self.items_list: list[DisplayItem] = []
        self.size_hint_wh: tuple[float, float] = (0.0, 0.0)
        self.message = ""  # the note shown instead of a picture ("" when a picture is shown)
        self.hover_provider: HoverProvider | None = None
        self.hover_text = ""
        self._highlight: QGraphicsRectItem | None = None
        self._press: QPointF | None = None

    def set_display_list(self, items: list[DisplayItem], width: float, height: float) -> None:
        """Replace the picture; the view keeps its zoom and scrolls to the top left."""
        self.set_prepared(prepare_display_list(items, width, height))

    def set_prepared(self, prepared: PreparedList) -> None:
        """Like set_display_list() with a list prepare_display_list() made, maybe on a worker thread."""
        scene = self.scene()
        scene.clear()
        self._highlight = None
        self.message = ""
        self.prepared = prepared
        self.items_list, self.size_hint_wh = list(prepared.items), (prepared.width, prepared.height)
        if prepared.leaves:
            scene.addItem(ListItem(prepared))
        scene.setSceneRect(QRectF(0, 0, prepared.width, prepared.height))
        self.horizontalScrollBar().setValue(0)
        self.verticalScrollBar().setValue(0)

    def show_message(self, text: str) -> None:
        """Show a short note instead of a picture (e.g. while one is built); exports write an empty one."""
        self.set_prepared(EMPTY)
        note = self.scene().addSimpleText(text)
        note.setBrush(QBrush(QColor("#666666")))
        self.scene().setSceneRect(note.boundingRect())
        self.message = text

    def drawn_items(self) -> list[DrawnItem]:
        """What the canvas draws for each leaf, in display-list order (for tests and debugging)."""
        return [_describe(placed.leaf) for placed in self.prepared.leaves]

    def drawn_rect(self, number: int) -> QRectF:
        """The scene area the number-th drawn leaf covers (text: its advance and font height)."""
        placed = self.prepared.leaves[number]
        leaf = placed.leaf
        if isinstance(leaf, Text):
            _font, metrics, origin = text_origin(leaf, placed.dx, placed.dy)
            return QRectF(origin.x(), origin.y() - metrics.ascent(), metrics.horizontalAdvance(leaf.text),
                          metrics.height())
        if isinstance(leaf, Line):
            return QRectF(QPointF(leaf.x1, leaf.y1), QPointF(leaf.x2, leaf.y2)).normalized().translated(
                placed.dx, placed.dy)
        return QRectF(leaf.x + placed.dx, leaf.y + placed.dy, leaf.width, leaf.height).normalized()

    def set_highlight(self, box: QRectF | None) -> None:
        """Outline one area (e.g. the clicked case) or remove the outline."""
        if self._highlight is not None:
            self.scene().removeItem(self._highlight)
            self._highlight = None
        if box is not None:
            self._highlight = self.scene().addRect(box, QPen(QColor("#1a6fb5"), 2, Qt.PenStyle.DashLine))
            self._highlight.setZValue(10)

    def hover_text_at(self, x: float, y: float) -> str:
        """The tooltip for a scene position ("" when the provider has nothing)."""
        return (self.hover_provider(x, y) if self.hover_provider is not None else None) or ""

    def export_png(self, path: str | Path, scale: float = 2.0) -> QImage:
        """Render the whole picture (not just the visible part) to a PNG at `scale`; returns the image.

        A picture too big for that scale is rendered smaller (down to half size); beyond that it is
        refused with a UsageError naming its size (the all-operators picture of a big log is 144,000 px
        tall: a 2 GB image that most viewers cannot open; its SVG is the useful export).
        """
        width, height = self.size_hint_wh
        scale = png_scale(width, height, scale)
        image = QImage(max(1, round(width * scale)), max(1, round(height * scale)), QImage.Format.Format_ARGB32)
        image.fill(QColor("#ffffff"))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        highlight = self._highlight
        if highlight is not None:
            highlight.setVisible(False)  # the export shows the picture, not the UI state
        self.scene().render(painter, QRectF(0, 0, image.width(), image.height()), QRectF(0, 0, width, height))
        painter.end()
        if highlight is not None:
            highlight.setVisible(True)
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buffer, "PNG"):  # type: ignore[call-overload]  # PySide6 wants str despite its stubs
            raise OSError(f"Could not encode the PNG for '{path}'.")
        atomic_write_bytes(path, bytes(data.data()))
        return image

    def export_svg(self, path: str | Path) -> None:
        """Write the display list as SVG (display_list_to_svg: the same writer as the CLI)."""
        width, height = self.size_hint_wh
        atomic_write_text(path, display_list_to_svg(self.items_list, width, height))

    def zoom(self, factor: float) -> None:
        """Scale the view by factor (clamped to 10%-800%)."""
        current = self.transform().m11()
        factor = min(max(current * factor, 0.1), 8.0) / current
        self.scale(factor, factor)

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Ctrl+wheel zooms; the plain wheel scrolls."""
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
            event.accept()
            return
        super().wheelEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Show the provider's text for the position under the mouse."""
        super().mouseMoveEvent(event)
        point = self.mapToScene(event.position().toPoint())
        text = self.hover_text_at(point.x(), point.y())
        if text != self.hover_text:
            self.hover_text = text
            self.hovered.emit(text)
        if text:
            QToolTip.showText(event.globalPosition().toPoint(), text, self)
        else:
            QToolTip.hideText()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """A click without dragging reports its scene position."""
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            start = self._press
            if start is None or (event.position() - start).manhattanLength() < 4:
                point = self.mapToScene(event.position().toPoint())
                self.clicked.emit(point.x(), point.y())
            event.accept()  # the click was handled here, even over an empty scene

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Remember where a press started, to tell clicks from drags."""
        self._press = event.position()
        super().mousePressEvent(event)


def _describe(leaf: Drawable) -> DrawnItem:
    if isinstance(leaf, Text):
        return DrawnItem("text", leaf.role, (qcolor(leaf.fill) or QColor(BLACK)).name(), None, leaf.text)
    if isinstance(leaf, Line):
        return DrawnItem("line", leaf.role, None, (qcolor(leaf.stroke) or QColor(BLACK)).name(), None)
    fill, stroke = qcolor(leaf.fill), qcolor(leaf.stroke)
    return DrawnItem("rect", leaf.role, fill.name() if fill is not None else None,
                     stroke.name() if stroke is not None else None, None)
