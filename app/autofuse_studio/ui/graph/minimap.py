"""Minimap: a small cached thumbnail of the node boxes with the visible area; click or drag to move the view."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from autofuse_studio.core.graphview.raster import THUMBNAIL_BOX, thumbnail
from autofuse_studio.ui.graph.view import GraphView

MAX_WIDTH, MAX_HEIGHT = THUMBNAIL_BOX  # the thumbnail takes the graph's shape inside this box (it covers nodes)


class Minimap(QWidget):
    """Overview of a GraphView's scene; the thumbnail is drawn once per graph, the frame on every move.

    It is only shown when it helps: when the user has not switched it off and part of the graph is
    outside the view (a neighbourhood that fits needs no map over its nodes).
    """

    def __init__(self, view: GraphView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.wanted = True
        self._image: QImage | None = None
        self._scale = 1.0
        self.setFixedSize(MAX_WIDTH, MAX_HEIGHT)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        # Showing or hiding must not re-lay out the pane: the view's resize moved the visible area, which
        # flipped needed() and so showing again, a loop of hundreds of repaints a second on an idle window.
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        view.viewChanged.connect(self._on_view_changed)

    def sizeHint(self) -> QSize:
        """The thumbnail's size."""
        return self.size()

    def set_wanted(self, wanted: bool) -> None:
        """Switch the minimap on or off (the pane's Map button)."""
        self.wanted = wanted
        self._on_view_changed()

    def needed(self) -> bool:
        """True when part of the graph lies outside the view."""
        item = self.view.item
        if item is None:
            return False
        visible = self.view.visible_scene_rect()
        return not visible.contains(item.boundingRect())

    def _on_view_changed(self) -> None:
        self.setVisible(self.wanted and self._image is not None and self.needed())
        self.update()

    def rebuild(self) -> None:
        """Redraw the thumbnail from the view's current item (after a new layout or new colours)."""
        item = self.view.item
        if item is None:
            self._image = None
            self._on_view_changed()
            return
        found = item.thumbnail()  # a big graph's, made on the pane's worker with its overview
        if found is None:
            # Numpy, not one drawRect per node: a 100k-node thumbnail took a second of the GUI thread.
            lay = item.layout
            found = thumbnail(lay.x - lay.width / 2, lay.y - lay.height / 2, lay.x + lay.width / 2,
                              lay.y + lay.height / 2, *item.style.palette(), lay.size)
        self._scale = found.scale
        height, width = found.pixels.shape[:2]
        image = QImage(found.pixels.data, width, height, width * 4,
                       QImage.Format.Format_RGBA8888_Premultiplied).copy()
        self._image = image
        self.setFixedSize(max(image.width() + 2, 24), max(image.height() + 2, 16))
        self._on_view_changed()

    def picture(self) -> QImage | None:
        """The thumbnail shown (None without a graph)."""
        return self._image

    def paintEvent(self, event: QPaintEvent) -> None:
        """Thumbnail plus the visible-area frame."""
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(255, 255, 255, 200))
        if self._image is not None:
            painter.drawImage(1, 1, self._image)
            visible = self.view.visible_scene_rect()
            frame = QRectF(1 + visible.x() * self._scale, 1 + visible.y() * self._scale,
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
            self.view.pan_to(QPointF((pos.x() - 1) / self._scale, (pos.y() - 1) / self._scale))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Centre the view where the minimap was clicked."""
        self._centre(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Drag to pan."""
        self._centre(event)
