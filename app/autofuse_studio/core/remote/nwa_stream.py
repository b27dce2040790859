"""Run `nwa --emit-jsonl` on a host over ssh and read its record stream as it arrives; stop it on cancel.

ssh without a tty does not forward signals, so stopping means closing ssh's stdin: the remote side watches
its stdin (`--watch-stdin`) and exits on EOF; ssh is then terminated, and killed if it lingers.

Nothing the host sends is trusted: lines are read in linear time up to MAX_LINE_BYTES, every record is
checked against core.precision.stream_schema, and anything broken ends the run with one sentence naming the
host (StreamError, exit code 1). An `error` record from the host can only fail the run (see failure_code).
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.notices import clip, wire_params
from autofuse_studio.core.precision import stream_schema as schema
from autofuse_studio.core.precision.dump_pairs import SidesSummary
from autofuse_studio.core.precision.result_stream import ResultAssembler, sides_from_record
from autofuse_studio.core.precision.row_stream import PROTOCOL, StreamError
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.verdict import Port
from autofuse_studio.core.printable import escape_controls
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken
from autofuse_studio.core.remote import nwa_remote
from autofuse_studio.core.remote.profiles import HostProfile
from autofuse_studio.core.remote.ssh import RemoteError, ssh_argv, ssh_failure
from autofuse_studio.core.run.spec import RunSpec

POLL_S = 0.2
STOP_GRACE_S = 2.0
MAX_LINE_BYTES = 64 << 20  # a real run's lines stay far below (rows travel 500 a record, see result_stream)
STDERR_KEPT = 64 << 10
CHATTER_CHARS = 200  # what is kept of each line a login script prints before the version line
MESSAGE_CHARS = 4000  # what is shown of a host's error message; progress messages are cut at 300
FAILURE_CODES = (1, 2)  # the exit codes of a failed run (AppError: 1, UsageError: 2)

Chunk = TypeVar("Chunk", str, bytes)


class RemoteRunError(AppError):
    """The remote run failed with a sentence of its own (a missing dump folder, …); exit code as sent."""

    def __init__(self, message: str, exit_code: int = 1, *, code: str | None = None,
                 params: dict[str, Any] | None = None, on_host: str | None = None) -> None:
        super().__init__(message, code=code, params=params)
        self.exit_code = exit_code
        self.on_host = on_host  # the host whose sentence this is (render_error says so in other languages too)


class LineTooLong(StreamError):
    """A line longer than the reader's cap (the caller names the host)."""


def failure_code(code: int) -> int:
    """A host's exit code as this side's: 1 or 2 as sent, anything else (0 too) 1 — an error never succeeds."""
    return code if code in FAILURE_CODES else 1


def broken_stream(host: str, problem: str) -> StreamError:
    """The one sentence for a host whose stream breaks the protocol ('problem' says what it sent)."""
    return StreamError.of("host_stream_broken", host=host, problem=escape_controls(problem))


class LineSplitter(Generic[Chunk]):
    """Whole lines out of arriving chunks in time linear in the stream: a partial line is kept as a list of
    pieces, joined once when its newline comes (never a growing buffer copied at every chunk)."""

    def __init__(self, newline: Chunk, limit: int | None = None) -> None:
        self._newline: Chunk = newline
        self._empty: Chunk = newline[:0]
        self._pieces: list[Chunk] = []
        self._size = 0
        self.limit = limit

    def feed(self, chunk: Chunk) -> list[Chunk]:
        """The lines `chunk` completes (without their newlines); LineTooLong when one grows past the limit."""
        lines = chunk.split(self._newline)
        rest = lines.pop()
        if lines and self._pieces:
            self._pieces.append(lines[0])
            lines[0] = self._empty.join(self._pieces)
            self._pieces, self._size = [], 0
        if self.limit is not None and max(map(len, lines), default=0) > self.limit:
            raise LineTooLong(f"a line longer than {self.limit >> 20} MB")
        if rest:
            self._size += len(rest)
            if self.limit is not None and self._size > self.limit:
                raise LineTooLong(f"a line longer than {self.limit >> 20} MB")
            self._pieces.append(rest)
        return lines

    def rest(self) -> Chunk:
        """What came after the last newline (the stream ended)."""
        rest: Chunk = self._empty.join(self._pieces)
        self._pieces, self._size = [], 0
        return rest


