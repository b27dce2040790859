"""What a dump file is, by its first bytes: NPY, raw (protobuf header), nano (TLV) or statistics CSV."""

from __future__ import annotations

import os
import stat
import struct
from pathlib import Path

from autofuse_studio.core.dumps.raw_header import NANO_MAGIC
from autofuse_studio.core.dumps.tensors import read_raw_dump
from autofuse_studio.core.errors import NpyLoadError

NPY = "npy"
RAW = "raw"
NANO = "nano"
STATS_CSV = "stats_csv"
UNKNOWN = "unknown"

_NPY_MAGIC = b"\x93NUMPY"
_STATS_HEADER = b"input/output,"
_BOM = b"\xef\xbb\xbf"
SNIFF_BYTES = 32


def sniff_bytes(first: bytes, file_size: int) -> str:
    """The kind of a file from its first SNIFF_BYTES bytes and its size."""
    if first.startswith(_NPY_MAGIC):
        return NPY
    if first.removeprefix(_BOM)[: len(_STATS_HEADER)].lower() == _STATS_HEADER:
        return STATS_CSV
    if len(first) >= 12:
        (length,) = struct.unpack_from("<Q", first)
        if first[8:12] == NANO_MAGIC and length <= file_size - 8:
            return NANO
        # A DumpData header starts with field 1 (version, a string: tag 0x0A), 2 (dump_time: 0x10) or 3
        # (output: 0x1A); an empty header is a raw dump of an op with no tensors.
        if length <= file_size - 8 and (length == 0 or first[8] in (0x0A, 0x10, 0x1A, 0x22, 0x32)):
            return RAW
    return UNKNOWN


def sniff_file(path: str | Path) -> str:
    """The kind of the file at `path` (UNKNOWN when it cannot be read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return UNKNOWN
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return UNKNOWN
        return sniff_bytes(os.pread(fd, SNIFF_BYTES, 0), info.st_size)
    except OSError:
        return UNKNOWN
    finally:
        os.close(fd)


def header_op_name(path: Path) -> str | None:
    """The full op name in a raw dump's header (None for other files and nano dumps, which have none)."""
    if sniff_file(path) != RAW:
        return None
    try:
        return read_raw_dump(path).op_name
    except NpyLoadError:
        return None
