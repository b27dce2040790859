"""`autofuse-studio att analyze`: a run root's default and candidate runs compared, reported and archived."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    """Register `analyze` on att's subparsers."""
    parser = commands.add_parser("analyze", help="compare the default and candidate runs of a run root")
    parser.add_argument("--run-root", required=True, help="folder holding default/ and pgo/ (or base/)")
    parser.add_argument("--output", required=True, help="report folder (must not exist or be empty)")
    parser.add_argument("--default-root", help="the reference run's folder inside the run root")
    parser.add_argument("--candidate-root", help="the candidate run's folder inside the run root")
    parser.add_argument("--archive", help="archive root: evidence-archive/<name>/ and report-archive/<name>/")
    parser.add_argument("--name", help="run name in the archives (default: the run root's folder name)")
    parser.add_argument("-f", "--format", choices=["console", "text"], default="console",
                        help="console: print the overview; text: write it to OUTPUT/report.txt")
    parser.add_argument("--lang", choices=["zh", "en"], help="language of report.md (default: from the locale)")
    parser.add_argument("--force", action="store_true", help="write into a non-empty output folder")


def run_analyze(args: argparse.Namespace, argv: list[str]) -> int:
    """Analyse, write the four report files, optionally archive; 1 on input errors (nothing written then)."""
    from autofuse_studio.cli.progress import clear_progress_line, terminal_progress
    from autofuse_studio.core.att.runs.analysis import analyze_run
    from autofuse_studio.core.att.runs.archive import archive_name, archive_run, check_archive_root
    from autofuse_studio.core.att.runs.console import overview
    from autofuse_studio.core.att.runs.outputs import check_report_dir, render_reports, write_reports
    from autofuse_studio.core.att.runs.sides import resolve_sides
    from autofuse_studio.core.att.runs.texts import default_language
    from autofuse_studio.core.gc_pause import gc_paused
    from autofuse_studio.core.reports.atomic import atomic_write_text

    command = ["autofuse-studio", "att", *argv]
    lang = args.lang or default_language()
    # Every check that can fail before any work, so a bad folder costs nothing and leaves nothing behind.
    sides = resolve_sides(args.run_root, args.default_root, args.candidate_root)
    check_report_dir(args.output, sides.run_root, args.force)
    if args.archive:
        check_archive_root(args.archive, sides.run_root)
    with gc_paused():
        analysis = analyze_run(args.run_root, args.default_root, args.candidate_root, terminal_progress())
        files = render_reports(analysis, lang, command)
    clear_progress_line()
    for role in analysis.scans:
        for note in analysis.side_notes(role):
            print(f"Warning: {note}", file=sys.stderr)
    for note in analysis.notes:
        print(f"Warning: {note}", file=sys.stderr)
    written = write_reports(files, args.output)
    text = overview(analysis, lang)
    if args.format == "text":
        atomic_write_text(Path(args.output) / "report.txt", text)
        print(f"Overview written to {Path(args.output) / 'report.txt'}")
    else:
        sys.stdout.write(text)
    print(f"Wrote {', '.join(p.name for p in written)} to {args.output}")
    if args.archive:
        used = archive_name(args.name, analysis.name)
        if args.name == "":
            print(f"Warning: the run name is empty; the run root's folder name '{used}' is used.", file=sys.stderr)
        elif args.name is not None and used != args.name:
            print(f"Warning: the run name '{args.name}' was made safe for a folder name: '{used}'.", file=sys.stderr)
        result = archive_run(analysis, files, args.archive, args.name, command)
        print(f"Archived {result.files} file(s): evidence in {result.evidence}, report in {result.report}")
    return 0
