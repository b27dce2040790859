"""The header of a raw dump file as the NPU writes it (big protobuf or nano TLV): every tensor's place and kind.

Only the header is read (8 bytes, then the header itself): the tensor bytes stay on disk until a tensor is
opened. Every size is checked against the file: a hostile or truncated file is one RawDumpError naming it,
and a single bad tensor (a dtype and size that disagree, absurd dims) is marked on that tensor alone.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autofuse_studio.core.dumps.dump_dtypes import dtype_name, dump_dtype, proto_code_of_ge
from autofuse_studio.core.dumps.dump_formats import format_name
from autofuse_studio.core.errors import NpyLoadError
from autofuse_studio.core.native_switch import load_extension, native_disabled

NANO_MAGIC = b"ZZZZ"  # 0x5A5A5A5A little-endian
# A real header is a few KB (hundreds of tensors, an FFTS+ slice description). Far more is a broken or
# hostile length field: refused before anything is allocated.
MAX_HEADER_BYTES = 64 << 20
MAX_DIMS = 32
KINDS = ("input", "output")
_RAWSCAN = load_extension("autofuse_studio.core.dumps._rawscan", "raw headers are located by protobuf alone",
                          logging.getLogger(__name__))


class RawDumpError(NpyLoadError):
    """A raw dump file that cannot be read; str() names the file and what is wrong."""


@dataclass(slots=True)
class RawTensor:
    """One input or output of a raw dump: where its bytes are and how to read them.

    Not frozen: a run builds one per compared side, and a frozen dataclass takes three times as long to make.
    Treat it as read-only.
    """

    kind: str
    index: int
    dtype: int  # big-dump (ge.proto) dtype value; -1 when a nano dtype has none
    format: str  # device format name (NC1HWC0, FRACTAL_NZ, ND ...)
    shape: tuple[int, ...]  # device (storage) shape
    original_shape: tuple[int, ...] | None
    sub_format: int
    offset: int  # absolute byte offset in the file
    size: int
    origin_op: str | None = None  # the pre-fusion op of a fused output (original_op), when the writer knew it
    origin_index: int | None = None
    problem: str | None = None  # why this tensor cannot be read (the others still can)

    @property
    def dtype_name(self) -> str:
        """The DT_* name of the dtype."""
        return dtype_name(self.dtype) if self.dtype >= 0 else "DT_UNKNOWN"


# (kind, index, the header's description, offset, size) of one tensor: placed and bounds-checked, not yet built.
_Entry = tuple[str, int, Any, int, int]
_Builder = Callable[[str, int, Any, int, int], RawTensor]


@dataclass(frozen=True)
class RawDump:
    """The header of one raw dump file; its RawTensors are built when asked for (a pair needs one of them)."""

    path: str | Path
    variant: str  # "raw" (protobuf header) or "nano" (TLV)
    op_name: str | None  # the full, unsanitised op name (big dumps only)
    dump_time: int | None
    entries: tuple[_Entry, ...] = field(repr=False)
    file_size: int
    build: _Builder = field(repr=False, compare=False)
    slicing: dict[str, Any] | None = None  # the FFTS+ slice description (attr[0].value), when present

    @functools.cached_property
    def tensors(self) -> tuple[RawTensor, ...]:
        """Every input, then every output."""
        return tuple(_check(self.build(*entry)) for entry in self.entries)

    def tensor(self, kind: str, index: int) -> RawTensor | None:
        """The `index`-th input or output, None when the file has no such tensor."""
        entry = next((entry for entry in self.entries if entry[0] == kind and entry[1] == index), None)
        return None if entry is None else _check(self.build(*entry))

    def count(self, kind: str) -> int:
        """How many inputs or outputs the file holds."""
        return sum(1 for entry in self.entries if entry[0] == kind)


def _fail(path: str | Path, what: str) -> RawDumpError:
    return RawDumpError(f"{path} is not a readable raw dump: {what}.", path)


def _read_exactly(fd: int, size: int, offset: int) -> bytes:
    chunks, got = [], 0
    while got < size:
        chunk = os.pread(fd, size - got, offset + got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_raw_header(path: str | Path, fd: int, file_size: int) -> RawDump:
    """Parse the header of an open raw or nano dump file (`fd`, `file_size` bytes); RawDumpError when unusable."""
    return _parse(path, lambda size, offset: _read_exactly(fd, size, offset), file_size)


def parse_raw_header(path: str | Path, contents: bytes | memoryview) -> RawDump:
    """Parse the header of a raw or nano dump file already read whole into `contents`."""
    return _parse(path, lambda size, offset: contents[offset:offset + size], len(contents))


def locate_tensor(path: str | Path, contents: bytes | memoryview, kind: str, index: int) -> RawTensor | None:
    """One tensor of a big raw dump read whole into `contents`, built alone (the batched comparison's fast path).

    Equal to parse_raw_header(...).tensor(kind, index); every size is still checked against the file. Nano
    dumps and files whose header cannot be read go the general way (same tensor, same errors). The C scanner
    (_rawscan.c) answers first when built; whatever it is not sure of goes through protobuf.
    """
    scanner = None if native_disabled() else _RAWSCAN
    if scanner is not None:
        found = scanner.locate(contents, kind == "output", index)
        if found is False:
            return None
        if found is not None:  # else the scanner was not sure: protobuf's answer, below, is the reference
            data_type, format_code, shape, original, sub_format, offset, size, origin_op, origin_index = found
            return _check(RawTensor(kind, index, data_type, format_name(format_code), shape, original or None,
                                    sub_format, offset, size, origin_op, origin_index))
    return _locate_by_protobuf(path, contents, kind, index)


def _locate_by_protobuf(path: str | Path, contents: bytes | memoryview, kind: str, index: int) -> RawTensor | None:
    size = len(contents)
    if size < 12:
        return parse_raw_header(path, contents).tensor(kind, index)
    (length,) = struct.unpack_from("<Q", contents)
    if length > size - 8 or length > MAX_HEADER_BYTES or contents[8:12] == NANO_MAGIC:
        return parse_raw_header(path, contents).tensor(kind, index)
    proto = _raw_proto()
    try:
        message = proto.parse_dump_data(contents[8:8 + length])
    except proto.HeaderDecodeError:
        return parse_raw_header(path, contents).tensor(kind, index)
    inputs, outputs = message.input, message.output
    sizes = [item.size for item in inputs]
    sizes.extend(item.size for item in outputs)
    total = sum(sizes) + sum(item.size for item in message.buffer) + sum(item.size for item in message.space)
    if 8 + length + total > size:
        return parse_raw_header(path, contents).tensor(kind, index)  # says which tensor runs past the end
    items, first = (inputs, 0) if kind == "input" else (outputs, len(inputs))
    if not 0 <= index < len(items):
        return None
    offset = 8 + length + sum(sizes[:first + index])
    return _check(_big_tensor(kind, index, items[index], offset, sizes[first + index]))


def _parse(path: str | Path, read: Callable[[int, int], bytes | memoryview], file_size: int) -> RawDump:
    if file_size < 8:
        raise _fail(path, f"it has {file_size} bytes, fewer than the 8 of its header length")
    prefix = read(12, 0)
    (length,) = struct.unpack_from("<Q", prefix)
    if length > file_size - 8:
        raise _fail(path, f"its header length {length:,} runs past the end of the {file_size:,}-byte file")
    if length > MAX_HEADER_BYTES:
        raise _fail(path, f"its header length {length:,} is not plausible (more than {MAX_HEADER_BYTES >> 20} MB)")
    if prefix[8:12] == NANO_MAGIC:
        return _nano(path, bytes(read(length, 8)), file_size)
    header = read(length, 8)
    proto = _raw_proto()
    try:
        message = proto.parse_dump_data(header)
    except proto.HeaderDecodeError as exc:
        raise _fail(path, f"its {length:,}-byte header is not a DumpData protobuf message ({exc})") from None
    return _big(path, message, 8 + length, file_size)


@functools.cache
def _raw_proto() -> Any:
    """The protobuf schema module, imported on first use: the protobuf runtime costs ~20 ms at start-up, and
    NPY-only runs never need it."""
    from autofuse_studio.core.dumps import raw_proto

    return raw_proto


def _dims(values: Any) -> tuple[int, ...]:
    return tuple(int(value) for value in values)


def _check(tensor: RawTensor) -> RawTensor:
    """The tensor, marked with a problem when its dtype, dims and size disagree."""
    problem = None
    dtype = dump_dtype(tensor.dtype) if tensor.dtype >= 0 else None
    if len(tensor.shape) > MAX_DIMS:
        problem = f"its shape has {len(tensor.shape)} dims (at most {MAX_DIMS} are plausible)"
    elif dtype is None or not dtype.supported:
        why = dtype.why_not if dtype is not None else "the nano dtype has no big-dump equivalent"
        problem = f"dtype {tensor.dtype_name} cannot be decoded ({why})"
    else:
        elements = math.prod(tensor.shape)
        if dtype.byte_size(elements) != tensor.size:
            problem = (f"its header says {tensor.size:,} bytes but shape {list(tensor.shape)} of "
                       f"{tensor.dtype_name} takes {dtype.byte_size(elements):,}")
    return tensor if problem is None else _with_problem(tensor, problem)


def recheck_tensor(tensor: RawTensor) -> RawTensor:
    """The tensor checked again after its shape was changed (an FFTS+ thread's slice shape)."""
    return _check(tensor)


def _with_problem(tensor: RawTensor, problem: str) -> RawTensor:
    return replace(tensor, problem=problem)


def _place(path: str | Path, entries: list[tuple[str, int, Any]], start: int,
           file_size: int) -> tuple[_Entry, ...]:
    """Give every tensor its offset (inputs, then outputs, in that order on disk) and check the total size."""
    offset, placed = start, []
    for kind, index, item in entries:
        size = item["size"] if isinstance(item, dict) else item.size
        if offset + size > file_size:
            raise _fail(path, f"{kind} {index} of {size:,} bytes at offset {offset:,} runs past the end of the "
                              f"{file_size:,}-byte file")
        placed.append((kind, index, item, offset, size))
        offset += size
    return tuple(placed)


def _big_tensor(kind: str, index: int, item: Any, offset: int, size: int) -> RawTensor:
    origin_op = origin_index = None
    if kind == "output" and item.original_op.name:
        origin_op, origin_index = item.original_op.name, item.original_op.output_index
    original = tuple(item.original_shape.dim)  # upb gives Python ints
    return RawTensor(kind, index, item.data_type, format_name(item.format), tuple(item.shape.dim),
                     original or None, item.sub_format, offset, size, origin_op, origin_index)


def _big(path: str | Path, message: Any, start: int, file_size: int) -> RawDump:
    entries = [("input", number, item) for number, item in enumerate(message.input)]
    entries.extend(("output", number, item) for number, item in enumerate(message.output))
    placed = _place(path, entries, start, file_size)
    # Buffers and workspaces follow the outputs; they are never compared, only bounds-checked.
    rest = sum(int(item.size) for item in (*message.buffer, *message.space))
    end = placed[-1][3] + placed[-1][4] if placed else start
    if end + rest > file_size:
        raise _fail(path, f"its buffers and workspaces ({rest:,} bytes) run past the end of the file")
    return RawDump(path, "raw", message.op_name or None, int(message.dump_time) or None, placed, file_size,
                   _big_tensor, _slicing(message))


def _slicing(message: Any) -> dict[str, Any] | None:
    """The FFTS+ slice description: JSON in the first attr's value (raw-dumps.md §2.4)."""
    if not message.attr:
        return None
    text = message.attr[0].value
    if not text or len(text) > 1 << 20:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


# Nano TLV dump (raw-dumps.md §3.2): all little-endian, packed.
_INPUT_DESC, _OUTPUT_DESC = 4, 5
_INPUT_FIXED = struct.Struct("<iiiQQQI")  # data_type format addr_type addr offset size l3_len
_OUTPUT_FIXED = struct.Struct("<iiiiiiQQQI")  # + original_index original_data_type original_format
_TL = struct.Struct("<II")


class _Cursor:
    """Reads packed little-endian values from the nano header, failing with the file's name past its end."""

    def __init__(self, path: str | Path, data: bytes, start: int = 0, end: int | None = None) -> None:
        self.path, self.data, self.at = path, data, start
        self.end = len(data) if end is None else end

    def take(self, size: int) -> bytes:
        if size < 0 or self.at + size > self.end:
            raise _fail(self.path, f"its nano header ends inside a field (byte {self.at:,} of {self.end:,})")
        piece = self.data[self.at:self.at + size]
        self.at += size
        return piece

    def unpack(self, layout: struct.Struct) -> tuple[Any, ...]:
        return layout.unpack(self.take(layout.size))


def _nano_l3(cursor: _Cursor, length: int) -> dict[int, bytes]:
    """The level-3 TLVs of one descriptor (0 shape, 1 original shape, 2 origin op name)."""
    inner = _Cursor(cursor.path, cursor.data, cursor.at, cursor.at + length)
    cursor.take(length)
    found: dict[int, bytes] = {}
    while inner.at < inner.end:
        kind, size = inner.unpack(_TL)
        found[kind] = inner.take(size)
    return found


def _nano_dims(raw: bytes | None) -> tuple[int, ...] | None:
    if raw is None:
        return None
    return tuple(value for (value,) in struct.iter_unpack("<Q", raw[: len(raw) - len(raw) % 8]))


def _nano_descs(cursor: _Cursor, kind: str) -> list[tuple[str, int, dict[str, Any]]]:
    (count,) = cursor.unpack(struct.Struct("<I"))
    layout = _INPUT_FIXED if kind == "input" else _OUTPUT_FIXED
    if count * layout.size > cursor.end - cursor.at:
        raise _fail(cursor.path, f"its nano header lists {count:,} {kind}s, more than it has room for")
    descs = []
    for number in range(count):
        fields = cursor.unpack(layout)
        l3 = _nano_l3(cursor, fields[-1])
        desc = {"data_type": fields[0], "format": fields[1], "size": fields[-2], "shape": _nano_dims(l3.get(0)) or (),
                "original_shape": _nano_dims(l3.get(1))}
        if kind == "output":
            desc["origin_index"] = fields[3]
            desc["origin_op"] = l3[2].split(b"\0", 1)[0].decode("utf-8", "replace") if 2 in l3 else None
        descs.append((kind, number, desc))
    return descs


def _nano_tensor(kind: str, index: int, item: dict[str, Any], offset: int, size: int) -> RawTensor:
    code = proto_code_of_ge(item["data_type"])
    return RawTensor(kind, index, -1 if code is None else code, format_name(item["format"]), item["shape"],
                     item["original_shape"] or None, (item["format"] >> 8) & 0xFFFF, offset, size,
                     item.get("origin_op") or None, item.get("origin_index") if item.get("origin_op") else None)


def _nano(path: str | Path, header: bytes, file_size: int) -> RawDump:
    cursor = _Cursor(path, header, 8)  # after the magic and version
    descs: dict[int, list[tuple[str, int, dict[str, Any]]]] = {}
    while cursor.at < cursor.end:
        kind, size = cursor.unpack(_TL)
        block = _Cursor(path, header, cursor.at, cursor.at + size)
        cursor.take(size)
        if kind in (_INPUT_DESC, _OUTPUT_DESC):
            descs[kind] = _nano_descs(block, "input" if kind == _INPUT_DESC else "output")
    entries = descs.get(_INPUT_DESC, []) + descs.get(_OUTPUT_DESC, [])
    return RawDump(path, "nano", None, None, _place(path, entries, 8 + len(header), file_size), file_size,
                   _nano_tensor)
