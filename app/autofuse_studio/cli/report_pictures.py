"""The report's pictures (table, tensor panel and graph around the first divergence), drawn offscreen with Qt."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Protocol

from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.precision.rows import PrecisionResult

TENSOR_WAIT_MS = 120_000


def _ensure_headless() -> None:
    """Render offscreen when there is no display (CI, ssh); a set QT_QPA_PLATFORM is respected."""
    if "QT_QPA_PLATFORM" in os.environ:
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


class CaseGraphs(Protocol):
    """What the graph pictures read of a case: both models and the fusion mapping (a LoadedCase has them)."""

    af_open: Model
    af_close: Model
    mapping: FusionMapping


def write_pictures(result: PrecisionResult, out_dir: Path, case: CaseGraphs | None = None) -> list[Path]:
    """PNG + SVG of the table (around the first divergence), of the tensor panel and graph around it."""
    _ensure_headless()
    from autofuse_studio.ui.app import make_application

    app = make_application()
    from PySide6.QtCore import QEvent

    from autofuse_studio.ui.precision.export import save_table_pictures

    try:
        written = save_table_pictures(result.rows, out_dir / "table", result.first_divergence)
        if result.first_divergence is not None:
            written += _tensor_pictures(result, out_dir)
            if case is not None:
                from autofuse_studio.ui.graph.export import write_first_divergence_pictures

                written += write_first_divergence_pictures(case.af_open, case.af_close, case.mapping, result,
                                                           out_dir)
    finally:
        # Delete the widgets now: left to interpreter exit they would outlive the QApplication (crash).
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return written


def _tensor_pictures(result: PrecisionResult, out_dir: Path) -> list[Path]:
    from PySide6.QtCore import QEventLoop, QTimer

    from autofuse_studio.ui.precision.export import tensor_panel_class

    panel_class = tensor_panel_class()
    first = result.first_divergence
    if panel_class is None or first is None or first.fused_file is None or first.origin_file is None:
        return []
    panel = panel_class()
    try:
        panel.resize(1200, 800)
        loop = QEventLoop()
        panel.viewReady.connect(lambda _view: loop.quit())
        QTimer.singleShot(TENSOR_WAIT_MS, lambda: loop.quit())
        panel.show_row(first)
        if panel.busy:
            loop.exec()
        return [panel.export_png(out_dir / "tensor.png"), panel.export_svg(out_dir / "tensor.svg")]
    finally:
        panel.shutdown()
        panel.deleteLater()