@dataclass
class RemoteOutcome:
    """A finished remote run: the rebuilt result and, when asked for, the producer index."""

    result: PrecisionResult
    producers: dict[str, list[Port | None]] | None
    files_indexed: int = 0


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """EOF to the remote side first (it exits and ssh with it), then terminate and kill ssh.

    Nothing reads its output any more: closing that pipe makes a writer that goes on writing (a host
    ignoring the EOF) fail at once instead of blocking on a full pipe until the grace time is over.
    """
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None and not pipe.closed:
            with contextlib.suppress(OSError):
                pipe.close()
    for action in (None, proc.terminate, proc.kill):
        if action is not None:
            action()
        try:
            proc.wait(STOP_GRACE_S)
            return
        except subprocess.TimeoutExpired:
            continue


def compressed(argv: list[str]) -> list[str]:
    """An ssh argv with Compression=yes (for the record stream and graph files, both text)."""
    return [argv[0], "-o", "Compression=yes", *argv[1:]]


@dataclass
class ProcessEnd:
    """How a streamed process ended: its exit code (None while it runs) and the tail of its stderr."""

    returncode: int | None = None
    stderr: bytearray = field(default_factory=bytearray)
    stdin: Any = None  # the process's stdin while it runs (see send)

    def send(self, data: bytes) -> None:
        """Write to the running process's stdin."""
        if self.stdin is not None:
            self.stdin.write(data)
            self.stdin.flush()


def _drain(stream: Any, kept: bytearray) -> None:
    """Read stderr to the end (a full pipe would stall ssh), keeping the last bytes for messages."""
    for chunk in iter(lambda: stream.read1(65536), b""):
        kept.extend(chunk)
        del kept[:-STDERR_KEPT]


