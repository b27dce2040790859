"""`autofuse-studio att ...`: drop-in for att.py (summary, compare, evidence, split-slog, perf-formula)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from autofuse_studio.cli.guard import print_error
from autofuse_studio.core.att.model import FileScan
from autofuse_studio.core.errors import AppError, InputError, UsageError, os_error_sentence

if TYPE_CHECKING:
    from autofuse_studio.core.att.summary import Summary

# Subcommands whose att.py counterpart prints its `Error:` / `[perf-formula] ...` lines on stdout;
# compare and evidence print theirs on stderr (split-slog prints none).
ERRORS_ON_STDOUT = ("summary", "perf-formula")


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autofuse-studio att", description="ATT-Analyze 工具集")
    commands = parser.add_subparsers(dest="command", required=True)
    summary = commands.add_parser("summary", help="summarise ATT tiling logs (CSV/console/xlsx)")
    summary.add_argument("log_path", help="log file or folder (searched recursively for *.log, *.log.gz)")
    summary.add_argument("-a", "--all", action="store_true", help="every schedule result, not only the best")
    summary.add_argument("-f", "--format", choices=["console", "csv", "excel"], default="console")
    summary.add_argument("-o", "--output", help="output file (default output.csv / output.xlsx)")
    summary.add_argument("--with-status", action="store_true", help="add a Parse Status column to the CSV")
    compare = commands.add_parser("compare", help="compare two summary CSVs")
    compare.add_argument("csv1", help="baseline CSV")
    compare.add_argument("csv2", help="CSV to compare with the baseline")
    compare.add_argument("-f", "--format", choices=["console", "text", "excel"], default="console")
    compare.add_argument("-o", "--output", help="report file (default comparison_report.txt / .xlsx)")
    verify = commands.add_parser("verify-tiling", add_help=False,
                                 help="check, build and run tiling code (see verify-tiling --help)")
    verify.add_argument("rest", nargs=argparse.REMAINDER)
    split = commands.add_parser("split-slog", help="split logs per operator, group and tiling case")
    split.add_argument("log_path")
    split.add_argument("--op", help="only this operator (default: all)")
    split.add_argument("--case", help="filter such as r=0,1,g=2,c=1")
    split.add_argument("-o", "--output", default="output/split/")
    perf = commands.add_parser("perf-formula", help="draw the [PERF] pipeline model as SVG + JSON")
    perf.add_argument("source_dir", help="tiling source folder (must exist; recorded in the JSON)")
    perf.add_argument("log_path")
    perf.add_argument("--case", help="filter such as r=0,1,g=2,c=1")
    perf.add_argument("-o", "--output", default="output/perf/")
    evidence = commands.add_parser("evidence", help="export att-evidence.jsonl + tool-manifest.json")
    evidence.add_argument("log_path")
    evidence.add_argument("-o", "--output", required=True, help="output folder")
    from autofuse_studio.cli.att_analyze import add_parser as add_analyze  # run-root analysis (issue 14)

    add_analyze(commands)
    return parser


def scan_paths(log_path: str, announce: bool, digest: bool = False,
               no_logs_at: bool = False) -> tuple[list[Path], list[FileScan], list[str]]:
    """Find and scan the logs; returns (paths, scans, per-file failure messages).

    `announce` (summary): print the `Found`/`Parsing` lines and the per-file warnings on stdout, as
    att.py does; otherwise the warnings go to stderr. `digest`: hash each file from the descriptor it
    is scanned from (FileScan.sha256). `no_logs_at`: att.py's one sentence for a missing path and a folder
    without logs alike ('No log files found at …').
    """
    from autofuse_studio.core.att.scanner import discover_logs, scan_file

    if no_logs_at and not Path(log_path).exists():
        raise InputError.of("att_no_logs_at", path=log_path)
    found = discover_logs(log_path)
    for note in found.notes:
        print(f"Warning: {note}", file=sys.stderr)
    paths = found.paths
    if Path(log_path).is_dir():
        if not paths:
            raise InputError.of("att_no_logs_at" if no_logs_at else "att_no_log_files", path=log_path)
        if announce:
            print(f"Found {len(paths)} log file(s)")
    scans, failures = [], []
    for path in paths:
        if announce:
            print(f"Parsing: {path}")
        try:
            scan = scan_file(path, pin=found.pins.get(path), digest=digest)
        except InputError as exc:
            failures.append(f"Warning: Failed to parse {path}: {exc}")
            continue
        scans.append(scan)
        if scan.decode_issue_count:
            first = scan.decode_issues[0].source
            failures_note = (f"Warning: {first}: invalid UTF-8 replaced "
                             f"({scan.decode_issue_count} line(s) in {path}).")
            print(failures_note, file=sys.stderr)
        for warning in scan.warnings:
            print(f"Warning: {warning}", file=sys.stderr)
        if scan.warning_count > len(scan.warnings):
            print(f"Warning: ... and {scan.warning_count - len(scan.warnings)} more in {path}.", file=sys.stderr)
    for message in failures:
        print(message, file=sys.stdout if announce else sys.stderr)
    return paths, scans, failures


def run_summary(args: argparse.Namespace) -> int:
    """`att summary`."""
    from autofuse_studio.core.gc_pause import gc_paused

    # The scans and rows are acyclic and are freed by reference counting when the command ends: with
    # the GC paused throughout, no collection ever walks them (pausing only the scan would merely move
    # one collection over every record into the building of the rows).
    with gc_paused():
        return _summary(args)


def _summary(args: argparse.Namespace) -> int:
    from autofuse_studio.core.att import summary_output as out
    from autofuse_studio.core.att.summary import build_summary

    _, scans, failures = scan_paths(args.log_path, announce=True)
    summary = build_summary(scans, all_results=args.all)
    print(f"Total operators extracted: {len(summary.legacy_rows)}")
    if not summary.export_rows:
        raise InputError.of("att_no_data_export" if args.format != "console" else "att_no_data_display")
    if args.format == "console":
        table = out.console_table(summary)
        if args.output:
            from autofuse_studio.core.reports.atomic import atomic_write_text

            atomic_write_text(args.output, table)
            print(f"Summary table has been written to '{args.output}'")
        else:
            sys.stdout.write(table)
    elif args.format == "csv":
        _note_left_out(summary)
        target = args.output or "output.csv"
        out.write_summary_csv(summary, target, with_status=args.with_status, rows=summary.file_rows)
        print(f"Data exported to {target}")
    else:
        _note_left_out(summary)
        target = args.output or "output.xlsx"
        out.write_summary_xlsx(summary, target, rows=summary.file_rows)
        print(f"Data exported to {target}")
    return 1 if failures else 0


def _note_left_out(summary: Summary) -> None:
    """Say on stderr which rows the file leaves out, as att.py does, when logs mix FINAL_TILING and legacy rows."""
    left_out = summary.left_out
    if left_out:
        logs = len({row.source.path for row in left_out if row.source is not None})
        print(f"Warning: {len(left_out)} row(s) of {logs} log(s) without FINAL_TILING records are not in the file: "
              "as att.py, once any log has FINAL_TILING records only those rows are written. Summarise the "
              "other logs on their own to export their rows.", file=sys.stderr)


def run_compare(args: argparse.Namespace) -> int:
    """`att compare`."""
    from autofuse_studio.core.att.compare import compare_csv_files
    from autofuse_studio.core.att.compare_output import (
        comparison_text,
        duplicate_warnings,
        write_comparison_xlsx,
    )
    from autofuse_studio.core.reports.atomic import atomic_write_text

    result = compare_csv_files(args.csv1, args.csv2)
    for warning in duplicate_warnings(result):
        print(warning, file=sys.stderr)
    if args.format == "excel":
        target = args.output or "comparison_report.xlsx"
        write_comparison_xlsx(result, target)
    elif args.format == "text" or args.output:
        target = args.output or "comparison_report.txt"
        atomic_write_text(target, comparison_text(result))
    else:
        sys.stdout.write(comparison_text(result))
        return 0
    print(f"对比报告已保存到: {target}")
    return 0


def run_evidence(args: argparse.Namespace, argv: list[str]) -> int:
    """`att evidence`."""
    from autofuse_studio.core.att.evidence import write_evidence

    # att.py's sentence for a missing path and for a folder without logs alike.
    paths, scans, failures = scan_paths(args.log_path, announce=False, digest=True, no_logs_at=True)
    if failures:
        raise InputError(failures[0].removeprefix("Warning: "))
    notes: list[str] = []
    count = write_evidence(scans, paths, Path(args.output), ["autofuse-studio", "att", *argv], notes)
    for note in notes:
        print(f"Warning: {note}", file=sys.stderr)
    print(f"Exported {count} evidence record(s) to '{args.output}'")
    return 0


def run_split(args: argparse.Namespace) -> int:
    """`att split-slog`."""
    from autofuse_studio.core.att.case_filter import parse_case_filter
    from autofuse_studio.core.att.split_slog import split_logs

    case_filter = parse_case_filter(args.case)
    paths, scans, failures = scan_paths(args.log_path, announce=False)
    if failures:
        raise InputError(failures[0].removeprefix("Warning: "))
    result = split_logs(paths, scans, Path(args.output), args.op, case_filter)
    for name, counts in result.operators.items():
        print(f"[split-slog] {name}: compiler={counts.compiler_groups} groups, "
              f"runtime={counts.runtime_groups} groups")
    if not result.operators:
        raise InputError.of("att_no_operator", op=" " + args.op if args.op else "", path=args.log_path)
    splits = result.operators.values()
    if args.case and not any(c.compiler_groups or c.runtime_groups for c in splits) \
            and any(c.compiler_groups_seen or c.runtime_groups_seen for c in splits):
        # The counts above are of groups written; att.py printed the groups before --case filtered them.
        seen = "; ".join(f"{name}: compiler={c.compiler_groups_seen} groups, runtime={c.runtime_groups_seen} groups"
                         for name, c in result.operators.items())
        print(f"Warning: --case {args.case} matched no tiling case, so nothing was written. Without --case: "
              f"{seen}.", file=sys.stderr)
    return 0


def run_perf(args: argparse.Namespace) -> int:
    """`att perf-formula`."""
    from autofuse_studio.core.att.case_filter import parse_case_filter
    from autofuse_studio.core.att.perf_model import build_perf_model
    from autofuse_studio.core.att.perf_output import write_perf_outputs

    if not Path(args.source_dir).is_dir():
        raise UsageError.of("perf_source_missing", path=args.source_dir)
    case_filter = parse_case_filter(args.case)
    _, scans, failures = scan_paths(args.log_path, announce=False)
    if failures:
        raise InputError(failures[0].removeprefix("Warning: "))
    model = build_perf_model(scans, case_filter, source_dir=str(Path(args.source_dir).resolve()))
    for name in model.skipped:
        print(f"[perf-formula] {name}: 未找到 [PERF] 日志行，跳过")
    if not model.operators:
        raise InputError.of("perf_no_lines")
    svg_path, _ = write_perf_outputs(model, Path(args.output))
    print(f"[perf-formula] 输出: {svg_path}")
    return 0


def _run_analyze(args: argparse.Namespace, argv: list[str]) -> int:
    from autofuse_studio.cli.att_analyze import run_analyze

    return run_analyze(args, argv)


def main(argv: list[str]) -> int:
    """Run one att subcommand; returns the exit code (1 for input errors, 2 for usage errors)."""
    argv = list(argv)
    if argv[:1] == ["verify-tiling"]:  # its own parser: cli/verify_tiling.py
        from autofuse_studio.cli.verify_tiling import main as verify_main

        return verify_main(argv[1:])
    try:
        args = _build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse usage errors (2) and --help (0)
        return int(exc.code or 0)
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "summary": run_summary, "compare": run_compare, "split-slog": run_split,
        "perf-formula": run_perf, "evidence": lambda a: run_evidence(a, argv),
        "analyze": lambda a: _run_analyze(a, argv),
    }
    if args.command == "verify-tiling":
        from autofuse_studio.cli.verify_tiling import main as verify_main

        return verify_main(args.rest)
    on_stdout = args.command in ERRORS_ON_STDOUT
    try:
        return handlers[args.command](args)
    except AppError as exc:
        message = str(exc)
        if not message.startswith(("Error", "[")):
            message = f"Error: {message}"
        print_error(message, stdout=on_stdout)
        return exc.exit_code
    except OSError as exc:
        print_error(f"Error: {os_error_sentence(exc)}", stdout=on_stdout)
        return 1
