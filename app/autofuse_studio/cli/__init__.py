"""Command-line front: no arguments opens the GUI; `nwa ...`, `att ...`, `report ...` and `dump ...` run headless."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from autofuse_studio import APP_NAME, __version__

# Subcommand -> module under autofuse_studio.cli exposing `main(argv) -> int`; imported lazily so that
# `--help` and the CLI never pay for Qt, pandas or openpyxl.
SUBCOMMANDS = {
    "nwa": "Fusion precision analysis (drop-in for fusion_precision_analyzer.py)",
    "att": "ATT-ANALYZE tools (drop-in for att.py)",
    "report": "Headless precision report (xlsx, PNG, SVG)",
    "dump": "Dump files as the NPU writes them (convert: msaccucmp-compatible NPYs without CANN)",
    "hosts": "Remote build host profiles for verify-tiling --host (list, add, set, remove)",
    "desktop": "Linux menu entry, icon and *.afcase file type for this user (install, uninstall)",
}
COMPARE_WORKER_FLAG = "--compare-worker"  # compare_process.WORKER_FLAG, without importing numpy here


def _gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autofuse-studio",
        description=f"{APP_NAME}: Autofuse precision and tiling workbench. "
        "Without a subcommand the desktop app opens.",
        epilog="Subcommands: "
        + "; ".join(f"{name}: {text}" for name, text in SUBCOMMANDS.items())
        + ". Run `autofuse-studio <subcommand> --help` for their options.",
    )
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    parser.add_argument("--demo", action="store_true", help="open the bundled demo case")
    parser.add_argument(
        "--self-check", action="store_true", help="start the app headless, check it works, and exit"
    )
    parser.add_argument("paths", nargs="*", help="dump folders, graphs or NPY files to open")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == [COMPARE_WORKER_FLAG]:  # a run's helper process, in a frozen bundle (core.precision.compare_process)
        from autofuse_studio.core.precision.compare_process import serve

        return serve()
    if args and args[0] in SUBCOMMANDS:
        from autofuse_studio.cli.console import escaped_console
        from autofuse_studio.core.gc_pause import long_lived_freezing

        module = importlib.import_module(f"autofuse_studio.cli.{args[0]}")
        # The CLI owns the process: core may freeze its long-lived models and results (library use may not).
        with escaped_console(), long_lived_freezing():
            return int(module.main(args[1:]))
    options = _gui_parser().parse_args(args)
    from autofuse_studio.ui.app import run_app

    return run_app(paths=options.paths, demo=options.demo, self_check=options.self_check)


def gui_main() -> int:
    """Entry point of the GUI script: same as main()."""
    return main()
