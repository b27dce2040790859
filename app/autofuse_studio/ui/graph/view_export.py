"""Graph exports that never freeze the GUI: pixels grabbed on the GUI thread, everything else on a worker."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.layout import Layout
from autofuse_studio.core.graphview.picture import graph_display_list
from autofuse_studio.core.graphview.style import NodeStyle
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.core.reports.atomic import atomic_write_bytes
from autofuse_studio.ui.graph.export import png_bytes, write_picture
from autofuse_studio.ui.graph.view import GraphView
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner

Clip = tuple[float, float, float, float]


def visible_clip(view: GraphView, layout: Layout) -> Clip:
    """The part of the graph on screen (x0, y0, x1, y1): the view may also show empty canvas around it."""
    rect = view.visible_scene_rect().intersected(QRectF(0, 0, *layout.size))
    return (rect.left(), rect.top(), rect.right(), rect.bottom())


def save_png(image: QImage, path: Path, *, progress: Progress, cancel: CancelToken) -> Path:
    """Encode a grabbed image as PNG and write it atomically (worker thread: QImage is reentrant)."""
    data = png_bytes(image)
    cancel.check()
    atomic_write_bytes(path, data)
    return path


def save_display_list(graph: DisplayGraph, layout: Layout, style: NodeStyle, clip: Clip | None, path: Path, *,
                      progress: Progress, cancel: CancelToken) -> Path:
    """Build the display list (whole graph or one clip) and write it as SVG or PNG (worker thread)."""
    # A full collection over the display list's many small (acyclic) objects holds the GIL for ~0.1 s,
    # which the GUI thread would feel as a stall; nothing is lost by pausing the collector meanwhile.
    with gc_paused():
        picture = graph_display_list(graph, layout, style, clip)
        cancel.check()
        return write_picture(picture, path)


def start_export(runner: TaskRunner, view: GraphView, graph: DisplayGraph, layout: Layout, style: NodeStyle,
                 path: str | Path, whole: bool) -> TaskHandle:
    """Export a pane in the background; only the current view as PNG touches the GUI thread (one grab)."""
    target = Path(path)
    if not whole and target.suffix.lower() != ".svg":
        # A QPixmap must stay on the GUI thread; its QImage copy may travel to the worker.
        return runner.start(save_png, view.viewport().grab().toImage(), target)
    return runner.start(save_display_list, graph, layout, style, None if whole else visible_clip(view, layout),
                        target)
