"""Data types of raw dumps (raw-dumps.md §1.3): the header's enum value -> how its bytes become numbers.

Big dumps number dtypes like ge.proto.DataType; nano dumps use ge::DataType and are mapped here first.
bf16, fp8 and fp4-free ml_dtypes types decode lazily, block by block; packed 4-bit ints are unpacked
whole (they are small); HiFloat8 is decoded with a 256-entry table built from CANN's own decoder
(`HiFloat8::GetValue`, not msaccucmp's, which differs on 49 codes). Types whose bit packing no public
source documents (UINT1, INT2, UINT2, FLOAT6_*, FLOAT4_*, HIFLOAT4*) and STRING are reported, not guessed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.dumps.lazy import decode_bf16

Decoder = Callable[[np.ndarray], np.ndarray]

_NAMES = (
    "DT_UNDEFINED", "DT_FLOAT", "DT_FLOAT16", "DT_INT8", "DT_UINT8", "DT_INT16", "DT_UINT16", "DT_INT32",
    "DT_INT64", "DT_UINT32", "DT_UINT64", "DT_BOOL", "DT_DOUBLE", "DT_STRING", "DT_DUAL_SUB_INT8",
    "DT_DUAL_SUB_UINT8", "DT_COMPLEX64", "DT_COMPLEX128", "DT_QINT8", "DT_QINT16", "DT_QINT32", "DT_QUINT8",
    "DT_QUINT16", "DT_RESOURCE", "DT_STRING_REF", "DT_DUAL", "DT_VARIANT", "DT_BF16", "DT_INT4", "DT_UINT1",
    "DT_INT2", "DT_UINT2", "DT_COMPLEX32", "DT_HIFLOAT8", "DT_FLOAT8_E5M2", "DT_FLOAT8_E4M3FN",
    "DT_FLOAT8_E8M0", "DT_FLOAT6_E3M2", "DT_FLOAT6_E2M3", "DT_FLOAT4_E2M1", "DT_FLOAT4_E1M2", "DT_HIFLOAT4",
    "DT_HIFLOAT4_SCALE",
)

# ge::DataType (nano dumps) -> ge.proto.DataType (big dumps), from CANN's c_types.h numbering.
_GE_TO_PROTO = {0: 1, 1: 2, 2: 3, 3: 7, 4: 4, 6: 5, 7: 6, 8: 9, 9: 8, 10: 10, 11: 12, 12: 11, 16: 16, 17: 17,
                23: 23, 27: 27, 29: 28, 30: 29, 31: 30, 32: 31, 33: 32, 34: 33, 35: 34, 36: 35, 37: 36, 38: 37,
                39: 38, 40: 39, 41: 40, 42: 41, 43: 42}


@dataclass(frozen=True)
class DumpDtype:
    """How to read one dtype: the stored element type, bits per element and the decoder to values."""

    code: int
    name: str  # DT_FLOAT16 ...
    logical: str  # the name users see: float16, bfloat16, float8_e4m3fn, int4, hifloat8 ...
    storage: np.dtype[np.generic] | None  # None: this dtype cannot be decoded
    bits: int = 0
    decode: Decoder | None = None  # lazily, block by block (elementwise types)
    unpack: Callable[[np.ndarray, int], np.ndarray] | None = None  # whole tensor, packed sub-byte types
    why_not: str = ""

    @property
    def supported(self) -> bool:
        """True when the bytes can be turned into numbers."""
        return self.storage is not None

    def byte_size(self, elements: int) -> int:
        """Bytes that `elements` values of this dtype take in a dump."""
        return (elements * self.bits + 7) // 8


def dtype_name(code: int) -> str:
    """DT_* name of a big-dump dtype value ('DT_<n>' for values newer than this table)."""
    return _NAMES[code] if 0 <= code < len(_NAMES) else f"DT_{code}"


def proto_code_of_ge(code: int) -> int | None:
    """The big-dump (ge.proto) value of a nano dump's ge::DataType value; None when it has none."""
    return _GE_TO_PROTO.get(code)


def _plain(code: int, storage: str, logical: str | None = None) -> DumpDtype:
    dtype = np.dtype(storage)
    return DumpDtype(code, dtype_name(code), logical or str(dtype), dtype, dtype.itemsize * 8)


def _ml(code: int, kind: str) -> DumpDtype:
    """An 8-bit float type of ml_dtypes, decoded to float32 block by block."""

    def decode(raw: np.ndarray) -> np.ndarray:
        # Imported on first use: ml_dtypes takes half a second to load, and most dumps have no fp8 tensor.
        import ml_dtypes

        values: np.ndarray = raw.view(np.dtype(getattr(ml_dtypes, kind))).astype(np.float32)
        return values

    return DumpDtype(code, dtype_name(code), kind, np.dtype(np.uint8), 8, decode)