def stream_lines(argv: list[str], cancel: CancelToken, end: ProcessEnd) -> Generator[str, None, None]:
    """Start argv, yield its stdout line by line as it arrives; the process is stopped when the loop ends."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    end.stdin = proc.stdin
    reader = threading.Thread(target=_drain, args=(proc.stderr, end.stderr), daemon=True, name="ssh-stderr")
    reader.start()
    fd = proc.stdout.fileno()
    splitter = LineSplitter(b"\n", MAX_LINE_BYTES)
    try:
        while True:
            cancel.check()
            ready, _, _ = select.select([fd], [], [], POLL_S)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            for line in splitter.feed(chunk):
                yield line.decode("utf-8", "replace")
        rest = splitter.rest()
        if rest:
            yield rest.decode("utf-8", "replace")
        proc.wait()
    finally:
        _stop(proc)
        reader.join(STOP_GRACE_S)
        proc.stderr.close()
        end.returncode = proc.returncode
        end.stdin = None


class RemoteStream:
    """The records of one remote run, checked (schema, hello first, protocol number), ssh errors as sentences."""

    def __init__(self, profile: HostProfile, spec: RunSpec, connect_timeout: int = 10, producers: bool = False) -> None:
        self.profile = profile
        self.spec = spec
        self.command = nwa_remote.remote_command_of(spec)
        self.producers = producers  # also stream the producer index (the GUI re-assigns verdicts with it)
        self.connect_timeout = connect_timeout
        self.end = ProcessEnd()
        self.version: str | None = None  # the host's version, once its answer was read

    def records(self, cancel: CancelToken = NEVER_CANCELLED) -> Generator[schema.StreamRecord, None, None]:
        """Yield every record (hello included) until result or error; RemoteError when the stream breaks off,
        StreamError (one sentence naming the host) when it breaks the protocol."""
        try:
            yield from self._records(cancel)
        except StreamError as error:
            raise broken_stream(self.profile.name, str(error)) from None

    def _records(self, cancel: CancelToken) -> Generator[schema.StreamRecord, None, None]:
        command = nwa_remote.gated_command_line(self.spec, self.profile.name, self.producers)
        # Rows repeat their keys and dump paths: ssh's zlib makes ~850 B of JSON per row ~50 B on the wire.
        argv = compressed(ssh_argv(self.profile, command, self.connect_timeout))
        greeted = False
        chatter: list[str] = []  # what came before the version line (a foreign program's answer)
        lines = stream_lines(argv, cancel, self.end)
        try:
            for line in lines:
                if self.version is None:
                    if not line.startswith(nwa_remote.VERSION_MARK):
                        chatter = [*chatter[-20:], clip(line, CHATTER_CHARS)]
                        continue
                    answer = clip(line.removeprefix(nwa_remote.VERSION_MARK), CHATTER_CHARS)
                    self.version = nwa_remote.check_version_answer(
                        self.profile, self.command, 0, answer, "", self.connect_timeout)
                    self.end.send(b"go\n")  # the version is good: now the host may run the comparison
                    continue
                if not line.startswith("{"):
                    continue  # a login script's chatter on stdout is no record
                record = schema.parse_record(line)
                if isinstance(record, schema.Hello):
                    if greeted:
                        raise StreamError("a second hello record")
                    self._check_hello(record)
                    greeted = True
                elif not greeted:
                    raise StreamError("records before its hello record")
                elif isinstance(record, schema.Error):
                    record = msgspec.structs.replace(record, here=False)  # only the local relay speaks `here`
                yield record
                if isinstance(record, (schema.Result, schema.Error)):
                    return
        finally:
            lines.close()
        if self.version is None:  # the version line never came: missing, unreachable or foreign
            code = self.end.returncode
            stderr = self.end.stderr.decode("utf-8", "replace")
            nwa_remote.check_version_answer(self.profile, self.command, code, "\n".join(chatter),
                                            stderr, self.connect_timeout)
        raise self._broken_off()

    def _check_hello(self, record: schema.Hello) -> None:
        if record.protocol != PROTOCOL:
            if record.protocol < PROTOCOL:
                raise nwa_remote.too_old(self.profile, self.command, record.version)
            raise RemoteError.of("host_protocol_newer", host=self.profile.name, version=record.version,
                                 protocol=record.protocol, ours=PROTOCOL)

    def _broken_off(self) -> RemoteError:
        """Why the stream ended without a result: an old version, a lost connection or a killed run, a crash."""
        code = self.end.returncode if self.end.returncode is not None else -1
        text = self.end.stderr.decode("utf-8", "replace")
        last = clip(text.strip().splitlines()[-1], MESSAGE_CHARS) if text.strip() else ""
        if "unrecognized arguments" in text and ("--emit-jsonl" in text or "--run-spec" in text):
            return nwa_remote.too_old(self.profile, self.command, "(unknown)")
        if code == 255 or code < 0:  # ssh's own code: a connection problem it names, or the remote side vanished
            failure = ssh_failure(self.profile, 255, text, self.connect_timeout)
            if not str(failure).startswith("ssh to "):
                return failure
            if last:
                return RemoteError.of("host_run_lost_said", host=self.profile.name, last=last)
            return RemoteError.of("host_run_lost", host=self.profile.name)
        if last:
            return RemoteError.of("host_run_stopped", host=self.profile.name, code=code, last=last)
        return RemoteError.of("host_run_stopped_silent", host=self.profile.name, code=code)


RowsSink = Callable[[list[PrecisionRow]], None]
SidesSink = Callable[[SidesSummary], None]
Event = tuple[str, Any]


class RecordReader:
    """Turns records into events — ("progress", (done, total, message)), ("rows", new rows), ("indexed", sides),
    ("result", RemoteOutcome) — for a pulling reader (the CLI) and a pushed one (the GUI's process output).

    Whatever breaks the protocol (a bad line, a result naming rows never sent, …) is a StreamError naming
    the host; a host's `error` record is a RemoteRunError with a failure exit code.
    """

    def __init__(self, host: str) -> None:
        self.host = host
        self.assembler = ResultAssembler()
        self.files = 0
        self.outcome: RemoteOutcome | None = None

    def take_line(self, line: str | bytes) -> Event | None:
        """The event of one line of the stream (see take)."""
        try:
            record = schema.parse_record(line)
        except StreamError as error:
            raise broken_stream(self.host, str(error)) from None
        return self.take(record)

    def take(self, record: schema.StreamRecord) -> Event | None:
        """The event of one record (None for records that only feed the result); RemoteRunError for `error`."""
        try:
            return self._take(record)
        except StreamError as error:
            raise broken_stream(self.host, str(error)) from None

    def _take(self, record: schema.StreamRecord) -> Event | None:
        if isinstance(record, schema.Progress):
            return "progress", (record.done, record.total, clip(record.message, 300))
        if isinstance(record, schema.Rows):
            new = self.assembler.add_rows(record)
            return ("rows", new) if new else None
        if isinstance(record, schema.Indexed):
            sides = sides_from_record(record)
            self.files = sides.files
            return "indexed", sides
        if isinstance(record, schema.Producers):
            self.assembler.add_producers(record)
        elif isinstance(record, schema.NoticeItems):
            self.assembler.add_notice_items(record)
        elif isinstance(record, schema.Error):
            message = clip(record.message, MESSAGE_CHARS) or "the remote run failed"
            raise RemoteRunError(message if record.here else f"{message} (on host '{self.host}')",
                                 failure_code(record.exit_code), code=record.code,
                                 params=wire_params(record.params), on_host=None if record.here else self.host)
        elif isinstance(record, schema.Result):
            self.outcome = RemoteOutcome(self.assembler.result(record), self.assembler.producers, self.files)
            return "result", self.outcome
        return None
