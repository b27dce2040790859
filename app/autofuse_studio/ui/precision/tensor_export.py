"""Atomic PNG/SVG export of pyqtgraph scenes and of whole widgets, and a working SVG entry for pyqtgraph's menu.

SVGs are drawn by QSvgGenerator at the widget's own dpi: at Qt's default of 72 dpi (vs 96 on screen)
pyqtgraph sized its axes for 72 dpi while the curves kept scene coordinates, so the axes came out at
75 % of the plot and the curves spilled past them. svg_tidy then puts the curves in page coordinates,
cut to their plots (Qt's SVG Tiny has no clipping).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QRectF, QSize
from PySide6.QtGui import QPainter, QTransform
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from autofuse_studio.core.errors import AppError, InputError
from autofuse_studio.core.reports.atomic import atomic_path, atomic_write_bytes
from autofuse_studio.ui.precision.svg_tidy import DataClip, tidy_svg

SVG_FILTER = "Scalable Vector Graphics (*.svg)"


def atomic_export(path: str | Path, write: Callable[[str], object]) -> Path:
    """Call write(temp_path) with a temp file of the same suffix beside `path`, then move it into place."""
    target = Path(path)
    # Exporters pick the format from the suffix, so the temp file keeps it (core's one rule for every writer).
    with atomic_path(target) as temp:
        result = write(str(temp))
        if result is False or not temp.stat().st_size:
            raise InputError(f"Could not write {target}: the exporter produced no data.", target)
    return target


def export_scene_png(scene_or_item: object, path: str | Path, width: int | None = None) -> Path:
    """A pyqtgraph scene or item as PNG (ImageExporter), written atomically."""
    from pyqtgraph.exporters import ImageExporter  # lazy: pyqtgraph exporters pull in a lot

    exporter = ImageExporter(scene_or_item)
    if width is not None:
        exporter.parameters()["width"] = int(width)
    return atomic_export(path, exporter.export)


def export_widget_png(widget: QWidget, path: str | Path) -> Path:
    """Any widget as it looks now (QWidget.grab), written atomically."""
    return atomic_export(path, lambda temp: widget.grab().save(temp, "PNG"))


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
        raise InputError("Could not start an SVG drawing.")
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


def export_widget_svg(widget: QWidget, path: str | Path, title: str = "") -> Path:
    """Any widget rendered into an SVG (QSvgGenerator at the widget's dpi), written atomically."""
    size = widget.size() if not widget.size().isEmpty() else QSize(800, 600)

    def draw(painter: QPainter) -> None:
        if isinstance(widget, QGraphicsView):
            widget.render(painter)  # the scene as vectors (the view's own render overload)
        else:
            widget.render(painter, QPoint(0, 0))

    data = tidy_svg(_svg_bytes(size, widget.logicalDpiX(), title, draw), _widget_clips(widget))
    atomic_write_bytes(Path(path), data)
    return Path(path)


def scene_svg_bytes(scene_or_item: Any, title: str = "") -> bytes:
    """A pyqtgraph scene (as its view shows it) or one of its items as SVG data."""
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

    return tidy_svg(_svg_bytes(size, dpi, title, draw), data_clips(scene, to_output))


def export_scene_svg(scene_or_item: Any, path: str | Path, title: str = "") -> Path:
    """A pyqtgraph scene or item as SVG, written atomically."""
    atomic_write_bytes(Path(path), scene_svg_bytes(scene_or_item, title))
    return Path(path)


def _write_or_report(item: Any, file_name: str) -> None:
    """The dialog's write: a failure reaches the user as a sentence, not as pyqtgraph's traceback box."""
    target = Path(file_name)
    try:
        export_scene_svg(item, target)
    except (OSError, AppError) as error:
        from autofuse_studio.ui.errors import report_error

        message = error if isinstance(error, AppError) else InputError(
            f"Could not write {target}: {error.strerror or error}.", target)
        report_error(None, message)


def _exporter_class() -> type:
    """QtSvgExporter, defined on first use so that pyqtgraph's exporters load only when needed."""
    from pyqtgraph.exporters import Exporter

    class QtSvgExporter(Exporter):  # type: ignore[misc]
        """pyqtgraph's Export… → SVG, drawn by QSvgGenerator."""

        Name = "Scalable Vector Graphics (SVG)"
        allowCopy = False

        def parameters(self) -> None:
            """No options: the picture is what the plot shows."""
            return None

        def export(self, fileName: str | None = None, toBytes: bool = False,
                   copy: bool = False) -> bytes | None:
            """Ask for a file (no name given), return the bytes (toBytes) or write the file."""
            if toBytes:
                return scene_svg_bytes(self.item)
            if fileName is None:
                self.fileSaveDialog(filter=[SVG_FILTER])
            else:
                _write_or_report(self.item, fileName)
            return None

    return QtSvgExporter


_installed: list[type] = []


def install_svg_exporter() -> type:
    """Put QtSvgExporter in place of pyqtgraph's SVG exporter in the right-click Export… dialog (once)."""
    from pyqtgraph.exporters import Exporter, SVGExporter

    if not _installed:
        _installed.append(_exporter_class())
    ours, registered = _installed[0], Exporter.Exporters
    # WORKAROUND: pyqtgraph's SVGExporter parses the path data Qt writes and fails on Qt 6.11+ with
    # "ValueError: not enough values to unpack" (https://github.com/pyqtgraph/pyqtgraph/issues/3485).
    if SVGExporter in registered:
        registered[registered.index(SVGExporter)] = ours
    elif ours not in registered:
        registered.append(ours)
    return ours
