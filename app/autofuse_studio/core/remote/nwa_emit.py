"""The remote side of `nwa --host`: a mode-1 run written as a record stream (see core.precision.result_stream)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from autofuse_studio import __version__
from autofuse_studio.core.errors import AppError, coded_fields
from autofuse_studio.core.precision.plan import producer_index
from autofuse_studio.core.precision.result_stream import RowEmitter, sides_record
from autofuse_studio.core.precision.row_stream import PROTOCOL, encode_record
from autofuse_studio.core.run.events import Failed, Finished, Indexed, Progressed, RowsDone
from autofuse_studio.core.run.runners import LocalRunner
from autofuse_studio.core.run.spec import RunSpec

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


def emit_mode1(spec: RunSpec, write: RecordWriter, *, producers: bool = False) -> int:
    """Run the spec here and stream it: hello, progress, indexed, rows as they finish, [producers], result.

    An AppError becomes an `error` record with the sentence and the exit code a local run would give.
    """
    write(hello_record())
    emitter = RowEmitter(write)
    for event in LocalRunner().start(spec, live=True).events():
        if isinstance(event, Progressed):
            write.progress(event.done, event.total, event.message)
        elif isinstance(event, Indexed):
            write(sides_record(event.sides))
        elif isinstance(event, RowsDone):
            emitter.rows(event.rows)
        elif isinstance(event, Failed):
            if not isinstance(event.error, AppError):
                raise event.error
            write({"type": "error", "message": str(event.error), "exit_code": event.error.exit_code,
                   **coded_fields(event.error)})
            return event.error.exit_code
        elif isinstance(event, Finished):
            if producers and event.outcome.case is not None:
                emitter.producers(producer_index(event.outcome.case.af_open))
            emitter.result(event.outcome.result)
    return 0
