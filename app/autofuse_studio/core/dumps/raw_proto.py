"""The DumpData header of a raw CANN dump (raw-dumps.md §1.2), built in code and decoded by protobuf's upb parser.

Why the protobuf library and not a hand-written wire decoder: upb parses a header in a few microseconds in C
(a Python decoder takes tens), it rejects malformed varints and lengths itself, skips unknown fields and
accepts packed and unpacked repeated dims, which is every tolerance §1.2 asks for. No protoc step: the schema
is the union of every public version of dump_data.proto / dump_task.proto (field numbers never clash in wire
type), with OpOutput field 11 read as a plain uint64 because it is `arg_index` in some producers and
`offset` in others. Enums are declared as plain integers so that unknown values from newer writers survive.
"""

from __future__ import annotations

import functools
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError, Message

_PACKAGE = "autofuse_studio.dumpdata"

_L = descriptor_pb2.FieldDescriptorProto
_OPTIONAL, _REPEATED = _L.LABEL_OPTIONAL, _L.LABEL_REPEATED
_TYPES = {"u64": _L.TYPE_UINT64, "u32": _L.TYPE_UINT32, "i32": _L.TYPE_INT32, "str": _L.TYPE_STRING,
          "bytes": _L.TYPE_BYTES}

# message -> (field name, number, type or message name, repeated). Enums are int32 on the wire (varints).
_SCHEMA: dict[str, list[tuple[str, int, str, bool]]] = {
    "OriginalOp": [("name", 1, "str", False), ("output_index", 2, "u32", False), ("data_type", 3, "i32", False),
                   ("format", 4, "i32", False)],
    "Shape": [("dim", 1, "u64", True)],
    "DimRange": [("dim_start", 1, "u64", False), ("dim_end", 2, "u64", False)],
    "OpOutput": [("data_type", 1, "i32", False), ("format", 2, "i32", False), ("shape", 3, "Shape", False),
                 ("original_op", 4, "OriginalOp", False), ("data", 5, "bytes", False), ("size", 6, "u64", False),
                 ("original_shape", 7, "Shape", False), ("sub_format", 8, "i32", False),
                 ("address", 9, "u64", False), ("dim_range", 10, "DimRange", True),
                 ("offset_or_arg_index", 11, "u64", False), ("arg_index", 12, "u32", False)],
    "OpInput": [("data_type", 1, "i32", False), ("format", 2, "i32", False), ("shape", 3, "Shape", False),
                ("data", 4, "bytes", False), ("size", 5, "u64", False), ("original_shape", 6, "Shape", False),
                ("sub_format", 7, "i32", False), ("address", 8, "u64", False), ("offset", 9, "u64", False),
                ("arg_index", 10, "u32", False), ("input_type", 11, "u32", False)],
    "OpBuffer": [("buffer_type", 1, "i32", False), ("data", 2, "bytes", False), ("size", 3, "u64", False)],
    "OpAttr": [("name", 1, "str", False), ("value", 2, "str", False)],
    "Workspace": [("type", 1, "i32", False), ("data", 2, "bytes", False), ("size", 3, "u64", False),
                  ("arg_index", 4, "u32", False)],
    "DumpData": [("version", 1, "str", False), ("dump_time", 2, "u64", False), ("output", 3, "OpOutput", True),
                 ("input", 4, "OpInput", True), ("buffer", 5, "OpBuffer", True), ("op_name", 6, "str", False),
                 ("attr", 7, "OpAttr", True), ("space", 8, "Workspace", True), ("dfx_message", 9, "str", False)],
}


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    proto = descriptor_pb2.FileDescriptorProto(name="autofuse_studio_dump_data.proto", package=_PACKAGE,
                                               syntax="proto3")
    for message_name, fields in _SCHEMA.items():
        message = proto.message_type.add(name=message_name)
        for name, number, kind, repeated in fields:
            field = message.field.add(name=name, number=number, label=_REPEATED if repeated else _OPTIONAL)
            if kind in _TYPES:
                field.type = _TYPES[kind]
            else:
                field.type = _L.TYPE_MESSAGE
                field.type_name = f".{_PACKAGE}.{kind}"
    return proto


@functools.cache
def message_class(name: str) -> Any:
    """The generated class of one message of the schema ('DumpData', 'OpOutput' ...)."""
    pool = _pool()
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{name}"))


@functools.cache
def _pool() -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file_descriptor())
    return pool


class HeaderDecodeError(ValueError):
    """The header bytes are not a DumpData message."""


def parse_dump_data(header: bytes | memoryview) -> Message:
    """The DumpData message of a raw dump's header bytes; HeaderDecodeError when they are not protobuf."""
    message = message_class("DumpData")()
    try:
        message.ParseFromString(header)
    except (DecodeError, RecursionError, ValueError) as exc:
        raise HeaderDecodeError(str(exc) or "malformed protobuf") from None
    return message


def encode_dump_data(fields: dict[str, Any]) -> bytes:
    """Serialise a DumpData given as nested dicts (the test and twin writers' encoder)."""
    message = message_class("DumpData")()
    _fill(message, fields)
    return bytes(message.SerializeToString())


def _fill(message: Any, fields: dict[str, Any]) -> None:
    for name, value in fields.items():
        target = getattr(message, name)
        if isinstance(value, dict):
            _fill(target, value)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for item in value:
                _fill(target.add(), item)
        elif isinstance(value, list):
            target.extend(value)
        else:
            setattr(message, name, value)
