"""Table rows joined into UTF-8 straight from their column cells: the C module _rowjoin, or the same bytes in Python.

A column is (values, before, after, empty[, number_before, number_after]). None and "" are written as `empty`;
a str as before + text + after; an int or float as number_before + str()/repr() + number_after (before and
after when not given; NaN and Inf as `empty`); a 1-tuple (text,) as its text alone (a cell the caller spelled
whole). `values` may be a `Numbers` column: msgspec spells a chunk of it at a time (25x faster than repr()) and
the joiner respells its floats as repr() does. Each row is row_open, its cells joined by `separator`, row_close.
ROW in the templates and whole cells becomes the row's number (the xlsx cell references); plain texts are copied
as they are, so a caller that numbers rows keeps ROW out of them (xlsx escapes control characters). The C module
also reads the columns out of the rows (attribute_columns), and answers in one pass over a column what types it
holds (column_kinds) and whether any text needs escaping (plain_texts), or both (column_survey), and which nested
JSON objects need respelling at all (nested_unplain). Without the C module (not built, or AUTOFUSE_STUDIO_NO_NATIVE=1)
Python writes the same bytes.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from types import ModuleType
from typing import Any

import msgspec

from autofuse_studio.core.native_switch import NATIVE_DISABLE_ENV as NATIVE_DISABLE_ENV  # the tests set it by this name
from autofuse_studio.core.native_switch import load_extension, native_disabled
from autofuse_studio.core.reports.json_spelling import respelled

log = logging.getLogger(__name__)

ROW = "\x01"  # the row number's place in a template
ATTRIBUTE_CHUNK = 16384  # objects read per C call (~5 ms for 20 attributes)
Column = tuple[Any, ...]  # (values, before, after, empty[, number_before, number_after])


_ROWJOIN = load_extension("autofuse_studio.core.reports._rowjoin", "joining rows in Python", log)


def native_joiner() -> ModuleType | None:
    """The C row joiner when it is built and not disabled by AUTOFUSE_STUDIO_NO_NATIVE=1, else None."""
    return None if native_disabled() else _ROWJOIN


def attribute_columns(objects: Sequence[Any], names: Sequence[str], items: bool = False) -> list[list[Any]]:
    """Each name's attribute of every object (with `items`, object[name]: dicts), column by column, None for a
    None object (C: one pass over the objects)."""
    native = native_joiner()
    if native is None:
        read = itemgetter if items else attrgetter
        if any(held is None for held in objects):
            return [[None if held is None else read(name)(held) for held in objects] for name in names]
        return [list(map(read(name), objects)) for name in names]
    found: list[list[Any]] = [[None] * len(objects) for _ in names]  # filled in place by C
    listed, named = objects if isinstance(objects, list) else list(objects), tuple(names)
    for start in range(0, len(listed), ATTRIBUTE_CHUNK):  # the GIL is free again between two chunks (the GUI)
        native.attribute_columns(listed, named, items, start, min(start + ATTRIBUTE_CHUNK, len(listed)), found)
    return found


def all_finite(values: Sequence[Any]) -> bool:
    """True when no float in `values` is NaN or ±Inf (a sum is NaN or Inf when one is; an overflowing sum of
    finite floats only sends the caller down its value-by-value path)."""
    total = sum([value for value in values if value.__class__ is float], 0.0)
    return total - total == 0


def nonfinite_places(values: Sequence[Any]) -> list[int]:
    """Where the floats of `values` that are NaN or ±Inf are (C: one pass; Python without the module)."""
    native = native_joiner()
    if native is None or not hasattr(native, "nonfinite_places"):  # an older build of the module
        return [at for at, value in enumerate(values) if value.__class__ is float and value - value != 0]
    places: list[int] = native.nonfinite_places(values)
    return places


def int_tuples(values: Sequence[Any]) -> bool:
    """True when every value is None or a tuple of ints, exact types (C: one pass; Python without the module)."""
    native = native_joiner()
    if native is None or not hasattr(native, "int_tuples"):  # an older build of the module
        return all(value is None or (value.__class__ is tuple and all(dim.__class__ is int for dim in value))
                   for value in values)
    exact: bool = native.int_tuples(values)
    return exact


def column_kinds(values: Sequence[Any]) -> tuple[set[type], bool]:
    """The types of `values` and whether every float among them is finite (C: one pass over the column)."""
    native = native_joiner()
    if native is None:
        return set(map(type, values)), all_finite(values)
    kinds: tuple[set[type], bool] = native.column_kinds(values)
    return kinds


def plain_texts(values: Sequence[Any], inner: str, leads: str, edge_space: bool, max_length: int) -> bool | None:
    """C's answer whether no text of `values` holds a character of `inner` (ASCII), starts with one of `leads`,
    starts or ends with whitespace (`edge_space`) or is longer than `max_length`; None without the C module
    (the caller checks in Python)."""
    native = native_joiner()
    if native is None:
        return None
    plain: bool = native.plain_texts(values, inner, leads, edge_space, max_length)
    return plain


def column_survey(values: Sequence[Any], inner: str, leads: str, edge_space: bool,
                  max_length: int) -> tuple[set[type], bool, bool | None]:
    """column_kinds and plain_texts of one column in one C pass: (types, all floats finite, no text needs work);
    the last None without the C module (the caller checks its texts in Python)."""
    native = native_joiner()
    if native is None:
        return set(map(type, values)), all_finite(values), None
    survey: tuple[set[type], bool, bool] = native.column_survey(values, inner, leads, edge_space, max_length)
    return survey


def column_surveys(columns: Sequence[Sequence[Any]], inner: str, leads: str, edge_space: bool,
                   max_length: int) -> list[tuple[set[type], bool, bool | None]]:
    """column_survey of every column, in one C call that releases the GIL once for them all (the caller keeps the
    columns unchanged meanwhile); Python's answers without the C module."""
    native = native_joiner()
    if native is None or not hasattr(native, "column_surveys"):  # an older build of the module
        return [column_survey(values, inner, leads, edge_space, max_length) for values in columns]
    surveys: list[tuple[set[type], bool, bool]] = native.column_surveys(columns, inner, leads, edge_space, max_length)
    return list(surveys)


