"""Atomic PNG/SVG export of pyqtgraph scenes and of whole widgets (temp file next to the target, then replace)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsView, QWidget

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.reports.atomic import temp_file_beside


def atomic_export(path: str | Path, write: Callable[[str], object]) -> Path:
    """Call write(temp_path) with a temp file of the same suffix beside `path`, then move it into place."""
    target = Path(path)
    # Exporters pick the format from the suffix, so the temp file keeps it; its mode follows the umask
    # like every other report file (mkstemp's 0600 made tensor.png/svg private).
    fd, temp = temp_file_beside(target, suffix=target.suffix)
    os.close(fd)
    try:
        result = write(temp)
        if result is False or not Path(temp).stat().st_size:
            raise InputError(f"Could not write {target}: the exporter produced no data.", target)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
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


def export_widget_svg(widget: QWidget, path: str | Path, title: str = "") -> Path:
    """Any widget rendered into an SVG (QSvgGenerator), written atomically."""

    def write(temp: str) -> bool:
        generator = QSvgGenerator()
        generator.setFileName(temp)
        size = widget.size() if not widget.size().isEmpty() else QSize(800, 600)
        generator.setSize(size)
        generator.setViewBox(QRect(0, 0, size.width(), size.height()))
        generator.setTitle(title)
        painter = QPainter()
        if not painter.begin(generator):
            return False
        try:
            if isinstance(widget, QGraphicsView):
                widget.render(painter)  # the scene as vectors (the view's own render overload)
            else:
                widget.render(painter, QPoint(0, 0))
        finally:
            painter.end()
        return True

    return atomic_export(path, write)
