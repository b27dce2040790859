"""Exports shared by the GUI and `autofuse-studio report`: table files, widget PNG/SVG, table snapshots."""

from __future__ import annotations

import dataclasses
import importlib
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.reports.atomic import atomic_write_bytes
from autofuse_studio.core.reports.precision_files import write_precision
from autofuse_studio.ui.precision.table_picture import SVG_DPI, make_picture, picture_columns, save_picture
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner

log = logging.getLogger(__name__)

SNAPSHOT_MAX_ROWS = 60
SNAPSHOT_MAX_COLUMN_WIDTH = 320
TENSOR_PANEL_MODULE = "autofuse_studio.ui.precision.tensor_panel"


def export_table(result: PrecisionResult, path: str | Path) -> Path:
    """Write every row as .csv, .json or .xlsx (the suffix decides), like `nwa --output`."""
    return write_precision(result, path)


def start_table_export(runner: TaskRunner, result: PrecisionResult | None, path: str | Path) -> TaskHandle:
    """export_table on `runner`'s worker thread (100k rows take seconds); its handle says when and where."""
    if result is None:
        raise InputError.of("nothing_to_export")
    # The worker reads a snapshot: rows that stream in meanwhile change neither the file nor its row count.
    snapshot = dataclasses.replace(result, rows=list(result.rows),
                                   first_divergence_by_rank=dict(result.first_divergence_by_rank))
    return runner.start(_write_table, snapshot, Path(path))


def _write_table(result: PrecisionResult, path: Path, progress: object = None, cancel: object = None) -> Path:
    """The task body: the runner passes progress and cancel, which one write of a file does not use."""
    return export_table(result, path)


def save_png(widget: QWidget, path: str | Path) -> Path:
    """Grab `widget` (offscreen works too) into a PNG file."""
    target = Path(path)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not widget.grab().save(buffer, "PNG"):
        raise InputError.of("picture_encode_failed", path=target)
    buffer.close()
    atomic_write_bytes(target, bytes(data.data()))
    return target


def save_svg(widget: QWidget, path: str | Path, title: str = "") -> Path:
    """Render `widget` through QSvgGenerator into an SVG file (vector text and lines)."""
    target = Path(path)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    size: QSize = widget.size()
    generator.setSize(size)
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setTitle(title or target.stem)
    generator.setResolution(SVG_DPI)  # Qt's default 72 dpi draws text and pens at another scale
    painter = QPainter(generator)
    try:
        widget.render(painter, QPoint(0, 0))
    finally:
        painter.end()
    buffer.close()
    atomic_write_bytes(target, bytes(data.data()))
    return target


def snapshot_rows(rows: Sequence[PrecisionRow], focus: PrecisionRow | None,
                  limit: int = SNAPSHOT_MAX_ROWS) -> list[PrecisionRow]:
    """At most `limit` rows for a picture: a window around `focus` (the first divergence) when given."""
    if len(rows) <= limit:
        return list(rows)
    position = next((number for number, row in enumerate(rows) if row is focus), 0)
    start = max(0, min(position - limit // 4, len(rows) - limit))
    return list(rows[start:start + limit])


def save_table_pictures(rows: Sequence[PrecisionRow], stem: str | Path,
                        focus: PrecisionRow | None = None) -> list[Path]:
    """Write `stem`.png and `stem`.svg of the table (a window of rows around `focus`; long cells elided)."""
    chosen = snapshot_rows(rows, focus)
    picture = make_picture(chosen, picture_columns(chosen))
    stem = Path(stem)
    return [save_picture(picture, stem.with_suffix(".png"), max_width=SNAPSHOT_MAX_COLUMN_WIDTH),
            save_picture(picture, stem.with_suffix(".svg"), max_width=SNAPSHOT_MAX_COLUMN_WIDTH)]


def tensor_panel_class() -> Any:
    """The TensorPanel widget class when its module is installed, else None."""
    try:
        module = importlib.import_module(TENSOR_PANEL_MODULE)
    except ImportError:
        return None
    return getattr(module, "TensorPanel", None)