def nested_unplain(objects: Sequence[Any]) -> list[int]:
    """The positions of the `objects` that json_spelling.fixed would change (a float outside [1e-4, 1e16) but 0,
    a non-str dict key): msgspec may encode the others as they are (C: one walk each, no copy); every position
    without the C module (the caller fixes them all)."""
    native = native_joiner()
    if native is None or not hasattr(native, "nested_plain"):  # an older build of the module
        return list(range(len(objects)))
    plain = native.nested_plain
    return [at for at, found in enumerate(objects) if not plain(found)]


# A Numbers column's texts: words msgspec writes as they are and join_rows reads without a JSON parser ("nan").
NUMBER_TEXT = re.compile(r'"[A-Za-z+-]+"')
TOKEN_TEXT_ERROR = "join_rows: a numbers column's text is a word of ASCII letters, '+' and '-'"


@dataclass(frozen=True)
class Numbers:
    """A column of ints and floats (None and NaN/Inf empty) that join_rows has msgspec spell a chunk at a time; a
    str among them (a word of ASCII letters, '+' and '-': "nan") is a text cell, between the text templates."""

    values: Sequence[Any]


@dataclass(frozen=True)
class FloatNumbers:
    """A numbers column held as arrays: `numbers` (float64) and `kinds` (uint8: 0 a float, 1 an int the double holds
    exactly, within ±2**53, 2 an empty cell), a NaN, +Inf or -Inf written as the text `texts[0]`, `[1]` or `[2]`
    (words as Numbers' texts). The C module spells a chunk without the GIL (spell_numbers: Ryu's shortest digits,
    which are repr's); a msgspec-encoded list spells it otherwise."""

    numbers: Any  # np.ndarray, one dimension, contiguous
    kinds: Any  # np.ndarray of uint8, as long
    texts: tuple[str, str, str]

    def cells(self, start: int, stop: int) -> list[Any]:
        """Rows start..stop-1 as a Numbers column's values."""
        nan, inf, minus_inf = self.texts
        found: list[Any] = []
        for number, kind in zip(self.numbers[start:stop].tolist(), self.kinds[start:stop].tolist(), strict=True):
            if kind == FLOAT_EMPTY:
                found.append(None)
            elif number - number != 0:
                found.append(nan if number != number else inf if number > 0 else minus_inf)
            elif kind == FLOAT_INT and number.is_integer() and abs(number) <= EXACT_INTS:
                found.append(int(number))
            else:  # a float, or an "int" that is not one (spell_numbers writes that as the float it is)
                found.append(number)
        return found