def _unpack_int4(raw: np.ndarray, elements: int) -> np.ndarray:
    """Two's-complement nibbles, low nibble first (element 2i), as int8."""
    pairs = np.empty(raw.size * 2, dtype=np.int8)
    low = (raw & 0x0F).astype(np.int8)
    high = (raw >> 4).astype(np.int8)
    pairs[0::2] = np.where(low > 7, low - 16, low)
    pairs[1::2] = np.where(high > 7, high - 16, high)
    return pairs[:elements]


def _hifloat8_value(code: int) -> float:
    """CANN's HiFloat8::GetValue for one byte (raw-dumps.md §1.3)."""
    special = {0x00: 0.0, 0x80: float("nan"), 0x6F: float("inf"), 0xEF: float("-inf")}
    if code in special:
        return special[code]
    sign = -1.0 if code & 0x80 else 1.0
    bits = format(code & 0x7F, "07b")
    for prefix, width in (("11", 4), ("10", 3), ("01", 2), ("001", 1), ("0001", 0)):
        if bits.startswith(prefix):
            rest = bits[len(prefix):]
            exponent_bits, mantissa_bits = rest[:width], rest[width:]
            exponent = 0
            if width:
                magnitude = int("1" + exponent_bits[1:], 2)
                exponent = -magnitude if exponent_bits[0] == "1" else magnitude
            fraction = int(mantissa_bits, 2) / (1 << len(mantissa_bits)) if mantissa_bits else 0.0
            return sign * 2.0 ** exponent * (1.0 + fraction)
    return sign * 2.0 ** (int(bits[4:], 2) - 23)  # the 0000 prefix: denormals


@functools.cache
def hifloat8_table() -> np.ndarray:
    """float32 value of every HiFloat8 byte."""
    return np.array([_hifloat8_value(code) for code in range(256)], dtype=np.float32)


def _decode_hifloat8(raw: np.ndarray) -> np.ndarray:
    return hifloat8_table()[raw.view(np.uint8)]


def _unsupported(code: int, why: str) -> DumpDtype:
    return DumpDtype(code, dtype_name(code), dtype_name(code).removeprefix("DT_").lower(), None, why_not=why)


_UNDOCUMENTED = "its bit packing is not documented by any CANN source"
_COMPLEX = "complex tensors are not compared yet"


@functools.cache
def _table() -> dict[int, DumpDtype]:
    table = {code: _plain(code, storage) for code, storage in (
        (1, "<f4"), (2, "<f2"), (3, "i1"), (4, "u1"), (5, "<i2"), (6, "<u2"), (7, "<i4"), (8, "<i8"), (9, "<u4"),
        (10, "<u8"), (11, "?"), (12, "<f8"), (14, "i1"), (15, "u1"), (18, "i1"), (19, "<i2"), (20, "<i4"),
        (21, "u1"), (22, "<u2"), (23, "<i8"))}
    table[27] = DumpDtype(27, "DT_BF16", "bfloat16", np.dtype("<u2"), 16, decode_bf16)
    table[28] = DumpDtype(28, "DT_INT4", "int4", np.dtype(np.uint8), 4, unpack=_unpack_int4)
    table[33] = DumpDtype(33, "DT_HIFLOAT8", "hifloat8", np.dtype(np.uint8), 8, _decode_hifloat8)
    table[34] = _ml(34, "float8_e5m2")
    table[35] = _ml(35, "float8_e4m3fn")
    table[36] = _ml(36, "float8_e8m0fnu")
    for code in (29, 30, 31, 37, 38, 39, 40, 41, 42):
        table[code] = _unsupported(code, _UNDOCUMENTED)
    for code, why in ((0, "the writer left the dtype undefined"), (13, "strings have no public byte layout"),
                      (24, "strings have no public byte layout"), (25, "DT_DUAL mixes float and int8 values"),
                      (26, "variants have no public byte layout"), (16, _COMPLEX), (17, _COMPLEX), (32, _COMPLEX)):
        table[code] = _unsupported(code, why)
    return table


def dump_dtype(code: int) -> DumpDtype:
    """How to read the big-dump dtype `code` (unsupported with a reason for unknown values)."""
    found = _table().get(code)
    return found if found is not None else _unsupported(code, "this dtype value is newer than Autofuse Studio")
