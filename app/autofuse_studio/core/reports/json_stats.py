"""The `statistics` objects of the JSON rows as columns for the C joiner, as json.dumps(indent=2) wrote as_dict().

Every field of the object, and each item's four numbers, is a column whose cells carry the object's keys and
indentation in their before-texts: the joiner writes the object without one Python dict per row. The rows in the
block's usual item layout take this path (stats_table); a row without statistics is `null`, a row in another
layout is spelled whole by the caller's nested path. Values this path does not spell exactly as json.dumps did
(a bool where an int belongs, a shape not of ints ...) raise NotColumnar: the caller spells the block's objects
the nested way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import msgspec
import numpy as np

from autofuse_studio.core.dumps.stats_csv import json_number
from autofuse_studio.core.precision.stats import StatsComparison, StatsLimits
from autofuse_studio.core.reports.json_spelling import Spellings
from autofuse_studio.core.reports.row_join import (
    FLOAT_EMPTY,
    Column,
    FloatNumbers,
    Numbers,
    column_surveys,
    int_tuples,
    spell_numbers_natively,
)
from autofuse_studio.core.reports.stats_table import FIELDS, ITEM_PARTS, StatsTable, worst_items

_FIELD_INDENT = "\n" + " " * 8  # the object's keys: a row key's depth (6) and one more level
_ITEM_INDENT = "\n" + " " * 10  # the items' names
_PART_INDENT = "\n" + " " * 12  # each item's four numbers
_OBJECT_CLOSE = "\n" + " " * 6 + "}"
# What json.dumps(ensure_ascii=False) escapes in a string: the quote, the backslash and control characters.
_ESCAPED = '"\\' + "".join(map(chr, range(32)))
_TEXTS = frozenset({str, type(None)})
_WHOLE_NUMBERS = frozenset({int, type(None)})
_BOOLS = frozenset({bool})
_DEFAULT_LIMITS = StatsLimits()
Survey = tuple[set[type], bool, bool | None]  # column_survey's answer: the types, all floats finite, plain texts


class NotColumnar(Exception):
    """A value of the block this path does not spell as json.dumps did: the block goes the nested way."""


def statistics_columns(stats: Sequence[StatsComparison | None], table: StatsTable, prefix: str,
                       whole: Callable[[list[StatsComparison]], list[tuple[str]]]) -> list[Column]:
    """The `statistics` key's columns of a block (`prefix`: what comes before its value in a row); `whole` spells
    the odd rows' objects as whole cells (prefix included)."""
    fields = table.read(FIELDS)
    mismatches = _mismatches(table)
    worst, _ = worst_items(table, [_DEFAULT_LIMITS] * len(table.positions))
    # Surveyed in one C call that releases the GIL once (a release a column waited for the GIL again each time).
    surveys = dict(zip((*_SURVEYED, "mismatch", "worst_item"), column_surveys(
        [*(fields[key] for key in _SURVEYED), mismatches, worst], _ESCAPED, "", False, 1 << 62), strict=True))
    columns = [_opening(stats, table, prefix, whole)]
    columns[0] = _text_column(table, fields["kind"], surveys["kind"], prefix + "{" + _FIELD_INDENT + '"kind": ', "",
                              columns[0][0])
    columns.append(_index_column(table, fields["index"], surveys["index"]))
    for key in ("fused_dtype", "origin_dtype"):
        columns.append(_text_column(table, fields[key], surveys[key], _field(key), ""))
    for key in ("fused_shape", "origin_shape"):
        if not int_tuples(fields[key]):  # (True, 16) would take the spelling of an equal (1, 16) (_spelled_column)
            raise NotColumnar
        columns.append(_spelled_column(table, fields[key], _field(key), _shape))
    columns += _item_columns(table)
    closing = _ITEM_INDENT + "}" + _FIELD_INDENT + "}"  # the last item's object, then the items' own
    columns.append(_spelled_column(table, fields["one_sided"], closing + _field("one_sided"), _texts))
    for key in ("shape_mismatch", "count_mismatch"):
        columns.append(_bool_column(table, fields[key], surveys[key], _field(key)))
    columns.append(_text_column(table, fields["problem"], surveys["problem"], _field("problem"), ""))
    columns.append(_text_column(table, mismatches, surveys["mismatch"], _field("mismatch"), ""))
    columns.append(_text_column(table, worst, surveys["worst_item"], _field("worst_item"), _OBJECT_CLOSE))
    return columns


