"""Dump NPY file names written by `msaccucmp convert`: op type, op name, tensor kind and index, timestamp."""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("input", "output")

# CANN replaces these characters in op types/names when it writes dump file names.
_SANITISE = str.maketrans({"/": "_", "\\": "_", ".": "_", " ": "_"})
# `msaccucmp convert -f` appends the converted shape joined by 'x' ("" for a 0-d tensor).
_SHAPE_SUFFIX = re.compile(r"(?:\d+(?:x\d+)*)?")
_MAX_NUMBER_FIELDS = 7


def sanitize_op_name(name: str) -> str:
    """The op name as CANN writes it into dump file names ('/', '\\', '.', ' ' -> '_')."""
    return name.translate(_SANITISE)


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
