"""The options of `nwa --host NAME`, and the two roles of the hidden `--emit-jsonl` option.

`nwa --host NAME …` itself is an ordinary run (cli/nwa.py) whose RunSpec says where: core.run's HostRunner
checks the host's version, sends it the spec as JSON and prints here exactly what a local run prints. The
record stream has two roles:
  * on the host, `nwa --emit-jsonl --watch-stdin --run-spec JSON` is the run itself, written as records;
  * here, `nwa --emit-jsonl --run-spec JSON` with a host in the spec (or `--host NAME --emit-jsonl …`) relays
    the host's records (the GUI reads them from a QProcess).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

from autofuse_studio.cli.console import unescaped
from autofuse_studio.cli.guard import EXIT_INTERRUPTED
from autofuse_studio.core.errors import AppError, UsageError, coded_fields
from autofuse_studio.core.run.spec import DEFAULT_CONNECT_TIMEOUT, DEFAULT_REMOTE_COMMAND, RunSpec


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
    group.add_argument("--run-spec", help=hidden)


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
    return {"type": "error", "message": str(error), "exit_code": error.exit_code, **coded_fields(error)}


def emit_here(args: argparse.Namespace) -> int:
    """The host side: run the spec here and write its records on stdout."""
    from autofuse_studio.cli import run_args
    from autofuse_studio.core.remote.nwa_emit import emit_mode1, hello_record

    if args.watch_stdin:
        _exit_when_stdin_closes()
    write = _record_writer()
    try:
        if args.mode != 1:
            raise UsageError.of("emit_jsonl_mode1")
        spec = run_args.spec_from_args(args)
        if spec.mode != 1:
            raise UsageError.of("emit_jsonl_mode1")
    except AppError as error:
        write(hello_record())
        write(_error_record(error))
        return error.exit_code
    return emit_mode1(spec, write, producers=args.emit_producers)


def _interrupt(_number: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def relay(args: argparse.Namespace, spec: RunSpec, write: Any) -> int:
    """Here, for the GUI: the host's records, checked, passed on line by line; every failure an `error` record."""
    from autofuse_studio.core.precision.stream_schema import Error, to_builtins
    from autofuse_studio.core.remote.nwa_remote import check_request
    from autofuse_studio.core.remote.nwa_stream import RemoteStream, failure_code
    from autofuse_studio.core.remote.profiles import find_profile
    from autofuse_studio.core.run.spec import OnHost

    signal.signal(signal.SIGTERM, _interrupt)  # the GUI's cancel: stop ssh (and with it the host side) cleanly
    try:
        assert isinstance(spec.where, OnHost)
        profile = find_profile(spec.where.host)
        check_request(spec, profile.name)
        write({"type": "progress", "done": 0, "total": 0, "message": f"connecting to host '{profile.name}'"})
        stream = RemoteStream(profile, spec, spec.where.connect_timeout, args.emit_producers)
        with contextlib.closing(stream.records()) as records:
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


def main_emit(args: argparse.Namespace) -> int:
    """`--emit-jsonl`: relay a host's records when the run goes to a host, else be the host side."""
    from autofuse_studio.cli import run_args

    if not _relays(args):
        return emit_here(args)
    write = _record_writer()
    try:
        spec = run_args.spec_from_args(args)
    except AppError as error:
        write({**_error_record(error), "here": True})
        return error.exit_code
    return relay(args, spec, write)


def _relays(args: argparse.Namespace) -> bool:
    """True when this process relays a host's run (--host, or a spec whose `where` is a host)."""
    if args.host:
        return True
    try:
        return bool(json.loads(args.run_spec or "null")["where"]["kind"] == "host")
    except (ValueError, TypeError, KeyError):
        return False  # the host side reports a broken spec in its own error record
