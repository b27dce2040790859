"""Safe NPY loading: header parsed by hand, data memory-mapped (guarded against the file shrinking: see
dumps.mapped), pickles never touched, bf16 decoded lazily."""

from __future__ import annotations

import io
import math
import mmap
import os
import stat
from pathlib import Path
from typing import BinaryIO

import numpy as np

from autofuse_studio.core.dumps.lazy import LazyTensor, decode_bf16
from autofuse_studio.core.dumps.mapped import map_file, mapping_of
from autofuse_studio.core.dumps.npy_header import MAX_HEADER_BYTES, read_header
from autofuse_studio.core.errors import NpyLoadError
from autofuse_studio.core.printable import EXCERPT_CHARS, short_repr

# Room for the header when deciding whether a file is small enough to read whole (np.save pads to 64 bytes).
_HEADER_ROOM = 4096
# read_header reads the magic and version (8 bytes), the length field (at most 4) and at most this much text.
_HEADER_PREFIX_BYTES = 12 + MAX_HEADER_BYTES


_Layout = tuple[np.dtype[np.generic], tuple[int, ...], bool, int]  # dtype, shape, fortran order, data offset


def _view(buffer: bytes | memoryview | mmap.mmap, layout: _Layout) -> np.ndarray:
    """The data as a read-only array over `buffer` (a plain empty array when there is nothing to map)."""
    dtype, shape, fortran, offset = layout
    count = math.prod(shape)
    if count == 0:
        return np.empty(shape, dtype=dtype)  # mmap cannot map zero bytes
    # A Fortran-order file is the C-order array of the reversed shape, transposed: a free view.
    stored = shape[::-1] if fortran else shape
    values = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).reshape(stored)
    return values.T if fortran else values


def _map_data(handle: BinaryIO, layout: _Layout, path: Path) -> np.ndarray:
    """The data as a read-only shared memory map of the file (guarded: see dumps.mapped)."""
    if math.prod(layout[1]) == 0:
        return _view(b"", layout)
    # A mapping + frombuffer rather than np.memmap: the same shared read-only mapping at a third of the
    # cost, which matters when a run opens thousands of small NPYs.
    return _view(map_file(handle.fileno(), path), layout)


def is_memory_mapped(array: np.ndarray) -> bool:
    """True when the array's memory is a file mapping (not a private copy)."""
    base: object = array
    while isinstance(base, (np.ndarray, memoryview)):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    return isinstance(base, mmap.mmap) or mapping_of(array) is not None


_NON_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
)
# Opening a FIFO without O_NONBLOCK waits for a writer; regular files ignore the flag.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _kind(mode: int) -> str:
    return next((name for test, name in _NON_FILE_KINDS if test(mode)), "not a regular file")


def not_a_file_error(path: str | Path) -> NpyLoadError | None:
    """The error saying what `path` is when it exists but cannot be an NPY file (a FIFO, a folder ...), else None."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return NpyLoadError.of("npy_unreadable", path=path, reason=str(exc.strerror or exc))
    return None if stat.S_ISREG(mode) else NpyLoadError.of("npy_not_a_file", path=path, kind=_kind(mode))


def not_a_file_message(path: str | Path) -> str | None:
    """not_a_file_error's sentence, or None."""
    error = not_a_file_error(path)
    return None if error is None else str(error)


def _open_regular(path: Path) -> tuple[int, int]:
    """A descriptor open for reading and the size; NpyLoadError for anything but a regular file (never blocks)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise not_a_file_error(path) or NpyLoadError.of("npy_unreadable", path=path,
                                                        reason=str(exc.strerror or exc)) from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise NpyLoadError.of("npy_not_regular", path=path, kind=_kind(info.st_mode))
    return fd, info.st_size


def _read_all(fd: int, size: int) -> bytes:
    """The file's `size` bytes with plain read() calls (usually one: no file object, no buffering)."""
    contents = os.read(fd, size)
    while len(contents) < size:  # a short read (signals, network file systems)
        more = os.read(fd, size - len(contents))
        if not more:
            break
        contents += more
    return contents


def largest_read(read_below: int) -> int:
    """The size of the biggest file open_npy(read_below=...) reads whole; bigger ones are mapped (-1: all are)."""
    return read_below + _HEADER_ROOM if read_below > 0 else -1


