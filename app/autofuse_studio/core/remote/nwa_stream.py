"""Run `nwa --emit-jsonl` on a host over ssh and read its record stream as it arrives; stop it on cancel.

ssh without a tty does not forward signals, so stopping means closing ssh's stdin: the remote side watches
its stdin (`--watch-stdin`) and exits on EOF; ssh is then terminated, and killed if it lingers.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.precision.dump_pairs import SidesSummary
from autofuse_studio.core.precision.result_stream import ResultAssembler, sides_from_record
from autofuse_studio.core.precision.row_stream import PROTOCOL, StreamError, decode_record
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.verdict import Port
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.core.remote import nwa_remote
from autofuse_studio.core.remote.profiles import HostProfile
from autofuse_studio.core.remote.ssh import RemoteError, ssh_argv, ssh_failure

POLL_S = 0.2
STOP_GRACE_S = 2.0
MAX_LINE_BYTES = 256 << 20
STDERR_KEPT = 64 << 10


class RemoteRunError(AppError):
    """The remote run failed with a sentence of its own (a missing dump folder, …); exit code as sent."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass
class RemoteOutcome:
    """A finished remote run: the rebuilt result and, when asked for, the producer index."""

    result: PrecisionResult
    producers: dict[str, list[Port | None]] | None
    files_indexed: int = 0


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """EOF to the remote side first (it exits and ssh with it), then terminate and kill ssh."""
    if proc.stdin is not None and not proc.stdin.closed:
        with contextlib.suppress(OSError):
            proc.stdin.close()
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
    buffer = b""
    try:
        while True:
            cancel.check()
            ready, _, _ = select.select([fd], [], [], POLL_S)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            if len(buffer) > MAX_LINE_BYTES:
                raise StreamError(f"The remote side sent a line longer than {MAX_LINE_BYTES >> 20} MB.")
            for line in lines:
                yield line.decode("utf-8", "replace")
        if buffer:
            yield buffer.decode("utf-8", "replace")
        proc.wait()
    finally:
        _stop(proc)
        reader.join(STOP_GRACE_S)
        proc.stdout.close()
        proc.stderr.close()
        end.returncode = proc.returncode
        end.stdin = None


class RemoteStream:
    """The records of one remote run, checked (hello first, protocol number) and with ssh errors as sentences."""

    def __init__(self, profile: HostProfile, request: nwa_remote.RemoteNwaRequest, connect_timeout: int = 10) -> None:
        self.profile = profile
        self.request = request
        self.connect_timeout = connect_timeout
        self.end = ProcessEnd()
        self.version: str | None = None  # the host's version, once its answer was read

    def records(self, cancel: CancelToken = NEVER_CANCELLED) -> Iterator[dict[str, Any]]:
        """Yield every record (hello included) until result or error; RemoteError when the stream breaks off."""
        command = nwa_remote.gated_command_line(self.request, self.profile.name)
        # Rows repeat their keys and dump paths: ssh's zlib makes ~850 B of JSON per row ~50 B on the wire.
        argv = compressed(ssh_argv(self.profile, command, self.connect_timeout))
        greeted = False
        chatter: list[str] = []  # what came before the version line (a foreign program's answer)
        lines = stream_lines(argv, cancel, self.end)
        try:
            for line in lines:
                if self.version is None:
                    if not line.startswith(nwa_remote.VERSION_MARK):
                        chatter = [*chatter[-20:], line]
                        continue
                    self.version = nwa_remote.check_version_answer(
                        self.profile, self.request.remote_command, 0, line.removeprefix(nwa_remote.VERSION_MARK),
                        "", self.connect_timeout)
                    self.end.send(b"go\n")  # the version is good: now the host may run the comparison
                    continue
                if not line.startswith("{"):
                    continue  # a login script's chatter on stdout is no record
                record = decode_record(line)
                if record["type"] == "hello":
                    self._check_hello(record)
                    greeted = True
                elif not greeted:
                    raise StreamError("The remote side sent records before its hello.")
                yield record
                if record["type"] in ("result", "error"):
                    return
        finally:
            lines.close()
        if self.version is None:  # the version line never came: missing, unreachable or foreign
            code = self.end.returncode
            stderr = self.end.stderr.decode("utf-8", "replace")
            nwa_remote.check_version_answer(self.profile, self.request.remote_command, code, "\n".join(chatter),
                                            stderr, self.connect_timeout)
        raise self._broken_off()

    def _check_hello(self, record: dict[str, Any]) -> None:
        if record.get("protocol") != PROTOCOL:
            version = str(record.get("version", "?"))
            raise RemoteError(nwa_remote.too_old(self.profile, self.request.remote_command, version)
                              if not isinstance(record.get("protocol"), int) or record["protocol"] < PROTOCOL else
                              f"Host '{self.profile.name}' runs Autofuse Studio {version} with stream protocol "
                              f"{record['protocol']}, newer than this one's {PROTOCOL}; upgrade here too.")

    def _broken_off(self) -> RemoteError:
        """Why the stream ended without a result: an old version, a lost connection or a killed run, a crash."""
        code = self.end.returncode if self.end.returncode is not None else -1
        text = self.end.stderr.decode("utf-8", "replace")
        last = text.strip().splitlines()[-1] if text.strip() else ""
        if "unrecognized arguments" in text and "--emit-jsonl" in text:
            return RemoteError(nwa_remote.too_old(self.profile, self.request.remote_command, "(unknown)"))
        if code == 255 or code < 0:  # ssh's own code: a connection problem it names, or the remote side vanished
            failure = ssh_failure(self.profile, 255, text, self.connect_timeout)
            if not str(failure).startswith("ssh to "):
                return failure
            return RemoteError(f"The comparison on host '{self.profile.name}' ended before its result: the remote "
                               "process was killed or the connection was lost" + (f" ({last})." if last else "."))
        return RemoteError(f"The remote autofuse-studio on host '{self.profile.name}' stopped with exit code {code} "
                           f"before its result: {last or 'no output'}")


