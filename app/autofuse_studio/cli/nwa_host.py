"""`nwa --host NAME`: run mode 1 where the dumps are and print here exactly what a local run prints.

Three roles share the hidden `--emit-jsonl` option:
  * on the host, `nwa --emit-jsonl --watch-stdin …` (no --host) is the run itself, written as records;
  * here, `nwa --host NAME …` asks the host for its version, runs it there and prints like a local run;
  * here, `nwa --host NAME --emit-jsonl …` relays the host's records (the GUI reads them from a QProcess).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from autofuse_studio.cli.console import unescaped
from autofuse_studio.cli.guard import EXIT_INTERRUPTED, run_guarded
from autofuse_studio.core.errors import AppError, InputError, UsageError
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.remote.nwa_remote import DEFAULT_REMOTE_COMMAND, RemoteNwaRequest

if TYPE_CHECKING:
    from autofuse_studio.core.precision.stream_schema import StreamRecord

DEFAULT_CONNECT_TIMEOUT = 10


def add_host_options(parser: argparse.ArgumentParser) -> None:
    """--host, --remote-command, --connect-timeout, and the hidden options of the record stream."""
    group = parser.add_argument_group("remote host (compare where the dumps are)")
    group.add_argument("--host", metavar="NAME", help="run the comparison on this host profile (see `autofuse-studio "
                       "hosts`): graph and dump paths are paths on that host; only the rows travel back, and the "
                       "console and --output files are those of a local run")
    group.add_argument("--remote-command", metavar="CMD", default=DEFAULT_REMOTE_COMMAND,
                       help="autofuse-studio on the host: a program name, absolute path or ~/ path "
                       f"(default {DEFAULT_REMOTE_COMMAND})")
    group.add_argument("--connect-timeout", type=int, default=DEFAULT_CONNECT_TIMEOUT, metavar="S",
                       help=f"ssh connect timeout in seconds (default {DEFAULT_CONNECT_TIMEOUT})")
    hidden = argparse.SUPPRESS
    group.add_argument("--emit-jsonl", action="store_true", help=hidden)
    group.add_argument("--emit-producers", action="store_true", help=hidden)
    group.add_argument("--watch-stdin", action="store_true", help=hidden)
    group.add_argument("--thresholds-json", help=hidden)


def remote_request(args: argparse.Namespace) -> RemoteNwaRequest:
    """The arguments of a `--host` run, validated here (the same messages as a local run for missing ones)."""
    from autofuse_studio.cli import nwa

    if args.mode != 1:
        raise UsageError("--host runs mode 1 (graphs and dump folders) only; compare two NPY files locally.")
    paths = [nwa._require(getattr(args, name), option, 1) for name, option in (
        ("af_open_graph", "--af-open-graph"), ("af_close_graph", "--af-close-graph"),
        ("af_open_data", "--af-open-data"), ("af_close_data", "--af-close-data"))]
    jobs_given = args.jobs != nwa.build_parser().get_default("jobs")
    return RemoteNwaRequest(paths[0], paths[1], paths[2], paths[3], compare_input=args.compare_input,
                            step=args.step, ranks=nwa.parse_ranks(args.rank),
                            jobs=max(1, args.jobs) if jobs_given else None, thresholds=_thresholds(args),
                            remote_command=args.remote_command, producers=args.emit_producers)


def _thresholds(args: argparse.Namespace) -> Thresholds:
    """--thresholds-json (what the GUI and the local side send) or the threshold options and file."""
    from autofuse_studio.cli import nwa
    from autofuse_studio.core.precision.row_stream import thresholds_from_record

    if not args.thresholds_json:
        return nwa.thresholds_from_args(args)
    try:
        return thresholds_from_record(json.loads(args.thresholds_json))
    except ValueError:
        raise InputError("--thresholds-json is not JSON.") from None


def run_host_cli(args: argparse.Namespace) -> int:
    """Version check, run on the host with progress here, then the local run's console output and files."""
    from autofuse_studio.cli import nwa
    from autofuse_studio.cli.progress import terminal_progress
    from autofuse_studio.core.remote.nwa_remote import check_request
    from autofuse_studio.core.remote.nwa_stream import RemoteStream, collect
    from autofuse_studio.core.remote.profiles import find_profile

    profile = find_profile(args.host)
    request = remote_request(args)
    check_request(request, profile.name)
    nwa.check_output_option(args.output)
    stream = RemoteStream(profile, request, args.connect_timeout)
    outcome = collect(_announced(stream.records(), request), profile.name, progress=terminal_progress())
    return nwa.print_mode1_result(args, outcome.result)


