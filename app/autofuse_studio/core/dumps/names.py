"""Dump NPY file names written by `msaccucmp convert`: op type, op name, tensor kind and index, timestamp."""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("input", "output")

# `msaccucmp convert -f` appends the converted shape joined by 'x' ("" for a 0-d tensor).
_SHAPE_SUFFIX = re.compile(r"(?:\d+(?:x\d+)*)?")
_MAX_NUMBER_FIELDS = 7


def sanitize_op_name(name: str) -> str:
    """The op name as CANN writes it into dump file names ('/', '\\', '.', ' ' -> '_')."""
    # Four replace() calls: 0.25 us a name, where str.translate with a mapping took 1.8 (an index sanitises
    # every name of 100k+ dump files).
    return name.replace("/", "_").replace("\\", "_").replace(".", "_").replace(" ", "_")


@dataclass(frozen=True)
class NpyName:
    """Fields of a dump NPY name `{type}.{name}.{task}[.{stream}].{ts}[.ffts].{kind}.{i}[.{shape}].npy`."""

    file_name: str
    op_type: str
    op_name: str
    task_id: int
    stream_id: int | None
    timestamp: int
    kind: str
    index: int
    shape_suffix: tuple[int, ...] | None
    ffts: tuple[int, ...] | None


def _is_number(text: str) -> bool:
    # str.isdigit() alone accepts e.g. superscripts, which int() rejects.
    return text.isascii() and text.isdigit()


def _parse_tail(parts: list[str]) -> tuple[str, int, tuple[int, ...] | None, int] | None:
    """(kind, index, shape suffix, number of leading parts) from the end of a split name."""
    if len(parts) >= 3 and parts[-2] in KINDS and _is_number(parts[-1]):
        return parts[-2], int(parts[-1]), None, len(parts) - 2
    if (
        len(parts) >= 4
        and parts[-3] in KINDS
        and _is_number(parts[-2])
        and _SHAPE_SUFFIX.fullmatch(parts[-1])
    ):
        shape = tuple(int(dim) for dim in parts[-1].split("x")) if parts[-1] else ()
        return parts[-3], int(parts[-2]), shape, len(parts) - 3
    return None


def _split_numbers(numbers: list[str]) -> tuple[int, int | None, int, tuple[int, ...] | None]:
    """(task_id, stream_id, timestamp, ffts fields) from the numeric middle fields."""
    values = [int(text) for text in numbers]
    if len(values) == 2:  # old CANN: task.timestamp
        return values[0], None, values[1], None
    # With more fields the stream id may or may not be there; the timestamp (16 µs digits in real
    # dumps) is the longer of the two candidates. Three fields are always task.stream.timestamp.
    has_stream = len(values) == 3 or len(numbers[2]) >= len(numbers[1])
    if has_stream:
        rest = values[3:]
        return values[0], values[1], values[2], tuple(rest) or None
    return values[0], None, values[1], tuple(values[2:]) or None


def parse_npy_name(file_name: str) -> NpyName | None:
    """Parse a dump NPY file name; None for names that are not dump NPYs."""
    if not file_name.endswith(".npy"):
        return None
    parts = file_name[: -len(".npy")].split(".")
    tail = _parse_tail(parts)
    if tail is None:
        return None
    kind, index, shape, head_len = tail
    head = parts[:head_len]
    numbers = head[2:]
    if len(head) < 4 or not head[0] or not head[1] or len(numbers) > _MAX_NUMBER_FIELDS:
        return None
    if not all(_is_number(text) for text in numbers):
        return None
    task_id, stream_id, timestamp, ffts = _split_numbers(numbers)
    return NpyName(
        file_name=file_name,
        op_type=head[0],
        op_name=head[1],
        task_id=task_id,
        stream_id=stream_id,
        timestamp=timestamp,
        kind=kind,
        index=index,
        shape_suffix=shape,
        ffts=ffts,
    )


