"""The client's Dask connection: it never unpickles anything the cluster sends.

Dask pickles by default, and a worker is whoever connects to the scheduler: on an unauthenticated
`tcp://` scheduler, anybody who can reach its port. Every path by which a worker's bytes could reach
`pickle.loads` in this process is closed (docs/security.md, "Cluster trust model"):

1. Task results: the client asks for msgpack only (`deserializers=("msgpack",)`, which Dask also sends to
   the worker or the scheduler that serializes the result). The tasks return bytes, which an honest worker
   sends as msgpack; a result serialized any other way (pickle, or Dask's own serializer, whose header holds
   a pickled type) is refused by Dask before it is read, and the run stops with a sentence naming the worker.
2. Task errors (`task-erred`, a pickled exception from the worker, which Dask unpickles on arrival): the
   scheduler stream is read without deserializing, and the error is kept as text read from the pickle's
   opcodes (`pickletools`, which never runs anything). autofuse-studio's tasks never raise: they send errors
   as text records (wire.TaskFailed).
3. `key-in-memory` carries the result's pickled type (Dask unpickles it on arrival): dropped unread.
4. Events: `warn` events unpickle their message and `print` events write to this process's stdout: every
   event is dropped unread.
5. What is left (a part of any message marked `__Pickled__`, an `uncaught-error` reply, a scheduler that
   sends pickles itself): while a client is open, `distributed.protocol.pickle.loads` and the client
   module's `loads` refuse in this process (`refusing_pickles`); the run then stops with a sentence.

The client also never hangs on a server that is not a Dask scheduler: starting it is bounded by the connect
timeout, and a failed start closes it at once (Dask would otherwise wait in `Client.__del__`).
"""

from __future__ import annotations

import contextlib
import functools
import pickletools
import threading
from collections.abc import Iterator
from typing import Any

from autofuse_studio.core.cluster.address import require_distributed

_PEEK_LIMIT = 1 << 20  # bytes of an error's pickle read for its text
_TEXT_LIMIT = 300
_CLOSE_S = 2.0
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "KilledWorker")


class PickleRefused(Exception):
    """Raised in place of unpickling data that came from the cluster."""


class TaskError(Exception):
    """A task's error as Dask reported it, kept as text (never unpickled); `killed` for Dask's KilledWorker."""

    def __init__(self, text: str, killed: bool = False) -> None:
        super().__init__(text)
        self.text = text
        self.killed = killed


# --- 5. no unpickling in this process while a client is open ---------------------------------------------

_guard_lock = threading.Lock()
_guard_users = 0
_saved: list[tuple[Any, str, Any]] = []
_refused = [0]  # pickles refused by this process so far


def _refuse(data: object = None, *args: object, **kwargs: object) -> Any:
    what = f"{len(data)} bytes" if isinstance(data, (bytes, bytearray, memoryview)) else type(data).__name__
    _refused[0] += 1
    raise PickleRefused(f"a pickled object ({what}) came from the Dask cluster; this client never unpickles one")


def refusals() -> int:
    """How many pickles this process has refused so far (a run compares the count before and after)."""
    return _refused[0]


@contextlib.contextmanager
def refusing_pickles() -> Iterator[None]:
    """While inside: Dask's unpickling functions in this process refuse (re-entrant, thread-safe)."""
    global _guard_users
    require_distributed()
    import distributed.client
    import distributed.protocol.pickle

    with _guard_lock:
        if _guard_users == 0:
            for module in (distributed.protocol.pickle, distributed.client):
                _saved.append((module, "loads", module.loads))
                module.loads = _refuse  # type: ignore[attr-defined]
        _guard_users += 1
    try:
        yield
    finally:
        with _guard_lock:
            _guard_users -= 1
            if _guard_users == 0:
                while _saved:
                    module, name, original = _saved.pop()
                    setattr(module, name, original)


# --- 2. an error's text without unpickling it -------------------------------------------------------------


def _frames_bytes(blob: Any) -> bytes | None:
    """The pickle inside what Dask sent for an error: raw bytes (from the scheduler) or a Serialized of bytes."""
    if isinstance(blob, (bytes, bytearray, memoryview)):
        return bytes(blob)
    header, frames = getattr(blob, "header", None), getattr(blob, "frames", None)
    if not isinstance(header, dict) or not isinstance(frames, (list, tuple)):
        return None
    if header.get("serializer") != "dask" or header.get("type") not in ("bytes", "builtins.bytes"):
        return None
    if any(compression is not None for compression in header.get("compression") or ()):
        return None  # Dask compresses frames above 10 kB only; a compressed error is not inflated here
    if not all(isinstance(frame, (bytes, bytearray, memoryview)) for frame in frames):
        return None
    return b"".join(bytes(frame) for frame in frames)


_STRING_OPS = frozenset({"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE"})
_GET_OPS = frozenset({"GET", "BINGET", "LONG_BINGET"})
_PUT_OPS = frozenset({"PUT", "BINPUT", "LONG_BINPUT"})


