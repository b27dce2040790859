"""CANN statistics-mode dumps (raw-dumps.md §5): one CSV per op dump, one row of statistics per tensor.

Files are named like the tensor dump plus `.csv` (`{op_type}.{op_name}.{task}.{stream}.{timestamp}.csv`).
Columns are found by name, so the default item set, any custom subset and spelling variants
(`L2Norm Value`, `NaN Count`) all read the same way. Chunks appended to one file may repeat the header and
a tensor's row; the last usable row of a tensor wins. A row that cannot be used (a failure row of empty or NA
fields, a wrong field count, a non-number) keeps its tensor with `problem` set instead of failing the file.

The file is read whole but never beyond MAX_FILE_BYTES, every line once (linear time), and no cell is ever
interpreted beyond parsing a number: `=HYPERLINK(...)` is just text that is not a number.
"""

from __future__ import annotations

import csv
import functools
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import MISSING, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from autofuse_studio.core.dumps.stats_rows import PlainRow, RowReader
from autofuse_studio.core.errors import NpyLoadError
from autofuse_studio.core.printable import EXCERPT_CHARS, excerpt

MAX_FILE_BYTES = 64 << 20
_LISTED_BYTES = 1 << 20  # files up to this size are split into a list of lines at once
_GROWTH_READ = 1 << 20  # bytes asked for at a time once the size fstat gave is read (the file grew meanwhile)
# Real fields are a few dozen characters; a dtype name is the longest text a writer puts in a cell.
MAX_FIELD_CHARS = 4096
# An op has at most a few hundred tensors; the cap bounds memory for a file of millions of tiny rows.
MAX_TENSORS = 65536
# Lines that name no tensor are counted; only the first ones are kept as sentences.
MAX_NOTES = 100
# 25 dims is CANN's limit before it writes NA; anything far beyond is not a shape.
MAX_DIMS = 64

KIND_INPUT = "input"
KIND_OUTPUT = "output"

# Canonical item names, in the order a custom item set writes them.
VALUE_ITEMS = ("max", "min", "avg", "l2norm")
COUNT_ITEMS = ("nan_count", "neg_inf_count", "pos_inf_count")
STAT_ITEMS = ("count", *VALUE_ITEMS, *COUNT_ITEMS)

# Normalised header name (lower case, no spaces or underscores) -> canonical column.
_COLUMNS = {
    "input/output": "kind", "index": "index", "slot": "index", "datasize": "data_size", "datatype": "dtype",
    "format": "format", "shape": "shape", "count": "count", "maxvalue": "max", "max": "max",
    "minvalue": "min", "min": "min", "avgvalue": "avg", "avg": "avg", "l2norm": "l2norm",
    "l2normvalue": "l2norm", "nancount": "nan_count", "negativeinfcount": "neg_inf_count",
    "positiveinfcount": "pos_inf_count",
}
# Shown in messages: the default header's spelling of each column.
_TITLES = {
    "kind": "Input/Output", "index": "Index", "data_size": "Data Size", "dtype": "Data Type", "format": "Format",
    "shape": "Shape", "count": "Count", "max": "Max Value", "min": "Min Value", "avg": "Avg Value",
    "l2norm": "l2norm", "nan_count": "Nan Count", "neg_inf_count": "Negative Inf Count",
    "pos_inf_count": "Positive Inf Count",
}
_BOM = b"\xef\xbb\xbf"
# Possessive quantifiers (*+, ++) never backtrack: a megabyte of spaces or digits is scanned once.
_HEADER_START = re.compile(rb'\s*+"?[ \t]*+input[ \t]*+/[ \t]*+output[ \t]*+"?[ \t]*+,', re.IGNORECASE)
_MINDSPORE_START = re.compile(rb'\s*+"?[ \t]*+op[ \t]*+type[ \t]*+"?[ \t]*+,', re.IGNORECASE)
_LINE_BREAK = re.compile(rb"\r\n?|\n")
_MISSING = frozenset({"", "na", "n/a", "-"})
# Python's float() also takes '1_0' and surrounding whitespace; only plain decimal numbers are numbers here.
_FLOAT = re.compile(r"[+-]?(?:(?:\d++(?:\.\d*+)?|\.\d++)(?:[eE][+-]?\d++)?|inf(?:inity)?|nan)", re.IGNORECASE)
_INTEGER = re.compile(r"\+?(\d{1,19})(?:\.0*)?")  # '12.0' too; 19 digits keep it below 2**63
_DIM = re.compile(r"\d{1,19}")
# Header names are matched without spaces, underscores and case.
_NAME_NOISE = re.compile(r"[\s_]+")
# Opening a FIFO without O_NONBLOCK waits for a writer; regular files ignore the flag.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class StatsLoadError(NpyLoadError):
    """A statistics CSV cannot be read at all (not a stats CSV, too large, not a regular file)."""


