"""A statistics CSV's plain data lines read in one regex match each: what read_stats_csv's general path reads.

A statistics-mode dump is one small CSV per op dump, 100k+ of them per rank; the general path (csv.reader, then
each field stripped, checked by its own regex and converted, then the keyword arguments) cost ~35 us a line.
CANN writes plain lines: ASCII, no quotes, no spaces, a number or an empty/NA/- field in each statistic. For such
a header a RowReader compiles one pattern of the whole line (every field's own grammar, as stats_csv checks it
field by field) and converts the captured bytes directly. A line it does not match (quotes, spaces, other field
counts, a bad value, a line without any statistic), it leaves to the general path, whose answer (and problem
sentence) stands.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# The same grammars as stats_csv's field checks, on bytes (the line is ASCII: \d is [0-9] there too).
_FLOAT = rb"([+-]?(?:(?:[0-9]++(?:\.[0-9]*+)?|\.[0-9]++)(?:[eE][+-]?[0-9]++)?|(?i:inf(?:inity)?|nan)))"
_INTEGER = rb"\+?([0-9]{1,19})(?:\.0*+)?"
_SHAPE = rb"([0-9]{1,19}(?:[xX][0-9]{1,19})*+)"
_MISSING = rb"(?i:na|n/a|-)?+"  # an empty, NA, N/A or - field: None, as stats_csv's _MISSING
_TEXT = rb"([!-+\--~]*+)"  # printable ASCII but the comma, no space: str.strip() would change none of them
_ANY = rb"[^,]*+"
_KIND = rb"((?i:input|output))"
_INDEX = rb"([0-9]{1,19})"


def _dims(text: bytes) -> tuple[int, ...]:
    return tuple(map(int, text.lower().split(b"x")))


# Each column's grammar and the converter of its captured bytes (a captured None, a missing value, stays None).
_GRAMMARS: dict[str, tuple[bytes, Callable[[bytes], Any]]] = {
    "dtype": (_TEXT, bytes.decode), "format": (_TEXT, bytes.decode),
    "shape": (rb"(?:" + _SHAPE + rb"|" + _MISSING + rb")", _dims),
    "max": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float),
    "min": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float),
    "avg": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float),
    "l2norm": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float),
}
_WHOLE = (rb"(?:" + _INTEGER + rb"|" + _MISSING + rb")", int)  # data_size, count, the non-finite counts


class RowReader:
    """The plain data lines of one header layout (`positions`: column -> field; `width`, `named`: the header's
    field count and its fields up to the last named one; `limits`: see below), made into `make({field: value})`
    (every field of `fields` with its value, `defaults` where the line has none; kind, index and line by name)."""

    def __init__(self, positions: dict[str, int], width: int, named: int, limits: tuple[int, int, tuple[str, ...]],
                 make: Callable[..., Any], fields: tuple[str, ...], defaults: tuple[Any, ...]) -> None:
        # limits: stats_csv's longest plain line and most dims, and the statistic items (a line without any is not
        # plain): its constants, passed in (stats_csv imports this module).
        max_line, self._max_dims, items = limits
        at = {position: column for column, position in positions.items()}
        parts: list[bytes] = []
        roles: list[str] = []
        converters: dict[str, Callable[[bytes], Any]] = {}
        for position in range(named):
            column = at.get(position)
            if column == "kind":
                parts.append(_KIND)
            elif column == "index":
                parts.append(_INDEX)
            elif column is None:
                parts.append(_ANY)
                continue  # no group
            else:
                grammar, converters[column] = _GRAMMARS.get(column, _WHOLE)
                parts.append(grammar)
            roles.append(column)
        # Each known column captures one group, in the line's order.
        self._kind_at = roles.index("kind") if "kind" in roles else -1
        self._index_at = roles.index("index") if "index" in roles else -1
        self._plan = [(number, role, converters[role]) for number, role in enumerate(roles)
                      if role in converters]  # (group, field, converter) of each value
        self._item_groups = [number for number, role in enumerate(roles) if role in items]
        self._shape_group = roles.index("shape") if "shape" in roles else -1
        self._defaults = dict(zip(fields, defaults, strict=True))
        self._make = make
        # Fields past the last named one: as many as the header has (more go the general way).
        self._pattern = re.compile(b",".join(parts) + rb"(?:," + _ANY + rb"){0,%d}" % (width - named))
        self._max_line = max_line
        self.usable = bool(self._item_groups) and self._kind_at >= 0 and self._index_at >= 0

    def match(self, line: bytes, number: int) -> PlainRow | None:
        """A plain line (`number`: its line number) as a PlainRow, its values not converted yet; None for any
        other line (the general path reads it)."""
        if len(line) > self._max_line or not line.isascii() or b'"' in line or b"\x00" in line:
            return None
        match = self._pattern.fullmatch(line)
        if match is None:
            return None
        groups = match.groups()
        if None in groups and all(groups[at] is None for at in self._item_groups):
            return None  # no statistic at all (empty, NA, N/A or -): the general path says so
        if self._shape_group >= 0:
            shape = groups[self._shape_group]
            if shape is not None and shape.count(b"x") + shape.count(b"X") >= self._max_dims:
                return None  # more dims than a shape has: the general path says so
        return PlainRow(groups[self._kind_at].lower().decode("ascii"), int(groups[self._index_at]), number, groups,
                        self)

    def make(self, kind: str, index: int, groups: tuple[bytes | None, ...], number: int) -> Any:
        """make({field: value}) of a matched line's kind, index and groups."""
        values = self._defaults.copy()
        values["kind"], values["index"] = kind, index
        for at, name, convert in self._plan:
            text = groups[at]
            if text is not None:  # else empty, NA, N/A or -: None, the default of every such field
                values[name] = convert(text)
        values["line"] = number
        return self._make(values)


class PlainRow:
    """A plain line's tensor (kind, index, line) before its values are converted: a statistics CSV holds all of
    an op's inputs and outputs, a pair needs one of them."""

    __slots__ = ("_groups", "_reader", "index", "kind", "line")
    usable = True  # a plain line is a usable row (the reader leaves the others to the general path)

    def __init__(self, kind: str, index: int, line: int, groups: tuple[bytes | None, ...], reader: RowReader) -> None:
        self.kind, self.index, self.line = kind, index, line
        self._groups, self._reader = groups, reader

    @property
    def key(self) -> tuple[str, int]:
        """(kind, index), as TensorStats.key."""
        return self.kind, self.index

    def tensor(self) -> Any:
        """The row's TensorStats, converted now."""
        return self._reader.make(self.kind, self.index, self._groups, self.line)