_SURVEYED = ("kind", "index", "fused_dtype", "origin_dtype", "shape_mismatch", "count_mismatch", "problem")


def _field(key: str) -> str:
    """What comes before a field's value (after the previous value)."""
    return f',{_FIELD_INDENT}"{key}": '


def _opening(stats: Sequence[StatsComparison | None], table: StatsTable, prefix: str,
             whole: Callable[[list[StatsComparison]], list[tuple[str]]]) -> Column:
    """The block's whole cells of the first column: `null` for rows without statistics, the odd rows' objects."""
    cells: list[Any] = [None] * table.size
    null = (prefix + "null",)
    for place, found in enumerate(stats):
        if found is None:
            cells[place] = null
    if table.odd:
        odd = [stats[place] for place in table.odd]
        for place, cell in zip(table.odd, whole([found for found in odd if found is not None]), strict=True):
            cells[place] = cell
    return (cells, "", "", "")


def _text_column(table: StatsTable, values: list[Any], survey: Survey, before: str, after: str,
                 others: list[Any] | None = None) -> Column:
    """Texts (and None: null) of the regular rows between quotes, escaped by msgspec where needed (`survey`:
    column_survey's of `values`); `others`: the cells of the other rows (empty by default)."""
    kinds, _, plain = survey
    if not kinds <= _TEXTS:
        raise NotColumnar
    null, empty = (before + "null" + after,), (before + '""' + after,)
    if not plain or None in values or "" in values:
        values = [null if value is None else empty if value == "" else value if plain else
                  (before + msgspec.json.encode(value).decode("utf-8") + after,) for value in values]
    return (_merged(table, values, others), before + '"', '"' + after, "")


def _merged(table: StatsTable, values: Sequence[Any], others: list[Any] | None) -> list[Any]:
    """The regular rows' cells (never None) at their places, `others`' cells (or None) elsewhere."""
    spread = table.spread(values)
    if others is None or len(table.positions) == table.size:
        return spread
    return [other if value is None else value for value, other in zip(spread, others, strict=True)]


def _index_column(table: StatsTable, values: list[Any], survey: Survey) -> Column:
    """The tensor indexes: ints the joiner spells as str() does."""
    before = _field("index")
    kinds = survey[0]
    if not kinds <= _WHOLE_NUMBERS:
        raise NotColumnar
    if None in values:
        null = (before + "null",)
        values = [null if value is None else value for value in values]
    return (table.spread(values), before, "", "")


def _spelled_column(table: StatsTable, values: list[Any], before: str, spell: Callable[[Any], str]) -> Column:
    """A field of few distinct values (shapes, one-sided lists), each spelled once as a whole cell."""
    spelled = Spellings(lambda value: (before + spell(value),))
    try:
        cells = list(map(spelled.__getitem__, values))
    except TypeError as exc:  # unhashable: not a tuple
        raise NotColumnar from exc
    return (table.spread(cells), "", "", "")


def _nested_list(values: list[Any]) -> str:
    """A list as json.dumps(indent=2) writes it as a field of the object."""
    return msgspec.json.format(msgspec.json.encode(values), indent=2).decode("utf-8").replace("\n", _FIELD_INDENT)


def _shape(shape: Any) -> str:
    if shape is None:
        return "null"
    if shape.__class__ is not tuple or not all(dim.__class__ is int for dim in shape):
        raise NotColumnar
    return _nested_list(list(shape))


def _texts(names: Any) -> str:
    if names.__class__ is not tuple or not all(name.__class__ is str for name in names):
        raise NotColumnar
    try:
        return _nested_list(list(names))
    except (UnicodeEncodeError, msgspec.EncodeError) as exc:  # a lone surrogate: json.dumps decides
        raise NotColumnar from exc