@dataclass(frozen=True)
class TensorStats:
    """One tensor's statistics; None marks an item that is absent, empty or NA (not available)."""

    kind: str  # "input" or "output"
    index: int
    data_size: int | None = None
    dtype: str = ""  # as written: DT_FLOAT16 ... (numpy names when computed from a tensor)
    format: str = ""  # ND, NC1HWC0 ...
    shape: tuple[int, ...] | None = None  # None for '-' (no shape) and 'NA' (too many dims)
    count: int | None = None
    max: float | None = None
    min: float | None = None
    avg: float | None = None
    l2norm: float | None = None
    nan_count: int | None = None
    neg_inf_count: int | None = None
    pos_inf_count: int | None = None
    problem: str | None = None  # a sentence when the row cannot be compared
    line: int | None = None  # the row's line in its CSV; None when computed from a tensor

    @property
    def key(self) -> tuple[str, int]:
        """(kind, index): what identifies the tensor within its op."""
        return self.kind, self.index

    @property
    def usable(self) -> bool:
        """True when the row can be compared."""
        return self.problem is None

    def item(self, name: str) -> float | None:
        """The value of a statistic by canonical name (max, min, avg, l2norm, count, nan_count ...)."""
        if name not in STAT_ITEMS:
            raise KeyError(name)
        value: float | None = getattr(self, name)
        return value

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form; non-finite values as the strings 'nan', 'inf', '-inf' (None: not available)."""
        result: dict[str, Any] = {
            "kind": self.kind, "index": self.index, "data_size": self.data_size, "dtype": self.dtype,
            "format": self.format, "shape": list(self.shape) if self.shape is not None else None,
        }
        for name in STAT_ITEMS:
            result[name] = json_number(self.item(name))
        result["problem"] = self.problem
        result["line"] = self.line
        return result


@dataclass(frozen=True)
class StatsDump:
    """The tensors of one statistics CSV: inputs then outputs, by index."""

    path: str
    tensors: tuple[TensorStats, ...]
    columns: tuple[str, ...]  # the canonical statistic items the header names
    duplicates: int = 0  # rows that repeated a tensor already read (chunks appended)
    headers: int = 1  # header lines seen (appended chunks may repeat it)
    skipped_lines: int = 0  # lines naming no tensor (a bad Input/Output or Index field)
    notes: tuple[str, ...] = ()  # why, for the first MAX_NOTES of them

    def tensor(self, kind: str, index: int) -> TensorStats | None:
        """The statistics of input/output `index`, or None when the file has no row for it."""
        return next((tensor for tensor in self.tensors if tensor.key == (kind, index)), None)

    @property
    def inputs(self) -> tuple[TensorStats, ...]:
        """The input tensors, by index."""
        return tuple(tensor for tensor in self.tensors if tensor.kind == KIND_INPUT)

    @property
    def outputs(self) -> tuple[TensorStats, ...]:
        """The output tensors, by index."""
        return tuple(tensor for tensor in self.tensors if tensor.kind == KIND_OUTPUT)


def json_number(value: float | None) -> float | str | None:
    """A number for JSON: non-finite floats become 'nan', 'inf' or '-inf'; None stays None."""
    if value is None or isinstance(value, int) or math.isfinite(value):
        return value
    if math.isnan(value):
        return "nan"
    return "inf" if value > 0 else "-inf"


def looks_like_stats_csv(first_bytes: bytes) -> bool:
    """True when the bytes start (after a UTF-8 BOM and blank lines) with a header 'Input/Output,...'."""
    data = first_bytes[len(_BOM):] if first_bytes.startswith(_BOM) else first_bytes
    return _HEADER_START.match(data) is not None


def _read_bounded(path: Path) -> bytes:
    """The whole file, at most MAX_FILE_BYTES; StatsLoadError for anything but a readable regular file."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise StatsLoadError(f"Cannot read {path}: {exc.strerror or exc}.", path) from exc
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise StatsLoadError(f"{path} is a directory, not a statistics CSV.", path)
        if not stat.S_ISREG(info.st_mode):
            raise StatsLoadError(f"{path} is not a regular file (a pipe or device), not a statistics CSV.", path)
        if info.st_size > MAX_FILE_BYTES:
            raise StatsLoadError(_too_large(path, info.st_size), path)
        chunks, total = [], 0
        wanted = info.st_size + 1  # one read for the file fstat saw (os.read allocates what it is asked for)
        while total <= MAX_FILE_BYTES:  # the file may grow while it is read
            chunk = os.read(fd, min(wanted, MAX_FILE_BYTES + 1 - total))
            wanted = _GROWTH_READ
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise StatsLoadError(f"Cannot read {path}: {exc.strerror or exc}.", path) from exc
    finally:
        os.close(fd)
    if total > MAX_FILE_BYTES:
        raise StatsLoadError(_too_large(path, total), path)
    return b"".join(chunks)


