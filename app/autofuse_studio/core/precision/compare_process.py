"""A helper process that compares batches of tiny pairs, so that their Python glue runs on another core.

A big model has tens of thousands of tiny dump pairs. Comparing one costs ~50 µs of Python (reading the
headers, preparing, building the result), all of it under the run's one GIL, beside the graph parsing and the
planning: on two cores the second core sat idle. The helper is this program again (`--compare-worker`),
comparing with the very same code (pair_batch.compare_pairs); the parent sends frames of packed pairs
(packed_sides) on the child's stdin and reads one reply per frame on its stdout: msgpack of strict msgspec
structs (cluster.wire's CompareReply), never a pickle. Whatever goes wrong with the helper (it cannot start,
dies, or answers what does not decode) sends the frames it had not answered to `fallback`, the in-process
path: the results are the same either way, only slower.
"""

from __future__ import annotations

import collections
import contextlib
import os
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import IO, cast

import msgspec

from autofuse_studio.core.cluster.wire import TaskFailed, WireError, decode_compare, encode_compare, encode_failure
from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.precision.packed_sides import PackedLayout, PackedPair, PackedSide, pack
from autofuse_studio.core.precision.pair import PairResult, PairSide
from autofuse_studio.core.progress import CancelToken

PairKey = tuple[PairSide, PairSide]
Outcomes = dict[PairKey, PairResult]
Fallback = Callable[[list[PairKey]], "Future[Outcomes]"]

WORKER_FLAG = "--compare-worker"  # the hidden command line of the helper (cli.main and the frozen launcher)
# "0" never starts the helper, "1" starts it for any number of tiny pairs (tests); unset: PROCESS_MIN_PAIRS.
ENV = "AUTOFUSE_STUDIO_COMPARE_PROCESS"
# Below this many tiny pairs the helper's start (an interpreter importing numpy: 0.2-0.4 s of CPU) costs more
# than it takes off the run's GIL (~50 µs a pair).
PROCESS_MIN_PAIRS = 4000
# Pairs this small are GIL-bound (glue, not arithmetic); bigger ones stay on the threads, whose numpy and
# kernel passes let go of the GIL.
TINY_PAIR_BYTES = 64 << 10
FRAME_PAIRS = 256  # ~12 ms of the helper's work a frame: a few frames in flight keep it busy
_FRAME_LIMIT = 256 << 20  # bytes of one frame, either way (a bound, not a size ever reached)
_CANCEL_POLL_S = 0.05
_HEAD = struct.Struct("<I")
_REQUEST = msgspec.msgpack.Decoder(list[PackedPair])
_ENCODER = msgspec.msgpack.Encoder()


def helper_wanted(tiny_pairs: int, jobs: int) -> bool:
    """Whether `tiny_pairs` pairs on `jobs` workers are worth a helper process (see ENV)."""
    setting = os.environ.get(ENV, "")
    if setting == "0" or jobs < 2:
        return False
    return tiny_pairs > 0 and (setting == "1" or tiny_pairs >= PROCESS_MIN_PAIRS)


def worker_argv() -> list[str]:
    """How to start the helper: this bundle's executable, or this interpreter with this package importable."""
    if getattr(sys, "frozen", False):
        return [sys.executable, WORKER_FLAG]
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    # The parent path goes as an argument, never into the code text.
    code = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "from autofuse_studio.core.precision.compare_process import serve; sys.exit(serve())")
    return [sys.executable, "-c", code, package_parent]


Frame = tuple[list[PairKey], "Future[Outcomes]"]


