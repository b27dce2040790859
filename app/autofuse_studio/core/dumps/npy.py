"""Safe NPY loading: header parsed by hand, data memory-mapped, pickles never touched, bf16 decoded lazily."""

from __future__ import annotations

import io
import math
import mmap
import os
import re
from pathlib import Path
from typing import BinaryIO

import numpy as np

from autofuse_studio.core.dumps.lazy import LazyTensor, decode_bf16
from autofuse_studio.core.errors import NpyLoadError

_MAGIC = b"\x93NUMPY"
# Room for the header when deciding whether a file is small enough to read whole (np.save pads to 64 bytes).
_HEADER_ROOM = 4096
# Stored dtypes the comparison understands; everything else is refused with a clear message.
_SUPPORTED_KINDS = frozenset("biuf")


# The header np.save writes for plain arrays; parsed with a regex because numpy's general parser
# (tokenize + literal_eval) costs more than mapping the data of a small dump file.
_SIMPLE_HEADER = re.compile(
    rb"\{'descr': '([<>|=][a-zA-Z]\d+)', 'fortran_order': (True|False), 'shape': \(((?:\d+, ?)*\d*)\), \}\s*\Z"
)


def _fast_header(handle: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype[np.generic]] | None:
    """Parse a version-1.0 header of the usual form, or return None (and rewind) for anything else."""
    start = handle.read(10)
    if len(start) == 10 and start[6:8] == b"\x01\x00":
        header = handle.read(int.from_bytes(start[8:10], "little"))
        match = _SIMPLE_HEADER.match(header)
        if match is not None:
            descr, fortran, dims = match.groups()
            try:
                dtype = np.dtype(descr.decode("ascii"))
            except TypeError:
                dtype = np.dtype(object)  # not understood: let numpy's parser report it
            if not dtype.hasobject:
                shape = tuple(int(dim) for dim in dims.split(b",") if dim.strip())
                return shape, fortran == b"True", dtype
    handle.seek(0)
    return None


def _read_header(handle: BinaryIO, path: Path) -> tuple[tuple[int, ...], bool, np.dtype[np.generic]]:
    """(shape, fortran_order, dtype) from the NPY header; the file position ends at the data."""
    if handle.read(len(_MAGIC)) != _MAGIC:
        raise NpyLoadError(f"{path} is not an NPY file (the magic string \\x93NUMPY is missing).", path)
    handle.seek(0)
    fast = _fast_header(handle)
    if fast is not None:
        return fast
    try:
        version = np.lib.format.read_magic(handle)
        if version == (1, 0):
            return np.lib.format.read_array_header_1_0(handle)
        if version in ((2, 0), (3, 0)):
            # 3.0 only allows UTF-8 in the header; the 2.0 reader parses ASCII headers the same way.
            return np.lib.format.read_array_header_2_0(handle)
    except (ValueError, TypeError, SyntaxError, OverflowError, EOFError) as exc:
        raise NpyLoadError(f"{path} has a broken NPY header: {exc}", path) from exc
    raise NpyLoadError(
        f"{path} uses NPY format version {version[0]}.{version[1]}, which is not supported.", path
    )


def _check_dtype(dtype: np.dtype[np.generic], path: Path) -> bool:
    """Raise for dtypes we refuse; True when the dtype is bf16 stored as 2-byte void ('<V2')."""
    if dtype.hasobject:
        raise NpyLoadError(f"{path} holds Python objects (pickled data); refusing to load it.", path)
    if dtype.kind == "V" and dtype.fields is None and dtype.subdtype is None and dtype.itemsize == 2:
        return True  # ml_dtypes.bfloat16 saved by np.save
    if dtype.fields is not None or dtype.subdtype is not None:
        raise NpyLoadError(f"{path} has an unsupported dtype {dtype.descr} (structured data).", path)
    if dtype.kind not in _SUPPORTED_KINDS:
        hint = " (1-byte opaque values, probably float8)" if dtype.kind == "V" and dtype.itemsize == 1 else ""
        raise NpyLoadError(f"{path} has an unsupported dtype {dtype.str}{hint}.", path)
    return False


_Layout = tuple[np.dtype[np.generic], tuple[int, ...], bool, int]  # dtype, shape, fortran order, data offset


def _view(buffer: bytes | mmap.mmap, layout: _Layout) -> np.ndarray:
    """The data as a read-only array over `buffer` (a plain empty array when there is nothing to map)."""
    dtype, shape, fortran, offset = layout
    count = math.prod(shape)
    if count == 0:
        return np.empty(shape, dtype=dtype)  # mmap cannot map zero bytes
    # A Fortran-order file is the C-order array of the reversed shape, transposed: a free view.
    stored = shape[::-1] if fortran else shape
    values = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).reshape(stored)
    return values.T if fortran else values


def _map_data(handle: BinaryIO, layout: _Layout) -> np.ndarray:
    """The data as a read-only shared memory map of the file."""
    if math.prod(layout[1]) == 0:
        return _view(b"", layout)
    # mmap + frombuffer rather than np.memmap: the same shared read-only mapping at a third of the
    # cost, which matters when a run opens thousands of small NPYs.
    return _view(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ), layout)


def is_memory_mapped(array: np.ndarray) -> bool:
    """True when the array's memory is a file mapping (not a private copy)."""
    base: object = array
    while isinstance(base, (np.ndarray, memoryview)):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    return isinstance(base, mmap.mmap)


def open_npy(path: str | Path, read_below: int = 0) -> LazyTensor:
    """Open an NPY file as a memory-mapped LazyTensor; NpyLoadError for anything unsafe or broken.

    A file of at most `read_below` bytes (plus room for its header) is read into read-only memory instead.
    """
    path = path if isinstance(path, Path) else Path(path)
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size == 0:
                raise NpyLoadError(f"{path} is empty (0 bytes), not an NPY file.", path)
            if read_below <= 0 or size > read_below + _HEADER_ROOM:
                layout, is_bf16 = _read_layout(handle, size, path)
                try:
                    array = _map_data(handle, layout)
                except (OSError, ValueError) as exc:
                    raise NpyLoadError(f"Cannot memory-map {path}: {exc}", path) from exc
            else:
                # One read() of a small file beats mapping it when threads open many of them: every
                # munmap in a threaded process interrupts the other cores to flush their TLBs.
                contents = handle.read()
                layout, is_bf16 = _read_layout(io.BytesIO(contents), len(contents), path)
                array = _view(contents, layout)
    except OSError as exc:
        raise NpyLoadError(f"Cannot read {path}: {exc.strerror or exc}.", path) from exc
    if is_bf16:
        return LazyTensor.plain(array, decode=decode_bf16, logical_dtype="bfloat16")
    return LazyTensor.plain(array)


def _read_layout(handle: BinaryIO, size: int, path: Path) -> tuple[_Layout, bool]:
    """The data's dtype, shape, order and offset, and whether it is bf16; NpyLoadError when unusable."""
    shape, fortran, dtype = _read_header(handle, path)
    offset = handle.tell()
    is_bf16 = _check_dtype(dtype, path)
    expected = math.prod(shape) * dtype.itemsize
    if size - offset < expected:
        raise NpyLoadError(
            f"{path} is truncated: its header promises {expected} bytes of {dtype.str} data "
            f"for shape {shape} but only {size - offset} bytes follow.",
            path,
        )
    return (dtype, shape, fortran, offset), is_bf16
