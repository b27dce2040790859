"""One opener for every dumped tensor: an NPY file, or one input/output inside a raw or nano dump file.

A tensor inside a raw dump is named as if the file were a folder of NPYs: `{raw file}/{input|output}.{i}.npy`.
That name flows through the index, the plan, the tables, the reports, remote and cluster runs exactly like a
real NPY's path, and this module resolves it to the raw file, read at the tensor's offset. No real file can
have that path (nothing lives under a regular file), so the name alone says where the tensor is: the batched
reader opens the raw file straight away.
Headers are parsed once per file and kept in a small cache: a fused op's inputs and outputs are compared
in different pairs, often on different threads.
"""

from __future__ import annotations

import functools
import mmap
import os
import re
import stat
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from autofuse_studio.core.dumps.dump_dtypes import dump_dtype
from autofuse_studio.core.dumps.layout import LayoutInfo, normalize_format
from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.dumps.npy import open_npy
from autofuse_studio.core.dumps.raw_header import (
    RawDump,
    RawDumpError,
    RawTensor,
    locate_tensor,
    parse_raw_header,
    read_raw_header,
)
from autofuse_studio.core.errors import InputError

_TENSOR_NAME = re.compile(r"(input|output)\.([0-9]{1,9})\.npy")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_CACHED_HEADERS = 4096


@dataclass(frozen=True)
class RawRef:
    """A tensor inside a raw dump file (the file's path kept as text: building a Path per pair costs more than
    reading a small tensor)."""

    path: str
    kind: str
    index: int

    @property
    def file(self) -> Path:
        """The raw dump file."""
        return Path(self.path)


class MissingTensor(RawDumpError):
    """A raw dump file holds fewer inputs or outputs than the tensor asked for (a missing file, in effect)."""


def tensor_path(raw_file: str | Path, kind: str, index: int) -> str:
    """The name of the `index`-th input/output of a raw dump file: `{raw file}/{kind}.{index}.npy`."""
    return os.path.join(raw_file, f"{kind}.{index}.npy")


def raw_ref(path: str | Path) -> RawRef | None:
    """The raw file, kind and index a tensor name stands for; None when the name is not one."""
    text = os.fspath(path)
    cut = max(text.rfind("/"), text.rfind(os.sep))  # the name after the last separator, quicker than split()
    match = _TENSOR_NAME.fullmatch(text, cut + 1)
    if match is None or cut <= 0:
        return None
    return RawRef(text[:cut], match.group(1), int(match.group(2)))


class _HeaderCache:
    """The last few thousand parsed headers by path (with size and mtime, so a rewritten file is read again)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[str, int, int], RawDump] = OrderedDict()

    def get(self, key: tuple[str, int, int]) -> RawDump | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, int, int], dump: RawDump) -> None:
        with self._lock:
            self._items[key] = dump
            while len(self._items) > _CACHED_HEADERS:
                self._items.popitem(last=False)


_HEADERS = _HeaderCache()


def _open_raw(path: Path) -> tuple[int, os.stat_result]:
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise RawDumpError(f"Cannot read raw dump {path}: {exc.strerror or exc}.", path) from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise RawDumpError(f"Cannot read {path}: it is not a regular file.", path)
    return fd, info


def read_raw_dump(path: str | Path) -> RawDump:
    """The parsed header of a raw or nano dump file (cached); RawDumpError when it is not one."""
    path = Path(path)
    fd, info = _open_raw(path)
    try:
        return _header(path, fd, info)
    finally:
        os.close(fd)


def _header(path: Path, fd: int, info: os.stat_result) -> RawDump:
    key = (os.fspath(path), info.st_size, info.st_mtime_ns)
    found = _HEADERS.get(key)
    if found is None:
        found = read_raw_header(path, fd, info.st_size)
        _HEADERS.put(key, found)
    return found


def header_layout(tensor: RawTensor) -> LayoutInfo:
    """What the header says of a tensor's layout: its device format and original shape."""
    return LayoutInfo(_layout_name(tensor.format), None, tensor.original_shape)


@functools.cache
def _layout_name(format_name: str) -> str | None:
    return normalize_format(format_name)


def open_dump_tensor(path: str | Path, read_below: int = 0) -> tuple[LazyTensor, LayoutInfo | None]:
    """The tensor at `path` and, for a raw dump's tensor, the layout its header gives; NpyLoadError if unusable."""
    ref = raw_ref(path)
    if ref is not None and not os.path.isdir(ref.path):  # a name inside a file: that file is the raw dump
        return open_raw_tensor(ref, read_below)
    return open_npy(path, read_below), None


def open_raw_tensor(ref: RawRef, read_below: int = 0) -> tuple[LazyTensor, LayoutInfo]:
    """One tensor of a raw dump, read at its offset (mapped when bigger than `read_below` bytes)."""
    fd, info = _open_raw(ref.file)
    try:
        tensor = _tensor_of(_header(ref.file, fd, info), ref)
        return _lazy(ref, fd, tensor, read_below), header_layout(tensor)
    finally:
        os.close(fd)


