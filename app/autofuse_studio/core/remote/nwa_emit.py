"""The remote side of `nwa --host`: a mode-1 run written as a record stream (see core.precision.result_stream)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from autofuse_studio import __version__
from autofuse_studio.core.errors import AppError
from autofuse_studio.core.precision.dump_pairs import summarise_sides
from autofuse_studio.core.precision.engine import LoadedCase, Mode1Request, run_mode1
from autofuse_studio.core.precision.plan import producer_index
from autofuse_studio.core.precision.result_stream import RowEmitter, sides_record
from autofuse_studio.core.precision.row_stream import PROTOCOL, encode_record
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken

PROGRESS_INTERVAL_S = 0.1


class RecordWriter:
    """Writes records as lines through `write_text`, one at a time (progress arrives from worker threads)."""

    def __init__(self, write_text: Callable[[str], None]) -> None:
        self._write_text = write_text
        self._lock = threading.Lock()
        self._last_progress = 0.0

    def __call__(self, record: dict[str, Any]) -> None:
        """Write one record."""
        text = encode_record(record)
        with self._lock:
            self._write_text(text)

    def progress(self, done: int, total: int, message: str = "") -> None:
        """A Progress: at most 10 records a second, the last of a stage always."""
        now = time.monotonic()
        if now - self._last_progress < PROGRESS_INTERVAL_S and done < total:
            return
        self._last_progress = now
        self({"type": "progress", "done": int(done), "total": int(total), "message": str(message)})


def hello_record() -> dict[str, Any]:
    """The first record: protocol number, version and pid (so a cancel can be traced to the process)."""
    return {"type": "hello", "protocol": PROTOCOL, "version": __version__, "pid": os.getpid()}


def emit_mode1(request: Mode1Request, write: RecordWriter, *, producers: bool = False,
               cancel: CancelToken = NEVER_CANCELLED) -> int:
    """Run mode 1 and stream it: hello, progress, indexed, rows as they finish, [producers], result.

    An AppError becomes an `error` record with the sentence and the exit code a local run would give.
    """
    write(hello_record())
    emitter = RowEmitter(write)
    loaded: list[LoadedCase] = []

    def on_case(case: LoadedCase) -> None:
        loaded.append(case)
        write(sides_record(summarise_sides(case.open_index, case.close_index)))

    try:
        result = run_mode1(request, write.progress, cancel, on_rows=emitter.rows, on_case=on_case)
    except AppError as error:
        write({"type": "error", "message": str(error), "exit_code": error.exit_code})
        return error.exit_code
    if producers and loaded:
        emitter.producers(producer_index(loaded[0].af_open))
    emitter.result(result)
    return 0
