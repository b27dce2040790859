"""A working SVG entry for pyqtgraph's right-click Export… dialog, drawn like the panel's own SVG exports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import AppError, InputError
from autofuse_studio.ui.precision.tensor_export import export_scene_svg, scene_svg

SVG_FILTER = "Scalable Vector Graphics (*.svg)"


def _write_or_report(item: Any, file_name: str) -> None:
    """The dialog's write: a failure reaches the user as a sentence, not as pyqtgraph's traceback box."""
    target = Path(file_name)
    try:
        export_scene_svg(item, target)
    except (OSError, AppError) as error:
        from autofuse_studio.ui.errors import report_error

        message = error if isinstance(error, AppError) else InputError.of(
            "picture_unwritable", path=target, reason=error.strerror or str(error))
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
                return scene_svg(self.item).data()
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