def _too_large(path: Path, size: int) -> str:
    return (f"{path} is {size / (1 << 20):.1f} MiB, more than the {MAX_FILE_BYTES >> 20} MiB a statistics CSV "
            "can be; it is not read.")


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(line number, line without its break) for every line, LF, CRLF or CR ended, without a list of them all."""
    start = number = 0
    for match in _LINE_BREAK.finditer(data):
        number += 1
        yield number, data[start:match.start()]
        start = match.end()
    if start < len(data):
        yield number + 1, data[start:]


def _split(text: str) -> list[str]:
    """The fields of one CSV line (quotes allowed); csv.Error when the quoting is broken."""
    return next(csv.reader([text], strict=True), [])


def _normal_name(name: str) -> str:
    return _NAME_NOISE.sub("", name).lower()


@dataclass(frozen=True)
class _Header:
    """Where each known column is in a header line and how many fields the line has."""

    positions: dict[str, int]
    width: int  # fields in the header, trailing empty names included
    named: int  # fields up to the last non-empty name

    @functools.cached_property
    def items(self) -> tuple[str, ...]:
        """The statistic items the header names, in STAT_ITEMS order (worked out once: headers are cached)."""
        return tuple(name for name in STAT_ITEMS if name in self.positions)


def _parse_header(line: bytes, number: int, path: Path) -> _Header:
    """The column positions of a header line; StatsLoadError when it is not a usable stats header."""
    if len(line) > MAX_FIELD_CHARS * 4:
        raise StatsLoadError(f"{path} line {number}: the header is {len(line)} bytes long, far more than a "
                             "statistics CSV header; this is not a statistics CSV.", path, number)
    try:
        names = _split(line.decode("utf-8"))
    except (UnicodeDecodeError, csv.Error):
        raise StatsLoadError(f"{path} line {number}: the header {_quote(line)} is not CSV text; this is not a "
                             "statistics CSV.", path, number) from None
    positions: dict[str, int] = {}
    for position, name in enumerate(names):
        column = _COLUMNS.get(_normal_name(name))
        if column is None:
            continue  # columns we do not know (a future item, MD5 Value) are ignored
        if column in positions:
            raise StatsLoadError(f"{path} line {number}: the header names the column {_TITLES[column]!r} twice "
                                 f"({excerpt(names[positions[column]])} and {excerpt(name)}).", path, number)
        positions[column] = position
    missing = [_TITLES[column] for column in ("kind", "index") if column not in positions]
    if missing:
        raise StatsLoadError(f"{path} line {number}: the header has no {' or '.join(map(repr, missing))} column; "
                             "this is not a statistics CSV.", path, number)
    named = max(position for position, name in enumerate(names) if name.strip()) + 1
    return _Header(positions, len(names), named)


def _plain_stats(values: dict[str, Any]) -> TensorStats:
    """A TensorStats of a plain line's values (every field by name), made without __init__: its 16 frozen
    setattr calls were a third of a line's time. TensorStats has no __post_init__ (a test checks that these
    equal the ones __init__ makes)."""
    made = object.__new__(TensorStats)
    made.__dict__.update(values)
    return made


_STATS_FIELDS = tuple(found.name for found in dataclass_fields(TensorStats))
_STATS_DEFAULTS = tuple(None if found.default is MISSING else found.default for found in dataclass_fields(TensorStats))
# Parsed header lines: the files of one dump repeat a few headers (a dump's 100k files: one parse, not 100k).
_HEADERS: dict[bytes, tuple[_Header, RowReader | None]] = {}
_CACHED_HEADERS = 256


def _header_of(line: bytes, number: int, path: Path | str) -> tuple[_Header, RowReader | None]:
    """_parse_header's answer for a header line, and the RowReader of its plain data lines (None: none can be)."""
    found = _HEADERS.get(line)
    if found is None:
        header = _parse_header(line, number, _as_path(path))  # a bad one raises, naming its file: not kept
        reader = RowReader(header.positions, header.width, header.named, (MAX_FIELD_CHARS, MAX_DIMS, STAT_ITEMS),
                           _plain_stats, _STATS_FIELDS, _STATS_DEFAULTS)
        found = (header, reader if reader.usable else None)
        if len(_HEADERS) >= _CACHED_HEADERS:
            _HEADERS.clear()
        _HEADERS[line] = found
    return found


