"""The compare helper process gives compare_pair's result for every pair, and whatever goes wrong with it (no start,
death, garbage, a hang on cancel) costs time, never a different answer."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import msgspec
import pytest

from autofuse_studio.cli import COMPARE_WORKER_FLAG
from autofuse_studio.core.cluster.wire import TaskFailed, decode_compare
from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.precision import compare_process, scheduler
from autofuse_studio.core.precision.compare_process import CompareHelper, helper_wanted, serve
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.packed_sides import pack
from autofuse_studio.core.precision.pair import PairResult, compare_pair
from autofuse_studio.core.precision.pair_batch import PairKey
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken
from autofuse_studio.core.run.spec import RunSpec
from tests.core.test_pair_batch import _Case, _comparable, case  # noqa: F401  (the pairs fixture)
from tests.synth import generate_case
from tests.synth.spec import full_coverage_spec

_HEAD = struct.Struct("<I")


class _Fallback:
    """The in-process path the helper hands frames back to, counting the pairs it gets."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.pairs = 0

    def __call__(self, keys: list[PairKey]) -> Future[dict[PairKey, PairResult]]:
        self.pairs += len(keys)
        return self.pool.submit(lambda: {key: compare_pair(*key) for key in keys})


def _run_helper(keys: list[PairKey], fallback: _Fallback, processes: int = 1,
                cancel: CancelToken = NEVER_CANCELLED) -> dict[PairKey, PairResult]:
    helper = CompareHelper(fallback, cancel, processes)
    try:
        futures = helper.submit(keys)
        return {key: future.result(timeout=120)[key] for key, future in futures.items()}
    finally:
        helper.close()


def _assert_compare_pair_results(keys: list[PairKey], results: dict[PairKey, PairResult]) -> None:
    assert set(results) == set(keys)
    for key in keys:
        assert _comparable(results[key]) == _comparable(compare_pair(*key)), key


@pytest.mark.parametrize("processes", [1, 2])
def test_the_helper_gives_compare_pairs_result_for_every_pair(case: _Case, processes: int,  # noqa: F811
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compare_process, "FRAME_PAIRS", 37)  # frames end anywhere, several per helper
    fallback = _Fallback()
    results = _run_helper(case.keys, fallback, processes)
    _assert_compare_pair_results(case.keys, results)
    assert fallback.pairs == 0  # the helpers answered every frame, the unreadable and broken pairs too


_DIES = "import sys; sys.stdin.buffer.read(6); sys.exit(3)"
_GARBAGE = ("import sys, struct; sys.stdin.buffer.read(4)\n"
            "sys.stdout.buffer.write(struct.pack('<I', 4) + b'\\x93abc'); sys.stdout.buffer.flush()\n"
            "sys.stdin.buffer.read()")
_TOO_FEW = ("import sys, struct, msgspec; sys.stdin.buffer.read(4)\n"
            "reply = msgspec.msgpack.encode(['compare', []])\n"
            "sys.stdout.buffer.write(struct.pack('<I', len(reply)) + reply); sys.stdout.buffer.flush()\n"
            "sys.stdin.buffer.read()")
_HUGE_FRAME = ("import sys, struct; sys.stdin.buffer.read(4)\n"
               "sys.stdout.buffer.write(struct.pack('<I', 0xFFFFFFFF)); sys.stdout.buffer.flush()\n"
               "sys.stdin.buffer.read()")


@pytest.mark.parametrize("script", [_DIES, _GARBAGE, _TOO_FEW, _HUGE_FRAME, None],
                         ids=["dies", "garbage", "too-few-results", "huge-frame", "cannot-start"])
