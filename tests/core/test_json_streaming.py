"""The JSON result file written while its rows are joined (a writer thread): the same bytes, the same refusals.

json_rows makes the columns a block of rows at a time and precision_json hands each chunk's join to the writer
thread of pipelined_write; a row that only json.dumps can spell may come after blocks already written, and the
file is then rewritten by json.dumps. The blocks are made small here so that a few rows span many of them.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import math
import threading
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports import json_rows
from autofuse_studio.core.reports.pipelined_write import POOLED_BUFFERS, PartWriter, Pooled, pipelined_writes
from autofuse_studio.core.reports.precision_files import write_precision
from autofuse_studio.core.reports.precision_json import result_json, write_result_json
from tests.core.test_result_files_identity import reference_json
from tests.synth.result_rows import synthetic_result


@pytest.fixture(autouse=True)
def _small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_rows, "CHUNK_ROWS", 3)
    monkeypatch.setattr(json_rows, "BLOCK_ROWS", 7)


def _with_late_row(result: PrecisionResult, **fields: Any) -> PrecisionResult:
    """`result` with its row 40 (blocks after the first already written) changed."""
    rows = list(result.rows)
    rows[40] = dataclasses.replace(rows[40], **fields)
    return dataclasses.replace(result, rows=rows)


@pytest.mark.parametrize("hostile", [False, True])
def test_rows_written_block_by_block_are_the_reference_bytes(hostile: bool, tmp_path: Path) -> None:
    result = synthetic_result(100, seed=5, hostile=hostile)
    written = write_precision(result, tmp_path / "r.json").read_bytes()
    assert written == reference_json(result) == result_json(result)


@pytest.mark.parametrize("fields", [{"rank": True}, {"occurrence": 2.5e-7}, {"fused_shape": (True, 16)}])
def test_a_late_row_only_json_dumps_spells_rewrites_the_file(fields: dict[str, Any], tmp_path: Path) -> None:
    result = _with_late_row(synthetic_result(60, seed=3), **fields)
    assert write_precision(result, tmp_path / "r.json").read_bytes() == reference_json(result)


@pytest.mark.parametrize(("fields", "error"), [({"step": math.nan}, ValueError),
                                               ({"message": "bad\udc80"}, UnicodeEncodeError)])
def test_a_late_row_json_dumps_refuses_leaves_no_file(fields: dict[str, Any], error: type[Exception],
                                                      tmp_path: Path) -> None:
    result = _with_late_row(synthetic_result(60, seed=3), **fields)
    with pytest.raises(error):
        reference_json(result)
    with pytest.raises(error):
        write_precision(result, tmp_path / "r.json")
    assert list(tmp_path.iterdir()) == []  # neither the file nor the temp file


class _Pipe(io.BytesIO):
    """A stream that cannot seek back (a FIFO, /dev/stdout)."""

    def seekable(self) -> bool:
        return False

    def seek(self, *_: Any) -> int:
        raise io.UnsupportedOperation("seek")


def test_a_stream_that_cannot_seek_gets_the_whole_document_without_rewriting() -> None:
    result = _with_late_row(synthetic_result(60, seed=3), rank=True)
    stream = _Pipe()
    write_result_json(result, stream)
    assert stream.getvalue() == reference_json(result)


def test_parts_are_written_in_order_and_made_on_a_thread_of_their_own() -> None:
    handle = io.BytesIO()
    makers: list[str] = []

    def part(text: bytes) -> bytes:
        makers.append(threading.current_thread().name)
        return text

    with pipelined_writes(handle) as writer:
        for number in range(50):
            writer.put(b"%d," % number if number % 2 else lambda n=number: part(b"%d," % n))
    assert handle.getvalue() == b"".join(b"%d," % number for number in range(50))
    assert set(makers) == {"autofuse-part-maker"}


def _write_after_a_broken_part(handle: io.BytesIO) -> None:
    def broken() -> bytes:
        raise ValueError("cannot join")

    with pipelined_writes(handle) as writer:
        writer.put(b"first,")
        writer.put(broken)
        for _ in range(1000):  # raised at a put() once the thread met it, else when leaving
            writer.put(b"later,")


def test_an_error_on_the_writer_thread_reaches_the_caller_and_stops_the_writes() -> None:
    handle = io.BytesIO()
    with pytest.raises(ValueError, match="cannot join"):
        _write_after_a_broken_part(handle)
    assert handle.getvalue() in (b"", b"first,")  # what was made before may be written; nothing after


def _give_up_while_a_part_is_made(handle: io.BytesIO) -> None:
    gate = threading.Event()
    with pipelined_writes(handle) as writer:
        writer.put(lambda: gate.wait() and b"made,")
        writer.put(b"queued,")
        threading.Timer(0.2, gate.set).start()  # the part being made is done after the caller gave up
        raise KeyError("stop")


def test_an_error_in_the_caller_drops_the_queued_parts() -> None:
    handle = io.BytesIO()
    with pytest.raises(KeyError):
        _give_up_while_a_part_is_made(handle)
    assert handle.getvalue() == b""  # neither the part made after that nor the one queued is written


def test_the_writer_syncs_a_regular_file_as_it_goes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    monkeypatch.setattr("autofuse_studio.core.reports.pipelined_write._datasync", synced.append)
    with open(tmp_path / "f", "wb") as handle:
        writer = PartWriter(handle, sync_bytes=10)
        for _ in range(5):
            writer.put(b"x" * 6)
        writer.finish()
    assert len(synced) == 2  # after 12 and 24 bytes of 30
    assert (tmp_path / "f").read_bytes() == b"x" * 30


def test_rows_of_exactly_whole_blocks() -> None:
    rows: list[PrecisionRow] = list(synthetic_result(14, seed=2).rows)  # two blocks of 7, chunks of 3 and 1
    result = PrecisionResult(rows, Thresholds())
    assert result_json(result) == reference_json(result)


def test_pooled_parts_are_made_into_a_few_buffers_the_writer_lends_and_takes_back() -> None:
    handle = io.BytesIO()
    lent: list[int] = []

    def into(number: int, buffer: bytearray | None) -> memoryview:
        assert buffer is not None
        lent.append(id(buffer))
        buffer[:] = b"%d," % number * (number % 7 + 1)  # sizes vary: a buffer grows and shrinks
        return memoryview(buffer)[1:] if number == 0 else memoryview(buffer)

    with pipelined_writes(handle) as writer:
        for number in range(60):
            writer.put(Pooled(functools.partial(into, number)))
    expected = b"".join(b"%d," % number * (number % 7 + 1) for number in range(60))[1:]
    assert handle.getvalue() == expected
    assert len(set(lent)) <= POOLED_BUFFERS and len(lent) == 60


def _broken_pooled_parts(handle: io.BytesIO) -> None:
    def broken(buffer: bytearray | None) -> bytes:
        raise ValueError("cannot join")

    writer = PartWriter(handle)
    for _ in range(2 * POOLED_BUFFERS):
        writer._parts.put(Pooled(broken))  # past put()'s check of the threads' error
    writer.finish()


def test_a_failing_pooled_part_stops_the_writes_and_its_error_reaches_the_caller() -> None:
    handle = io.BytesIO()
    with pytest.raises(ValueError, match="cannot join"):
        _broken_pooled_parts(handle)
    assert handle.getvalue() == b""


def test_a_pooled_part_called_without_a_buffer_makes_its_own_bytes() -> None:
    rows = synthetic_result(10, seed=4).rows
    made = list(json_rows.chunk_makers(rows) or [])
    assert made and all(isinstance(part(), bytes) for part in made)