class _Channel:
    """One helper process: the frames sent to it and not yet answered, in order, and its two pipe threads."""

    def __init__(self, owner: CompareHelper, number: int) -> None:
        self.sent: collections.deque[Frame] = collections.deque()
        self.broken = False
        self.process = subprocess.Popen(worker_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, close_fds=True)
        self.threads = [threading.Thread(target=owner._write_frames, args=(self,), daemon=True,
                                         name=f"compare-helper-{number}-out"),
                        threading.Thread(target=owner._read_replies, args=(self,), daemon=True,
                                         name=f"compare-helper-{number}-in")]
        for thread in self.threads:
            thread.start()

    def end(self) -> None:
        """Wait for the process to exit (after its input ended); kill it when it hangs, and close its pipes."""
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class CompareHelper:
    """The parent's side: submit() frames of pairs, each answered by a future of their outcomes, by `processes`
    helper processes taking frames from one queue."""

    def __init__(self, fallback: Fallback, cancel: CancelToken, processes: int = 1) -> None:
        self._fallback = fallback
        self._cancel = cancel
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._queued: collections.deque[Frame] = collections.deque()
        self._closing = False
        self._comparing_here = False  # a thread of this process is taking queued frames (compare_queued)
        self._channels: list[_Channel] = []
        for number in range(max(1, processes)):
            try:
                self._channels.append(_Channel(self, number))
            except OSError:
                break  # the ones started do the work; none: every frame goes to the fallback
        self._closed = threading.Event()
        # A helper busy with a frame, or hung, is not waiting on anything the token could wake: killed on cancel.
        self._watcher = threading.Thread(target=self._kill_on_cancel, name="compare-helper-cancel", daemon=True)
        self._watcher.start()

    def submit(self, keys: list[PairKey]) -> dict[PairKey, Future[Outcomes]]:
        """A future per frame of FRAME_PAIRS pairs, for each of `keys`."""
        futures: dict[PairKey, Future[Outcomes]] = {}
        frames: list[Frame] = []
        for start in range(0, len(keys), FRAME_PAIRS):
            chunk = keys[start:start + FRAME_PAIRS]
            future: Future[Outcomes] = Future()
            futures.update((key, future) for key in chunk)
            frames.append((chunk, future))
        with self._lock:
            if self._working():
                self._queued.extend(frames)
                self._wake.notify_all()
                return futures
        for chunk, future in frames:
            self._fall_back(chunk, future)
        return futures

    def compare_queued(self, compare: Callable[[list[PairKey]], Outcomes]) -> int:
        """Compare frames still queued for the helpers with `compare` on this thread, the last first, until none
        is left; the number of frames taken. The caller's core is free once its own work is done (the graphs
        parsed, the plan drawn), while the helpers (one process on two cores) still had seconds of frames queued:
        the rest of a statistics-mode big model's frames then took 2.3 s on one core with the other idle."""
        with self._lock:
            if self._comparing_here:
                return 0  # one such thread is enough: the rest of the cores are the helpers'
            self._comparing_here = True
        try:
            return self._compare_here(compare)
        finally:
            with self._lock:
                self._comparing_here = False

    def _compare_here(self, compare: Callable[[list[PairKey]], Outcomes]) -> int:
        taken = 0
        while (frame := self._take_last()) is not None:
            keys, future = frame
            if not future.set_running_or_notify_cancel():
                continue  # nobody needs it any more
            taken += 1
            try:
                future.set_result(compare(keys))
            except BaseException as error:  # noqa: BLE001 - the waiting caller raises it, as the pool's futures do
                future.set_exception(error)
        return taken

    def _take_last(self) -> Frame | None:
        with self._lock:
            if self._closing or not self._working() or not self._queued:
                return None
            return self._queued.pop()

    def close(self, abort: bool = False) -> None:
        """Let the helpers finish what they were sent, then end them (their stdin closed); with `abort`, kill them
        at once and leave their frames unanswered (the run is stopping on an error)."""
        with self._lock:
            self._closing = True
            if abort:
                self._queued.clear()
                for channel in self._channels:
                    channel.broken = True
                    channel.sent.clear()
            self._wake.notify_all()
        for channel in self._channels:
            if abort and channel.process.poll() is None:
                channel.process.kill()
            for thread in channel.threads:
                thread.join(timeout=30)
            channel.end()
        self._closed.set()
        self._watcher.join()

    def _kill_on_cancel(self) -> None:
        while not self._closed.is_set():
            if self._cancel.wait(_CANCEL_POLL_S):
                for channel in self._channels:
                    if channel.process.poll() is None:
                        channel.process.kill()  # its reader ends, and its frames end as Cancelled (_break)
                return

    def _working(self) -> bool:
        return any(not channel.broken for channel in self._channels)

    def _next_frame(self, channel: _Channel) -> Frame | None:
        with self._lock:
            while not self._queued and not self._closing and not channel.broken:
                self._wake.wait()
            if channel.broken or not self._queued:
                return None
            frame = self._queued.popleft()
            channel.sent.append(frame)
            return frame

    def _write_frames(self, channel: _Channel) -> None:
        stdin = channel.process.stdin
        assert stdin is not None
        try:
            while (frame := self._next_frame(channel)) is not None:
                keys, future = frame
                if self._cancel.cancelled:
                    raise Cancelled()
                if not future.set_running_or_notify_cancel():
                    keys = []  # nobody needs it any more: an empty frame keeps replies in step with frames
                payload = _ENCODER.encode([pack(key) for key in keys])
                stdin.write(_HEAD.pack(len(payload)) + payload)
                stdin.flush()
        except BaseException:  # noqa: BLE001  (an unexpected error too: its frames must not wait forever)
            self._break(channel)
        finally:
            with contextlib.suppress(OSError):
                stdin.close()  # the helper ends at the end of its input

    def _read_replies(self, channel: _Channel) -> None:
        stdout = channel.process.stdout
        assert stdout is not None
        try:
            for payload in _frames(stdout):
                with self._lock:
                    if not channel.sent:
                        raise WireError("a reply to no frame")
                    keys, future = channel.sent.popleft()
                if future.cancelled():
                    continue
                try:
                    results = decode_compare(payload, len(keys))
                except WireError:
                    self._fall_back(keys, future)  # out of `sent` already: _break would not see it
                    raise
                if isinstance(results, TaskFailed):
                    self._fall_back(keys, future)
                else:
                    future.set_result(dict(zip(keys, results, strict=True)))
                if self._cancel.cancelled:
                    break
        except (OSError, ValueError, WireError):
            pass
        finally:  # whatever stopped the loop, no frame of this helper is left waiting
            self._break(channel)

    def _break(self, channel: _Channel) -> None:
        """A helper is done or unusable: the frames it did not answer go to the fallback (or are cancelled), and
        so does the queue when no helper is left."""
        with self._lock:
            channel.broken = True
            left = list(channel.sent)
            channel.sent.clear()
            if not self._working():
                left += self._queued
                self._queued.clear()
            self._wake.notify_all()
        if channel.process.poll() is None and (left or self._cancel.cancelled):
            channel.process.kill()
        for keys, future in left:
            if future.done():
                continue
            if self._cancel.cancelled:
                if future.running() or future.set_running_or_notify_cancel():
                    future.set_exception(Cancelled())
                continue
            self._fall_back(keys, future)

    def _fall_back(self, keys: list[PairKey], future: Future[Outcomes]) -> None:
        """The frame compared in-process instead, its outcome copied into `future`."""
        if not (future.running() or future.set_running_or_notify_cancel()):
            return
        local = self._fallback(keys)

        def copy(done: Future[Outcomes]) -> None:
            if done.cancelled():  # the pool was shut down on an error
                future.set_exception(Cancelled())
                return
            error = done.exception()
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(done.result())

        local.add_done_callback(copy)