def _bool_column(table: StatsTable, values: list[Any], survey: Survey, before: str) -> Column:
    kinds = survey[0]
    if not kinds <= _BOOLS:
        raise NotColumnar
    spelled = {True: (before + "true",), False: (before + "false",)}
    return (table.spread(list(map(spelled.__getitem__, values))), "", "", "")


def _mismatches(table: StatsTable) -> list[str | None]:
    """as_dict's `mismatch`: the sentence only where a count or shape mismatch is flagged."""
    flagged = [count or shape for count, shape in zip(table.fields["count_mismatch"], table.fields["shape_mismatch"],
                                                      strict=True)]
    if not any(flagged):
        return [None] * len(flagged)
    return [found.mismatch if flag else None for found, flag in zip(table.comparisons, flagged, strict=True)]


def _item_columns(table: StatsTable) -> list[Column]:
    """Each item's four numbers: a NaN or ±Inf is as_dict's text in its place, which the joiner writes between
    quotes. Held as arrays (FloatNumbers) where the C module spells them: the joining thread spells them without
    the GIL; else as lists msgspec spells (Numbers)."""
    arrays = _item_arrays(table)
    columns: list[Column] = []
    for number, name in enumerate(table.layout):
        if msgspec.json.encode(name) != f'"{name}"'.encode():
            raise NotColumnar  # a name to escape (as_dict's keys): spelled the nested way
        opening = (f',{_FIELD_INDENT}"items": {{' if number == 0 else _ITEM_INDENT + "},") + \
            f'{_ITEM_INDENT}"{name}": {{'
        for part in ITEM_PARTS:
            before = (opening if part == "fused" else ",") + f'{_PART_INDENT}"{part}": '
            values = (FloatNumbers(arrays[part][0][number], arrays[part][1][number], _NON_FINITE_TEXTS)
                      if arrays is not None else Numbers(_listed_numbers(table, part, number)))
            columns.append((values, before + '"', '"', "", before, ""))
    return columns


def _item_arrays(table: StatsTable) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
    """Each part's numbers and FloatNumbers kinds, one row per item, one column per row of the block (empty where
    a row is not regular); None where the C module does not spell them."""
    if table.int_kinds is None or not spell_numbers_natively():
        return None
    width, positions = len(table.layout), table.position_array
    whole = len(table.positions) == table.size
    arrays = {}
    for part in ITEM_PARTS:
        # One transposed copy a part: each item's numbers are then one contiguous row, as spell_numbers reads them
        if whole:
            numbers = np.ascontiguousarray(table.numbers[part].T)
            kinds = np.ascontiguousarray(table.int_kinds[part].T)
        else:
            numbers = np.zeros((width, table.size), dtype=np.float64)
            numbers[:, positions] = table.numbers[part].T
            kinds = np.full((width, table.size), FLOAT_EMPTY, dtype=np.uint8)
            kinds[:, positions] = table.int_kinds[part].T
        arrays[part] = (numbers, kinds)
    return arrays


def _listed_numbers(table: StatsTable, part: str, number: int) -> list[Any]:
    """Item `number`'s values in `part` at the block's places (None elsewhere), a NaN or ±Inf as its text."""
    values = table.column(part, number)  # a new list: the texts go into it
    found = table.numbers[part][:, number]
    odd = np.flatnonzero(~np.isfinite(found))
    if odd.size:
        _put_texts(values, found[odd], table.position_array[odd])
    return values


_NON_FINITE_TEXTS = cast(tuple[str, str, str], tuple(json_number(value) for value in (math.nan, math.inf, -math.inf)))


def _put_texts(values: list[Any], found: np.ndarray, places: np.ndarray) -> None:
    """as_dict's texts 'nan', 'inf' or '-inf' (json_number's) into `values` at `places`, for the non-finite
    `found` values there."""
    kinds = np.where(np.isnan(found), 0, np.where(found > 0, 1, 2)).tolist()
    for place, kind in zip(places.tolist(), kinds, strict=True):
        values[place] = _NON_FINITE_TEXTS[kind]