RowsSink = Callable[[list[PrecisionRow]], None]
SidesSink = Callable[[SidesSummary], None]
Event = tuple[str, Any]


class RecordReader:
    """Turns records into events — ("progress", (done, total, message)), ("rows", new rows), ("indexed", sides),
    ("result", RemoteOutcome) — for a pulling reader (the CLI) and a pushed one (the GUI's process output)."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.assembler = ResultAssembler()
        self.files = 0
        self.outcome: RemoteOutcome | None = None

    def take(self, record: dict[str, Any]) -> Event | None:
        """The event of one record (None for records that only feed the result); RemoteRunError for `error`."""
        kind = record["type"]
        if kind == "progress":
            return kind, (int(record["done"]), int(record["total"]), str(record["message"]))
        if kind == "rows":
            new = self.assembler.add_rows(record)
            return (kind, new) if new else None
        if kind == "indexed":
            sides = sides_from_record(record)
            self.files = sides.files
            return kind, sides
        if kind == "producers":
            self.assembler.add_producers(record)
        elif kind == "error":
            message = str(record.get("message", "the remote run failed"))
            raise RemoteRunError(message if record.get("here") else f"{message} (on host '{self.host}')",
                                 int(record.get("exit_code", 1)))
        elif kind == "result":
            self.outcome = RemoteOutcome(self.assembler.result(record), self.assembler.producers, self.files)
            return kind, self.outcome
        return None


def collect(records: Iterator[dict[str, Any]], host: str, *, progress: Progress = no_progress,
            on_rows: RowsSink | None = None, on_indexed: SidesSink | None = None) -> RemoteOutcome:
    """Rebuild the run from its records: rows and progress passed on as they come, the result at the end."""
    reader = RecordReader(host)
    for record in records:
        event = reader.take(record)
        if event is None:
            continue
        kind, payload = event
        if kind == "progress":
            progress(*payload)
        elif kind == "rows" and on_rows is not None:
            on_rows(payload)
        elif kind == "indexed" and on_indexed is not None:
            on_indexed(payload)
        elif kind == "result":
            return payload  # type: ignore[no-any-return]
    raise StreamError("The record stream ended without a result.")


def run_remote_mode1(profile: HostProfile, request: nwa_remote.RemoteNwaRequest, *, connect_timeout: int = 10,
                     progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED,
                     on_rows: RowsSink | None = None, on_indexed: SidesSink | None = None) -> RemoteOutcome:
    """Check the remote version, run mode 1 there and rebuild its result here (identical to a local run's)."""
    nwa_remote.check_request(request, profile.name)
    progress(0, 0, f"connecting to host '{profile.name}'")
    stream = RemoteStream(profile, request, connect_timeout)
    return collect(stream.records(cancel), profile.name, progress=progress, on_rows=on_rows, on_indexed=on_indexed)
