"""`autofuse-studio report <nwa mode-1 arguments> -o DIR`: report.xlsx plus PNG/SVG pictures, headless."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Protocol

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.cli.nwa import build_parser as build_nwa_parser
from autofuse_studio.cli.nwa import mode1_request
from autofuse_studio.cli.progress import terminal_progress
from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.precision.engine import LoadedCase, run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.precision.table import describe_row

REPORT_FILE = "report.xlsx"
OUTPUT_FILES = (REPORT_FILE, "table.png", "table.svg", "tensor.png", "tensor.svg", "graph_first_divergence.svg",
                "graph_first_divergence.png")
TENSOR_WAIT_MS = 120_000


def build_parser() -> argparse.ArgumentParser:
    """The nwa arguments (mode 1) plus the output folder and --force."""
    parser = build_nwa_parser()
    parser.prog = "autofuse-studio report"
    parser.description = ("Headless precision report: report.xlsx (sheets 'precision' and 'summary') and PNG + SVG "
                          "pictures of the table and of the tensor panel for the first divergence.")
    group = parser.add_argument_group("report options")
    group.add_argument("-o", "--out-dir", required=True, help="folder to write the report into (created if needed)")
    group.add_argument("--force", action="store_true", help=f"overwrite an existing {REPORT_FILE}")
    return parser


def _prepare_out_dir(out_dir: Path, force: bool) -> Path:
    from autofuse_studio.core.reports.atomic import check_output_folder, check_writable_target, make_folder

    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"The output path {out_dir} exists and is not a folder.", out_dir)
    check_output_folder(out_dir)
    for name in OUTPUT_FILES:  # a folder in the way of any picture would only show after the comparison
        check_writable_target(out_dir / name)
    if (out_dir / REPORT_FILE).exists() and not force:
        raise InputError(f"{out_dir / REPORT_FILE} already exists; use --force to overwrite it.", out_dir)
    return make_folder(out_dir)


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


def run_report(args: argparse.Namespace) -> int:
    """Compare, write report.xlsx and the pictures, print what was written."""
    if args.mode != 1:
        raise UsageError("report supports mode 1 only (graphs and dump folders).")
    request = mode1_request(args)  # same validation and messages as `nwa`
    out_dir = _prepare_out_dir(Path(args.out_dir), args.force)
    progress = terminal_progress()
    loaded: list[LoadedCase] = []
    result = run_mode1(request, progress=progress, on_case=loaded.append)
    case = loaded[0]
    from autofuse_studio.core.reports.precision_files import write_xlsx

    write_xlsx(result, out_dir / REPORT_FILE)
    written = [out_dir / REPORT_FILE, *write_pictures(result, out_dir, case)]
    first = result.first_divergence
    print(f"{len(result.rows)} rows; first divergence: {describe_row(first) if first else 'none'}")
    for path in written:
        print(f"Wrote {path}")
    return 0


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio report`."""
    args = build_parser().parse_args(argv)
    if args.host:  # compare where the dumps are, draw here (cli/report_host.py)
        from autofuse_studio.cli.report_host import run_report_host

        return run_guarded(lambda: run_report_host(args))
    return run_guarded(lambda: run_report(args))