FLOAT_INT, FLOAT_EMPTY = 1, 2  # FloatNumbers' kinds (0: a float)
EXACT_INTS = 2**53  # ints up to this size are floats exactly (beyond it a kind-1 double is written as a float)


def spell_numbers_natively() -> bool:
    """True when the C module spells FloatNumbers columns (built and not disabled)."""
    native = native_joiner()
    return native is not None and hasattr(native, "spell_numbers")


def _encoded_columns(columns: Sequence[Column], start: int, stop: int) -> list[Column]:
    """`columns` with Numbers and FloatNumbers values as JSON arrays of rows start..stop-1 (_encoded); the C module
    spells the FloatNumbers of all of them in one call that releases the GIL once (a call a column waited for the
    GIL again each time: 28 times a chunk of a statistics JSON, 0.15 s a file)."""
    found = [_encoded(column, start, stop) for column in columns]
    arrays = [at for at, column in enumerate(found) if isinstance(column[0], FloatNumbers)]
    native = native_joiner()
    if arrays and native is not None and hasattr(native, "spell_numbers"):
        spelled = native.spell_numbers([(found[at][0].numbers[start:stop], found[at][0].kinds[start:stop],
                                         found[at][0].texts) for at in arrays])
        for at, numbers in zip(arrays, spelled, strict=True):
            found[at] = (numbers, *found[at][1:])
    for at in arrays:
        values = found[at][0]
        if isinstance(values, FloatNumbers):  # without the C module
            found[at] = (msgspec.json.encode(values.cells(start, stop)), *found[at][1:])
    return found


def _encoded(column: Column, start: int, stop: int) -> Column:
    """`column` with Numbers values as msgspec's array of rows start..stop-1 (the values as they are when
    msgspec cannot encode them, e.g. an int beyond 64 bits: join_rows spells those one by one); other columns
    (FloatNumbers included: _encoded_columns) as they are."""
    values = column[0]
    if not isinstance(values, Numbers):
        return column
    try:
        numbers = values.values[start:stop]  # a list's slice is a list already: no second copy
        return (msgspec.json.encode(numbers if numbers.__class__ is list else list(numbers)), *column[1:])
    except (OverflowError, msgspec.EncodeError):
        return (values.values, *column[1:])


def join_rows(columns: Sequence[Column], start: int, stop: int, row_open: str = "", row_close: str = "\n",
              separator: str = ",", first_number: int = 1, errors: str = "strict", released: bool = False) -> bytes:
    """Rows start..stop-1 of `columns` as UTF-8 (`errors` as str.encode takes it; numbers from first_number;
    `released`: C writes the bytes with the GIL released, for a caller whose other threads run meanwhile)."""
    columns = _encoded_columns(columns, start, stop)
    native = native_joiner()
    if native is not None:
        join = native.join_rows_released if released and hasattr(native, "join_rows_released") else native.join_rows
        try:
            joined: bytes = join(columns, start, stop, row_open, row_close, separator, first_number)
            return joined
        except UnicodeEncodeError:
            if errors == "strict":
                raise
            # A lone surrogate: Python spells the chunk with `errors` (e.g. "replace"), as it always did.
    return python_join_rows(columns, start, stop, row_open, row_close, separator, first_number).encode(
        "utf-8", errors)


