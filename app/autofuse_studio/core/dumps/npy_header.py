"""The NPY header, read by hand and validated field by field; nothing is allocated or echoed from it unchecked."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from autofuse_studio.core.errors import NpyLoadError
from autofuse_studio.core.printable import excerpt, short_repr

_MAGIC = b"\x93NUMPY"
# Header length field per format version: 1.0 has two bytes, 2.0 and 3.0 four (3.0 allows UTF-8).
_LENGTH_BYTES = {(1, 0): 2, (2, 0): 4, (3, 0): 4}
# np.load refuses longer headers by default (max_header_size); np.save never writes one that long.
MAX_HEADER_BYTES = 10_000
# numpy 2's limit on array dimensions.
MAX_DIMS = 64
# Stored dtypes the comparison understands; everything else is refused with a clear message.
_SUPPORTED_KINDS = frozenset("biuf")

# The header np.save writes for plain arrays; parsed with a regex because the general route (literal_eval)
# costs more than mapping the data of a small dump file. Dims of 19+ digits take the checked route.
_SIMPLE_HEADER = re.compile(
    r"\{'descr': '([<>|=][a-zA-Z]\d{1,3})', 'fortran_order': (True|False), "
    r"'shape': \(((?:\d{1,18}, ?)*\d{0,18})\), \}\s*\Z"
)
# Descriptor strings worth handing to np.dtype: a byte order, a type code, a size, a datetime unit.
_SIMPLE_DESCR = re.compile(r"[<>|=]?[a-zA-Z]{1,2}\d{0,4}(?:\[\w{1,8}\])?\Z")
# Python 2 wrote long literals with an L suffix ("(3L, 4L)"); numpy still reads those headers.
_LONG_SUFFIX = re.compile(r"(?<=\d)[lL]\b")


@dataclass(frozen=True)
class NpyHeader:
    """What the header says: shape, order, dtype (bf16 is 2-byte void), and where the data starts."""

    shape: tuple[int, ...]
    fortran_order: bool
    dtype: np.dtype[np.generic]
    is_bf16: bool
    offset: int

    @property
    def data_bytes(self) -> int:
        """Bytes of data the header promises."""
        count = 1
        for dim in self.shape:
            count *= dim
        return count * self.dtype.itemsize


def _broken(path: str | Path, reason: str) -> NpyLoadError:
    return NpyLoadError.of("npy_header_broken", path=path, reason=reason)


def _read_text(handle: BinaryIO, size: int, path: str | Path) -> tuple[str, int]:
    """The header text and the offset of the data, after checking the magic, version and declared length."""
    preamble = handle.read(8)
    if preamble[:6] != _MAGIC:
        raise NpyLoadError.of("npy_no_magic", path=path)
    if len(preamble) < 8:
        raise _broken(path, "the file ends before the format version")
    version = (preamble[6], preamble[7])
    length_bytes = _LENGTH_BYTES.get(version)
    if length_bytes is None:
        raise NpyLoadError.of("npy_version_unsupported", path=path, major=version[0], minor=version[1])
    field = handle.read(length_bytes)
    if len(field) < length_bytes:
        raise _broken(path, "the file ends inside the header length")
    length = int.from_bytes(field, "little")
    offset = 8 + length_bytes + length
    if length > MAX_HEADER_BYTES:
        raise _broken(path, f"it declares {length} bytes, more than the {MAX_HEADER_BYTES} an NPY header may have")
    if offset > size:
        raise _broken(path, f"it declares {length} bytes but the file ends after {size - 8 - length_bytes}")
    raw = handle.read(length)
    try:
        return raw.decode("utf-8" if version == (3, 0) else "latin-1"), offset
    except UnicodeDecodeError as exc:
        raise _broken(path, f"it is not valid UTF-8 (byte {exc.start})") from exc


def _fast(text: str) -> tuple[str, bool, tuple[int, ...]] | None:
    """(descr, fortran_order, shape) of a header in np.save's usual form, else None."""
    match = _SIMPLE_HEADER.match(text)
    if match is None:
        return None
    descr, fortran, dims = match.groups()
    return descr, fortran == "True", tuple(int(dim) for dim in dims.split(",") if dim.strip())


