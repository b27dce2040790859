"""Write docs/cli.md, the command-line reference, from the argparse parsers themselves.

`python packaging/make_cli_docs.py` regenerates it; tests/test_cli_docs.py fails when it is stale.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "cli.md"
_WIDTH = "100"  # argparse wraps help to $COLUMNS: fixed, so the file does not depend on the terminal


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """(command line, parser) of the app and every subcommand, subcommands of `att` included."""
    from autofuse_studio.cli import _gui_parser, att, desktop, dump, hosts, nwa, report, verify_tiling

    found = [("autofuse-studio", _gui_parser()), ("autofuse-studio nwa", nwa.build_parser()),
             ("autofuse-studio report", report.build_parser())]
    dump_parser = dump.build_parser()
    found.append(("autofuse-studio dump", dump_parser))
    for action in dump_parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += [(f"autofuse-studio dump {name}", sub) for name, sub in action.choices.items()]
    att_parser = att._build_parser()
    found.append(("autofuse-studio att", att_parser))
    for action in att_parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                # verify-tiling hands its arguments on to its own parser: document that one.
                real = verify_tiling.build_parser() if name == "verify-tiling" else sub
                found.append((f"autofuse-studio att {name}", real))
    found += [("autofuse-studio hosts", hosts.build_parser()), ("autofuse-studio desktop", desktop.build_parser())]
    return found


def render() -> str:
    """The whole reference as Markdown: one section with the --help text per command."""
    os.environ["COLUMNS"] = _WIDTH
    # Help texts that name per-user files show the usual place, not this machine's (or a test's).
    os.environ["XDG_CONFIG_HOME"] = "~/.config"
    os.environ["XDG_DATA_HOME"] = "~/.local/share"
    lines = ["# Command-line reference", "",
             "Generated from the parsers by `python packaging/make_cli_docs.py` (do not edit by hand).", ""]
    for command, parser in _parsers():
        parser.prog = command
        lines += [f"## `{command}`", "", "```text", parser.format_help().rstrip(), "```", ""]
    return "\n".join(lines)


def main() -> int:
    """Regenerate docs/cli.md."""
    TARGET.write_text(render(), encoding="utf-8")
    print(TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main())