def _as_path(named: Path | str) -> Path:
    return named if isinstance(named, Path) else Path(named)


def _quote(line: bytes) -> str:
    """A bounded, escaped quote of raw bytes (only a prefix of a huge line is decoded)."""
    if len(line) <= EXCERPT_CHARS:
        return excerpt(line)
    return f"{excerpt(line[:EXCERPT_CHARS])}... ({len(line) - EXCERPT_CHARS} more bytes)"


def _not_stats_message(path: Path, first_line: bytes) -> str:
    if _MINDSPORE_START.match(first_line):
        return (f"{path} is a MindSpore/msprobe statistic.csv (one row per op), not a per-op CANN statistics "
                "CSV; it is not supported.")
    return (f"{path} is not a CANN statistics CSV: its first line {_quote(first_line)} does not start with "
            "'Input/Output,'.")


class _RowError(Exception):
    """A field of a row cannot be used; the message is the end of a sentence."""


def _integer(text: str, column: str) -> int | None:
    value = text.strip()
    if value.lower() in _MISSING:
        return None
    match = _INTEGER.fullmatch(value)
    if match is None:
        raise _RowError(f"{_TITLES[column]} is {excerpt(value)}, not a whole number of 0 or more")
    return int(match.group(1))


def _number(text: str, column: str) -> float | None:
    value = text.strip()
    if value.lower() in _MISSING:
        return None
    if _FLOAT.fullmatch(value) is None:
        raise _RowError(f"{_TITLES[column]} is {excerpt(value)}, not a number")
    return float(value)  # '1e999' becomes inf, as the writer's float would have been


def _shape(text: str) -> tuple[int, ...] | None:
    value = text.strip()
    if value.lower() in _MISSING:
        return None
    if value[:1] in "[(" and value[-1:] in "])":
        value = value[1:-1].strip()
        if not value:
            return ()
        dims = [dim.strip() for dim in value.split(",")]
    else:
        dims = [dim.strip() for dim in value.lower().split("x")]
    if len(dims) > MAX_DIMS or not all(_DIM.fullmatch(dim) for dim in dims):
        raise _RowError(f"Shape is {excerpt(text.strip())}, not dims like 4x50x16")
    return tuple(int(dim) for dim in dims)


def _key(fields: list[str], header: _Header) -> tuple[str, int] | str:
    """(kind, index) of a row, or why the row names no tensor."""
    kind_at, index_at = header.positions["kind"], header.positions["index"]
    if max(kind_at, index_at) >= len(fields):
        return f"it has {len(fields)} fields and no Input/Output and Index"
    kind, index = fields[kind_at].strip().lower(), fields[index_at].strip()
    if kind not in (KIND_INPUT, KIND_OUTPUT):
        return f"Input/Output is {excerpt(fields[kind_at])}, not Input or Output"
    if len(index) > 19 or not index.isascii() or not index.isdigit():
        return f"Index is {excerpt(fields[index_at])}, not a whole number of 0 or more"
    return kind, int(index)


def _prefix_fields(line: bytes, header: _Header) -> list[str]:
    """The leading fields of an unusable line, enough to find its tensor (no quoting: just commas)."""
    width = max(header.positions["kind"], header.positions["index"]) + 1
    return line[: 64 * width].decode("utf-8", "replace").split(",")[:width]


def _value(text: str, column: str) -> Any:
    """One field as its TensorStats value; _RowError when it is not one."""
    if column in ("dtype", "format"):
        return text.strip()
    if column == "shape":
        return _shape(text)
    if column in VALUE_ITEMS:
        return _number(text, column)
    return _integer(text, column)  # data_size, count and the non-finite counts


def _values(fields: list[str], header: _Header) -> tuple[dict[str, Any], str | None]:
    """TensorStats keyword values of a well-formed row (the good fields) and why the first bad one is bad."""
    values: dict[str, Any] = {}
    problem = None
    for column, position in header.positions.items():
        if column in ("kind", "index"):
            continue
        try:
            values[column] = _value(fields[position], column)
        except _RowError as exc:
            problem = problem or str(exc)
    return values, problem


