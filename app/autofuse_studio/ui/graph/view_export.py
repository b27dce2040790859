"""Graph exports that never freeze the GUI: pixels grabbed on the GUI thread, everything else on a worker."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.build import ViewOptions, build_display_graph
from autofuse_studio.core.graphview.graph import DisplayGraph
from autofuse_studio.core.graphview.layout import Layout, compute_layout
from autofuse_studio.core.graphview.picture import Picture, graph_display_list, side_by_side
from autofuse_studio.core.graphview.style import NodeStyle
from autofuse_studio.core.progress import CancelToken, Progress
from autofuse_studio.ui.graph.export import write_picture, write_png
from autofuse_studio.ui.graph.prepare import StyleSpec
from autofuse_studio.ui.graph.view import GraphView
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner

Clip = tuple[float, float, float, float]


def visible_clip(view: GraphView, layout: Layout) -> Clip:
    """The part of the graph on screen (x0, y0, x1, y1): the view may also show empty canvas around it."""
    rect = view.visible_scene_rect().intersected(QRectF(0, 0, *layout.size))
    return (rect.left(), rect.top(), rect.right(), rect.bottom())


def save_png(image: QImage, path: Path, *, progress: Progress, cancel: CancelToken) -> Path:
    """Encode a grabbed image as PNG and write it atomically (worker thread: QImage is reentrant)."""
    cancel.check()
    return write_png(image, path)


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


@dataclass(frozen=True)
class WholePane:
    """What the whole-graph export needs of one pane: its title, model, view options and colours.

    `built` is the pane's unfiltered graph when it was built with these options (then it is not built again).
    """

    title: str
    model: Model
    options: ViewOptions
    style: StyleSpec
    built: DisplayGraph | None = None


@dataclass(frozen=True)
class WholeExport:
    """A written whole-graph picture: where, and the node count of each pane in it (title, count)."""

    path: Path
    panes: tuple[tuple[str, int], ...]


def save_whole_graphs(panes: list[WholePane], path: Path, *, progress: Progress,
                      cancel: CancelToken) -> WholeExport:
    """Every node of every pane's model (no neighbourhood filter), laid out and drawn side by side (worker).

    Linear in the graph: build (or reuse), lay out and colour each graph once, then one display list.
    """
    pictures: list[tuple[str, Picture]] = []
    counts: list[tuple[str, int]] = []
    with gc_paused():  # see save_display_list
        for pane in panes:
            graph = pane.built if pane.built is not None else build_display_graph(pane.model, pane.options)
            cancel.check()
            layout = compute_layout(graph, progress, cancel)
            pictures.append((pane.title, graph_display_list(graph, layout, pane.style.style(graph))))
            counts.append((pane.title, len(graph.nodes)))
            cancel.check()
        picture = pictures[0][1] if len(pictures) == 1 else side_by_side(pictures)
        return WholeExport(write_picture(picture, path), tuple(counts))