def join_rows_into(columns: Sequence[Column], start: int, stop: int, row_open: str, row_close: str, separator: str,
                   into: bytearray | None, first_number: int = 1) -> bytes | bytearray:
    """join_rows(..., released=True)'s rows written into `into` (resized to them) and returned, when the C module can;
    else (or without `into`) their bytes. A buffer kept from call to call keeps its pages: a new 10 MB bytes object
    each call faulted every page in again (~65k faults for a 254 MB JSON file)."""
    native = native_joiner()
    if into is None or native is None or "into=None" not in (native.join_rows_released.__doc__ or ""):
        return join_rows(columns, start, stop, row_open, row_close, separator, first_number, released=True)
    encoded = _encoded_columns(columns, start, stop)
    written: bytearray = native.join_rows_released(encoded, start, stop, row_open, row_close, separator, first_number,
                                                   into)
    return written


def _cell(value: Any, before: str, after: str, empty: str, number_before: str, number_after: str) -> str:
    """One cell as join_rows writes it (whole cells aside)."""
    if value is None:
        return empty
    kind = value.__class__
    if kind is str:
        return before + str(value) + after if value else empty
    if kind is float:
        return number_before + repr(value) + number_after if math.isfinite(value) else empty
    if kind is int:
        return number_before + str(value) + number_after
    raise TypeError(f"join_rows: a cell must be None, str, int, float or (str,), not {kind.__name__}")


def _number_tokens(encoded: bytes, rows: int, empty: str, before: str, after: str, text_before: str,
                   text_after: str) -> list[str]:
    """The cells of a msgspec-encoded array of `rows` numbers: null empty, ints as they are, floats as repr(), the
    texts ("nan": NUMBER_TEXT words) between the text templates."""
    # msgspec's digits are repr()'s (the shortest round trip); only their layout is respelled, in bulk (a word
    # holds no digit and no comma: respelled leaves it as it is).
    tokens = respelled(encoded).decode("utf-8").split(",") if len(encoded) > 2 else []
    if len(tokens) != rows:
        raise ValueError("join_rows: a numbers column holds another count of numbers than rows")
    cells = [empty if token == "null" else before + token + after for token in tokens]
    if b'"' in encoded:
        for at, token in enumerate(tokens):
            if token.startswith('"'):
                if not NUMBER_TEXT.fullmatch(token):
                    raise ValueError(TOKEN_TEXT_ERROR)
                cells[at] = text_before + token[1:-1] + text_after
    return cells


def _cells(column: Column, start: int, stop: int, first_number: int) -> list[str]:
    """One column's cells of rows start..stop-1; ROW left in the templates, numbered in whole cells."""
    values, before, after, empty = column[:4]
    number_before, number_after = column[4:] or (before, after)
    if isinstance(values, bytes):
        return _number_tokens(values, stop - start, empty, number_before, number_after, before, after)
    try:  # a column of texts (the common case) in one comprehension
        return [empty if value is None or value == "" else before + value + after for value in values[start:stop]]
    except TypeError:
        pass
    cells = []
    for number, value in enumerate(values[start:stop], start=first_number):
        if value.__class__ is tuple:  # rare: the cells the bulk spelling could not write
            if len(value) != 1 or value[0].__class__ is not str:
                raise TypeError("join_rows: a whole cell is a 1-tuple of str")
            cells.append(value[0].replace(ROW, str(number)))
        elif value.__class__ is str and value:
            cells.append(before + value + after)
        else:
            cells.append(_cell(value, before, after, empty, number_before, number_after))
    return cells


def python_join_rows(columns: Sequence[Column], start: int, stop: int, row_open: str, row_close: str,
                     separator: str, first_number: int) -> str:
    """join_rows' text in Python (the fallback and the C module's reference)."""
    cells = [_cells(column, start, stop, first_number) for column in columns]
    rows = [row_open + separator.join(row) + row_close
            for row in zip(*cells, strict=True)] if cells else [row_open + row_close] * (stop - start)
    templates = [row_open, row_close, separator, *(part for column in columns for part in column[1:])]
    if not any(ROW in template for template in templates):  # CSV: texts may hold \x01 themselves
        return "".join(rows)
    # Only templates still hold ROW here (the caller keeps it out of plain texts).
    return "".join([row.replace(ROW, str(number)) for number, row in enumerate(rows, start=first_number)])
