"""GraphView: zoom (wheel, +/-), pan (drag, arrows), fit (F, 0), clicks, double-clicks and hover tooltips."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QToolTip, QWidget

from autofuse_studio.core.graphview.details import edge_text
from autofuse_studio.ui.graph.item import LABEL_LOD, GraphItem

ZOOM_STEP = 1.25
MIN_SCALE, MAX_SCALE = 1e-4, 8.0
READABLE_SCALE = max(0.85, LABEL_LOD)  # the zoom a selection is shown at when its neighbourhood does not fit
FIT_MIN_SCALE = max(0.82, LABEL_LOD)  # a whole neighbourhood is fitted down to this zoom (11 px names: >= 9 px)
FOCUS_MAX_SCALE = 1.25  # a small neighbourhood is fitted, but not blown up beyond this
FOCUS_MARGIN = 24.0  # view pixels kept free around a fitted neighbourhood
CLICK_SLOP = 4  # pixels the mouse may move between press and release and still count as a click


class GraphView(QGraphicsView):
    """A QGraphicsView over one GraphItem; emits node ids (or -1 for the background)."""

    nodeClicked = Signal(int)
    nodeDoubleClicked = Signal(int)
    clusterDoubleClicked = Signal(int)
    viewChanged = Signal()
    fitRequested = Signal()  # F or 0: fit (both panes when they are synced)
    userMoved = Signal(float, QPointF)  # the user zoomed or panned: the zoom and view centre before the move
    focused = Signal()  # a focus request was applied (focus_scale is the zoom it chose)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.item: GraphItem | None = None
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        # One item repaints its exposed part quickly; Qt's per-item bookkeeping would only add cost.
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.setBackgroundBrush(QColor("#ffffff"))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # The scroll range is padded (see _update_scene_rect), so bars would always show: drag, the arrow
        # keys and the minimap pan instead.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._press: QPoint | None = None
        # The last focus request, re-applied when the viewport changes size until the user zooms or pans:
        # a pane laid out while its tab was hidden has no real size yet.
        self._focus: tuple[QRectF, QPointF] | None = None
        self.focus_scale: float | None = None  # the zoom the last focus chose (panes showing a pair share the least)
        self._top: float | None = None  # a focus on the top of the graph ("open like Netron"): the x to centre
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.horizontalScrollBar().valueChanged.connect(self.viewChanged)
        self.verticalScrollBar().valueChanged.connect(self.viewChanged)

    def set_item(self, item: GraphItem | None) -> None:
        """Replace the drawn graph (None clears the scene)."""
        self.scene().clear()
        self.item = item
        if item is not None:
            self.scene().addItem(item)
        self._update_scene_rect()
        self.viewChanged.emit()

    def _update_scene_rect(self) -> None:
        """Pad the scrollable area by half a viewport, so any node (a corner one too) can be centred.

        Without it the scroll range ends at the graph's edge: a node near the border can never reach the
        middle, and the bottom-right nodes stay under the minimap.
        """
        if self.item is None:
            return
        centre = self.mapToScene(self.viewport().rect().center())
        scale = max(self.scale_factor(), 1e-9)
        pad_x, pad_y = self.viewport().width() / 2 / scale, self.viewport().height() / 2 / scale
        self.setSceneRect(self.item.boundingRect().adjusted(-pad_x, -pad_y, pad_x, pad_y))
        self.centerOn(centre)

    def scale_factor(self) -> float:
        """Current zoom (1 = one scene unit per pixel)."""
        return float(self.transform().m11())

    def zoom(self, factor: float) -> None:
        """Zoom by factor around the mouse (or the centre), clamped to sane limits."""
        self._focus = None
        target = min(max(self.scale_factor() * factor, MIN_SCALE), MAX_SCALE)
        factor = target / max(self.scale_factor(), 1e-12)
        self.scale(factor, factor)
        self._update_scene_rect()
        self.viewChanged.emit()

    def set_scale(self, scale: float, centre: QPointF) -> None:
        """Zoom to an absolute scale and centre a scene point."""
        self.resetTransform()
        scale = min(max(scale, MIN_SCALE), MAX_SCALE)
        self.scale(scale, scale)
        self._update_scene_rect()
        self.centerOn(centre)
        self.viewChanged.emit()

    def focus(self, rect: QRectF, anchor: QPointF) -> None:
        """Show `rect` whole when that is readable, else `anchor` at a zoom where labels are drawn."""
        self._focus = (QRectF(rect), QPointF(anchor))
        self._top = None
        self._apply_focus()

    def focus_top(self, anchor_x: float | None = None) -> None:
        """Open on the whole graph like Netron: all of it when that is readable, else its top at a readable zoom.

        The zoom fits the graph's width (never below FIT_MIN_SCALE, never above FOCUS_MAX_SCALE); the view
        shows the first layers, centred on `anchor_x` (the start op) when the width does not fit.
        """
        if self.item is None:
            return
        rect = self.item.boundingRect()
        self._focus = (QRectF(rect), QPointF(rect.center().x() if anchor_x is None else anchor_x, rect.top()))
        self._top = self._focus[1].x()
        self._apply_focus()

    def _apply_focus(self) -> None:
        if self._focus is None:
            return
        rect, anchor = self._focus
        view = self.viewport().rect()
        if view.width() <= 2 * FOCUS_MARGIN or view.height() <= 2 * FOCUS_MARGIN:
            self._set_focus_scale(READABLE_SCALE, anchor)  # not laid out yet: at least the zoom is right
            return
        fit = min((view.width() - 2 * FOCUS_MARGIN) / max(rect.width(), 1.0),
                  (view.height() - 2 * FOCUS_MARGIN) / max(rect.height(), 1.0))
        if fit >= FIT_MIN_SCALE:
            self._set_focus_scale(min(fit, FOCUS_MAX_SCALE), rect.center())
        elif self._top is not None:  # the top of a big graph, as wide as is readable
            scale = min(max((view.width() - 2 * FOCUS_MARGIN) / max(rect.width(), 1.0), FIT_MIN_SCALE),
                        FOCUS_MAX_SCALE)
            half_w, half_h = view.width() / 2 / scale, view.height() / 2 / scale
            x = rect.center().x() if rect.width() * scale <= view.width() - 2 * FOCUS_MARGIN else \
                min(max(self._top, rect.left() + half_w - FOCUS_MARGIN / scale),
                    rect.right() - half_w + FOCUS_MARGIN / scale)
            self._set_focus_scale(scale, QPointF(x, rect.top() - FOCUS_MARGIN / scale + half_h))
        else:
            self._set_focus_scale(READABLE_SCALE, anchor)

    def _set_focus_scale(self, scale: float, centre: QPointF) -> None:
        self.focus_scale = min(max(scale, MIN_SCALE), MAX_SCALE)
        self.set_scale(scale, centre)
        self.focused.emit()

    def cap_focus(self, scale: float) -> None:
        """Panes of a pair open at the same zoom: lower a focus to `scale`, keeping what it centres."""
        if self._focus is None or self.focus_scale is None or scale >= self.scale_factor() - 1e-9:
            return
        self.set_scale(scale, self.mapToScene(self.viewport().rect().center()))

    def follow(self, scale: float, delta: QPointF) -> None:
        """Synced panes: take the other pane's zoom and move by the same scene distance it moved."""
        self._focus = None
        centre = self.mapToScene(self.viewport().rect().center())
        self.set_scale(scale, centre + delta)

    def _user_move(self, move: Callable[[], object]) -> None:
        """Run a zoom or pan the user asked for and say so (userMoved), for a synced pane to follow."""
        scale, centre = self.scale_factor(), self.mapToScene(self.viewport().rect().center())
        move()
        if abs(self.scale_factor() - scale) > 1e-12 or self.mapToScene(self.viewport().rect().center()) != centre:
            self.userMoved.emit(scale, centre)

    def labels_drawn(self) -> bool:
        """True at a zoom where node names are painted."""
        return self.scale_factor() >= LABEL_LOD

    def fit(self) -> None:
        """Show the whole graph with a margin (no node cut at the edge).

        A graph so tall that it would be a thin sliver (under a third of the view's width) fits its width
        instead and shows its top, so labels stay findable.
        """
        if self.item is None:
            return
        self._focus = None
        rect = self.item.boundingRect()
        view = self.viewport().rect()
        if view.width() <= 2 * FOCUS_MARGIN or view.height() <= 2 * FOCUS_MARGIN:
            return
        width_fit = (view.width() - 2 * FOCUS_MARGIN) / max(rect.width(), 1.0)
        whole = min(width_fit, (view.height() - 2 * FOCUS_MARGIN) / max(rect.height(), 1.0))
        if whole * rect.width() < (view.width() - 2 * FOCUS_MARGIN) / 3:
            scale = min(width_fit, FOCUS_MAX_SCALE)
            self.set_scale(scale, QPointF(rect.center().x(), rect.top() - FOCUS_MARGIN / scale
                                          + view.height() / 2 / scale))
        else:
            self.set_scale(min(whole, MAX_SCALE), rect.center())

    def reveal(self, node: int, zoom_in: bool = True) -> None:
        """Centre a node, zooming to a readable scale when the view is too far out for labels."""
        if self.item is None:
            return
        centre = QPointF(float(self.item.layout.x[node]), float(self.item.layout.y[node]))
        if zoom_in and self.scale_factor() < READABLE_SCALE:
            self.set_scale(READABLE_SCALE, centre)
            return
        self.centerOn(centre)
        self.viewChanged.emit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Keep the half-viewport padding right for the new size, and a focus the user has not changed."""
        super().resizeEvent(event)
        self._update_scene_rect()
        self._apply_focus()

    def visible_scene_rect(self) -> QRectF:
        """The part of the scene the viewport shows."""
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Wheel zooms around the mouse."""
        steps = event.angleDelta().y() / 120
        if steps:
            self._user_move(lambda: self.zoom(ZOOM_STEP ** steps))
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """+ / - zoom, F or 0 fit; arrows and page keys pan (QGraphicsView default)."""
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self._user_move(lambda: self.zoom(ZOOM_STEP))
        elif key == Qt.Key.Key_Minus:
            self._user_move(lambda: self.zoom(1 / ZOOM_STEP))
        elif key in (Qt.Key.Key_F, Qt.Key.Key_0):
            self.fit()
            self.fitRequested.emit()  # the workbench fits the other pane too when they are synced
        else:
            self._focus = None
            self._user_move(lambda: super(GraphView, self).keyPressEvent(event))

    def pan_to(self, point: QPointF) -> None:
        """Centre a scene point at the current zoom (the minimap's click and drag)."""
        self._focus = None
        self._user_move(lambda: self.centerOn(point))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """A hand drag pans; a synced pane follows."""
        if self._press is None:
            super().mouseMoveEvent(event)
            return
        self._user_move(lambda: super(GraphView, self).mouseMoveEvent(event))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Remember where a possible click started, then let the hand drag begin."""
        self._press = event.position().toPoint()
        self._focus = None  # the user takes over
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """A release close to the press is a click on the node under the mouse (or the background)."""
        super().mouseReleaseEvent(event)
        press, self._press = self._press, None
        if press is None or self.item is None or event.button() != Qt.MouseButton.LeftButton:
            return
        if (event.position().toPoint() - press).manhattanLength() <= CLICK_SLOP:
            node = self.item.node_at(self.mapToScene(event.position().toPoint()))
            self.nodeClicked.emit(-1 if node is None else node)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        """Double-click a node (collapsed group, call op) or a cluster box to toggle it."""
        if self.item is None:
            return
        point = self.mapToScene(event.position().toPoint())
        node = self.item.node_at(point)
        if node is not None:
            self.nodeDoubleClicked.emit(node)
            return
        cluster = self.item.cluster_at(point)
        if cluster is not None:
            self.clusterDoubleClicked.emit(cluster)

    def viewportEvent(self, event: QEvent) -> bool:
        """Tooltips: a node's name and type, or an edge's tensors (dtype, layout, shape, origin shape)."""
        if event.type() == QEvent.Type.ToolTip and self.item is not None:
            help_event: QHelpEvent = event  # type: ignore[assignment]
            text = self.tooltip_at(self.mapToScene(help_event.pos()))
            if text:
                QToolTip.showText(help_event.globalPos(), text, self)
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def tooltip_at(self, point: QPointF) -> str:
        """Tooltip text for a scene point: node first, then the nearest edge within a few pixels."""
        if self.item is None:
            return ""
        node = self.item.node_at(point)
        graph = self.item.graph
        if node is not None:
            item = graph.nodes[node]
            extra = "\n" + self.tr("%n op(s)", "", len(item.ops)) if len(item.ops) > 1 else ""
            return f"{item.key}\n{item.type}{extra}"
        edge = self.item.edge_at(point, 4 / max(self.scale_factor(), 1e-6))
        if edge is None:
            return ""
        src, dst = int(self.item.layout.edge_src[edge]), int(self.item.layout.edge_dst[edge])
        lines = [edge_text(e.src_op, e.src_port, e.dst_op, e.dst_port, e.desc, e.control)
                 for e in graph.edges if e.src == src and e.dst == dst]
        return "\n".join(lines[:12])
