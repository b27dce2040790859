"""PNG/SVG pictures of pyqtgraph scenes and whole widgets: drawn on the GUI thread, encoded and written anywhere.

Drawing needs the GUI thread; PNG encoding and the SVG tidy-up (the slow parts of a big picture) do
not, so each picture is first a PendingPicture whose write() may run on a TaskRunner worker.

SVGs are drawn by QSvgGenerator at the widget's own dpi: at Qt's default of 72 dpi (vs 96 on screen)
pyqtgraph sized its axes for 72 dpi while the curves kept scene coordinates, so the axes came out at
75 % of the plot and the curves spilled past them. svg_tidy then puts the curves in page coordinates,
cut to their plots (Qt's SVG Tiny has no clipping).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QRectF, QSize
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.reports.atomic import atomic_path, atomic_write_bytes
from autofuse_studio.ui.precision.svg_tidy import DataClip, tidy_svg


@dataclass(frozen=True)
class PendingPicture:
    """A drawn picture (an image, or raw SVG with the plots' clip rectangles), not yet encoded or written."""

    image: QImage | None = None
    svg: bytes = b""
    clips: tuple[DataClip, ...] = ()

    def data(self) -> bytes:
        """The file contents: PNG of the image, or the tidied SVG."""
        if self.image is None:
            return tidy_svg(self.svg, self.clips)
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if self.image.isNull() or not self.image.save(buffer, "PNG"):  # type: ignore[call-overload]
            raise InputError.of("png_encode_failed")
        return bytes(data.data())

    def write(self, path: str | Path, **_task: object) -> Path:
        """Encode and write atomically (also as a TaskRunner task: progress/cancel keywords are ignored)."""
        target = Path(path)
        atomic_write_bytes(target, self.data())
        return target


def atomic_export(path: str | Path, write: Callable[[str], object]) -> Path:
    """Call write(temp_path) with a temp file of the same suffix beside `path`, then move it into place."""
    target = Path(path)
    # Exporters pick the format from the suffix, so the temp file keeps it (core's one rule for every writer).
    with atomic_path(target) as temp:
        result = write(str(temp))
        if result is False or not temp.stat().st_size:
            raise InputError.of("exporter_no_data", path=target)
    return target


def scene_png(scene_or_item: object, width: int | None = None) -> PendingPicture:
    """A pyqtgraph scene or item drawn as an image (ImageExporter), `width` px wide when given."""
    from pyqtgraph.exporters import ImageExporter  # lazy: pyqtgraph exporters pull in a lot

    exporter = ImageExporter(scene_or_item)
    if width is not None:
        exporter.parameters()["width"] = int(width)
    return PendingPicture(image=exporter.export(toBytes=True))


def widget_png(widget: QWidget) -> PendingPicture:
    """Any widget as it looks now (QWidget.grab)."""
    return PendingPicture(image=widget.grab().toImage())


def export_scene_png(scene_or_item: object, path: str | Path, width: int | None = None) -> Path:
    """A pyqtgraph scene or item as PNG, written atomically."""
    return scene_png(scene_or_item, width).write(path)


def export_widget_png(widget: QWidget, path: str | Path) -> Path:
    """Any widget as it looks now, as PNG, written atomically."""
    return widget_png(widget).write(path)


def _generator(output: QBuffer, size: QSize, dpi: int, title: str) -> QSvgGenerator:
    # SVG Tiny (Qt's default): its SVG 1.1 output put clip paths on the wrong elements (Qt 6.11: axes
    # vanished in librsvg), so clipping is done by svg_tidy instead.
    generator = QSvgGenerator()
    generator.setOutputDevice(output)
    generator.setSize(size)
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setResolution(dpi)  # the screen's, not 72: see the module docstring
    generator.setTitle(title)
    return generator


def _svg_bytes(size: QSize, dpi: int, title: str, draw: Callable[[QPainter], None]) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = _generator(buffer, size, dpi, title)  # must outlive the painter
    painter = QPainter()
    if not painter.begin(generator):
        raise InputError.of("svg_start_failed")
    try:
        draw(painter)
    finally:
        painter.end()
    return bytes(data.data())


def data_clips(scene: QGraphicsScene, to_output: QTransform) -> list[DataClip]:
    """For every plot of a pyqtgraph scene: the page matrix of each data item and the plot's page rectangle."""
    import pyqtgraph as pg

    clips = []
    for view_box in (item for item in scene.items() if isinstance(item, pg.ViewBox)):
        box = to_output.mapRect(view_box.sceneBoundingRect())
        rect = (box.left(), box.top(), box.right(), box.bottom())
        stack = list(view_box.childGroup.childItems())
        while stack:
            item = stack.pop()
            stack.extend(item.childItems())
            m = item.sceneTransform() * to_output
            clips.append(DataClip((m.m11(), m.m12(), m.m21(), m.m22(), m.dx(), m.dy()), rect))
    return clips


def _widget_clips(widget: QWidget) -> list[DataClip]:
    """data_clips of every graphics view shown inside `widget` (or `widget` itself), in its coordinates."""
    views = [widget] if isinstance(widget, QGraphicsView) else []
    views += widget.findChildren(QGraphicsView)
    clips: list[DataClip] = []
    for view in views:
        if view.scene() is None or not view.isVisibleTo(widget if view is not widget else view):
            continue
        offset = view.viewport().mapTo(widget, QPoint(0, 0)) if view is not widget else view.viewport().pos()
        to_output = view.viewportTransform() * QTransform.fromTranslate(offset.x(), offset.y())
        clips += data_clips(view.scene(), to_output)
    return clips


def widget_svg(widget: QWidget, title: str = "") -> PendingPicture:
    """Any widget drawn into an SVG (QSvgGenerator at the widget's dpi)."""
    size = widget.size() if not widget.size().isEmpty() else QSize(800, 600)

    def draw(painter: QPainter) -> None:
        if isinstance(widget, QGraphicsView):
            widget.render(painter)  # the scene as vectors (the view's own render overload)
        else:
            widget.render(painter, QPoint(0, 0))

    return PendingPicture(svg=_svg_bytes(size, widget.logicalDpiX(), title, draw), clips=tuple(_widget_clips(widget)))


def export_widget_svg(widget: QWidget, path: str | Path, title: str = "") -> Path:
    """Any widget as SVG, written atomically."""
    return widget_svg(widget, title).write(path)


def scene_svg(scene_or_item: Any, title: str = "") -> PendingPicture:
    """A pyqtgraph scene (as its view shows it) or one of its items drawn into an SVG."""
    from pyqtgraph.exporters import Exporter

    helper = Exporter(scene_or_item)  # its source/target rectangles and export mode are what we need
    source, target = helper.getSourceRect(), helper.getTargetRect()
    scene: QGraphicsScene = helper.getScene()
    view = scene.views()[0] if scene.views() else None
    dpi = view.logicalDpiX() if view is not None else 96
    size = QSize(max(1, round(target.width())), max(1, round(target.height())))
    to_output = QTransform.fromTranslate(-source.x(), -source.y()) * QTransform.fromScale(
        size.width() / max(source.width(), 1e-9), size.height() / max(source.height(), 1e-9))

    def draw(painter: QPainter) -> None:
        # The scene draws every item under the source rectangle's parents; keep only the chosen part.
        painter.setClipRect(QRectF(0, 0, size.width(), size.height()))
        helper.setExportMode(True, {"antialias": True, "background": None, "painter": painter})
        try:
            scene.render(painter, QRectF(0, 0, size.width(), size.height()), QRectF(source))
        finally:
            helper.setExportMode(False)

    return PendingPicture(svg=_svg_bytes(size, dpi, title, draw), clips=tuple(data_clips(scene, to_output)))


def export_scene_svg(scene_or_item: Any, path: str | Path, title: str = "") -> Path:
    """A pyqtgraph scene or item as SVG, written atomically."""
    return scene_svg(scene_or_item, title).write(path)