@dataclass(frozen=True)
class DumpName:
    """Fields of a raw dump file name `{type}.{name}[.{dump number}].{task}[.{stream}].{ts}[.{ffts fields}]`."""

    op_type: str
    op_name: str
    task_id: int | None
    stream_id: int | None
    timestamp: int
    ffts: tuple[str, ...] | None  # the fields after the timestamp (FFTS+: task type 4, context, thread, device)


# FFTS+ names of the host capture-stream writer spell the task type as a word (raw-dumps.md §2.2).
_FFTS_WORD = "FFTSPLUS"
_MAX_RAW_NUMBER_FIELDS = 8


def parse_dump_name(file_name: str) -> DumpName | None:
    """Parse the name of a raw (or nano) dump file as the NPU writes it; None for other names.

    The timestamp is the longest number among the fields (16 µs digits in real dumps), so the optional dump
    number, task and stream ids before it and the FFTS+ fields after it fall into place in every variant.
    """
    parts = file_name.split(".")
    numbers = parts[2:]
    if len(parts) < 4 or not parts[0] or not parts[1] or len(numbers) > _MAX_RAW_NUMBER_FIELDS:
        return None
    if not all(_is_number(text) or text == _FFTS_WORD for text in numbers) or not _is_number(numbers[-1]):
        return None
    head = numbers[: numbers.index(_FFTS_WORD)] if _FFTS_WORD in numbers else numbers
    if not head:
        return None
    stamp_at = max(range(min(len(head), 4)), key=lambda at: (len(head[at]), at))
    before = [int(text) for text in head[:stamp_at]][-2:]
    task = before[0] if before else None
    stream = before[1] if len(before) == 2 else None
    after = tuple(numbers[stamp_at + 1:]) or None
    return DumpName(parts[0], parts[1], task, stream, int(head[stamp_at]), after)


def loose_npy_fields(file_name: str) -> tuple[list[str], str, int, int] | None:
    """The op names, kind, index and timestamp of a loosely named NPY, as the reference tool's glob finds it.

    The reference looks a tensor up with `*.{op}.*.{kind}.{i}.npy`, so `prefix.Op.time.output.0.npy` is
    output 0 of `Op`: every field between the first and the last before the kind can be the op name. The
    timestamp is the longest number after the first field (0 when there is none), so the newest still wins.
    """
    if not file_name.endswith(".npy") or file_name.startswith("."):
        return None
    parts = file_name[: -len(".npy")].split(".")
    if len(parts) < 5 or parts[-2] not in KINDS or not _is_number(parts[-1]):
        return None
    candidates = [part for part in parts[1:-3] if part]
    if not candidates:
        return None
    numbers = [part for part in parts[2:-2] if _is_number(part)]
    stamp = int(max(reversed(numbers), key=len)) if numbers else 0
    return list(dict.fromkeys(candidates)), parts[-2], int(parts[-1]), stamp


_LXSLICE = re.compile(r"(.+)_lxslice([0-9]{1,6})")


@dataclass(frozen=True)
class FftsSlice:
    """One thread file of an FFTS+ op (raw-dumps.md §2.4): the files of one group hold slices of the same tensors."""

    op_name: str  # the op's name without `_lxsliceN`
    group: tuple[str, ...]  # what the thread files of one op dump share
    thread: int


def ffts_slice(parsed: DumpName) -> FftsSlice | None:
    """The FFTS+ slice a raw dump name stands for (`….4.{ctx}.{thread}.{dev}`, `….FFTSPLUS.…`, `_lxsliceN`)."""
    manual = _LXSLICE.fullmatch(parsed.op_name)
    fields = parsed.ffts
    auto = fields is not None and len(fields) >= 4 and fields[0] in ("4", _FFTS_WORD) and _is_number(fields[2])
    if manual is not None:
        op_name = manual.group(1)
        return FftsSlice(op_name, (parsed.op_type, op_name), int(manual.group(2)))
    if auto and fields is not None:
        return FftsSlice(parsed.op_name, (parsed.op_type, parsed.op_name, fields[1], *fields[3:]), int(fields[2]))
    return None
