"""`autofuse-studio nwa`: drop-in for fusion_precision_analyzer.py, with verdicts and exports."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path

from autofuse_studio.cli.guard import run_guarded
from autofuse_studio.cli.nwa_cluster import add_cluster_options, cluster_options, run_on_cluster
from autofuse_studio.cli.nwa_host import add_host_options
from autofuse_studio.cli.progress import terminal_progress
from autofuse_studio.core.dumps.npy import not_a_file_message
from autofuse_studio.core.dumps.tensors import choose_tensor
from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.precision.engine import (
    Mode1Request,
    mode2_result,
    mode2_sides,
    pair_signature,
    run_mode1,
    run_mode2,
)
from autofuse_studio.core.precision.notice_lines import notice_item_lines
from autofuse_studio.core.precision.pair import NO_MAPPING, PairResult, is_compared_status
from autofuse_studio.core.precision.rank_ids import rank_list
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.table import format_mode2, format_summary, format_table
from autofuse_studio.core.precision.thresholds import (
    Limits,
    Thresholds,
    check_limit,
    load_thresholds,
    parse_dtype_limit,
    stats_limits,
)

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


def thresholds_from_args(args: argparse.Namespace) -> Thresholds:
    """Combine the TOML file (if any) with the command-line limits (which win)."""
    thresholds = load_thresholds(args.thresholds) if args.thresholds else Thresholds()
    default = thresholds.default
    overrides = {"cosine": args.cosine_threshold, "max_abs": args.max_abs_threshold,
                 "max_rel": args.max_rel_threshold}
    for key, value in overrides.items():  # nan would silently switch the check off, inf make it meaningless
        if value is not None:
            check_limit(key, value, f"--{key.replace('_', '-')}-threshold")
    default = Limits(**{key: overrides[key] if overrides[key] is not None else getattr(default, key)
                        for key in overrides})
    per_dtype = dict(thresholds.per_dtype)
    for text in args.dtype_threshold:
        dtype, key, value = parse_dtype_limit(text)
        base = per_dtype.get(dtype, default)
        per_dtype[dtype] = Limits(**{**base.as_dict(), key: value})
    stats = thresholds.stats
    given = {key: value for key, value in (("max_rel", args.stats_max_rel), ("abs_floor", args.stats_abs_floor),
                                           ("max_nonfinite_diff", args.stats_nonfinite_diff)) if value is not None}
    if given:
        stats = replace(stats, default=stats_limits(stats.default, dict(given), "--stats-* options"))
    return Thresholds(default, per_dtype, stats)


def check_output_option(output: str | None) -> None:
    """--output before any work: a known suffix, not a folder, in a folder that can be written."""
    if not output:
        return
    from autofuse_studio.core.reports.atomic import check_writable_target
    from autofuse_studio.core.reports.precision_files import SUFFIXES

    if Path(output).suffix.lower() not in SUFFIXES:
        raise UsageError(f"Cannot write {output}: the output file must end in .json, .csv or .xlsx.")
    check_writable_target(output)


def _require(value: str | None, option: str, mode: int) -> str:
    if not value:
        raise InputError(f"ERROR: 模式{mode}需要 {option} 参数")
    return value


def parse_ranks(text: str | None) -> list[str] | None:
    """'0,2, 3' -> ['0', '2', '3'] (device ids as written in the dump tree, leading zeros dropped)."""
    if text is None:
        return None
    try:
        return rank_list(text, "--rank")
    except InputError as error:
        raise UsageError(str(error)) from None


def mode1_request(args: argparse.Namespace) -> Mode1Request:
    """Validate the mode-1 arguments (with the reference's messages) and build the request."""
    open_graph = _require(args.af_open_graph, "--af-open-graph", 1)
    close_graph = _require(args.af_close_graph, "--af-close-graph", 1)
    open_data = _require(args.af_open_data, "--af-open-data", 1)
    close_data = _require(args.af_close_data, "--af-close-data", 1)
    for graph in (open_graph, close_graph):
        if not os.path.isfile(graph):
            raise InputError(f"ERROR: dump 图 JSON 文件不存在: {graph}", graph)
    # On a cluster the dump folders are where the workers are; they need not exist here.
    for folder in (open_data, close_data) if not getattr(args, "scheduler", None) else ():
        if not os.path.isdir(folder):
            raise InputError(f"ERROR: datadump 目录不存在: {folder}", folder)
    return Mode1Request(Path(open_graph), Path(close_graph), Path(open_data), Path(close_data),
                        compare_input=args.compare_input, step=args.step, ranks=parse_ranks(args.rank),
                        jobs=max(1, args.jobs),
                        thresholds=thresholds_from_args(args))


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
    """Mode 1: parse, compare, print the reference's output plus our summary; write --output."""
    request = mode1_request(args)
    check_output_option(args.output)
    cluster = cluster_options(args)
    print(f"Parsing fusion-enabled dump graph: {request.af_open_graph}")
    print(f"Parsing fusion-disabled dump graph: {request.af_close_graph}")
    if cluster is not None:
        result = run_on_cluster(request, cluster)
    else:
        result = run_mode1(request, progress=terminal_progress())
    return print_mode1_result(args, result)


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
    npy_a = _require(args.npy_a, "--npy-a", 2)
    npy_b = _require(args.npy_b, "--npy-b", 2)
    for path in (npy_a, npy_b):
        if not os.path.isfile(path):
            raise InputError(f"ERROR: {not_a_file_message(path) or f'NPY 文件不存在: {path}'}", path)
    # A raw dump file holds several tensors: --tensor / --tensor-b say which one (an NPY is taken as is).
    npy_a = choose_tensor(npy_a, args.tensor)
    npy_b = choose_tensor(npy_b, args.tensor_b or args.tensor)
    thresholds = thresholds_from_args(args)  # checked before comparing, like mode 1
    check_output_option(args.output)
    outcome = run_mode2(Path(npy_a), Path(npy_b))
    if outcome.message:
        print(f"WARNING: {outcome.message}")
    print(format_mode2(npy_a, npy_b, outcome))
    failed = _mode2_verdict(outcome, thresholds)
    signed = pair_signature(*mode2_sides(npy_a, npy_b)) if failed else None
    if signed is not None:
        print(f"签名/signature: {signed.sentence}")
    if args.output:
        from autofuse_studio.core.reports.precision_files import write_precision

        print(f"Wrote {write_precision(mode2_result(npy_a, npy_b, outcome, thresholds, signed), args.output)}")
    if not is_compared_status(outcome.status):
        return 1
    return EXIT_DIVERGENCE if failed and args.fail_on_divergence else 0


def main(argv: list[str]) -> int:
    """Entry point of `autofuse-studio nwa`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.host and args.scheduler:
        parser.error("--host runs the comparison on one host and --scheduler on a Dask cluster: choose one.")
    if args.host or args.emit_jsonl:  # the run happens on a host, or this is that run (cli/nwa_host.py)
        from autofuse_studio.cli.nwa_host import main_host

        return main_host(args)
    # fusion_precision_analyzer.py prints its ERROR: lines on stdout.
    return run_guarded(lambda: run_mode1_cli(args) if args.mode == 1 else run_mode2_cli(args), stdout=True)