def _peek(data: bytes) -> tuple[str, str] | None:
    """(class name, first text argument) of a pickled exception, read from its opcodes; nothing is executed."""
    tokens: list[tuple[bool, str]] = []  # (a class or function reference?, its text), strings and references
    memo: dict[int, tuple[bool, str] | None] = {}
    last: tuple[bool, str] | None = None  # the token the previous opcode pushed
    for opcode, argument, _ in pickletools.genops(data[:_PEEK_LIMIT]):
        name, pushed = opcode.name, None
        if name in _STRING_OPS:
            pushed = (False, str(argument))
        elif name == "STACK_GLOBAL":
            reference = tokens[-1][1] if tokens else "?"
            del tokens[-2:]  # the module and the name it took from the stack
            pushed = (True, reference)
        elif name in ("GLOBAL", "INST"):
            pushed = (True, str(argument).rpartition(" ")[2])
        elif name == "MEMOIZE":
            memo[len(memo)] = last
        elif name in _PUT_OPS and isinstance(argument, int):
            memo[argument] = last
        elif name in _GET_OPS and isinstance(argument, int):
            pushed = memo.get(argument)
        if pushed is not None:
            tokens.append(pushed)
        if name not in ("MEMOIZE", *_PUT_OPS):
            last = pushed
    return _exception_in(tokens)


def _exception_in(tokens: list[tuple[bool, str]]) -> tuple[str, str] | None:
    """The first exception class referenced and the first string of its arguments (tblib pickles the
    arguments plainly, or as {'__dict__': …, 'args': (…)} for exceptions with attributes)."""
    for position, (reference, text) in enumerate(tokens):
        if reference and text.endswith(_EXCEPTION_SUFFIXES):
            strings: list[str] = []
            for is_reference, value in tokens[position + 1:]:
                if is_reference:
                    break
                strings.append(value)
            if strings[:1] == ["__dict__"]:
                strings = strings[strings.index("args") + 1:] if "args" in strings else []
            message = strings[0] if strings else ""
            return text, "" if message.startswith("__") and message.endswith("__") else message
    return None


def _clean(text: str) -> str:
    text = "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
    return text if len(text) <= _TEXT_LIMIT else text[:_TEXT_LIMIT - 1] + "…"


def describe_error(blob: Any) -> TaskError:
    """What Dask sent for a failed task (a pickled exception), as a TaskError with its class and message."""
    if isinstance(blob, BaseException):  # made in this process (a cancel), never received
        return blob if isinstance(blob, TaskError) else TaskError(_clean(f"{type(blob).__name__}: {blob}"))
    try:
        data = _frames_bytes(blob)
        peeked = None if data is None else _peek(data)
    except Exception:  # noqa: BLE001  (a broken pickle is described as such)
        peeked = None
    if peeked is None:
        return TaskError("an error this client does not unpickle (see the worker's log)")
    name, message = peeked
    return TaskError(_clean(f"{name}: {message}" if message else name), killed=name == "KilledWorker")


# --- 1-4. the client ------------------------------------------------------------------------------------


@functools.cache
def client_class() -> type:
    """distributed.Client with every path that unpickles worker data closed (built on first use)."""
    distributed = require_distributed()
    from distributed.utils import sync

    class SafeClient(distributed.Client):  # type: ignore[misc, name-defined]
        """A Client that reads results as msgpack only and never deserializes errors, types or events."""

        def __init__(self, address: str, *, timeout: float, security: Any) -> None:
            super().__init__(address, timeout=f"{timeout}s", set_as_default=False, security=security,
                             deserializers=("msgpack",))

        def start(self, **kwargs: Any) -> None:
            """Start within the timeout (Dask waits for a handshake forever); close at once when it fails."""
            if self.asynchronous or self.status != "newly-created":
                super().start(**kwargs)
                return
            self._loop_runner.start()
            try:
                sync(self.loop, self._start, callback_timeout=self._timeout, **kwargs)
            except BaseException:
                with contextlib.suppress(Exception):
                    self.close(timeout=_CLOSE_S)
                raise

        async def _ensure_connected(self, timeout: float | None = None) -> None:
            await super()._ensure_connected(timeout=timeout)
            stream = self.scheduler_comm
            if stream is not None and stream.comm is not None:
                stream.comm.deserialize = False  # errors stay Serialized; see _handle_task_erred

        def _handle_task_erred(self, key: Any = None, exception: Any = None, traceback: Any = None) -> None:
            state = self.futures.get(key)
            if state is not None:
                state.set_error(describe_error(exception), None)

        def _handle_key_in_memory(self, key: Any = None, type: Any = None, workers: Any = None) -> None:
            super()._handle_key_in_memory(key=key, type=None, workers=workers)  # the pickled type: unread

        async def _handle_event(self, topic: str, event: Any) -> None:
            return None  # `warn` unpickles, `print` writes to our stdout: no event is read

    return SafeClient
