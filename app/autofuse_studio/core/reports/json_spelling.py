"""JSON spelled as json.dumps(indent=2) spelled it, from msgspec's faster encoding: the keys of a result row, floats
outside [1e-4, 1e16) as repr() writes them, and the exception that sends a document through json.dumps.

Shared by precision_json (the document), json_rows (rows joined in C) and row_join (numbers in text cells), so
none of them imports another for these.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import msgspec

from autofuse_studio.core.precision.rows import EXTRA_METRICS

# PrecisionRow.to_dict()'s keys, grouped by where the values come from (a test checks they are its keys).
HEAD_KEYS = ("kind", "rank", "step", "occurrence", "fused_op", "fused_index", "origin_op", "origin_index", "status")
METRIC_KEYS = ("cosine", "max_abs_err", "max_rel_err", *EXTRA_METRICS)
TAIL_KEYS = ("verdict", "fused_dtype", "origin_dtype", "fused_shape", "origin_shape", "source_type", "message",
             "fused_file", "origin_file")
NESTED_KEYS = ("statistics", "signature")
ROW_KEYS = HEAD_KEYS + METRIC_KEYS + TAIL_KEYS + NESTED_KEYS


class Spellings(dict[Any, Any]):
    """Each value's cell, spelled when it is first asked for (one hash per value, a set and a dict took two)."""

    def __init__(self, spell: Callable[[Any], Any]) -> None:
        super().__init__()
        self._spell = spell

    def __missing__(self, value: Any) -> Any:
        cell = self[value] = self._spell(value)
        return cell


class Unlike(Exception):
    """msgspec would not write this as json.dumps did: the document goes through json.dumps."""


def _number(value: float) -> Any:
    """A float as json.dumps spells it: msgspec's own spelling in [1e-4, 1e16), repr() outside."""
    if not math.isfinite(value):
        raise Unlike  # json.dumps(allow_nan=False) refuses it; let it say so
    if value == 0 or 1e-4 <= abs(value) < 1e16:
        return value
    return msgspec.Raw(float.__repr__(value).encode())


# msgspec's spellings of floats outside [1e-4, 1e16) turned into repr()'s, on a buffer of numbers only, each
# number after a ','. Literal first characters keep each pass a fast scan.
_POSITIVE_EXPONENT = re.compile(rb"e(?=[0-9])")  # 1e16 -> 1e+16
_ONE_DIGIT_EXPONENT = re.compile(rb"e-(?=[0-9],)")  # 1e-7 -> 1e-07
_FIXED_POINT = re.compile(rb",0\.0000([1-9])([0-9]*)")  # 0.000015 -> 1.5e-05 (and 0.00001 -> 1.e-05)
_FIXED_POINT_NEGATIVE = re.compile(rb"-0\.0000([1-9])([0-9]*)")  # only a number's sign precedes a 0. here


def repr_text(values: list[Any]) -> bytes:
    """Ints and floats, comma-separated, as str()/repr() spell them (msgspec's encoder is 25x repr()).

    Non-finite floats and None come out as `null`.
    """
    return respelled(msgspec.json.encode(values))


def respelled(encoded: bytes) -> bytes:
    """msgspec's JSON array of numbers as repr_text spells it (the numbers comma-separated, without brackets)."""
    text = b"," + encoded[1:-1] + b","
    if b"e" in text:
        text = _POSITIVE_EXPONENT.sub(b"e+", text)
        text = _ONE_DIGIT_EXPONENT.sub(b"e-0", text)
    if b"0.0000" in text:
        text = _FIXED_POINT.sub(rb",\1.\2e-05", text)
        text = _FIXED_POINT_NEGATIVE.sub(rb"-\1.\2e-05", text).replace(b".e-05", b"e-05")
    return text[1:-1]


def as_repr(values: list[float]) -> list[msgspec.Raw]:
    """Finite floats as Raw JSON numbers spelled as repr() spells them."""
    return list(map(msgspec.Raw, repr_text(values).split(b",")))


def fixed(value: Any) -> Any:
    """`value` (JSON-friendly builtins) with floats spelled as json.dumps spells them."""
    kind = value.__class__
    if kind is float:
        return _number(value)
    if kind is dict:
        spelled = {}
        for key, item in value.items():
            if key.__class__ is not str:
                raise Unlike  # json.dumps turns 1.5 or True keys into its own text
            of = item.__class__
            # Inline for speed (statistics rows hold ~30 numbers each); NaN and inf fail both tests.
            if of is float:
                spelled[key] = item if 1e-4 <= abs(item) < 1e16 or item == 0 else _number(item)
            elif of is dict or of is list or of is tuple:
                spelled[key] = fixed(item)
            else:
                spelled[key] = item
        return spelled
    if kind is list or kind is tuple:
        return [fixed(item) for item in value]
    return value