def _frames(stream: IO[bytes]) -> Iterator[bytes]:
    """The length-prefixed frames of `stream` until its end; ValueError for a cut or oversized one."""
    while True:
        head = stream.read(_HEAD.size)
        if not head:
            return
        if len(head) != _HEAD.size:
            raise ValueError("a frame's length is cut short")
        (size,) = _HEAD.unpack(head)
        if size > _FRAME_LIMIT:
            raise ValueError(f"a frame of {size} bytes")
        payload = stream.read(size)
        if len(payload) != size:
            raise ValueError("a frame is cut short")
        yield payload


def serve(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """The helper's loop: compare every frame of pairs read from stdin, one reply each on stdout, until the end."""
    from autofuse_studio import __version__
    from autofuse_studio.core.precision.pair_batch import compare_pairs

    if stdout is None:
        # The replies get a descriptor of their own; anything else written to stdout (a library's print)
        # goes to stderr instead of into a frame.
        stdout = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
    source = stdin if stdin is not None else sys.stdin.buffer
    layouts: dict[PackedLayout, LayoutInfo] = {}

    def side(packed: PackedSide) -> PairSide:
        # The path stays text here: comparing only opens the file and names it in messages, which read the same
        # (the text is str() of the parent's Path), and a Path costs a third of a tiny pair's time in the helper.
        path, layout, label, dtype = packed
        info = None if layout is None else layouts.get(layout)
        if info is None and layout is not None:
            info = layouts.setdefault(layout, LayoutInfo(*layout))
        return PairSide(cast("Path | None", path), info, label, dtype)

    try:
        for payload in _frames(source):
            try:
                keys = [(side(fused), side(origin)) for fused, origin in _REQUEST.decode(payload)]
                outcomes = compare_pairs(keys)
                reply = encode_compare([outcomes[key] for key in keys])
            except Exception as error:  # noqa: BLE001  (the parent compares the frame itself)
                reply = encode_failure(__version__, error)
            stdout.write(_HEAD.pack(len(reply)) + reply)
            stdout.flush()
    except (OSError, ValueError):
        return 1
    return 0
