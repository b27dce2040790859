"""`autofuse-studio att verify-tiling`: the reference's arguments, plus timeouts and remote build hosts."""

from __future__ import annotations

import argparse
import signal
import sys
from types import FrameType

from autofuse_studio.cli.guard import print_error
from autofuse_studio.core.errors import AppError

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    """The verify-tiling argument parser (att.py's options and defaults first, extensions after)."""
    parser = argparse.ArgumentParser(
        prog="autofuse-studio att verify-tiling",
        description="Check the ABI and ranges, build the tiling code with cmake + make and call AutofuseTiling "
                    "in a child process; writes result.json.")
    parser.add_argument("source_dir", nargs="?", help="folder with *tiling_func*.cpp (tf) or output_code.py (inductor)")
    parser.add_argument("--scene", choices=["tf", "inductor"], help="default: detected from the files")
    inputs = parser.add_mutually_exclusive_group()
    inputs.add_argument("--preset", choices=["A", "B"], help="built-in parameters (default A)")
    inputs.add_argument("--input-json", help="parameters: dynamic_dims, aiv_num, ub_size, abi")
    parser.add_argument("--aiv-num", type=int, help="override aiv_num")
    parser.add_argument("--log", help="ATT log: dynamic dims, core_num and ub_size are taken from it")
    parser.add_argument("--case", help="which case of the log, e.g. r=0,g=0,c=1")
    parser.add_argument("--op", help="operator in the log (default: the one named like the kernel, or the only one)")
    parser.add_argument("--compile-config", help="compile.toml (default ~/.att_analyze/compile.toml)")
    parser.add_argument("--keep-build", action="store_true", help="keep the build folder (so_path stays valid)")
    parser.add_argument("-o", "--output", default="output/verify/", help="folder for result.json and build.log")
    extra = parser.add_argument_group("Autofuse Studio extensions")
    extra.add_argument("--host", help="build on this remote host profile (see --list-hosts)")
    extra.add_argument("--list-hosts", action="store_true", help="list the saved host profiles and exit")
    extra.add_argument("--keep-remote", action="store_true", help="leave the remote work folder in place")
    extra.add_argument("--build-timeout", type=float, default=600.0, help="seconds for cmake and for make (600)")
    extra.add_argument("--run-timeout", type=float, default=60.0, help="seconds for AutofuseTiling (60)")
    extra.add_argument("--connect-timeout", type=int, default=10, help="ssh connect timeout in seconds (10)")
    extra.add_argument("--jobs", type=int, default=2, help="make -j (2)")
    return parser


def _echo(line: str) -> None:
    print(line, flush=True)


def _on_sigterm(number: int, _frame: FrameType | None) -> None:
    # Cancel from the GUI: unwind through the finally blocks so temp folders and remote folders go away.
    raise SystemExit(128 + number)


def _list_hosts() -> int:
    from autofuse_studio.core.remote.profiles import load_entries

    try:
        entries = load_entries()
    except AppError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    for entry in entries:
        if entry.profile is not None:
            print(f"{entry.profile.name}\t{entry.profile.describe()}")
        else:
            print(f"Error: {entry.problem}", file=sys.stderr)
    return EXIT_FAILED if any(entry.profile is None for entry in entries) else EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Prepare (exit 2 on any input problem), then build and run locally or on --host."""
    from autofuse_studio.core.tiling.job import VerifyRequest, prepare

    request = VerifyRequest(args.source_dir, args.scene, args.preset, args.input_json, args.aiv_num, args.log,
                            args.case, args.op, args.compile_config, args.keep_build, args.output,
                            args.build_timeout, args.run_timeout, args.jobs)
    try:
        job = prepare(request)
    except AppError as exc:
        print_error(str(exc), stdout=True)  # att.py prints its `✗ ...` lines on stdout
        return EXIT_INPUT
    for note in job.notes:
        _echo(note)
    if args.host:
        from autofuse_studio.core.remote.profiles import find_profile
        from autofuse_studio.core.remote.session import RemoteOptions, run_remote

        profile = find_profile(args.host)
        options = RemoteOptions(keep_remote=args.keep_remote, connect_timeout=args.connect_timeout)
        outcome = run_remote(job, profile, options, _echo)
    else:
        from autofuse_studio.core.tiling.local import run_local

        outcome = run_local(job, _echo)
    if outcome.result is None:
        print_error(f"Error: no result.json was written to {outcome.result_path}.", stdout=True)
        return EXIT_FAILED
    _echo(f"[verify-tiling] status={outcome.result.get('status')} result={outcome.result_path}")
    return EXIT_OK if outcome.result.get("status") == "SUCCEEDED" else EXIT_FAILED


def main(argv: list[str]) -> int:
    """Parse and run; returns 0 (succeeded), 1 (compile/runtime/host failure) or 2 (bad input)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.list_hosts:
        return _list_hosts()
    if args.source_dir is None:
        print("autofuse-studio att verify-tiling: error: the following arguments are required: source_dir",
              file=sys.stderr)
        return EXIT_INPUT
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return run(args)
    except AppError as exc:
        print_error(str(exc) if str(exc).startswith(("✗", "Error", "[")) else f"Error: {exc}", stdout=True)
        return exc.exit_code
    finally:
        signal.signal(signal.SIGTERM, previous)