def _fields(line: bytes, header: _Header) -> tuple[list[str], str | None]:
    """The fields of a data line and why they cannot be read one by one (None when they can)."""
    if len(line) > (header.width + 2) * (MAX_FIELD_CHARS + 3):
        # Not even split: only its start is looked at, to find the tensor.
        return _prefix_fields(line, header), (f"the line is {len(line)} bytes long, more than a row of "
                                              f"{header.width} fields of at most {MAX_FIELD_CHARS} characters")
    try:
        fields = _split(line.decode("utf-8"))
    except UnicodeDecodeError:
        return _prefix_fields(line, header), "the line is not UTF-8 text"
    except csv.Error as exc:
        return _prefix_fields(line, header), f"the line is not valid CSV ({exc})"
    return fields, _field_problem(fields, header)


def _row(line: bytes, number: int, header: _Header, path: Path) -> TensorStats | str:
    """One data line as TensorStats (with `problem` when unusable), or why it names no tensor."""
    where = f"{path} line {number}"
    fields, problem = _fields(line, header)
    key = _key(fields, header)
    if isinstance(key, str):
        return f"{where} names no tensor: {key}."
    kind, index = key
    if problem:
        return TensorStats(kind, index, problem=f"{where} ({kind} {index}): {problem}.", line=number)
    values, problem = _values(fields, header)
    if problem:
        # The readable fields stay for display; the row is not compared.
        return TensorStats(kind, index, problem=f"{where} ({kind} {index}): {problem}.", line=number, **values)
    stats = TensorStats(kind, index, line=number, **values)
    if all(stats.item(name) is None for name in STAT_ITEMS):
        return replace(stats, problem=f"{where} ({kind} {index}) holds no statistics (empty or NA fields: the "
                                      "dump tool could not compute them).")
    return stats


def _field_problem(fields: list[str], header: _Header) -> str | None:
    """Why a parsed row cannot be read field by field (count, length), or None."""
    extra = fields[header.named:]
    if len(fields) < header.named or (len(fields) > header.width and any(text.strip() for text in extra)):
        return f"it has {len(fields)} fields, the header has {header.named}"
    for column, position in header.positions.items():
        if len(fields[position]) > MAX_FIELD_CHARS:
            return (f"{_TITLES[column]} is {len(fields[position])} characters long, more than the "
                    f"{MAX_FIELD_CHARS} a field can be")
    return None


@dataclass
class _Reading:
    """What read_stats_csv has gathered so far."""

    path: Path | str  # a str made a Path only where a sentence names the file
    tensors: dict[tuple[str, int], TensorStats | PlainRow]
    columns: list[str]
    duplicates: int = 0
    headers: int = 0
    skipped: int = 0
    notes: list[str] = field(default_factory=list)

    def keep(self, row: TensorStats | PlainRow | str) -> None:
        if isinstance(row, str):
            self.skipped += 1
            if len(self.notes) < MAX_NOTES:
                self.notes.append(row)
            return
        previous = self.tensors.get(row.key)
        if previous is None and len(self.tensors) >= MAX_TENSORS:
            path = _as_path(self.path)
            raise StatsLoadError(f"{path} line {row.line}: the file holds more than {MAX_TENSORS} tensors, "
                                 "far more than an op has; it is not read.", path, row.line)
        if previous is not None:
            self.duplicates += 1
            if previous.usable and not row.usable:
                return  # a later broken copy (a cut-off chunk) does not hide a good row
        self.tensors[row.key] = row

    def add_columns(self, header: _Header) -> None:
        self.headers += 1
        if not self.columns:  # the first header (usually the only one)
            self.columns.extend(header.items)
        else:
            self.columns.extend(name for name in header.items if name not in self.columns)

    def result(self) -> StatsDump:
        ordered = sorted(self.tensors.values(), key=lambda tensor: (tensor.kind != KIND_INPUT, tensor.index))
        columns = tuple(name for name in STAT_ITEMS if name in self.columns)
        return StatsDump(str(_as_path(self.path)), tuple(_made(tensor) for tensor in ordered), columns,
                         self.duplicates,
                         self.headers, self.skipped, tuple(self.notes))


def _made(tensor: TensorStats | PlainRow) -> TensorStats:
    made: TensorStats = tensor.tensor() if isinstance(tensor, PlainRow) else tensor
    return made


