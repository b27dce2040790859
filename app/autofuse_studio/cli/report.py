"""`autofuse-studio report <nwa mode-1 arguments> -o DIR`: report.xlsx plus PNG/SVG pictures, headless."""

from __future__ import annotations

import argparse
from pathlib import Path

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.cli.nwa import build_parser as build_nwa_parser
from autofuse_studio.cli.nwa_cluster import print_cluster_figures
from autofuse_studio.cli.progress import terminal_progress
from autofuse_studio.cli.report_pictures import write_pictures
from autofuse_studio.cli.run_args import spec_from_args
from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.precision.table import describe_row
from autofuse_studio.core.run.runners import check_where, start
from autofuse_studio.core.run.spec import OnHost

REPORT_FILE = "report.xlsx"
OUTPUT_FILES = (REPORT_FILE, "table.png", "table.svg", "tensor.png", "tensor.svg", "graph_first_divergence.svg",
                "graph_first_divergence.png")


def build_parser() -> argparse.ArgumentParser:
    """The nwa arguments (mode 1) plus the output folder and --force."""
    parser = build_nwa_parser()
    parser.prog = "autofuse-studio report"
    parser.description = ("Headless precision report: report.xlsx (sheets 'precision' and 'summary') and PNG + SVG "
                          "pictures of the table and of the tensor panel for the first divergence.")
    group = parser.add_argument_group("report options")
    group.add_argument("-o", "--out-dir", required=True, help="folder to write the report into (created if needed)")
    group.add_argument("--force", action="store_true", help=f"overwrite an existing {REPORT_FILE}")
    group.add_argument("--lang", choices=["en", "zh"], default="en",
                       help="language of the summary sheet's culprit signature sentences (default: en)")
    return parser


def _prepare_out_dir(out_dir: Path, force: bool) -> Path:
    from autofuse_studio.core.reports.atomic import check_output_folder, check_writable_target, make_folder

    if out_dir.exists() and not out_dir.is_dir():
        raise InputError.of("output_not_folder", path=out_dir)
    check_output_folder(out_dir)
    for name in OUTPUT_FILES:  # a folder in the way of any picture would only show after the comparison
        check_writable_target(out_dir / name)
    if (out_dir / REPORT_FILE).exists() and not force:
        raise InputError.of("report_exists", report=out_dir / REPORT_FILE, path=out_dir)
    return make_folder(out_dir)


def run_report(args: argparse.Namespace) -> int:
    """Compare (here, on a host or on a cluster), write report.xlsx and the pictures, print what was written."""
    if args.mode != 1:
        raise UsageError.of("report_mode1_only")
    spec = spec_from_args(args)  # same validation and messages as `nwa`
    check_where(spec)
    out_dir = _prepare_out_dir(Path(args.out_dir), args.force)
    outcome = start(spec).wait(terminal_progress())
    print_cluster_figures(outcome)
    result = outcome.result
    from autofuse_studio.core.reports.precision_files import write_xlsx

    write_xlsx(result, out_dir / REPORT_FILE, args.lang)
    if isinstance(spec.where, OnHost):  # the graphs and tensors are on the host: copies for the drawing
        from autofuse_studio.cli.report_host import host_pictures

        pictures = host_pictures(result, spec, out_dir)
    else:
        pictures = write_pictures(result, out_dir, outcome.case)
    first = result.first_divergence
    print(f"{len(result.rows)} rows; first divergence: {describe_row(first) if first else 'none'}")
    for path in [out_dir / REPORT_FILE, *pictures]:
        print(f"Wrote {path}")
    return 0


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio report`."""
    args = build_parser().parse_args(argv)
    return run_guarded(lambda: run_report(args))
