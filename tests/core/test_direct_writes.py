"""DirectWrites: bytes written around the page cache (O_DIRECT) are the bytes given, wherever the file starts and
whatever the sizes; where O_DIRECT is refused (at fcntl or at a write) the rest is written the usual way."""

from __future__ import annotations

import errno
import os
import random
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.reports import direct_writes
from autofuse_studio.core.reports.direct_writes import BLOCK, STAGE_BYTES, DirectWrites
from autofuse_studio.core.reports.pipelined_write import Pooled, pipelined_writes

pytestmark = pytest.mark.skipif(not getattr(os, "O_DIRECT", 0), reason="O_DIRECT is Linux's")
fcntl = pytest.importorskip("fcntl")


def _pieces(seed: int) -> list[bytes]:
    """Pieces of every awkward size: empty, one byte, a block less one, a stage and a bit, random ones."""
    pick = random.Random(seed)
    sizes = [0, 1, BLOCK - 1, BLOCK, STAGE_BYTES + 3, 7, STAGE_BYTES - 5, *(pick.randrange(1, 3 * BLOCK)
                                                                          for _ in range(40))]
    pick.shuffle(sizes)
    return [pick.randbytes(size) for size in sizes]


def _direct_now(fd: int) -> bool:
    return bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT)


class _Spy:
    """os.write as direct_writes calls it, recording whether each write went with O_DIRECT set."""

    def __init__(self) -> None:
        self.direct: list[bool] = []
        self._write = os.write

    def __call__(self, fd: int, data: Any) -> int:
        self.direct.append(_direct_now(fd))
        return self._write(fd, data)


@pytest.mark.parametrize(("head", "seed"), [(0, 1), (3, 2), (BLOCK + 5, 3), (BLOCK, 4)])
def test_the_file_holds_the_bytes_given_after_any_head(head: int, seed: int, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    spy = _Spy()
    monkeypatch.setattr(direct_writes.os, "write", spy)
    pieces = _pieces(seed)
    path = tmp_path / "out.bin"
    with open(path, "wb") as handle:
        handle.write(b"h" * head)  # still in the file object's buffer: flushed first
        sink = DirectWrites.on(handle)
        assert sink is not None
        for piece in pieces:
            sink.write(piece if seed % 2 else bytearray(piece))
        sink.finish()
        assert not _direct_now(handle.fileno())
        assert handle.tell() == head + sum(map(len, pieces))
        handle.write(b"tail")  # the file object goes on where the bytes end
    assert path.read_bytes() == b"h" * head + b"".join(pieces) + b"tail"
    if any(spy.direct):  # this file system takes O_DIRECT (tmpfs does not): the stages went with it
        assert spy.direct.count(True) >= sum(map(len, pieces)) // STAGE_BYTES


def test_a_file_system_refusing_o_direct_gets_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = fcntl.fcntl

    def refusing(fd: int, command: int, flags: int = 0) -> int:
        if command == fcntl.F_SETFL and flags & os.O_DIRECT:
            raise OSError(errno.EINVAL, "Invalid argument")
        return int(real(fd, command, flags))

    monkeypatch.setattr(direct_writes.fcntl, "fcntl", refusing)
    pieces = _pieces(5)
    path = tmp_path / "out.bin"
    with open(path, "wb") as handle:
        sink = DirectWrites.on(handle)
        assert sink is not None
        for piece in pieces:
            sink.write(piece)
        sink.finish()
    assert path.read_bytes() == b"".join(pieces)


def test_a_direct_write_refused_goes_on_the_usual_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write
    refused: list[int] = []

    def refusing(fd: int, data: Any) -> int:
        if _direct_now(fd):
            refused.append(len(data))
            raise OSError(errno.EINVAL, "Invalid argument")  # a device whose logical block is larger
        return real(fd, data)

    monkeypatch.setattr(direct_writes.os, "write", refusing)
    pieces = _pieces(6)
    path = tmp_path / "out.bin"
    with open(path, "wb") as handle:
        handle.write(b"x")
        sink = DirectWrites.on(handle)
        assert sink is not None
        for piece in pieces:
            sink.write(piece)
        sink.finish()
        assert not _direct_now(handle.fileno())
    assert path.read_bytes() == b"x" + b"".join(pieces)
    assert len(refused) <= 1  # refused once, not again for every stage


def test_another_error_is_raised_and_finish_leaves_the_file_usable(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    path = tmp_path / "out.bin"
    with open(path, "wb") as handle:
        sink = DirectWrites.on(handle)
        assert sink is not None
        sink.write(b"a" * 100)
        monkeypatch.setattr(direct_writes.os, "write", full)
        with pytest.raises(OSError, match="No space"):
            sink.write(b"b" * STAGE_BYTES)
        monkeypatch.undo()
        sink.finish(write=False)  # the caller gives the file up: nothing more is written
        assert not _direct_now(handle.fileno())
        handle.seek(0)
        handle.truncate()
        handle.write(b"rewritten")
    assert path.read_bytes() == b"rewritten"


def test_without_o_direct_there_is_no_direct_writer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(direct_writes, "_O_DIRECT", 0)  # macOS, Windows
    with open(tmp_path / "out.bin", "wb") as handle:
        assert DirectWrites.on(handle) is None


@pytest.mark.parametrize("direct", [True, False])
def test_pipelined_writes_write_the_parts_in_order_either_way(direct: bool, tmp_path: Path) -> None:
    pieces = _pieces(7)
    path = tmp_path / "out.bin"
    with open(path, "wb") as handle:
        handle.write(b"head")
        with pipelined_writes(handle, direct=direct) as writer:
            for number, piece in enumerate(pieces):
                writer.put(piece if number % 3 else Pooled(lambda into, p=piece: p))
        handle.write(b"end")
    assert path.read_bytes() == b"head" + b"".join(pieces) + b"end"


def test_a_failing_part_leaves_the_file_for_the_callers_rewrite(tmp_path: Path) -> None:
    def failing() -> bytes:
        raise ValueError("a bad row")

    def write_parts(handle: Any) -> None:
        with pipelined_writes(handle) as writer:
            writer.put(b"x" * (STAGE_BYTES + 10))
            writer.put(failing)
            writer.put(b"never")

    path = tmp_path / "out.bin"
    with open(path, "wb") as handle:
        with pytest.raises(ValueError, match="a bad row"):
            write_parts(handle)
        assert not _direct_now(handle.fileno())
        handle.seek(0)
        handle.truncate()
        handle.write(b"json.dumps wrote it")  # as precision_json does after Unlike
    assert path.read_bytes() == b"json.dumps wrote it"