def open_npy(path: str | Path, read_below: int = 0) -> LazyTensor:
    """Open an NPY file as a memory-mapped LazyTensor; NpyLoadError for anything unsafe or broken.

    A file of at most `read_below` bytes (plus room for its header) is read into read-only memory instead.
    """
    path = path if isinstance(path, Path) else Path(path)
    try:
        fd, size = _open_regular(path)
        try:
            if size == 0:
                raise NpyLoadError.of("npy_empty", path=path)
            if size > largest_read(read_below):
                with os.fdopen(os.dup(fd), "rb") as handle:
                    layout, is_bf16 = _read_layout(handle, size, path)
                    try:
                        array = _map_data(handle, layout, path)
                    except (OSError, ValueError) as exc:
                        raise NpyLoadError.of("npy_mmap", path=path, reason=str(exc)) from exc
            else:
                # One read() of a small file beats mapping it when threads open many of them: every
                # munmap in a threaded process interrupts the other cores to flush their TLBs. A big
                # model opens tens of thousands of them: no file object, one system call to read.
                return tensor_from_contents(_read_all(fd, size), path)
        finally:
            os.close(fd)
    except OSError as exc:
        raise NpyLoadError.of("npy_unreadable", path=path, reason=str(exc.strerror or exc)) from exc
    return _tensor(array, is_bf16)


def tensor_from_contents(contents: bytes | memoryview, path: str | Path) -> LazyTensor:
    """The tensor of a whole NPY file already read into memory, checked as open_npy checks it; NpyLoadError if unusable.

    The array is a view of `contents` (read-only when they are): they must outlive it.
    """
    known = _known_header(contents)
    if known is not None:
        return _tensor(_view(contents, known[0]), known[1])
    # The header is read from a copy of at most its longest possible prefix, never of the data.
    layout, is_bf16 = _read_layout(io.BytesIO(contents[:_HEADER_PREFIX_BYTES]), len(contents), path)
    _remember_header(contents, layout, is_bf16)
    return _tensor(_view(contents, layout), is_bf16)


# Header bytes already read and checked -> (layout, is_bf16, data bytes). The small dumps of a model share a
# handful of headers (one per dtype and shape); reading one again cost 15 us per file, twice per pair.
_KNOWN_HEADERS: dict[bytes, tuple[_Layout, bool, int]] = {}
_KNOWN_HEADERS_MAX = 4096
_V1_MAGIC = b"\x93NUMPY\x01\x00"


def _header_bytes(contents: bytes | memoryview) -> bytes | None:
    """A version 1.0 file's magic, length and header text (np.save's usual form), else None."""
    if len(contents) < 10 or contents[:8] != _V1_MAGIC:
        return None
    end = 10 + (contents[8] | contents[9] << 8)
    return bytes(contents[:end]) if end <= len(contents) else None


def _known_header(contents: bytes | memoryview) -> tuple[_Layout, bool] | None:
    """The layout of a file whose header bytes were read before, when its data has the size they promise."""
    header = _header_bytes(contents)
    known = _KNOWN_HEADERS.get(header) if header is not None else None
    if known is None or len(contents) - known[0][3] != known[2]:
        return None  # new, or truncated / with trailing bytes: read_header words it
    return known[0], known[1]


def _remember_header(contents: bytes | memoryview, layout: _Layout, is_bf16: bool) -> None:
    header = _header_bytes(contents)
    if header is None or len(header) != layout[3]:
        return
    if len(_KNOWN_HEADERS) >= _KNOWN_HEADERS_MAX:
        _KNOWN_HEADERS.clear()  # a few thousand kinds of header: start again rather than grow
    _KNOWN_HEADERS[header] = (layout, is_bf16, len(contents) - layout[3])


def _tensor(array: np.ndarray, is_bf16: bool) -> LazyTensor:
    if is_bf16:
        return LazyTensor.plain(array, decode=decode_bf16, logical_dtype="bfloat16")
    return LazyTensor.plain(array)


def _read_layout(handle: BinaryIO, size: int, path: str | Path) -> tuple[_Layout, bool]:
    """The data's dtype, shape, order and offset, and whether it is bf16; NpyLoadError when unusable."""
    header = read_header(handle, size, path)
    expected, present = header.data_bytes, size - header.offset
    if present != expected:
        shape, dtype = short_repr(header.shape, EXCERPT_CHARS), header.dtype.str
        if present < expected:
            raise NpyLoadError.of("npy_truncated", path=path, expected=expected, dtype=dtype, shape=shape,
                                  present=present)
        raise NpyLoadError.of("npy_trailing", path=path, extra=present - expected, expected=expected, dtype=dtype,
                              shape=shape)
    return (header.dtype, header.shape, header.fortran_order, header.offset), header.is_bf16
