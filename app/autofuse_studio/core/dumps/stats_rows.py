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

import logging
import re
from collections.abc import Callable
from typing import Any

from autofuse_studio.core.native_switch import load_extension

# The same line grammar in C (_statsscan.c): a whole file's plain lines checked and converted in one call.
_SCAN = load_extension("autofuse_studio.core.dumps._statsscan", "statistics CSV lines are matched in Python",
                       logging.getLogger(__name__))

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


# Each column's grammar, the converter of its captured bytes (a captured None, a missing value, stays None) and
# its role in _statsscan.c (t text, s shape, f float, w whole number; k kind, i index and a any other column).
_GRAMMARS: dict[str, tuple[bytes, Callable[[bytes], Any], bytes]] = {
    "dtype": (_TEXT, bytes.decode, b"t"), "format": (_TEXT, bytes.decode, b"t"),
    "shape": (rb"(?:" + _SHAPE + rb"|" + _MISSING + rb")", _dims, b"s"),
    "max": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float, b"f"),
    "min": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float, b"f"),
    "avg": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float, b"f"),
    "l2norm": (rb"(?:" + _FLOAT + rb"|" + _MISSING + rb")", float, b"f"),
}
_WHOLE = (rb"(?:" + _INTEGER + rb"|" + _MISSING + rb")", int, b"w")  # data_size, count, the non-finite counts


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
        codes: list[bytes] = []  # each field's role in _statsscan.c
        for position in range(named):
            column = at.get(position)
            if column == "kind":
                parts.append(_KIND)
                codes.append(b"k")
            elif column == "index":
                parts.append(_INDEX)
                codes.append(b"i")
            elif column is None:
                parts.append(_ANY)
                codes.append(b"a")
                continue  # no group
            else:
                grammar, converters[column], code = _GRAMMARS.get(column, _WHOLE)
                parts.append(grammar)
                codes.append(code)
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
        # plain_rows' arguments after the lines and their start: roles, which fields are statistics, extra fields,
        # limits (a file of more tensors than max_rows goes the general way, which says so).
        self._program = (b"".join(codes), bytes(at.get(position) in items for position in range(named)),
                         width - named, max_line, self._max_dims)
        self._names = tuple(name for _, name, _ in self._plan)
        # A missing value is None in C and keeps the field's default here: both are None for every such field.
        self._updated = all(self._defaults[name] is None for name in self._names
                            if _GRAMMARS.get(name, _WHOLE)[2] != b"t")

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

    def plain_file(self, lines: list[bytes], start: int,
                   max_rows: int) -> dict[tuple[str, int], tuple[Any, ...]] | None:
        """Every line of lines[start:] read at once (line numbers from start + 1), blank ones skipped: each
        tensor's (line, converted values), a later line of a tensor replacing an earlier one; None when a line is
        not plain (the caller reads the file the general way), when there are more than max_rows tensors, or
        without the C module."""
        if _SCAN is None:
            return None
        rows: dict[tuple[str, int], tuple[Any, ...]] | None = _SCAN.plain_rows(lines, start, *self._program, max_rows)
        return rows

    def converted(self, kind: str, index: int, row: tuple[Any, ...]) -> Any:
        """make({field: value}) of a plain_file row: (line, values in plan order), None for a missing value."""
        values = self._defaults.copy()
        values["kind"], values["index"] = kind, index
        if self._updated:
            values.update(zip(self._names, row[1:], strict=True))
        else:
            values.update((name, value) for name, value in zip(self._names, row[1:], strict=True)
                          if value is not None)
        values["line"] = row[0]
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
