"""`autofuse-studio nwa`: drop-in for fusion_precision_analyzer.py, with verdicts and exports."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.cli.nwa_cluster import add_cluster_options, print_cluster_figures
from autofuse_studio.cli.nwa_host import add_host_options
from autofuse_studio.cli.progress import terminal_progress
from autofuse_studio.cli.run_args import spec_from_args
from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.precision.notice_lines import notice_item_lines
from autofuse_studio.core.precision.pair import NO_MAPPING, PairResult, is_compared_status
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.table import format_mode2, format_summary, format_table
from autofuse_studio.core.precision.thresholds import (
    Thresholds,
)
from autofuse_studio.core.run.events import Event, Started
from autofuse_studio.core.run.runners import check_where, start
from autofuse_studio.core.run.spec import RunSpec

EXIT_DIVERGENCE = 3
# Notices the reference's own WARNING lines already say (per fused output, in its wording).
_SHOWN_AS_REFERENCE_LINES = frozenset({"fusion_mapping", "row_no_mapping"})


def build_parser() -> argparse.ArgumentParser:
    """The reference's arguments, unchanged, plus ours."""
    parser = argparse.ArgumentParser(prog="autofuse-studio nwa", description="定位融合算子精度劣化工具 "
                                     "(fusion precision analyzer, drop-in for fusion_precision_analyzer.py)")
    parser.add_argument("--mode", type=int, default=1, choices=[1, 2],
                        help="模式1：基于dump图和datadump目录批量比较融合算子输入输出；模式2：直接比较两个NPY文件。默认模式1")
    parser.add_argument("--af-open-graph", help="模式1：开启自动融合的 dump 图文件 (atc JSON or ge_proto_*.txt)")
    parser.add_argument("--af-close-graph", help="模式1：关闭自动融合的 dump 图文件 (atc JSON or ge_proto_*.txt)")
    parser.add_argument("--af-open-data", help="模式1：开启自动融合的 datadump NPY 目录 (any folder above the NPYs)")
    parser.add_argument("--af-close-data", help="模式1：关闭自动融合的 datadump NPY 目录 (any folder above the NPYs)")
    parser.add_argument("--compare-input", action="store_true", help="模式1：是否比较融合算子输入，默认不比较")
    parser.add_argument("--npy-a", help="模式2：第一个 NPY 文件路径")
    parser.add_argument("--npy-b", help="模式2：第二个 NPY 文件路径")
    ours = parser.add_argument_group("Autofuse Studio options")
    ours.add_argument("--tensor", metavar="KIND:N", help="mode 2 with raw dump files (as the NPU writes them): the "
                      "tensor to compare, e.g. output:0 (for --npy-a, and for --npy-b unless --tensor-b is given)")
    ours.add_argument("--tensor-b", metavar="KIND:N", help="mode 2: the tensor of a raw --npy-b, e.g. output:0")
    ours.add_argument("-j", "--jobs", type=int, default=min(os.cpu_count() or 1, 8),
                      help="parallel comparisons (default: number of cores)")
    ours.add_argument("--step", help="compare only this step folder (default: every step on both sides)")
    ours.add_argument("--rank", metavar="R[,R...]", help="compare only these ranks (device ids) of multi-rank dumps "
                      "(default: every rank)")
    ours.add_argument("--output", help="write every row and metric to FILE (.json, .csv or .xlsx)")
    ours.add_argument("--cosine-threshold", type=float, default=None,
                      help="a row fails when cosine < this (default 0.99)")
    ours.add_argument("--max-abs-threshold", type=float, default=None, help="a row fails when max abs err > this")
    ours.add_argument("--max-rel-threshold", type=float, default=None, help="a row fails when max rel err > this")
    ours.add_argument("--dtype-threshold", action="append", default=[], metavar="DTYPE:KEY=VALUE",
                      help="per-dtype limit, e.g. float16:cosine=0.995 (repeatable)")
    ours.add_argument("--stats-max-rel", type=float, default=None, help="statistics dumps: a Max/Min/Avg/L2 "
                      "norm differing by more than this relative amount fails (default 0.01)")
    ours.add_argument("--stats-abs-floor", type=float, default=None, help="statistics dumps: differences up to "
                      "this absolute amount never fail (default 0.001)")
    ours.add_argument("--stats-nonfinite-diff", type=int, default=None, help="statistics dumps: NaN/Inf counts "
                      "may differ by this much (default 0)")
    ours.add_argument("--thresholds", metavar="FILE.toml", help="limits from a TOML file ([default], [dtype.NAME])")
    ours.add_argument("--fail-on-divergence", action="store_true",
                      help=f"exit with {EXIT_DIVERGENCE} when a culprit (first divergence) exists")
    ours.add_argument("--verbose-warnings", action="store_true",
                      help="one WARNING line per operator, file or row a warning covers (e.g. each operator dumped "
                      "several times), instead of one line per kind of warning")
    add_host_options(parser)
    add_cluster_options(parser)
    return parser


def check_output_option(output: str | None) -> None:
    """--output before any work: a known suffix, not a folder, in a folder that can be written."""
    if not output:
        return
    from autofuse_studio.core.reports.atomic import check_writable_target
    from autofuse_studio.core.reports.precision_files import SUFFIXES

    if Path(output).suffix.lower() not in SUFFIXES:
        raise UsageError.of("output_suffix", path=output)
    check_writable_target(output)