def _tensor_of(dump: RawDump, ref: RawRef) -> RawTensor:
    """The tensor a reference names; MissingTensor / RawDumpError when the file has no usable such tensor."""
    tensor = dump.tensor(ref.kind, ref.index)
    if tensor is None:
        raise MissingTensor(f"Raw dump {ref.path} has {dump.count(ref.kind)} {ref.kind}(s): it holds no "
                            f"{ref.kind} {ref.index}.", ref.path)
    if tensor.problem is not None:
        raise RawDumpError(f"Cannot read {ref.kind} {ref.index} of raw dump {ref.path}: {tensor.problem}.", ref.path)
    return tensor


def raw_tensor_from_contents(contents: bytes | memoryview, ref: RawRef) -> tuple[LazyTensor, LayoutInfo]:
    """One tensor of a raw dump file already read whole into `contents` (a view of them: they must outlive it)."""
    tensor = locate_tensor(ref.path, contents, ref.kind, ref.index)
    if tensor is None or tensor.problem is not None:
        _tensor_of(parse_raw_header(ref.path, contents), ref)  # raises the sentence for the missing or bad tensor
    assert tensor is not None
    raw = np.frombuffer(contents, dtype=np.uint8, count=tensor.size, offset=tensor.offset)
    return _decoded(raw, tensor), header_layout(tensor)


def _bytes(ref: RawRef, fd: int, tensor: RawTensor, read_below: int) -> np.ndarray:
    if tensor.size == 0:
        return np.empty(0, dtype=np.uint8)
    if tensor.size <= read_below:
        data = os.pread(fd, tensor.size, tensor.offset)
        if len(data) != tensor.size:
            raise RawDumpError(f"Raw dump {ref.file} ended while {ref.kind} {ref.index} was read.", ref.file)
        return np.frombuffer(data, dtype=np.uint8)
    try:
        mapped = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as exc:
        raise RawDumpError(f"Cannot memory-map raw dump {ref.file}: {exc}.", ref.file) from exc
    return np.frombuffer(mapped, dtype=np.uint8, count=tensor.size, offset=tensor.offset)


def _lazy(ref: RawRef, fd: int, tensor: RawTensor, read_below: int) -> LazyTensor:
    return _decoded(_bytes(ref, fd, tensor, read_below), tensor)


def _decoded(raw: np.ndarray, tensor: RawTensor) -> LazyTensor:
    """The tensor's bytes as values of its dtype and shape (decoded lazily where the dtype allows)."""
    dtype = dump_dtype(tensor.dtype)
    assert dtype.storage is not None  # unsupported dtypes are marked as problems by the header reader
    if dtype.unpack is not None:
        values = dtype.unpack(raw, int(np.prod(tensor.shape, dtype=np.int64)))
        return LazyTensor.plain(values.reshape(tensor.shape), logical_dtype=dtype.logical)
    array = raw.view(dtype.storage).reshape(tensor.shape)
    if dtype.decode is None:
        return LazyTensor.plain(array)
    return LazyTensor.plain(array, decode=dtype.decode, logical_dtype=dtype.logical)


_TENSOR_CHOICE = re.compile(r"(input|output):([0-9]{1,9})")


def parse_tensor_choice(text: str) -> tuple[str, int]:
    """'output:0' -> ('output', 0); InputError for anything else."""
    match = _TENSOR_CHOICE.fullmatch(text.strip())
    if match is None:
        raise InputError(f"--tensor takes input:N or output:N (e.g. output:0), not {text!r}.")
    return match.group(1), int(match.group(2))


def choose_tensor(path: str | Path, choice: str | None) -> str:
    """The tensor path to compare for a file given in mode 2: an NPY as is, a raw dump's chosen tensor.

    A raw dump holds several tensors; without a choice the only one is taken, and with several the user is
    asked to choose (never a silent pick).
    """
    from autofuse_studio.core.dumps.sniff import NANO, RAW, sniff_file

    if sniff_file(path) not in (RAW, NANO):
        return os.fspath(path)
    dump = read_raw_dump(path)
    if choice is not None:
        kind, index = parse_tensor_choice(choice)
        if dump.tensor(kind, index) is None:
            raise InputError(f"Raw dump {path} has {dump.count('input')} input(s) and {dump.count('output')} "
                             f"output(s): it holds no {kind} {index}.", path)
        return tensor_path(path, kind, index)
    if len(dump.tensors) == 1:
        return tensor_path(path, dump.tensors[0].kind, dump.tensors[0].index)
    listed = ", ".join(f"{item.kind}:{item.index}" for item in dump.tensors[:8])
    more = ", …" if len(dump.tensors) > 8 else ""
    raise InputError(f"Raw dump {path} holds {len(dump.tensors)} tensors ({listed}{more}): choose one with "
                     "--tensor, e.g. --tensor output:0.", path)