class StatsFile:
    """A statistics CSV's tensors by (kind, index), each plain line's converted when it is first asked for
    (what a pair needs of a CSV that holds all of an op's inputs and outputs); read_stats_csv's answers."""

    def __init__(self, tensors: dict[tuple[str, int], Any], reader: RowReader | None = None) -> None:
        # TensorStats or PlainRow values; with `reader`, its plain_file rows (line, values...) instead.
        self._tensors = tensors
        self._reader = reader

    def tensor(self, kind: str, index: int) -> TensorStats | None:
        """The statistics of input/output `index`, or None when the file has no row for it."""
        found = self._tensors.get((kind, index))
        # Two threads may both convert a row: equal objects, either one kept.
        if found.__class__ is tuple and self._reader is not None:
            found = self._tensors[(kind, index)] = self._reader.converted(kind, index, found)
        elif isinstance(found, PlainRow):
            found = self._tensors[(kind, index)] = found.tensor()
        return found


def read_stats_csv(path: str | Path) -> StatsDump:
    """Read a CANN statistics CSV; StatsLoadError (a sentence naming the file) when it is not one."""
    path = path if isinstance(path, Path) else Path(path)
    return stats_from_contents(path, _read_bounded(path))


def stats_from_contents(path: Path, data: bytes) -> StatsDump:
    """A statistics CSV's contents (read from `path`, at most MAX_FILE_BYTES) as read_stats_csv reads the file."""
    return _read_contents(path, data).result()


def read_stats_file(path: Path) -> StatsFile:
    """read_stats_csv's tensors, each converted when it is asked for (StatsLoadError as read_stats_csv)."""
    return stats_file_from_contents(path, _read_bounded(path))


def stats_file_from_contents(path: Path | str, data: bytes) -> StatsFile:
    """stats_from_contents' tensors, each converted when it is asked for (`path` as str: made a Path only where
    a sentence names the file)."""
    return _plain_file(path, data) or StatsFile(_read_contents(path, data).tensors)


def _plain_file(named: Path | str, data: bytes) -> StatsFile | None:
    """A small file of one header line then plain data lines (what CANN writes), read by the C line reader in
    one call; None for any other file (the general loop reads it and words what is wrong)."""
    if not data or len(data) > _LISTED_BYTES:
        return None
    lines = (data[len(_BOM):] if data.startswith(_BOM) else data).splitlines()
    if not lines or not looks_like_stats_csv(lines[0]):
        return None
    _, plain = _header_of(lines[0], 1, named)  # a bad header raises here, as in the loop (it comes first there too)
    rows = None if plain is None else plain.plain_file(lines, 1, MAX_TENSORS)
    return None if rows is None else StatsFile(rows, plain)


def _read_contents(named: Path | str, data: bytes) -> _Reading:
    """Every line of a statistics CSV's contents read (StatsLoadError when it is not one). `named`: the file, a
    str made a Path only where a sentence names it (a batch of 20k plain files names none)."""
    if len(data) > MAX_FILE_BYTES:
        raise StatsLoadError(_too_large(_as_path(named), len(data)), _as_path(named))
    if not data:
        raise StatsLoadError(f"{_as_path(named)} is empty (0 bytes), not a statistics CSV.", _as_path(named))
    text = data[len(_BOM):] if data.startswith(_BOM) else data
    # bytes.splitlines() breaks at \n, \r\n and \r only, as _lines does; a big file is not listed whole.
    lines = enumerate(text.splitlines(), 1) if len(text) <= _LISTED_BYTES else _lines(text)
    reading = _Reading(named, {}, [])
    header: _Header | None = None
    plain: RowReader | None = None
    for number, line in lines:
        if plain is not None:  # a plain data line first: no header, blank or general line is one
            found = plain.match(line, number)
            if found is not None:
                reading.keep(found)
                continue
        if not line or line.isspace():  # what line.strip() leaves empty, without a copy
            continue
        if header is None or looks_like_stats_csv(line):
            if header is None and not looks_like_stats_csv(line):
                raise StatsLoadError(_not_stats_message(_as_path(named), line), _as_path(named), number)
            # A repeated header starts an appended chunk; its columns are read anew in case they differ.
            header, plain = _header_of(line, number, named)
            reading.add_columns(header)
            continue
        # The general path (it says what is wrong with a line).
        reading.keep(_row(line, number, header, _as_path(named)))
    if header is None:
        raise StatsLoadError(f"{_as_path(named)} holds only blank lines, not a statistics CSV.", _as_path(named))
    return reading
