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
import os
import re
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from autofuse_studio.core.dumps.dump_dtypes import dump_dtype
from autofuse_studio.core.dumps.layout import LayoutInfo, normalize_format
from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.dumps.lru import LockedLru
from autofuse_studio.core.dumps.mapped import changed_since_mapped, map_file
from autofuse_studio.core.dumps.names import FftsSlice, ffts_slice, parse_dump_name
from autofuse_studio.core.dumps.npy import open_npy
from autofuse_studio.core.dumps.raw_header import (
    RawDump,
    RawDumpError,
    RawTensor,
    locate_tensor,
    parse_raw_header,
    read_raw_header,
    recheck_tensor,
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


class UnsupportedDtype(RawDumpError):
    """A raw dump's tensor has a dtype whose bytes cannot be turned into numbers (UINT1, FLOAT4, strings ...)."""


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


def dump_folder(path: str | Path) -> str:
    """The folder that holds a tensor's file: an NPY's folder, or the folder of the raw dump it is inside."""
    ref = raw_ref(path)
    return os.path.dirname(ref.path if ref is not None else os.fspath(path))


# The last few thousand parsed headers by (path, size, mtime): a rewritten file is read again.
_HEADERS: LockedLru[tuple[str, int, int], RawDump] = LockedLru(_CACHED_HEADERS)


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


def open_raw_tensor(ref: RawRef, read_below: int = 0, merge_ffts: bool = True) -> tuple[LazyTensor, LayoutInfo]:
    """One tensor of a raw dump, read at its offset (mapped when bigger than `read_below` bytes).

    The thread files of an FFTS+ op are merged into the whole tensor (see _merge_ffts) unless merge_ffts is
    False (a file-by-file conversion writes each thread's slice, as msaccucmp convert does).
    """
    fd, info = _open_raw(ref.file)
    try:
        dump = _header(ref.file, fd, info)
        threads = _FFTS_GROUPS.group(ref.path) if merge_ffts and is_ffts_file(ref.path) else [ref.path]
        if len(threads) > 1:  # each thread's slice is checked against the slice description, not the header
            merged = _merge_ffts(ref, threads)
            described = dump.tensor(ref.kind, ref.index)
            return merged, header_layout(described) if described else LayoutInfo(None, None, None)
        tensor = _tensor_of(dump, ref)
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
        unsupported = tensor.dtype < 0 or not dump_dtype(tensor.dtype).supported
        error = UnsupportedDtype if unsupported else RawDumpError
        raise error(f"Cannot read {ref.kind} {ref.index} of raw dump {ref.path}: {tensor.problem}.", ref.path)
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
        mapped = map_file(fd, ref.path)
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
        raise InputError.of("tensor_choice_syntax", value=repr(text))
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
            raise InputError.of("raw_dump_no_tensor", path=path, inputs=dump.count("input"),
                                 outputs=dump.count("output"), kind=kind, index=index)
        return tensor_path(path, kind, index)
    if len(dump.tensors) == 1:
        return tensor_path(path, dump.tensors[0].kind, dump.tensors[0].index)
    listed = ", ".join(f"{item.kind}:{item.index}" for item in dump.tensors[:8])
    more = ", …" if len(dump.tensors) > 8 else ""
    raise InputError.of("raw_dump_choose_tensor", path=path, count=len(dump.tensors), tensors=listed + more)


# FFTS+ ops (raw-dumps.md §2.4): several thread files of one op dump, each with a slice of the same tensors.
_CACHED_FOLDERS = 256


class _FolderGroups:
    """The FFTS+ thread files of recently read folders, by group (keyed by the folder's mtime: new files count)."""

    def __init__(self) -> None:
        self._folders: LockedLru[tuple[str, int], dict[tuple[str, ...], list[tuple[int, int, str]]]] = \
            LockedLru(_CACHED_FOLDERS)

    def group(self, path: str) -> list[str]:
        """The thread files of the FFTS+ op dump `path` belongs to, by thread (just `path` for other files)."""
        folder, name = os.path.split(path)
        sliced = _slice_of(name)
        if sliced is None:
            return [path]
        try:
            key = (folder, os.stat(folder).st_mtime_ns)
        except OSError:
            return [path]
        groups = self._folders.get(key)
        if groups is None:
            groups = _scan_groups(folder)
            self._folders.put(key, groups)
        files = sorted(groups.get(sliced.group, []))
        return [os.path.join(folder, file_name) for _thread, _stamp, file_name in files] or [path]


def _slice_of(name: str) -> FftsSlice | None:
    parsed = parse_dump_name(name)
    return None if parsed is None else ffts_slice(parsed)


def _scan_groups(folder: str) -> dict[tuple[str, ...], list[tuple[int, int, str]]]:
    groups: dict[tuple[str, ...], list[tuple[int, int, str]]] = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return groups
    for name in names:
        parsed = parse_dump_name(name)
        sliced = ffts_slice(parsed) if parsed is not None else None
        if parsed is not None and sliced is not None:
            groups.setdefault(sliced.group, []).append((sliced.thread, parsed.timestamp, name))
    return groups


_FFTS_GROUPS = _FolderGroups()


def is_ffts_file(path: str) -> bool:
    """True when `path` names a thread file of an FFTS+ op (its tensors are merged from several files)."""
    name = os.path.basename(path)
    # Plain names have at most 6 fields (5 dots); FFTS+ names 8 or 9, or an `_lxsliceN` op name.
    if name.count(".") < 7 and "_lxslice" not in name:
        return False
    return _slice_of(name) is not None


def _thread_values(dump: RawDump, path: str, kind: str, index: int, shape: tuple[int, ...] | None) -> np.ndarray:
    """One thread's slice of a tensor as decoded values, in `shape` (the slice's) when the description gives it."""
    tensor = dump.tensor(kind, index)
    if tensor is None:
        raise MissingTensor(f"FFTS+ thread file {path} holds no {kind} {index}.", path)
    if shape is not None and tensor.shape != shape:
        tensor = replace(tensor, shape=shape, problem=None)  # auto mode: the header has the whole tensor's shape
        tensor = recheck_tensor(tensor)
    if tensor.problem is not None:
        raise RawDumpError(f"Cannot read {kind} {index} of FFTS+ thread file {path}: {tensor.problem}.", path)
    fd, _info = _open_raw(Path(path))
    try:
        return _lazy(RawRef(path, kind, index), fd, tensor, 0).materialize()
    finally:
        os.close(fd)


def _slice_ranges(slicing: dict[str, Any] | None, kind: str, index: int,
                  threads: int) -> list[list[tuple[int, int]]] | None:
    """Each thread's [lower, higher) per dim of one tensor from `{kind}_tensor_slice`, None when not described."""
    table = slicing.get(f"{kind}_tensor_slice") if slicing else None
    if not isinstance(table, list) or len(table) != threads:
        return None
    ranges = []
    for thread in table:
        if not isinstance(thread, list) or not 0 <= index < len(thread) or not isinstance(thread[index], list):
            return None
        dims = []
        for dim in thread[index]:
            lower, higher = (dim.get("lower"), dim.get("higher")) if isinstance(dim, dict) else (None, None)
            if not isinstance(lower, int) or not isinstance(higher, int) or not 0 <= lower <= higher:
                return None
            dims.append((lower, higher))
        ranges.append(dims)
    return ranges if len({len(dims) for dims in ranges}) == 1 else None


def _cut_axis(slicing: dict[str, Any] | None, kind: str, index: int) -> int | None:
    """The first cut axis of an output from `outputCutList` (dims whose value is not 1), as msaccucmp takes it."""
    cuts = slicing.get("outputCutList") if slicing and kind == "output" else None
    if not isinstance(cuts, list) or not 0 <= index < len(cuts) or not isinstance(cuts[index], list):
        return None
    return next((axis for axis, value in enumerate(cuts[index]) if value != 1), None)


def _merge_ffts(ref: RawRef, files: list[str]) -> LazyTensor:
    """A tensor of an FFTS+ op put together from its thread files (raw-dumps.md §2.4).

    By the slice description's ranges when it has them (inputs and outputs, any axis), else along the first
    cut axis of `outputCutList` in thread order; without either, the newest thread file is used and said.
    """
    dumps = [read_raw_dump(path) for path in files]
    slicing = next((dump.slicing for dump in dumps if dump.slicing), None)
    notes = []
    expected = slicing.get("slice_instance_num") if slicing else None
    if isinstance(expected, int) and expected != len(files):
        notes.append(f"FFTS+ op {os.path.basename(files[0])}: {len(files)} thread files for {expected} slices")
    ranges = _slice_ranges(slicing, ref.kind, ref.index, len(files))
    axis = _cut_axis(slicing, ref.kind, ref.index)
    if ranges is not None:
        parts = [_thread_values(dump, path, ref.kind, ref.index, tuple(high - low for low, high in dims))
                 for dump, path, dims in zip(dumps, files, ranges, strict=True)]
        merged = np.zeros(tuple(max(dims[axis][1] for dims in ranges) for axis in range(len(ranges[0]))),
                          dtype=parts[0].dtype)
        for part, dims in zip(parts, ranges, strict=True):
            merged[tuple(slice(low, high) for low, high in dims)] = part
        notes.insert(0, f"merged from {len(files)} FFTS+ thread files")
    elif axis is not None:
        parts = [_thread_values(dump, path, ref.kind, ref.index, None) for dump, path in zip(dumps, files, strict=True)]
        try:
            merged = np.concatenate(parts, axis=axis)
        except ValueError as exc:
            raise RawDumpError(f"Cannot merge the FFTS+ thread files of {files[0]} along axis {axis}: {exc}.",
                               files[0]) from None
        notes.insert(0, f"merged from {len(files)} FFTS+ thread files along axis {axis}")
    else:
        newest = max(range(len(files)), key=lambda number: (dumps[number].dump_time or 0, files[number]))
        merged = _thread_values(dumps[newest], files[newest], ref.kind, ref.index, None)
        notes.append(f"FFTS+ op with {len(files)} thread files and no slice description: only the newest, "
                     f"{os.path.basename(files[newest])}, is compared")
    if ranges is not None or axis is not None:  # the parts were read into `merged`: did a file change meanwhile?
        changed = changed_since_mapped(*parts)
        if changed is not None:
            raise RawDumpError(f"Cannot merge the FFTS+ thread files of {files[0]}: {changed}.", files[0])
    dtype = dump_dtype(dumps[0].tensor(ref.kind, ref.index).dtype)  # type: ignore[union-attr]
    return LazyTensor(merged, (1,) * merged.ndim, tuple(merged.shape), None, dtype.logical, "; ".join(notes))
