"""Minimap: a cached thumbnail of the node boxes with the visible area; click or drag to move the view."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from autofuse_studio.ui.graph.view import GraphView

SIZE = 160


class Minimap(QWidget):
    """Overview of a GraphView's scene; the thumbnail is drawn once per graph, the frame on every move."""

    def __init__(self, view: GraphView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self._image: QImage | None = None
        self._scale = 1.0
        self.setFixedSize(SIZE, SIZE)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        view.viewChanged.connect(self.update)

    def sizeHint(self) -> QSize:
        """A fixed square."""
        return QSize(SIZE, SIZE)

    def rebuild(self) -> None:
        """Redraw the thumbnail from the view's current item (after a new layout or new colours)."""
        item = self.view.item
        if item is None:
            self._image = None
            self.update()
            return
        width, height = item.layout.size
        self._scale = min(SIZE / max(width, 1.0), SIZE / max(height, 1.0))
        image = QImage(max(int(width * self._scale), 1), max(int(height * self._scale), 1),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(250, 250, 250, 230))
        painter = QPainter(image)
        painter.scale(self._scale, self._scale)
        fills = item.style.fills
        lay = item.layout
        painter.setPen(Qt.PenStyle.NoPen)
        # Thumbnails of huge graphs: nodes narrower than a pixel still need one, hence the minimum size.
        floor = 1.0 / self._scale
        for node in range(len(lay.x)):
            painter.setBrush(QColor(fills[node]) if node < len(fills) else QColor("#999999"))
            w, h = max(float(lay.width[node]), floor), max(float(lay.height[node]), floor)
            painter.drawRect(QRectF(float(lay.x[node]) - w / 2, float(lay.y[node]) - h / 2, w, h))
        painter.end()
        self._image = image
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Thumbnail plus the visible-area frame."""
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(255, 255, 255, 200))
        if self._image is not None:
            painter.drawImage(0, 0, self._image)
            visible = self.view.visible_scene_rect()
            frame = QRectF(visible.x() * self._scale, visible.y() * self._scale,
                           max(visible.width() * self._scale, 3), max(visible.height() * self._scale, 3))
            painter.setPen(QPen(QColor("#1f6fd1"), 1.5))
            painter.setBrush(QColor(31, 111, 209, 40))
            painter.drawRect(frame)
        painter.setPen(QColor("#999999"))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))

    def _centre(self, event: QMouseEvent) -> None:
        if self._image is not None:
            pos = event.position()
            self.view.centerOn(QPointF(pos.x() / self._scale, pos.y() / self._scale))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Centre the view where the minimap was clicked."""
        self._centre(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Drag to pan."""
        self._centre(event)
