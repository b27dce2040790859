"""DisplayCanvas: draws a core/render display list with Qt (same items, colours and texts as the SVG writer).

Every leaf of the display list becomes one QGraphicsItem carrying its role and leaf index, so tests can
compare the scene with the list the CLI writes as SVG. PNG export renders the scene; SVG export writes
display_list_to_svg of the very same list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt, Signal
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
    QGraphicsLineItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QToolTip,
    QWidget,
)

from autofuse_studio.core.render.display import DisplayItem, Line, Rect, Text, walk
from autofuse_studio.core.render.svg import display_list_to_svg
from autofuse_studio.core.reports.atomic import atomic_write_bytes, atomic_write_text

ROLE, INDEX = 0, 1  # QGraphicsItem.data() keys
HoverProvider = Callable[[float, float], str | None]


@dataclass(frozen=True)
class DrawnItem:
    """What the scene drew for one leaf: kind, role, fill/stroke colour names (#rrggbb) and text."""

    kind: str
    role: str
    fill: str | None
    stroke: str | None
    text: str | None


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


def _rect_item(item: Rect) -> QGraphicsItem:
    shape: QGraphicsRectItem | QGraphicsPathItem
    box = QRectF(item.x, item.y, item.width, item.height)
    if item.corner_radius:
        path = QPainterPath()
        path.addRoundedRect(box, item.corner_radius, item.corner_radius)
        shape = QGraphicsPathItem(path)
    else:
        shape = QGraphicsRectItem(box)
    fill, stroke = qcolor(item.fill), qcolor(item.stroke)
    shape.setBrush(QBrush(fill) if fill is not None else QBrush(Qt.BrushStyle.NoBrush))
    shape.setPen(QPen(stroke, 1) if stroke is not None else QPen(Qt.PenStyle.NoPen))
    if item.opacity is not None:
        shape.setOpacity(item.opacity)
    return shape


def _text_item(item: Text) -> QGraphicsItem:
    font = text_font(item)
    metrics = QFontMetricsF(font)
    shape = QGraphicsSimpleTextItem(item.text)
    shape.setFont(font)
    shape.setBrush(QBrush(qcolor(item.fill) or QColor("#000")))
    width = metrics.horizontalAdvance(item.text)
    shift = {"middle": width / 2, "end": width}.get(item.anchor, 0.0)
    shape.setPos(item.x - shift, item.y - metrics.ascent())  # SVG y is the baseline, Qt's is the top
    return shape


def graphics_item(item: Rect | Line | Text, dx: float, dy: float) -> QGraphicsItem:
    """One QGraphicsItem for a display-list leaf, moved by its groups' offset."""
    shape: QGraphicsItem
    if isinstance(item, Rect):
        shape = _rect_item(item)
    elif isinstance(item, Line):
        line = QGraphicsLineItem(item.x1, item.y1, item.x2, item.y2)
        line.setPen(QPen(qcolor(item.stroke) or QColor("#000"), 1))
        shape = line
    else:
        shape = _text_item(item)
    shape.moveBy(dx, dy)
    return shape


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
        self.items_list: list[DisplayItem] = []
        self.size_hint_wh = (0.0, 0.0)
        self.hover_provider: HoverProvider | None = None
        self.hover_text = ""
        self._highlight: QGraphicsRectItem | None = None
        self._press: QPointF | None = None

    def set_display_list(self, items: list[DisplayItem], width: float, height: float) -> None:
        """Replace the picture; the view keeps its zoom and scrolls to the top left."""
        scene = self.scene()
        scene.clear()
        self._highlight = None
        self.items_list, self.size_hint_wh = list(items), (width, height)
        for index, (leaf, dx, dy) in enumerate(walk(items)):
            if isinstance(leaf, (Rect, Line, Text)):
                shape = graphics_item(leaf, dx, dy)
                shape.setData(ROLE, leaf.role)
                shape.setData(INDEX, index)
                scene.addItem(shape)
        scene.setSceneRect(QRectF(0, 0, width, height))
        self.horizontalScrollBar().setValue(0)
        self.verticalScrollBar().setValue(0)

    def drawn_items(self) -> list[DrawnItem]:
        """The scene's leaf items in display-list order (for tests and debugging)."""
        shapes = [s for s in self.scene().items(Qt.SortOrder.AscendingOrder) if s.data(INDEX) is not None]
        shapes.sort(key=lambda s: int(s.data(INDEX)))
        return [_describe(s) for s in shapes]

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
        """Render the whole picture (not just the visible part) to a PNG at `scale`; returns the image."""
        width, height = self.size_hint_wh
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

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Remember where a press started, to tell clicks from drags."""
        self._press = event.position()
        super().mousePressEvent(event)


def _describe(shape: QGraphicsItem) -> DrawnItem:
    role = str(shape.data(ROLE))
    if isinstance(shape, QGraphicsSimpleTextItem):
        return DrawnItem("text", role, shape.brush().color().name(), None, shape.text())
    if isinstance(shape, QGraphicsLineItem):
        return DrawnItem("line", role, None, shape.pen().color().name(), None)
    assert isinstance(shape, (QGraphicsRectItem, QGraphicsPathItem))
    brush, pen = shape.brush(), shape.pen()
    fill = brush.color().name() if brush.style() != Qt.BrushStyle.NoBrush else None
    stroke = pen.color().name() if pen.style() != Qt.PenStyle.NoPen else None
    return DrawnItem("rect", role, fill, stroke, None)