def _print_tables(result: PrecisionResult) -> None:
    """The reference's table; one per (rank, step) with a heading line when there are several."""
    groups: dict[tuple[str | None, str], list[PrecisionRow]] = {}
    for row in result.rows:
        groups.setdefault((row.rank, row.step), []).append(row)
    if len(groups) <= 1:
        print(format_table(result.rows))
        return
    for (rank, step), rows in groups.items():
        where = [f"rank {rank}"] if rank is not None else []
        where += [f"step {step}"] if step else []
        print(f"== {', '.join(where) or 'no step'} ==")
        print(format_table(rows))


def _warning_lines(result: PrecisionResult, verbose: bool = False) -> list[str]:
    """The reference's NO_MAPPING lines (once per fused output), then one line per kind of notice.

    verbose: one line per thing a notice covers (each operator dumped several times ...) instead.
    """
    unmapped = dict.fromkeys((row.fused_op, row.fused_index) for row in result.rows
                             if row.kind == OUTPUT and row.status == NO_MAPPING)
    lines = [f"WARNING: Fused operator {op} output {index} is missing _datadump_origin_name or "
             "_datadump_origin_output_index; skipping" for op, index in unmapped]
    for notice in result.notices:
        if notice.kind in _SHOWN_AS_REFERENCE_LINES:
            continue
        items = notice_item_lines(notice) if verbose else []
        lines.extend(f"WARNING: {line}" for line in items or [notice.message])
    return lines


def run_mode1_cli(args: argparse.Namespace) -> int:
    """Mode 1 here, on a host or on a cluster: print the reference's output plus our summary; write --output."""
    spec = spec_from_args(args)
    check_where(spec)
    check_output_option(args.output)
    outcome = start(spec).wait(terminal_progress(), on_event=parsing_lines(spec))
    print_cluster_figures(outcome)
    return print_mode1_result(args, outcome.result)


def parsing_lines(spec: RunSpec) -> Callable[[Event], None]:
    """Print the reference's `Parsing …` lines once the run has started (on a host: once it answered)."""
    def on_event(event: Event) -> None:
        if isinstance(event, Started):
            print(f"Parsing fusion-enabled dump graph: {Path(spec.af_open_graph)}")
            print(f"Parsing fusion-disabled dump graph: {Path(spec.af_close_graph)}", flush=True)

    return on_event


def print_mode1_result(args: argparse.Namespace, result: PrecisionResult) -> int:
    """Everything a mode-1 run prints and writes after comparing (also for `--host` runs); the exit code."""
    found = f"Found {result.output_mappings} fused operator output mappings"
    if result.compare_input:
        found += f", {result.input_mappings} fused operator input mappings"
    print(found + "\n")
    for line in _warning_lines(result, getattr(args, "verbose_warnings", False)):
        print(line)
    _print_tables(result)
    print()
    print(format_summary(result))
    if args.output:
        from autofuse_studio.core.reports.precision_files import write_precision

        written = write_precision(result, args.output)
        print(f"Wrote {written}")
    if args.fail_on_divergence and result.first_divergence is not None:
        return EXIT_DIVERGENCE
    return 0


def _mode2_verdict(outcome: PairResult, thresholds: Thresholds) -> bool | None:
    """Print the threshold check under the reference's lines, as mode 1 rows get a verdict; True = failed."""
    if outcome.metrics is None:
        return None
    limits = thresholds.limits_for(outcome.origin_dtype or outcome.fused_dtype or "")
    broken = limits.violations(outcome.metrics)
    verdict = f"FAIL ({'; '.join(broken)})" if broken else "PASS"
    print(f"阈值判定: {verdict} [{limits.describe()}]")
    return bool(broken)


def run_mode2_cli(args: argparse.Namespace) -> int:
    """Mode 2: compare two NPY files; exit 1 when they could not be compared (3 on a failed check, if asked)."""
    spec = spec_from_args(args)  # the thresholds are checked before comparing, like mode 1
    check_output_option(args.output)
    outcome = start(spec).wait()
    row, pair = outcome.result.rows[0], outcome.pair
    assert pair is not None
    if pair.message:
        print(f"WARNING: {pair.message}")
    print(format_mode2(row.fused_op, row.origin_op or "", pair))
    failed = _mode2_verdict(pair, spec.thresholds)
    if failed and row.signature is not None:
        print(f"签名/signature: {row.signature.sentence}")
    if args.output:
        from autofuse_studio.core.reports.precision_files import write_precision

        print(f"Wrote {write_precision(outcome.result, args.output)}")
    if not is_compared_status(pair.status):
        return 1
    return EXIT_DIVERGENCE if failed and args.fail_on_divergence else 0


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio nwa`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.host and args.scheduler:
        parser.error("--host runs the comparison on one host and --scheduler on a Dask cluster: choose one.")
    if args.emit_jsonl:  # the record stream of a host run: its host side, or the relay the GUI reads
        from autofuse_studio.cli.nwa_host import main_emit

        return main_emit(args)
    # fusion_precision_analyzer.py prints its ERROR: lines on stdout.
    return run_guarded(lambda: run_mode1_cli(args) if args.mode == 1 else run_mode2_cli(args), stdout=True)