def test_a_helper_that_fails_leaves_its_frames_to_the_process(case: _Case, script: str | None,  # noqa: F811
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [sys.executable, "-c", script] if script else ["/nonexistent/autofuse-helper"]
    monkeypatch.setattr(compare_process, "worker_argv", lambda: argv)
    monkeypatch.setattr(compare_process, "FRAME_PAIRS", 50)
    keys = case.keys[:120]
    fallback = _Fallback()
    _assert_compare_pair_results(keys, _run_helper(keys, fallback))
    assert fallback.pairs == len(keys)


def test_a_second_helper_that_cannot_start_leaves_the_work_to_the_first(case: _Case,  # noqa: F811
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # (A helper that dies mid-run may already hold several frames in its pipe: those go to the fallback, which
    # the single-helper cases above check; how many is up to the pipe, so it is not counted here.)
    real = compare_process.worker_argv()
    argvs = iter([real, ["/nonexistent/autofuse-helper"]])
    monkeypatch.setattr(compare_process, "worker_argv", lambda: next(argvs))
    monkeypatch.setattr(compare_process, "FRAME_PAIRS", 20)
    fallback = _Fallback()
    _assert_compare_pair_results(case.keys, _run_helper(case.keys, fallback, processes=2))
    assert fallback.pairs == 0  # the one helper that started answered every frame


def _held_helper(monkeypatch: pytest.MonkeyPatch, flag: Path) -> None:
    """Helpers that start serving only once `flag` exists (until then their pipes fill and frames stay queued)."""
    real = compare_process.worker_argv()
    wait = "import os, sys, time\nwhile not os.path.exists(sys.argv[2]): time.sleep(0.01)\n"
    monkeypatch.setattr(compare_process, "worker_argv", lambda: [real[0], "-c", wait + real[2], real[3], str(flag)])


def test_frames_still_queued_are_compared_here_the_last_first(case: _Case, tmp_path: Path,  # noqa: F811
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    flag = tmp_path / "serve"
    _held_helper(monkeypatch, flag)
    monkeypatch.setattr(compare_process, "FRAME_PAIRS", 1)
    keys = case.keys * 4  # ~1200 one-pair frames: more than a pipe holds, so most stay queued
    fallback = _Fallback()
    helper = CompareHelper(fallback, NEVER_CANCELLED)
    try:
        futures = helper.submit(keys)
        frames = list(dict.fromkeys(futures.values()))
        compared: list[list[PairKey]] = []

        def here(chunk: list[PairKey]) -> dict[PairKey, PairResult]:
            compared.append(chunk)
            return {key: compare_pair(*key) for key in chunk}

        taken = helper.compare_queued(here)
        assert taken == len(compared) > len(frames) // 2
        assert compared[0] == [keys[-1]]  # the last frame first: the helper keeps the ones it is about to take
        assert not helper._queued
        flag.touch()  # the helper now answers the frames in its pipe
        results = {key: future.result(timeout=120)[key] for key, future in futures.items()}
    finally:
        flag.touch()
        helper.close()
    _assert_compare_pair_results(case.keys, results)
    assert fallback.pairs == 0


def test_one_thread_at_a_time_takes_queued_frames_and_errors_reach_their_futures(
        case: _Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    flag = tmp_path / "serve"
    _held_helper(monkeypatch, flag)
    monkeypatch.setattr(compare_process, "FRAME_PAIRS", 1)
    helper = CompareHelper(_Fallback(), NEVER_CANCELLED)
    inside, release = threading.Event(), threading.Event()

    def failing(chunk: list[PairKey]) -> dict[PairKey, PairResult]:
        inside.set()
        release.wait(60)
        raise OSError("disk gone")

    try:
        futures = helper.submit(case.keys * 4)
        with ThreadPoolExecutor(max_workers=1) as pool:
            first = pool.submit(helper.compare_queued, failing)
            assert inside.wait(60)
            assert helper.compare_queued(failing) == 0  # the first thread is at it: a second one leaves at once
            release.set()
            assert first.result(timeout=60) > 0
        failed = [future for future in set(futures.values()) if future.done() and future.exception() is not None]
        assert failed and all(isinstance(future.exception(), OSError) for future in failed)
    finally:
        flag.touch()
        helper.close()


def test_cancel_kills_a_busy_helper_and_fails_its_frames(case: _Case,  # noqa: F811
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compare_process, "worker_argv",
                        lambda: [sys.executable, "-c", "import sys, time; sys.stdin.buffer.read(4); time.sleep(300)"])
    cancel = CancelToken()
    fallback = _Fallback()
    helper = CompareHelper(fallback, cancel)
    futures = helper.submit(case.keys[:10])
    process = helper._channels[0].process
    cancel.cancel()
    for future in set(futures.values()):
        with pytest.raises(Cancelled):
            future.result(timeout=30)
    helper.close()
    assert process.poll() is not None and fallback.pairs == 0


def test_an_aborted_run_kills_the_helper(case: _Case, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(compare_process, "worker_argv",
                        lambda: [sys.executable, "-c", "import sys, time; sys.stdin.buffer.read(4); time.sleep(300)"])
    helper = CompareHelper(_Fallback(), NEVER_CANCELLED)
    helper.submit(case.keys[:10])
    process = helper._channels[0].process
    helper.close(abort=True)
    assert process.poll() is not None


def _frame(payload: bytes) -> bytes:
    return _HEAD.pack(len(payload)) + payload


def _replies(data: bytes) -> list[bytes]:
    return list(compare_process._frames(io.BytesIO(data)))


def test_serve_answers_each_frame_and_words_a_bad_one(case: _Case) -> None:  # noqa: F811
    keys = case.keys[:30]
    request = msgspec.msgpack.encode([pack(key) for key in keys])
    out = io.BytesIO()
    assert serve(io.BytesIO(_frame(request) + _frame(b"\x91\x05") + _frame(msgspec.msgpack.encode([]))), out) == 0
    good, bad, empty = _replies(out.getvalue())
    results = decode_compare(good, len(keys))
    assert not isinstance(results, TaskFailed)
    _assert_compare_pair_results(keys, dict(zip(keys, results, strict=True)))
    assert isinstance(decode_compare(bad, 1), TaskFailed)  # the parent compares that frame itself
    assert decode_compare(empty, 0) == []


def test_serve_stops_at_a_cut_frame() -> None:
    out = io.BytesIO()
    assert serve(io.BytesIO(_HEAD.pack(100) + b"short"), out) == 1
    assert out.getvalue() == b""


def test_the_helper_is_wanted_for_many_tiny_pairs_on_several_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compare_process.ENV, raising=False)
    many = compare_process.PROCESS_MIN_PAIRS
    assert helper_wanted(many, 2) and not helper_wanted(many - 1, 2) and not helper_wanted(many, 1)
    monkeypatch.setenv(compare_process.ENV, "1")
    assert helper_wanted(1, 2) and not helper_wanted(0, 2) and not helper_wanted(5, 1)
    monkeypatch.setenv(compare_process.ENV, "0")
    assert not helper_wanted(10 * many, 8)


def test_the_worker_flag_runs_the_helper_loop() -> None:
    assert COMPARE_WORKER_FLAG == compare_process.WORKER_FLAG
    done = subprocess.run([sys.executable, "-m", "autofuse_studio", COMPARE_WORKER_FLAG], input=b"",
                          capture_output=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, b"")
    argv = compare_process.worker_argv()
    done = subprocess.run(argv, input=b"", capture_output=True, timeout=120, check=False, cwd="/")
    assert (done.returncode, done.stdout) == (0, b"")  # importable from any folder


def test_a_run_through_the_helper_equals_a_run_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "case"
    manifest = generate_case(root, full_coverage_spec())
    spec = RunSpec(af_open_graph=str(root / manifest.graphs["af_open"]),
                   af_close_graph=str(root / manifest.graphs["af_close"]),
                   af_open_data=str(root / manifest.data["af_open"]),
                   af_close_data=str(root / manifest.data["af_close"]), compare_input=True, jobs=2)
    started: list[int] = []
    asked: list[int] = []

    class Counted(CompareHelper):
        def __init__(self, *args: object) -> None:
            started.append(1)
            super().__init__(*args)  # type: ignore[arg-type]

        def compare_queued(self, compare: Callable[[list[PairKey]], dict[PairKey, PairResult]]) -> int:
            # The run's own thread takes what is still queued once its graphs are read and its plan drawn.
            asked.append(1)
            return super().compare_queued(compare)

    monkeypatch.setattr(scheduler, "CompareHelper", Counted)
    monkeypatch.setenv(compare_process.ENV, "0")
    without = run_mode1(spec)
    assert not started
    monkeypatch.setenv(compare_process.ENV, "1")
    through = run_mode1(spec)
    assert started and asked
    assert repr(through.rows) == repr(without.rows)
    assert through.first_divergence == without.first_divergence
