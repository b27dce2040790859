"""`autofuse-studio desktop install|uninstall`: the menu entry, icons and *.afcase file type for this user."""

from __future__ import annotations

import argparse

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.core.desktop import MIME_TYPE, DesktopReport, data_home, install, uninstall


def build_parser() -> argparse.ArgumentParser:
    """The `desktop` parser with its install / uninstall actions."""
    parser = argparse.ArgumentParser(
        prog="autofuse-studio desktop",
        description="Linux desktop integration for the current user, under $XDG_DATA_HOME "
                    f"(now {data_home()}): an application-menu entry, the app icon, and the *.afcase file "
                    f"type ({MIME_TYPE}) opened by a double-click. Nothing outside that folder is changed.")
    actions = parser.add_subparsers(dest="action", required=True)
    actions.add_parser("install", help="install (or refresh) the menu entry, icons and file type; the entry runs "
                       "this copy of the app (the bundle's executable, or the installed autofuse-studio-gui)")
    actions.add_parser("uninstall", help="remove what `install` wrote")
    return parser


def _print_report(report: DesktopReport, action: str) -> None:
    if action == "install":
        print(f"Installed the Autofuse Studio menu entry, icons and *.afcase type under {report.data_home}.")
        print(f"The entry runs: {report.exec_line}")
    elif report.removed:
        print(f"Removed {len(report.removed)} file(s) of the Autofuse Studio desktop entry from {report.data_home}.")
    else:
        print(f"Nothing to remove: no Autofuse Studio desktop entry under {report.data_home}.")
    if report.refreshed:
        print(f"Refreshed: {', '.join(report.refreshed)}.")
    for note in report.notes:
        print(f"Note: {note}")


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio desktop`."""
    args = build_parser().parse_args(argv)

    def work() -> int:
        report = install() if args.action == "install" else uninstall()
        _print_report(report, args.action)
        return 0

    return run_guarded(work)