def _literal(text: str, path: str | Path) -> dict[str, object]:
    """The header dict by literal_eval (never eval): exactly the keys descr, fortran_order and shape."""
    try:
        value = ast.literal_eval(_LONG_SUFFIX.sub("", text))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        reason = "a number has too many digits" if "digits" in str(exc) else "it is not a Python literal"
        raise _broken(path, f"{reason}: {excerpt(text.strip())}") from exc
    if not isinstance(value, dict):
        raise _broken(path, f"it is not a dictionary: {excerpt(text.strip())}")
    if sorted(map(str, value)) != ["descr", "fortran_order", "shape"]:
        keys = excerpt(", ".join(sorted(map(repr, value))))
        raise _broken(path, f"it must have exactly the keys descr, fortran_order and shape, not {keys}")
    return value


def _dim_problem(dim: object) -> str | None:
    """What is wrong with `dim` as an array dimension ("-1 (negative)"), or None."""
    if isinstance(dim, bool):
        return f"{dim} (a bool, not an integer)"
    if not isinstance(dim, int):
        return f"{short_repr(dim)} (not an integer)"
    if dim.bit_length() > 63:
        return f"a {dim.bit_length()}-bit number (too large for an array dimension)"
    if dim < 0:
        return f"{dim} (negative)"
    return None


def _shape(value: object, path: str | Path) -> tuple[int, ...]:
    """The shape as a tuple of non-negative Python ints (no bools), at most MAX_DIMS long."""
    if not isinstance(value, tuple):
        raise _broken(path, f"the shape is a {type(value).__name__}, not a tuple")
    if len(value) > MAX_DIMS:
        raise _broken(path, f"the shape has {len(value)} dimensions, more than {MAX_DIMS}")
    for axis, dim in enumerate(value):
        problem = _dim_problem(dim)
        if problem is not None:
            raise NpyLoadError.of("npy_bad_shape", path=path, axis=axis, problem=problem)
    return value


def _dtype(descr: object, path: str | Path) -> np.dtype[np.generic]:
    """np.dtype of a simple descriptor string; lists (structured data) and anything odd are refused."""
    if isinstance(descr, list):
        raise NpyLoadError.of("npy_structured_descr", path=path)
    if not isinstance(descr, str):
        raise _broken(path, f"descr is a {type(descr).__name__}, not a dtype string")
    if not _SIMPLE_DESCR.match(descr):
        raise NpyLoadError.of("npy_dtype_unsupported", path=path, dtype=excerpt(descr, 40))
    try:
        return np.dtype(descr)
    except (TypeError, ValueError) as exc:
        raise _broken(path, f"descr {excerpt(descr, 40)} is not a numpy dtype") from exc


def _check_dtype(dtype: np.dtype[np.generic], path: str | Path) -> bool:
    """Raise for dtypes we refuse; True when the dtype is bf16 stored as 2-byte void ('<V2')."""
    if dtype.hasobject:
        raise NpyLoadError.of("npy_pickled", path=path)
    if dtype.kind == "V" and dtype.fields is None and dtype.subdtype is None and dtype.itemsize == 2:
        return True  # ml_dtypes.bfloat16 saved by np.save
    if dtype.fields is not None or dtype.subdtype is not None:
        raise NpyLoadError.of("npy_structured_dtype", path=path, dtype=dtype.str)
    if dtype.kind not in _SUPPORTED_KINDS:
        float8 = dtype.kind == "V" and dtype.itemsize == 1
        raise NpyLoadError.of("npy_dtype_float8" if float8 else "npy_dtype_unsupported", path=path, dtype=dtype.str)
    return False


def read_header(handle: BinaryIO, size: int, path: str | Path) -> NpyHeader:
    """The validated header of the NPY file of `size` bytes open at its start; NpyLoadError when unusable."""
    text, offset = _read_text(handle, size, path)
    fast = _fast(text)
    if fast is not None:
        descr, fortran, shape = fast
        if len(shape) > MAX_DIMS:
            raise _broken(path, f"the shape has {len(shape)} dimensions, more than {MAX_DIMS}")
    else:
        fields = _literal(text, path)
        shape = _shape(fields["shape"], path)
        if not isinstance(fields["fortran_order"], bool):
            raise _broken(path, f"fortran_order is {short_repr(fields['fortran_order'])}, not True or False")
        fortran, descr = fields["fortran_order"], fields["descr"]  # type: ignore[assignment]
    dtype = _dtype(descr, path)
    is_bf16 = _check_dtype(dtype, path)
    return NpyHeader(shape, fortran, dtype, is_bf16, offset)
