"""The RunSpec of an `nwa` / `report` command line: options checked with the reference's messages."""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from autofuse_studio.cli.nwa_cluster import where_on_cluster
from autofuse_studio.core.dumps.npy import not_a_file_message
from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.precision.rank_ids import rank_list
from autofuse_studio.core.precision.thresholds import (
    Limits,
    Thresholds,
    check_limit,
    load_thresholds,
    parse_dtype_limit,
    stats_limits,
)
from autofuse_studio.core.run.spec import (
    LOCAL,
    OnHost,
    PathText,
    RunSpec,
    Where,
    default_jobs,
    mode1_spec,
    mode2_spec,
    spec_from_record,
)


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


def require(value: str | None, option: str, mode: int) -> str:
    if not value:
        raise InputError.of("ref_option_required", mode=mode, option=option)
    return value


def parse_ranks(text: str | None) -> list[str] | None:
    """'0,2, 3' -> ['0', '2', '3'] (device ids as written in the dump tree, leading zeros dropped)."""
    if text is None:
        return None
    try:
        return rank_list(text, "--rank")
    except InputError as error:
        raise UsageError(str(error), code=error.code, params=error.params) from None


def spec_from_json(text: str) -> RunSpec:
    """The --run-spec word: a RunSpec's JSON (what a host run and the GUI send), every field checked."""
    try:
        record = json.loads(text)
    except ValueError:
        raise InputError.of("run_spec_not_json") from None
    return spec_from_record(record, "--run-spec")


def where_from_args(args: argparse.Namespace) -> Where:
    """Where the run goes: --host (a profile), --scheduler (a Dask cluster) or here; usage errors first."""
    cluster = where_on_cluster(args)
    if getattr(args, "host", None):
        return OnHost(args.host, args.remote_command, args.connect_timeout)
    return cluster or LOCAL


def spec_from_args(args: argparse.Namespace) -> RunSpec:
    """The RunSpec of the command line: the hidden --run-spec JSON (a host run), else the options, checked with the
    reference's messages. Paths are checked here only when they are read here (not for --host; the dump folders
    not for --scheduler)."""
    if getattr(args, "run_spec", None):
        spec = spec_from_json(args.run_spec)
        if spec.where.kind == "local":  # the host side of a host run: the paths are this machine's
            spec = home_expanded(spec)
            check_local_inputs(spec)
        return spec
    where = where_from_args(args)
    if args.mode == 2:
        if where.kind != "local":
            raise UsageError.of("remote_mode1_only", option=where.kind if where.kind == "host" else "scheduler")
        files = mode2_spec(require(args.npy_a, "--npy-a", 2), require(args.npy_b, "--npy-b", 2))
        check_local_inputs(files)  # missing files first, then the limits (as the reference's order of checks)
        return mode2_spec(files.npy_a, files.npy_b, thresholds_from_args(args), args.tensor, args.tensor_b)
    paths = [require(getattr(args, name), option, 1) for name, option in (
        ("af_open_graph", "--af-open-graph"), ("af_close_graph", "--af-close-graph"),
        ("af_open_data", "--af-open-data"), ("af_close_data", "--af-close-data"))]
    if isinstance(where, OnHost):  # the host's paths, as typed; its own default --jobs unless one was given
        jobs_given = args.jobs != default_jobs()
        return mode1_spec(paths, compare_input=args.compare_input, step=args.step, ranks=parse_ranks(args.rank),
                       jobs=max(1, args.jobs) if jobs_given else None, thresholds=thresholds_from_args(args),
                       where=where)
    spec = mode1_spec([Path(path) for path in paths], compare_input=args.compare_input, step=args.step,
                      ranks=parse_ranks(args.rank), jobs=max(1, args.jobs), thresholds=thresholds_from_args(args),
                      where=where)
    check_local_inputs(spec)
    return spec


def home_expanded(spec: RunSpec) -> RunSpec:
    """The spec with `~/` paths in this user's home (a host run's paths were typed for the host's shell)."""
    def expanded(path: PathText) -> PathText:
        text = os.fspath(path)
        return os.path.expanduser(text) if text.startswith("~/") else path

    changes: dict[str, Any] = {role: expanded(getattr(spec, role)) for role in spec.paths()}
    return replace(spec, **changes)


def check_local_inputs(spec: RunSpec) -> None:
    """The reference's ERROR: lines for inputs read here: graphs, and the dump folders unless a cluster reads them."""
    if spec.mode == 2:
        for path in (spec.npy_a, spec.npy_b):
            if not os.path.isfile(path):
                problem = not_a_file_message(path)
                raise InputError(f"ERROR: {problem}", path) if problem else InputError.of("ref_npy_missing", path=path)
        return
    for graph in (spec.af_open_graph, spec.af_close_graph):
        if not os.path.isfile(graph):
            raise InputError.of("ref_graph_missing", path=graph)
    # On a cluster the dump folders are where the workers are; they need not exist here.
    for folder in (spec.af_open_data, spec.af_close_data) if spec.where.kind == "local" else ():
        if not os.path.isdir(folder):
            raise InputError.of("ref_data_missing", path=folder)


