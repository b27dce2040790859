"""Chunks made and deflated on several threads at once (xlsx_parallel) are one valid deflate stream of them all, in
order, with their CRC; an error anywhere is raised by wait and leaves no thread behind (issue 29)."""

from __future__ import annotations

import io
import random
import threading
import types
import zlib
from collections.abc import Callable
from typing import Any

import pytest

from autofuse_studio.core.reports import xlsx_stream
from autofuse_studio.core.reports.pipelined_write import Pooled
from autofuse_studio.core.reports.xlsx_parallel import QUEUE_CHUNKS, ParallelDeflated, parallel_deflate

ISAL = pytest.importorskip("isal.isal_zlib", reason="python-isal is not installed")
if not parallel_deflate(ISAL):
    pytest.skip("this python-isal has no _ParallelCompress", allow_module_level=True)


def _chunks(seed: int, count: int) -> list[bytes]:
    """Chunks of any size (empty ones too), some compressible, some not."""
    pick = random.Random(seed)
    sizes = [pick.choice([0, 1, 17, 4096, 70_000, 1 << 20, 3 << 20]) for _ in range(count)]
    return [pick.randbytes(size) if pick.random() < 0.3 else (b"<row r=\"%d\">cell</row>" % at) * (size // 20)
            for at, size in enumerate(sizes)]


def _as_given(data: bytes, kind: int) -> Any:
    """The chunk as bytes, as a str (ASCII data only), as a function that makes it or as one that makes it into the
    worker's buffer (a view of it given back)."""
    if kind == 1 and data.isascii():
        return data.decode("ascii")
    if kind == 2:
        return lambda: data
    if kind == 3:
        def into(buffer: bytearray | None) -> memoryview:
            assert buffer is not None  # the worker lends its own
            buffer[:] = data
            return memoryview(buffer)
        return Pooled(into)
    return data


@pytest.mark.parametrize("workers", [1, 2, 3])
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("sink", [False, True])
def test_the_chunks_deflate_into_one_stream_of_them_all(workers: int, seed: int, sink: bool) -> None:
    chunks = _chunks(seed, random.Random(seed).randint(0, 12))
    taken: list[bytes] = []
    deflated = ParallelDeflated([_as_given(data, at % 4) for at, data in enumerate(chunks)], ISAL, 1,
                                taken.append if sink else None, workers)
    deflated.wait()
    stream = b"".join(taken if sink else deflated.deflated)
    assert (taken == []) != sink and (deflated.deflated == []) == sink
    inflater = zlib.decompressobj(-15)
    whole = b"".join(chunks)
    assert inflater.decompress(stream) == whole and inflater.eof and not inflater.unused_data
    assert (deflated.size, deflated.crc, deflated.compressed) == (len(whole), zlib.crc32(whole), len(stream))


def _no_threads_left() -> None:
    for thread in threading.enumerate():
        if thread.name.startswith("xlsx-"):
            thread.join(timeout=10)
            assert not thread.is_alive()


def _failing_at(number: int) -> Callable[[], bytes]:
    def make() -> bytes:
        raise ValueError(f"chunk {number} could not be made")
    return make


@pytest.mark.parametrize("failing", [0, 1, 5, 2 * QUEUE_CHUNKS + 7])
def test_a_chunk_that_cannot_be_made_is_raised_and_nothing_hangs(failing: int) -> None:
    # More chunks than the queues hold, before and after the failing one: every thread still ends.
    chunks: list[Any] = [b"x" * 5000] * (4 * QUEUE_CHUNKS + 10)
    chunks[failing] = _failing_at(failing)
    deflated = ParallelDeflated(chunks, ISAL, 1, workers=2)
    with pytest.raises(ValueError, match=f"chunk {failing} could not be made"):
        deflated.wait()
    _no_threads_left()


def test_a_sink_error_and_a_source_error_are_raised_and_nothing_hangs() -> None:
    def full(data: bytes) -> None:
        raise OSError(28, "No space left on device")

    deflated = ParallelDeflated([b"y" * 1000] * 20, ISAL, 1, full)
    with pytest.raises(OSError, match="No space left"):
        deflated.wait()

    def source() -> Any:
        yield b"first"
        raise RuntimeError("the blocks ended early")

    deflated = ParallelDeflated(source(), ISAL, 1)
    with pytest.raises(RuntimeError, match="ended early"):
        deflated.wait()
    _no_threads_left()


def test_a_streamed_sheet_is_the_same_deflated_in_parallel_or_in_one_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.core.test_xlsx_ahead import _members, _streamed

    rows = 5 * xlsx_stream.ROWS_PER_CHUNK + 11
    written = []
    for parallel in (True, False):
        monkeypatch.setattr(xlsx_stream, "parallel_deflate", lambda isal, on=parallel: on)
        handle = io.BytesIO()
        _streamed(rows, 3000).save(handle)
        written.append(_members(handle.getvalue()))
    assert written[0] == written[1]


def test_a_parallel_compress_that_does_not_work_leaves_the_other_path(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # A private class of python-isal: a release that changed it must not make a broken file.
    from autofuse_studio.core.reports.precision_files import write_precision
    from tests.core.test_result_files_identity import xlsx_contents
    from tests.synth.result_rows import synthetic_result

    class Changed:
        def __init__(self, buffersize: int, level: int) -> None:
            pass

        def compress_and_crc(self, data: bytes) -> bytes:  # another signature
            return data

    changed = types.ModuleType("isal_zlib")
    changed.__dict__.update({name: getattr(ISAL, name) for name in dir(ISAL) if not name.startswith("__")})
    changed._ParallelCompress = Changed  # type: ignore[attr-defined]
    assert parallel_deflate(ISAL) and not parallel_deflate(changed)
    result = synthetic_result(3 * xlsx_stream.ROWS_PER_CHUNK, seed=4)
    write_precision(result, tmp_path / "parallel.xlsx")
    monkeypatch.setattr(xlsx_stream, "_ISAL", changed)
    write_precision(result, tmp_path / "chain.xlsx")
    assert xlsx_contents(tmp_path / "parallel.xlsx") == xlsx_contents(tmp_path / "chain.xlsx")
