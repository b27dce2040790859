"""spell_numbers (C, Ryu's digits) writes each double as repr() does, and FloatNumbers columns join as Numbers ones."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.reports import row_join
from autofuse_studio.core.reports.row_join import FloatNumbers, Numbers, join_rows, native_joiner

TEXTS = ("nan", "inf", "-inf")
native = native_joiner()
needs_c = pytest.mark.skipif(native is None or not hasattr(native, "spell_numbers"), reason="C module not built")


def _expected(value: float, kind: int) -> str:
    """The token join_rows reads for a value: null, a quoted text, an int, or repr()."""
    if kind == 2:
        return "null"
    if math.isnan(value):
        return '"nan"'
    if math.isinf(value):
        return '"inf"' if value > 0 else '"-inf"'
    return str(int(value)) if kind == 1 else repr(value)


def _tokens(values: np.ndarray, kinds: np.ndarray) -> list[str]:
    assert native is not None
    [spelled] = native.spell_numbers([(values.tobytes(), kinds.tobytes(), TEXTS)])
    assert spelled[:1] == b"[" and spelled[-1:] == b"]"
    return spelled[1:-1].decode("ascii").split(",") if len(values) else []


def _doubles(seed: int) -> np.ndarray:
    """Doubles of every kind: random bit patterns (NaN payloads, subnormals), wide and narrow ranges, float32 and
    float16 values widened, whole numbers, and the powers of ten and two with their neighbours."""
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):
        tens = 10.0 ** np.arange(-330, 310)
    edges = np.concatenate([tens, 2.0 ** np.arange(-1080, 1024), [5e-324, 2.2250738585072014e-308, 1e16, 1e15,
                                                                 9999999999999998.0, 1e-4, 1e-5, 0.1, 0.3, 0.0]])
    edges = np.concatenate([edges, np.nextafter(edges, np.inf), np.nextafter(edges, -np.inf)])
    return np.concatenate([
        rng.integers(0, 2**64, 40_000, dtype=np.uint64).view(np.float64),
        rng.standard_normal(20_000) * 10.0 ** rng.integers(-30, 30, 20_000),
        rng.random(10_000).astype(np.float32).astype(np.float64),
        (rng.standard_normal(10_000) * 1000).astype(np.float16).astype(np.float64),
        rng.integers(-2**53, 2**53, 10_000).astype(np.float64),
        edges, -edges, [math.nan, math.inf, -math.inf]])


@needs_c
@pytest.mark.parametrize("seed", [0, 1])
def test_every_double_is_spelled_as_repr_does(seed: int) -> None:
    values = _doubles(seed)
    kinds = np.zeros(len(values), dtype=np.uint8)
    found = _tokens(values, kinds)
    wrong = [(value, token) for value, token, want in zip(values.tolist(), found, map(_expected, values.tolist(),
                                                                                      kinds.tolist()), strict=True)
             if token != want]
    assert not wrong[:10]


@needs_c
def test_ints_and_empty_cells_take_their_kinds() -> None:
    values = np.array([0.0, -0.0, 3.0, -(2.0**53), 2.0**53, 1.5, math.nan, 7.0, 2.5, 1e300], dtype=np.float64)
    kinds = np.array([1, 0, 1, 1, 1, 2, 1, 0, 1, 1], dtype=np.uint8)
    # An "int" that is not one, or beyond 2**53, is written as the float it is (never a cast's wrong digits).
    assert _tokens(values, kinds) == ["0", "-0.0", "3", str(-(2**53)), str(2**53), "null", '"nan"', "7.0", "2.5",
                                      "1e+300"]


@needs_c
def test_several_columns_are_spelled_in_one_call_and_an_empty_one_is_an_empty_array() -> None:
    assert native is not None
    first, second, empty = native.spell_numbers([
        (np.array([1.25]).tobytes(), b"\x00", TEXTS), (np.array([2.0, 1e-7]).tobytes(), b"\x01\x00", ("N", "P", "M")),
        (b"", b"", TEXTS)])
    assert (first, second, empty) == (b"[1.25]", b"[2,1e-07]", b"[]")
    assert native.spell_numbers([]) == []


@needs_c
@pytest.mark.parametrize(("column", "error"), [
    ((b"\x00" * 8, b"\x03", TEXTS), ValueError),  # no such kind
    ((b"\x00" * 7, b"\x00", TEXTS), ValueError),  # not whole doubles
    ((b"\x00" * 8, b"", TEXTS), ValueError),  # a kind short
    ((b"\x00" * 8, b"\x00", ("nan", "inf")), ValueError),
    ((b"\x00" * 8, b"\x00", ("na n", "inf", "-inf")), ValueError),  # not a word join_rows reads back
    ((b"\x00" * 8, b"\x00", ("", "inf", "-inf")), ValueError),
    ((b"\x00" * 8, b"\x00", (1, "inf", "-inf")), TypeError),
    ([b"\x00" * 8, b"\x00", TEXTS], TypeError),  # not a tuple
    ((b"\x00" * 8, b"\x00"), TypeError),
])
def test_what_spell_numbers_refuses(column: Any, error: type[Exception]) -> None:
    assert native is not None
    with pytest.raises(error):
        native.spell_numbers([(np.zeros(2).tobytes(), b"\x00\x00", TEXTS), column])
    with pytest.raises(TypeError):
        native.spell_numbers((column,))


def _python_values(values: np.ndarray, kinds: np.ndarray) -> list[Any]:
    """The Python values a FloatNumbers column stands for (a Numbers column's)."""
    found: list[Any] = []
    for value, kind in zip(values.tolist(), kinds.tolist(), strict=True):
        if kind == 2:
            found.append(None)
        elif not math.isfinite(value):
            found.append("nan" if math.isnan(value) else "inf" if value > 0 else "-inf")
        else:
            found.append(int(value) if kind == 1 and value.is_integer() and abs(value) <= 2**53 else value)
    return found


@pytest.mark.parametrize("use_c", [True, False])
def test_a_float_numbers_column_joins_as_the_numbers_column_of_its_values(use_c: bool,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if not use_c:
        monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    pick = random.Random(5)
    size = 3000
    values = np.array([pick.choice((pick.uniform(-1e6, 1e6), 1e-9 * pick.random(), math.nan, -math.inf, 2.0**60,
                                    float(pick.randint(-9, 9)))) for _ in range(size)])
    kinds = np.array([2 if pick.random() < 0.1 else 1 if value.is_integer() and abs(value) <= 2**53 and
                      pick.random() < 0.5 else 0 for value in values.tolist()], dtype=np.uint8)
    kinds[:40] = 1  # "ints" that are not (1.5, 2**60): both joiners write the floats they are
    templates = ("<", ">", "~", "#", "")
    arrays: row_join.Column = (FloatNumbers(values, kinds, TEXTS), *templates)
    listed: row_join.Column = (Numbers(_python_values(values, kinds)), *templates)
    for start, stop in ((0, size), (17, 2048), (size - 1, size), (5, 5)):
        assert join_rows([arrays, arrays], start, stop, "{", "}\n", "|") == \
            join_rows([listed, listed], start, stop, "{", "}\n", "|")
        assert row_join.join_rows_into([arrays], start, stop, "", "\n", ",", bytearray()) == \
            join_rows([listed], start, stop, "", "\n", ",")