def _announced(records: Iterator[StreamRecord], request: RemoteNwaRequest) -> Iterator[StreamRecord]:
    """The records, with a local run's `Parsing …` lines printed once the host has started (after its hello)."""
    from autofuse_studio.core.precision.stream_schema import Hello

    for record in records:
        if isinstance(record, Hello):
            print(f"Parsing fusion-enabled dump graph: {Path(request.af_open_graph)}")
            print(f"Parsing fusion-disabled dump graph: {Path(request.af_close_graph)}", flush=True)
        yield record


def _record_writer() -> Any:
    from autofuse_studio.core.remote.nwa_emit import RecordWriter

    out = unescaped(sys.stdout)  # records are ASCII; nothing of ours to escape

    def write_text(text: str) -> None:
        try:
            out.write(text)
            out.flush()
        except (BrokenPipeError, ValueError):  # the reader is gone: nobody is left to tell
            os._exit(EXIT_INTERRUPTED)

    return RecordWriter(write_text)


def _exit_when_stdin_closes() -> None:
    """ssh forwards no signal without a tty: EOF on stdin (ssh gone, or cancel) ends this process at once."""
    def watch() -> None:
        try:
            while os.read(sys.stdin.fileno(), 65536):
                pass
        except (OSError, ValueError):
            pass
        os._exit(EXIT_INTERRUPTED)  # nothing to clean up: the host side writes no files

    threading.Thread(target=watch, daemon=True, name="stdin-watch").start()


def _error_record(error: AppError) -> dict[str, Any]:
    return {"type": "error", "message": str(error), "exit_code": error.exit_code}


def emit_here(args: argparse.Namespace) -> int:
    """The host side: run mode 1 and write its records on stdout."""
    from autofuse_studio.cli import nwa
    from autofuse_studio.core.remote.nwa_emit import emit_mode1, hello_record

    if args.watch_stdin:
        _exit_when_stdin_closes()
    write = _record_writer()
    try:
        if args.mode != 1:
            raise UsageError("--emit-jsonl streams mode 1 only.")
        request = nwa.mode1_request(args)
        request.thresholds = _thresholds(args)
    except AppError as error:
        write(hello_record())
        write(_error_record(error))
        return error.exit_code
    return emit_mode1(request, write, producers=args.emit_producers)


def _interrupt(_number: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def relay(args: argparse.Namespace) -> int:
    """Here, for the GUI: the host's records, checked, passed on line by line; every failure an `error` record."""
    from autofuse_studio.core.precision.stream_schema import Error, to_builtins
    from autofuse_studio.core.remote.nwa_remote import check_request
    from autofuse_studio.core.remote.nwa_stream import RemoteStream, failure_code
    from autofuse_studio.core.remote.profiles import find_profile

    signal.signal(signal.SIGTERM, _interrupt)  # the GUI's cancel: stop ssh (and with it the host side) cleanly
    write = _record_writer()
    try:
        profile = find_profile(args.host)
        request = remote_request(args)
        check_request(request, profile.name)
        write({"type": "progress", "done": 0, "total": 0, "message": f"connecting to host '{profile.name}'"})
        with contextlib.closing(RemoteStream(profile, request, args.connect_timeout).records()) as records:
            for record in records:
                write(to_builtins(record))
                if isinstance(record, Error):
                    return failure_code(record.exit_code)
    except AppError as error:
        write({**_error_record(error), "here": True})  # a sentence of this side: it names the host already
        return error.exit_code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return 0


def main_host(args: argparse.Namespace) -> int:
    """Dispatch between the three roles (see the module docstring)."""
    if args.emit_jsonl:
        return relay(args) if args.host else emit_here(args)
    return run_guarded(lambda: run_host_cli(args), stdout=True)
