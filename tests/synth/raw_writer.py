"""Raw dump files written as the NPU writes them (raw-dumps.md §1 and §3): our own writer, from the .proto.

Big dumps: uint64 header length, the DumpData protobuf with empty `data` fields, then the bytes of every
input, output, buffer and workspace. Nano dumps: the TLV layout with magic 0x5A5A5A5A and ge::DataType codes.
Knobs cover what field data varies: dims packed or not, unknown fields from newer writers, field 11 as
offset or arg_index, origin ops, FFTS+ slice descriptions, buffers and workspaces after the outputs.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from autofuse_studio.core.dumps.dump_dtypes import proto_code_of_ge
from autofuse_studio.core.dumps.dump_formats import format_name
from autofuse_studio.core.dumps.raw_header import NANO_MAGIC
from autofuse_studio.core.dumps.raw_proto import encode_dump_data

# numpy dtype -> big-dump (ge.proto) dtype value.
PROTO_DTYPES = {"float32": 1, "float16": 2, "int8": 3, "uint8": 4, "int16": 5, "uint16": 6, "int32": 7,
                "int64": 8, "uint32": 9, "uint64": 10, "bool": 11, "float64": 12}
BF16 = 27
_FORMATS = {format_name(code): code for code in range(50)}


def format_code(name: str | None) -> int:
    """The primary-format enum value of a layout name (ND when unknown)."""
    return _FORMATS.get((name or "ND").upper().removeprefix("FORMAT_"), 2)


@dataclass
class RawTensorSpec:
    """One tensor of a raw dump: its bytes and what the header says of them."""

    data: bytes
    dtype: int
    shape: tuple[int, ...]
    format: int = 2  # ND
    original_shape: tuple[int, ...] | None = None
    origin_op: str | None = None
    origin_index: int = 0
    size: int | None = None  # what the header claims (a hostile knob); None: len(data)
    sub_format: int = 0

    @staticmethod
    def of(array: np.ndarray, layout: str | None = None, original_shape: Sequence[int] | None = None,
           origin_op: str | None = None, origin_index: int = 0) -> RawTensorSpec:
        """The spec of a numpy array (bf16 given as '<V2' or uint16 bit patterns with dtype BF16 set later)."""
        array = np.ascontiguousarray(array)
        code = BF16 if array.dtype.kind == "V" and array.dtype.itemsize == 2 else PROTO_DTYPES[array.dtype.name]
        return RawTensorSpec(array.tobytes(), code, tuple(array.shape), format_code(layout),
                             tuple(original_shape) if original_shape is not None else None, origin_op, origin_index)


@dataclass
class RawDumpSpec:
    """A whole raw dump file."""

    op_name: str
    inputs: list[RawTensorSpec] = field(default_factory=list)
    outputs: list[RawTensorSpec] = field(default_factory=list)
    dump_time: int = 0
    buffers: list[bytes] = field(default_factory=list)
    workspaces: list[bytes] = field(default_factory=list)
    slicing: dict[str, Any] | None = None  # FFTS+ description, written as attr[0].value JSON
    field_11_as_arg_index: bool = False  # GE-proto writers: OpOutput field 11 is arg_index (a small number)
    newer_fields: bool = False  # fields this reader does not know (a newer writer): must be skipped


def _shape(dims: Sequence[int]) -> dict[str, Any]:
    return {"dim": list(dims)}


def _tensor_fields(spec: RawTensorSpec, output: bool, position: int, arg_index_11: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {"data_type": spec.dtype, "format": spec.format, "shape": _shape(spec.shape),
                              "size": len(spec.data) if spec.size is None else spec.size,
                              "sub_format": spec.sub_format, "address": 0x12C0_0000_0000 + position * 4096}
    if spec.original_shape is not None:
        fields["original_shape"] = _shape(spec.original_shape)
    if output and spec.origin_op is not None:
        fields["original_op"] = {"name": spec.origin_op, "output_index": spec.origin_index,
                                 "data_type": spec.dtype, "format": spec.format}
    if output:
        fields["offset_or_arg_index"] = position if arg_index_11 else position * 512
    else:
        fields["offset"] = position * 512
    return fields


def _unknown_fields() -> bytes:
    """A varint field 99 and a length-delimited field 100 (wire types a newer writer could add)."""
    return bytes([0x98, 0x06, 0x2A, 0xA2, 0x06, 0x03]) + b"new"


def big_dump_bytes(spec: RawDumpSpec) -> bytes:
    """The bytes of a big (protobuf header) raw dump file."""
    fields: dict[str, Any] = {
        "version": "2.0", "dump_time": spec.dump_time, "op_name": spec.op_name,
        "input": [_tensor_fields(item, False, number, False) for number, item in enumerate(spec.inputs)],
        "output": [_tensor_fields(item, True, number, spec.field_11_as_arg_index)
                   for number, item in enumerate(spec.outputs)],
        "buffer": [{"buffer_type": 0, "size": len(data)} for data in spec.buffers],
        "space": [{"type": 0, "size": len(data)} for data in spec.workspaces],
    }
    if spec.slicing is not None:
        fields["attr"] = [{"name": "ffts_slice", "value": json.dumps(spec.slicing)}]
    header = encode_dump_data(fields) + (_unknown_fields() if spec.newer_fields else b"")
    body = b"".join(item.data for item in (*spec.inputs, *spec.outputs)) + b"".join(spec.buffers + spec.workspaces)
    return struct.pack("<Q", len(header)) + header + body


_PROTO_TO_GE: dict[int, int] = {}
for _ge in range(64):
    _proto = proto_code_of_ge(_ge)
    if _proto is not None:
        _PROTO_TO_GE.setdefault(_proto, _ge)


def _tlv(kind: int, value: bytes) -> bytes:
    return struct.pack("<II", kind, len(value)) + value


def _dims(dims: Sequence[int]) -> bytes:
    return b"".join(struct.pack("<Q", dim) for dim in dims)


def _nano_desc(spec: RawTensorSpec, output: bool, slot: int) -> bytes:
    l3 = _tlv(0, _dims(spec.shape)) + _tlv(1, _dims(spec.original_shape or spec.shape))
    dtype = _PROTO_TO_GE.get(spec.dtype, 0)
    size = len(spec.data) if spec.size is None else spec.size
    if not output:
        return struct.pack("<iiiQQQI", dtype, spec.format, 3, 8 * slot, 0, size, len(l3)) + l3
    if spec.origin_op is not None:
        l3 += _tlv(2, spec.origin_op.encode())
    return struct.pack("<iiiiiiQQQI", dtype, spec.format, 3, spec.origin_index, dtype, spec.format, 8 * slot, 0,
                       size, len(l3)) + l3


def nano_dump_bytes(spec: RawDumpSpec) -> bytes:
    """The bytes of a nano (TLV) dump file: inputs and outputs only, dtypes as ge::DataType."""
    # Addresses are argument slots of 8 bytes, inputs first (as in the public sample).
    first_output = len(spec.inputs)
    inputs = _tlv(4, struct.pack("<I", len(spec.inputs))
                  + b"".join(_nano_desc(item, False, slot) for slot, item in enumerate(spec.inputs)))
    outputs = _tlv(5, struct.pack("<I", len(spec.outputs))
                   + b"".join(_nano_desc(item, True, first_output + slot) for slot, item in enumerate(spec.outputs)))
    header = NANO_MAGIC + struct.pack("<I", 0) + inputs + outputs
    body = b"".join(item.data for item in (*spec.inputs, *spec.outputs))
    return struct.pack("<Q", len(header)) + header + body


def write_raw_dump(path: Path, spec: RawDumpSpec, variant: str = "raw") -> int:
    """Write one raw ('raw' or 'nano') dump file; returns its size."""
    data = nano_dump_bytes(spec) if variant == "nano" else big_dump_bytes(spec)
    path.write_bytes(data)
    return len(data)
