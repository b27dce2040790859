"""A small streaming xlsx writer: the workbook parts written straight into the zip, sheet rows as ready XML.

openpyxl builds a Python object per cell and spends ~15 µs on each: a 100k-row precision sheet (2M cells)
took ~40 s. Here a sheet is a header, rows of cell fragments and a few sheet-level settings (frozen header,
autofilter, conditional fills, column widths); the cells are spelled by `cell_fragment` or, column by column, by
`column_cells` (cell templates with the row number left as a placeholder around each column's values), the rows
are written straight into UTF-8 by row_join (C when built, with the GIL released while it writes; an empty value
writes no cell at all) on one thread while a second deflates (ISA-L when python-isal is installed, 3x zlib): the
big sheet starts as soon as it is built (`Workbook.deflate_ahead`), while the caller builds the small ones. The
cell rules are xlsx_cells' (every string a text cell, never a formula, a leading formula character kept as text
with Excel's quote prefix, control characters as `_xHHHH_`, texts cut at Excel's 32,767 characters, non-finite
floats as their text) so the files read back as openpyxl's did.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import numbers
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, count
from queue import Full, Queue
from threading import Event, Thread
from types import ModuleType
from typing import IO, Any
from xml.sax.saxutils import escape, quoteattr
from zipfile import ZIP_DEFLATED, ZipFile

from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.reports.pipelined_write import PartWriter, Pooled
from autofuse_studio.core.reports.row_join import (
    ROW,
    Column,
    Numbers,
    column_survey,
    column_surveys,
    join_rows,
    join_rows_into,
    native_joiner,
    nonfinite_places,
    plain_texts,
)
from autofuse_studio.core.reports.xlsx_cells import FORMULA_LEADS, is_formula_like, xml_safe_text
from autofuse_studio.core.reports.xlsx_parallel import Chunk, DeflatedPart, ParallelDeflated, parallel_deflate

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
# Cell styles (cellXfs indexes) every workbook of this writer has; fills follow from FIRST_FILL_STYLE on.
PLAIN, BOLD, QUOTED = 0, 1, 2
FIRST_FILL_STYLE = 3
PLAIN_FONT, HEADER_FONT = 0, 2  # fonts of the fill styles: the plain one, bold white on a header's fill
EMPTY = "/>"  # the fragment of an empty cell (None or ""): `<c r="B7"/>`
NO_CELL = ""  # an empty value of a big table's column: no `<c>` at all (as openpyxl wrote it; 17% of the XML)
# Rows formatted, encoded and compressed per step (~5 ms each): a join of 2048 rows keeps its cells' parts and
# texts in cache between reading and writing them (100k rows joined in 0.25 s of CPU, in 0.33 s by 4096).
ROWS_PER_CHUNK = 2048
# ROW (row_join's) is the row number's place in a cell's `r` (text never holds it: control characters are escaped).
# Text a cell needs work for: XML markup, control characters (written `_xHHHH_`), a formula lead at the start or
# whitespace at either end (kept with xml:space="preserve"). Checked over a column's distinct values joined with
# NULs first (a NUL inside a value shows as a count of NULs off by one), by patterns that each start with a
# literal or a single class (an alternation of them scanned ~5x slower), then, when something is found, value by
# value.
_LEADS = "[" + re.escape("".join(FORMULA_LEADS)) + r"\s]"
_MARKUP_OR_CONTROL = re.compile("[&<>\x01-\x08\x0b-\x1f]")
_UNSAFE_INSIDE = "&<>" + "".join(map(chr, [*range(0, 9), *range(11, 32)]))  # markup, NUL and control characters
_LEAD_AFTER_SEPARATOR = re.compile("\x00" + _LEADS)
_SPACE_BEFORE_SEPARATOR = re.compile(r"\s\x00")
_VALUE_NEEDS_WORK = re.compile(r"[&<>\x00-\x08\x0b-\x1f]|\A" + _LEADS + r"|\s\Z")
# Excel holds at most 32,767 characters in a cell; openpyxl cut longer texts there (after the _xHHHH_ escapes).
MAX_CELL_TEXT = 32767
# plain_texts' rules for a cell copied inline as it is: no markup or control character, no formula lead, no edge
# whitespace, not longer than a cell holds.
_TEXT_RULES = (_UNSAFE_INSIDE, "".join(FORMULA_LEADS), True, MAX_CELL_TEXT)
_NUMBER_TYPES = frozenset({int, float, type(None)})
_WHOLE_NUMBER_TYPES = frozenset({int, type(None)})
SHEET_LEVEL = 1  # deflate level of the sheets: zlib's fastest; ISA-L's level 1 is 3x faster and smaller still
GZIP_WINDOW, GZIP_HEADER = 31, 10  # a gzip stream around the raw deflate data (its trailer holds the CRC)
RAW_WINDOW = -15  # raw deflate data: a section of a part (its CRC counted as it is deflated)
# A big sheet's rows are spelled and deflated in this many sections at once (each its own deflate stream, the
# streams joined as pigz joins them; ISA-L only: its crc32_combine joins the sections' CRCs), so that neither
# core waits for one thread to spell 130 MB.
SECTIONS = 2
# A streamed sheet's deflated bytes (~20 MB of 100k rows) go to the disk this many at a time as they are written, so
# that the file's final fsync waits for the last of them only (~35 ms of 100k rows at the end otherwise).
STREAMED_SYNC_BYTES = 4 << 20


# python-isal's zlib (ISA-L deflate: the 130 MB sheet of 100k rows in 0.23 s of CPU, zlib's level 1 in 0.77 s);
# a plain import, so that PyInstaller bundles it. Without it zlib deflates.
_ISAL: ModuleType | None
try:
    from isal import isal_zlib as _ISAL
except ImportError:
    _ISAL = None
_TEXT_TYPES = frozenset({str, type(None)})


def column_letter(number: int) -> str:
    """The spreadsheet name of the 1-based column `number` (1 -> A, 27 -> AA)."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _text_fragment(text: str, style: int = PLAIN) -> str:
    """A text cell's fragment (after `<c r="A1"`): an inline string, quote-prefixed when it would be a formula."""
    if is_formula_like(text) and style == PLAIN:
        style = QUOTED
    stored = xml_safe_text(text)[:MAX_CELL_TEXT]
    space = ' xml:space="preserve"' if stored != stored.strip() else ""
    styled = f' s="{style}"' if style else ""
    return f' t="inlineStr"{styled}><is><t{space}>{escape(stored)}</t></is></c>'


def cell_fragment(value: Any, style: int = PLAIN) -> str:
    """Any value's cell fragment, as xlsx_cells.fill_cell stores it: None empty, numbers as numbers, the rest text."""
    if value is None or value == "":  # openpyxl wrote no value for an empty text either
        return f' s="{style}"/>' if style else EMPTY
    if value.__class__ is str:  # the common case, before the numbers' abstract-class checks (slow on a str)
        return _text_fragment(value, style)
    styled = f' s="{style}"' if style else ""
    if isinstance(value, bool):
        return f' t="b"{styled}><v>{int(value)}</v></c>'
    if isinstance(value, numbers.Integral):
        return f"{styled}><v>{int(value)}</v></c>"
    if isinstance(value, numbers.Real) and math.isfinite(value):
        return f"{styled}><v>{float(value)!r}</v></c>"
    return _text_fragment(value if isinstance(value, str) else str(value), style)


def cell(letter: str, value: Any, style: int = PLAIN) -> str:
    """A whole cell of column `letter` with the row number left as ROW."""
    return f'<c r="{letter}{ROW}"{cell_fragment(value, style)}'


def _number_column(values: Sequence[Any], letter: str, non_finite_empty: bool, finite: bool,
                   whole: bool = False) -> Column:
    """A column of ints, floats and None for join_rows: msgspec spells the numbers a chunk at a time (`finite`:
    no float of the column is NaN or ±Inf; `whole`: ints and None only, which join_rows spells itself)."""
    start, end = f'<c r="{letter}{ROW}"><v>', "</v></c>"
    if whole:
        return (values, start, end, NO_CELL)  # ints: join_rows spells them as str() does, faster than msgspec
    if non_finite_empty or finite:
        return (Numbers(values), start, end, NO_CELL)
    # NaN/Inf outside the metrics: their text ("nan", "inf"), as fill_cell stored them: Numbers' text cells (join_rows
    # spells the column without the GIL), but "-inf", a formula lead's text, is quoted: a whole cell.
    spelled, places, negative = _non_finite_words(values)
    if not negative:
        return (Numbers(spelled), *_text_templates(letter), NO_CELL, start, end)
    text_cells = {text: (cell(letter, text),) for text in ("nan", "inf", "-inf")}
    for at in places:
        spelled[at] = text_cells[spelled[at]]
    return (spelled, start, end, NO_CELL)


def _non_finite_words(values: Sequence[Any]) -> tuple[list[Any], list[int], list[int]]:
    """The values with each NaN or ±Inf float as its repr() ("nan", "inf", "-inf"), the places of those, and of the
    "-inf" among them."""
    spelled = list(values)
    places = nonfinite_places(values)
    negative = []
    for at in places:
        value = spelled[at]
        if value != value:
            spelled[at] = "nan"
        elif value > 0:
            spelled[at] = "inf"
        else:
            spelled[at] = "-inf"
            negative.append(at)
    return spelled, places, negative


def column_cell_parts(values: Sequence[Any], letter: str, non_finite_empty: bool = False,
                      survey: tuple[set[type], bool, bool | None] | None = None) -> list[Column]:
    """column_cells' column, but a column of floats with "-inf" as two: its numbers (and "nan", "inf" words) for
    msgspec, then its "-inf" whole cells, each row's cell in one of them (as one column, each float of it was spelled
    with the GIL: the 100k statistics rows' stat_min_* and stat_fused ... columns hold some in most blocks). For a
    streamed sheet, whose width is its header's."""
    kinds, finite, plain = column_survey(values, *_TEXT_RULES) if survey is None else survey
    if not kinds <= _NUMBER_TYPES or kinds <= _WHOLE_NUMBER_TYPES or non_finite_empty or finite:
        return [column_cells(values, letter, non_finite_empty, (kinds, finite, plain))]
    spelled, _, negative = _non_finite_words(values)
    quoted: list[Any] = [None] * len(spelled)
    minus = (cell(letter, "-inf"),)
    for at in negative:
        spelled[at], quoted[at] = None, minus
    start, end = f'<c r="{letter}{ROW}"><v>', "</v></c>"
    return [(Numbers(spelled), *_text_templates(letter), NO_CELL, start, end), (quoted, "", "", NO_CELL)]


def _text_templates(letter: str) -> tuple[str, str]:
    """What comes before and after a plain text (no work needed) in column `letter`'s cells."""
    return f'<c r="{letter}{ROW}" t="inlineStr"><is><t>', "</t></is></c>"


def _text_values(values: Sequence[Any], letter: str, plain: bool | None = None) -> Sequence[Any]:
    """Texts (and ints, None) as join_rows takes them (None and "" no cell): the texts that need work as whole
    cells; as they are when none does (`plain`: column_survey's answer, None to ask plain_texts)."""
    if plain is None:
        plain = plain_texts(values, *_TEXT_RULES)
    if plain:
        return values  # C scanned every text: none needs work; join_rows writes "" as no cell
    distinct = [value for value in set(values) if value.__class__ is str and value]
    joined = "\x00" + "\x00".join(distinct) + "\x00"
    if (joined.count("\x00") == len(distinct) + 1 and not _MARKUP_OR_CONTROL.search(joined)
            and not _LEAD_AFTER_SEPARATOR.search(joined) and not _SPACE_BEFORE_SEPARATOR.search(joined)
            and max(map(len, distinct), default=0) <= MAX_CELL_TEXT):
        return values  # join_rows writes "" as an empty value: no cell
    search = _VALUE_NEEDS_WORK.search

    def needs_work(text: str) -> bool:
        return len(text) > MAX_CELL_TEXT or search(text) is not None

    return [(cell(letter, value),) if value.__class__ is str and value and needs_work(value) else
            (None if value == "" else value) for value in values]


def column_cells(values: Sequence[Any], letter: str, non_finite_empty: bool = False,
                 survey: tuple[set[type], bool, bool | None] | None = None) -> Column:
    """One column for join_rows (row numbers as ROW): texts inline, numbers as numbers, empty values no cell at
    all, in bulk when its types allow (`non_finite_empty`: NaN/Inf as empty cells, as the metric columns of
    to_dict() say null; `survey`: text_surveys' answer for `values`, when already made)."""
    kinds, finite, plain = column_survey(values, *_TEXT_RULES) if survey is None else survey
    text_start, text_end = _text_templates(letter)
    if kinds <= _TEXT_TYPES:
        return (_text_values(values, letter, plain), text_start, text_end, NO_CELL)
    if kinds <= _NUMBER_TYPES:
        return _number_column(values, letter, non_finite_empty, finite, whole=kinds <= _WHOLE_NUMBER_TYPES)
    if kinds <= _TEXT_TYPES | {int}:  # folder numbers: plain integers as numbers, other names as text
        return (_text_values(values, letter, plain), text_start, text_end, NO_CELL, f'<c r="{letter}{ROW}"><v>',
                "</v></c>")
    return ([(cell(letter, None if non_finite_empty and _non_finite(value) else value),) for value in values],
            "", "", NO_CELL)


def text_surveys(columns: Sequence[Sequence[Any]]) -> list[tuple[set[type], bool, bool | None]]:
    """column_cells' surveys of many columns at once (one release of the GIL: see row_join.column_surveys)."""
    return column_surveys(columns, *_TEXT_RULES)


def _length(column: Column) -> int:
    """How many rows a column_cells() column holds."""
    values = column[0]
    return len(values.values if isinstance(values, Numbers) else values)


def _non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


@dataclass(frozen=True)
class ConditionalFill:
    """Fill the cells of `ref` with `colour` (RRGGBB) where the expression `formula` holds."""

    ref: str
    formula: str
    colour: str


@dataclass
class Sheet:
    """One worksheet: its rows as fragment columns or fragment rows, and the sheet-level settings."""

    name: str
    header: Sequence[str] = ()
    columns: list[Column] = field(default_factory=list)  # column_cells() column by column (the big table)
    streamed_rows: int = 0  # rows the big table holds when it comes in blocks (Workbook.deflate_streamed)
    rows: list[list[str]] = field(default_factory=list)  # cells row by row (small sheets)
    freeze_header: bool = False
    header_style: int = BOLD  # the header cells' style (Workbook.header_style for a coloured header)
    autofilter: bool = False
    widths: dict[int, float] = field(default_factory=dict)  # 1-based column -> width in characters
    conditional: list[ConditionalFill] = field(default_factory=list)

    def add_row(self, values: Iterable[Any], styles: dict[int, int] | None = None) -> None:
        """Append a row of values (styles: 0-based column -> cell style) after the column fragments."""
        styles = styles or {}
        self.rows.append([cell(column_letter(position + 1), value, styles.get(position, PLAIN))
                          for position, value in enumerate(values)])

    def add_rows(self, records: Sequence[Sequence[Any]]) -> None:
        """Append plain rows of values, the bytes add_row writes, spelled column by column when the sheet holds no
        rows yet and every record is as long (thousands of culprit lines: ~8 µs a cell one by one)."""
        width = len(records[0]) if records else 0
        if self.columns or self.rows or any(len(record) != width for record in records):
            for record in records:
                self.add_row(record)
            return
        for number, values in enumerate(zip(*records, strict=True), start=1):
            letter = column_letter(number)
            # An empty value (None, "") written as add_row writes it, `<c r="B7"/>`, not as no cell.
            spelled = column_cells(list(values), letter)
            self.columns.append((spelled[0], spelled[1], spelled[2], f'<c r="{letter}{ROW}"{EMPTY}', *spelled[4:]))

    def width(self) -> int:
        """How many columns the sheet spans."""
        return max([len(self.header), len(self.columns), *map(len, self.rows)], default=0)

    def row_count(self) -> int:
        """Rows including the header."""
        table = _length(self.columns[0]) if self.columns else self.streamed_rows
        return (1 if self.header else 0) + table + len(self.rows)

    def last_cell(self) -> str:
        """The bottom-right cell, e.g. 'X100001' (at least row 2, as openpyxl's autofilter took it)."""
        return f"{column_letter(max(1, self.width()))}{max(2, self.row_count())}"


class Workbook:
    """Sheets plus the fill colours their cells and conditional rules use; `save` writes the xlsx."""

    def __init__(self) -> None:
        self.sheets: list[Sheet] = []
        self._styles: list[tuple[int, str, bool]] = []  # (font, fill colour, quoted) from FIRST_FILL_STYLE on
        self._ahead: dict[int, _DeflatedAhead] = {}  # id(sheet) -> its part, spelled and deflated ahead
        self._archive: ZipFile | None = None  # opened by deflate_streamed(into=...): its part is the first member
        self._streaming: _StreamedMember | None = None  # that part, written into the file as it is deflated

    def deflate_ahead(self, sheet: Sheet, fill: Callable[[], None] | None = None) -> None:
        """Start spelling and deflating `sheet` (settings final) on other threads while the caller builds the sheets
        after it; `save` writes the deflated part (its dxf indexes depend on the sheets up to it only). `fill`, when
        given, adds the sheet's columns first, on those threads (the caller leaves the sheet alone until save)."""
        dxfs = self._dxfs_through(sheet)
        sections = SECTIONS if _ISAL is not None and native_joiner() is not None else 1
        selected = sheet is self.sheets[0]

        def sheet_sections() -> list[Iterator[str | bytes]]:
            if fill is not None:
                fill()
            return _sheet_sections(sheet, selected, dxfs, sections)

        self._ahead[id(sheet)] = _DeflatedAhead(sheet_sections)

    def deflate_streamed(self, sheet: Sheet, rows: int, into: IO[bytes] | None = None) -> ColumnBlocks:
        """Start spelling and deflating `sheet` (settings final) from its big table's `rows` rows, which the caller
        puts a block of columns at a time into the ColumnBlocks returned while it reads the next block, and closes
        (also on an error); it then builds the sheets after it. The part's head names the size: `rows` it is.

        `into`: the file `save` will be given. The part is then the zip's first member, its deflated bytes written
        into the file (and synced to the disk, see PartWriter) as they come, not held until `save`: the final
        fsync waits for the last stretch only. The caller calls `abandon` when it gives up before `save`."""
        sheet.streamed_rows = rows
        blocks = ColumnBlocks()
        # Its chunks joined and deflated on several threads at once where ISA-L can (xlsx_parallel), else joined on
        # one thread and deflated on another.
        parallel = parallel_deflate(_ISAL) and native_joiner() is not None
        chunks = _streamed_xml(sheet, sheet is self.sheets[0], self._dxfs_through(sheet), blocks, joined=not parallel)
        member = self._streamed_member(sheet, into) if into is not None and self._archive is None else None
        self._ahead[id(sheet)] = _DeflatedAhead([chunks], None if member is None else member.writer.put, parallel)
        self._streaming = member
        return blocks

    def _streamed_member(self, sheet: Sheet, into: IO[bytes]) -> _StreamedMember | None:
        """The sheet's zip member opened first in a new archive on `into` (None where zipfile keeps no counters that
        let its data be written past it: the part is then held until save, as deflate_ahead's are)."""
        if not _zipfile_takes_deflated():
            return None
        archive = ZipFile(into, "w", ZIP_DEFLATED, compresslevel=SHEET_LEVEL, allowZip64=True)
        member = archive.open(f"xl/worksheets/sheet{self.sheets.index(sheet) + 1}.xml", "w", force_zip64=True)
        self._archive = archive
        writer = PartWriter(member._fileobj, STREAMED_SYNC_BYTES)  # type: ignore[attr-defined]
        return _StreamedMember(id(sheet), member, writer)

    def abandon(self) -> None:
        """Stop the threads of the parts deflated ahead, and the writing of a streamed one (the caller gave up before
        save: its blocks are closed, the file is dropped)."""
        for ahead in self._ahead.values():
            ahead.stop()
        self._ahead.clear()
        streamed, self._streaming = self._streaming, None
        if streamed is not None:
            streamed.writer.finish(abandon=True)
            # Closed now, while the file is open (else their finalizers write into it once it is closed); what they
            # write is dropped with the file, a write error too.
            with contextlib.suppress(Exception):
                streamed.member.close()
        if self._archive is not None:
            with contextlib.suppress(Exception):
                self._archive.close()

    def _dxfs_through(self, sheet: Sheet) -> list[str]:
        """The conditional fill colours of the sheets up to `sheet`: its part's dxf indexes depend on these only."""
        through = self.sheets[:self.sheets.index(sheet) + 1]
        return list(dict.fromkeys(rule.colour.upper() for added in through for rule in added.conditional))

    def sheet(self, name: str, header: Sequence[str] = ()) -> Sheet:
        """A new sheet (the first is the one Excel shows)."""
        sheet = Sheet(name, tuple(header))
        self.sheets.append(sheet)
        return sheet

    def fill_style(self, colour: str, quoted: bool = False) -> int:
        """The cell style that fills a cell with `colour` (RRGGBB); `quoted`: with Excel's quote prefix, for a text
        that would be a formula (a PLAIN cell gets QUOTED by itself, a filled one needs this)."""
        return self._style((PLAIN_FONT, colour.upper(), quoted))

    def header_style(self, colour: str) -> int:
        """The cell style of a header on `colour` (RRGGBB): bold white text (Sheet.header_style)."""
        return self._style((HEADER_FONT, colour.upper(), False))

    def _style(self, style: tuple[int, str, bool]) -> int:
        if style not in self._styles:
            self._styles.append(style)
        return FIRST_FILL_STYLE + self._styles.index(style)

    def save(self, handle: IO[bytes]) -> None:
        """Write the workbook into an open binary file (atomic_open's handle; deflate_streamed's `into`, if given)."""
        for ahead in self._ahead.values():
            ahead.filled()  # the sheets' sizes are final (the workbook part names their ranges)
        dxfs = list(dict.fromkeys(rule.colour.upper() for sheet in self.sheets for rule in sheet.conditional))
        archive = self._archive or ZipFile(handle, "w", ZIP_DEFLATED, compresslevel=SHEET_LEVEL, allowZip64=True)
        with archive:
            streamed = self._streaming
            if streamed is not None:
                self._streaming = None
                try:
                    self._ahead.pop(streamed.sheet).write_into(streamed.member, streamed.writer)
                finally:
                    streamed.member.close()  # the archive closes only once its member did (the file is dropped)
            archive.writestr("[Content_Types].xml", self._content_types())
            archive.writestr("_rels/.rels", _relationships([("officeDocument", "xl/workbook.xml")]))
            archive.writestr("xl/workbook.xml", self._workbook_xml())
            targets = [("worksheet", f"worksheets/sheet{n}.xml") for n in range(1, len(self.sheets) + 1)]
            archive.writestr("xl/_rels/workbook.xml.rels", _relationships([*targets, ("styles", "styles.xml")]))
            archive.writestr("xl/styles.xml", _styles_xml(self._styles, dxfs))
            for number, sheet in enumerate(self.sheets, start=1):
                if streamed is not None and id(sheet) == streamed.sheet:
                    continue  # its member came first
                ahead = (self._ahead.pop(id(sheet)) if id(sheet) in self._ahead
                         else _DeflatedAhead([_sheet_xml(sheet, number == 1, dxfs)]))
                with archive.open(f"xl/worksheets/sheet{number}.xml", "w", force_zip64=True) as part:
                    ahead.write_into(part)

    def _content_types(self) -> str:
        sheets = "".join(f'<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="application/'
                         'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                         for n in range(1, len(self.sheets) + 1))
        return (f'{XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                '<Default Extension="xml" ContentType="application/xml"/>'
                '<Override PartName="/xl/workbook.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                '<Override PartName="/xl/styles.xml" ContentType="application/'
                f'vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>{sheets}</Types>')

    def _workbook_xml(self) -> str:
        sheets = "".join(f'<sheet name={quoteattr(sheet.name)} sheetId="{n}" r:id="rId{n}"/>'
                         for n, sheet in enumerate(self.sheets, start=1))
        # Excel keeps an autofilter's range as this hidden name; openpyxl wrote it too.
        names = "".join(f'<definedName name="_xlnm._FilterDatabase" localSheetId="{n}" hidden="1">'
                        f"{escape(_quoted_sheet(sheet.name))}!$A$1:${_absolute(sheet.last_cell())}</definedName>"
                        for n, sheet in enumerate(self.sheets) if sheet.autofilter)
        defined = f"<definedNames>{names}</definedNames>" if names else ""
        return (f'{XML_HEAD}<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><bookViews><workbookView activeTab="0"/>'
                f"</bookViews><sheets>{sheets}</sheets>{defined}</workbook>")


class _DeflatedSection(DeflatedPart):
    """A run of a zip part's chunks spelled on one thread (the C join releases the GIL while it writes) and deflated
    on another (ISA-L or zlib, without the GIL), ahead of the part's place in the zip: the caller's Python runs
    meanwhile. The deflate is zipfile's own (raw, level SHEET_LEVEL): a whole part inside a gzip stream, whose
    trailer gives the CRC (no second pass over the data, one GIL release per chunk); a section of a part (`last`
    False: flushed to a byte boundary, not final) as raw data, its CRC counted by ISA-L as it is deflated."""

    def __init__(self, chunks: Iterable[Chunk], last: bool | None = None,
                 sink: Callable[[bytes], None] | None = None) -> None:
        # None: the whole part (gzip); else a section, the part's last or not. A part handed to a `sink` as it is
        # deflated is one last section: raw data, its CRC counted as it goes (no gzip header to cut off after).
        super().__init__(sink)
        self._last = True if sink is not None and last is None else last
        packer = _ISAL if _ISAL is not None and (self._last is not None or native_joiner() is not None) else zlib
        self._crc32: Callable[[bytes, int], int] | None = None if self._last is None else packer.crc32
        self._compressor = packer.compressobj(SHEET_LEVEL, packer.DEFLATED,
                                              GZIP_WINDOW if self._last is None else RAW_WINDOW)
        self._queue: Queue[bytes | None] = Queue(maxsize=2)
        self._start([Thread(target=self._spell, args=(chunks,), name="xlsx-spell", daemon=True),
                     Thread(target=self._deflate, name="xlsx-deflate", daemon=True)])

    def _spell(self, chunks: Iterable[Chunk]) -> None:
        try:
            with gc_paused():  # millions of cell strings, none in a cycle (the caller's pause may end first)
                for chunk in chunks:
                    if self._failed:
                        break
                    data = chunk() if callable(chunk) else chunk
                    self._queue.put(data.encode("utf-8", "replace") if isinstance(data, str) else bytes(data))
        except BaseException as exc:  # noqa: BLE001 - raised by write_into, on the caller's thread
            self._failed.append(exc)
        finally:
            self._queue.put(None)

    def _deflate(self) -> None:
        while (data := self._queue.get()) is not None:
            if self._failed:
                continue  # drained only, so that the spelling thread never blocks on a full queue
            try:
                self.size += len(data)
                if self._crc32 is not None:
                    self.crc = self._crc32(data, self.crc)
                self._emit(self._compressor.compress(data))
            except BaseException as exc:  # noqa: BLE001 - raised by write_into, on the caller's thread
                self._failed.append(exc)
        if not self._failed:
            try:
                self._finish()
            except BaseException as exc:  # noqa: BLE001 - raised by write_into, on the caller's thread
                self._failed.append(exc)

    def _finish(self) -> None:
        """The stream ended: a section's raw data flushed (final or to a byte boundary); a gzip stream cut to its
        raw deflate data, the CRC from its trailer (which flush() writes whole)."""
        if self._last is not None:
            self._emit(self._compressor.flush(zlib.Z_FINISH if self._last else zlib.Z_SYNC_FLUSH))
            return
        tail = self._compressor.flush()
        self.crc = int.from_bytes(tail[-8:-4], "little")
        self.deflated.append(tail[:-8])
        self.deflated = _without_gzip_header(self.deflated)



class _DeflatedAhead:
    """A zip part deflated ahead (`_DeflatedSection`s: one whole part, or sections of it joined), written into its
    place in the zip by `write_into`. Given a function that makes the sections, it is called on a thread of its own
    first (a sheet's columns built there)."""

    def __init__(self, sections: Sequence[Iterable[Chunk]] | Callable[[], Sequence[Iterable[Chunk]]],
                 sink: Callable[[bytes], None] | None = None, parallel: bool = False) -> None:
        self._sink = sink  # given: the deflated bytes are handed to it as they come (one section)
        self._parallel = parallel  # the part's chunks (functions among them) made and deflated by xlsx_parallel
        self._sections: list[_DeflatedSection | ParallelDeflated] = []
        self._failed: list[BaseException] = []
        self._maker: Thread | None = None
        if callable(sections):
            self._maker = Thread(target=self._start_made, args=(sections,), name="xlsx-fill", daemon=True)
            self._maker.start()
        else:
            self._start(sections)

    def _start(self, sections: Sequence[Iterable[Chunk]]) -> None:
        if self._parallel:
            self._sections = [ParallelDeflated(chain.from_iterable(sections), _ISAL, SHEET_LEVEL,  # type: ignore[arg-type]
                                               self._sink)]  # (parallel: _ISAL is a module)
        elif self._sink is not None:
            self._sections = [_DeflatedSection(chain.from_iterable(sections), sink=self._sink)]
        elif len(sections) == 1 or _ISAL is None:  # without ISA-L no crc32_combine: one stream, the runs in order
            self._sections = [_DeflatedSection(chain.from_iterable(sections))]
        else:
            self._sections = [_DeflatedSection(chunks, last=at == len(sections) - 1)
                              for at, chunks in enumerate(sections)]

    def _start_made(self, make: Callable[[], Sequence[Iterable[str | bytes]]]) -> None:
        try:
            with gc_paused():  # the columns' lists and cells, none in a cycle
                self._start(make())
        except BaseException as exc:  # noqa: BLE001 - raised by write_into, on the caller's thread
            self._failed.append(exc)

    def filled(self) -> None:
        """Wait until the sections are made (the sheet's columns built); their error is raised here."""
        if self._maker is not None:
            self._maker.join()
        if self._failed:
            raise self._failed[0]

    def _joined(self) -> tuple[list[bytes], int, int]:
        """Every section's deflated bytes, the part's size and CRC (the sections' CRCs combined)."""
        self.filled()
        deflated: list[bytes] = []
        size = crc = 0
        for section in self._sections:
            section.wait()
            deflated += section.deflated
            crc = section.crc if not size else _ISAL.crc32_combine(crc, section.crc, section.size)  # type: ignore[union-attr]
            size += section.size
        return deflated, size, crc

    def write_into(self, part: IO[bytes], writer: PartWriter | None = None) -> None:
        """Wait for the threads, then write the deflated bytes as the zip part's data (the spelling's or the
        deflate's error is raised here). `writer`: the sink's, which wrote them into the part already."""
        if writer is not None:
            try:
                _, size, crc = self._joined()
            except BaseException:
                writer.finish(abandon=True)
                raise
            writer.finish()
            _counted(part, size, crc, sum(section.compressed for section in self._sections))
            self._sections = []
            return
        deflated, size, crc = self._joined()
        self._sections = []
        if not _takes_deflated(part):
            inflater = zlib.decompressobj(-15)
            for data in deflated:
                part.write(inflater.decompress(data))
            return
        target = part._fileobj  # type: ignore[attr-defined]
        for data in deflated:
            target.write(data)
        _counted(part, size, crc, sum(map(len, deflated)))

    def stop(self) -> None:
        """Wait for the threads to end, their errors dropped (the caller gave up: its blocks are closed)."""
        if self._maker is not None:
            self._maker.join()
        for section in self._sections:
            with contextlib.suppress(BaseException):
                section.wait()
        self._sections = []


# zipfile's _ZipWriteFile (Python 3.6 to 3.13) counts its data in these: deflated bytes written straight into the
# archive's file are its data once they are set, and close() writes the header from the counts. Without them the
# bytes are inflated again and written through the part (the same member).
_COUNTERS = ("_compressor", "_crc", "_file_size", "_compress_size", "_fileobj")


def _takes_deflated(part: IO[bytes]) -> bool:
    """True when deflated bytes can be written past zipfile's `part` (its counters set after)."""
    return all(hasattr(part, name) for name in _COUNTERS)


@functools.cache
def _zipfile_takes_deflated() -> bool:
    """True when this Python's zipfile parts take deflated bytes (_takes_deflated), tried on a zip in memory."""
    with ZipFile(io.BytesIO(), "w", ZIP_DEFLATED) as archive, archive.open("probe", "w") as part:
        return _takes_deflated(part)


def _counted(part: IO[bytes], size: int, crc: int, compressed: int) -> None:
    """Set zipfile's `part` counters for deflated data already in the archive's file (close() then adds nothing)."""
    part._compressor = _Flushed()  # type: ignore[attr-defined]
    part._crc, part._file_size = crc, size  # type: ignore[attr-defined]
    part._compress_size = compressed  # type: ignore[attr-defined]


@dataclass
class _StreamedMember:
    """A streamed sheet's zip member, open in the archive while its deflated bytes are written (by `writer`)."""

    sheet: int  # id() of the sheet
    member: IO[bytes]
    writer: PartWriter


def _without_gzip_header(stream: list[bytes]) -> list[bytes]:
    """A gzip stream's chunks without its header (10 bytes: zlib and ISA-L write no name, comment or extra)."""
    head = b""
    for at, data in enumerate(stream):
        if len(head) == GZIP_HEADER:
            rest = stream[at:]
            break
        need = GZIP_HEADER - len(head)
        head += data[:need]
        if len(data) > need:
            rest = [data[need:], *stream[at + 1:]]
            break
    else:
        rest = []
    if len(head) < GZIP_HEADER or head[3] != 0:
        raise ValueError("xlsx: an unexpected gzip header")
    return rest


class _Flushed:
    """The compressor of a part whose deflated bytes are written already: close() flushes nothing more."""

    def flush(self) -> bytes:
        """Nothing left."""
        return b""


def _quoted_sheet(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def _absolute(cell: str) -> str:
    """'X12' -> 'X$12' (the caller writes the leading '$')."""
    letters = cell.rstrip("0123456789")
    return f"{letters}${cell[len(letters):]}"


def _relationships(targets: Sequence[tuple[str, str]]) -> str:
    items = "".join(f'<Relationship Id="rId{n}" Type="{REL_NS}/{kind}" Target="{target}"/>'
                    for n, (kind, target) in enumerate(targets, start=1))
    return f'{XML_HEAD}<Relationships xmlns="{PKG_REL_NS}">{items}</Relationships>'


def _solid(colour: str) -> str:
    argb = f"FF{colour}" if len(colour) == 6 else colour
    return f'<fill><patternFill patternType="solid"><fgColor rgb="{argb}"/><bgColor rgb="{argb}"/></patternFill></fill>'


def _styles_xml(styles: Sequence[tuple[int, str, bool]], dxfs: Sequence[str]) -> str:
    """Fonts (plain, bold, and bold white when a header style is used), the fills of `styles`, the cell styles
    PLAIN, BOLD, QUOTED and one per (font, fill colour, quoted) of `styles`, a dxf per rule colour."""
    fills = list(dict.fromkeys(colour for _, colour, _ in styles))
    fill_xml = '<fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>'
    fill_xml += "".join(map(_solid, fills))
    xf = '<xf numFmtId="0" fontId="{font}" fillId="{fill}" borderId="0" xfId="0"{extra}/>'
    xfs = [xf.format(font=0, fill=0, extra=""), xf.format(font=1, fill=0, extra=' applyFont="1"'),
           xf.format(font=0, fill=0, extra=' quotePrefix="1"')]
    xfs += [xf.format(font=font, fill=2 + fills.index(colour), extra=(' applyFont="1"' if font else "")
                      + ' applyFill="1"' + (' quotePrefix="1"' if quoted else "")) for font, colour, quoted in styles]
    fonts = ['<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>',
             '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>']
    if any(font == HEADER_FONT for font, _, _ in styles):
        fonts.append('<font><b/><sz val="11"/><color rgb="FFFFFFFF"/><name val="Calibri"/><family val="2"/></font>')
    dxf_xml = "".join(f"<dxf>{_solid(colour)}</dxf>" for colour in dxfs)
    return (f'{XML_HEAD}<styleSheet xmlns="{MAIN_NS}">'
            f'<fonts count="{len(fonts)}">{"".join(fonts)}</fonts>'
            f'<fills count="{2 + len(fills)}">{fill_xml}</fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
            f'<cellXfs count="{len(xfs)}">{"".join(xfs)}</cellXfs>'
            '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
            f'<dxfs count="{len(dxfs)}">{dxf_xml}</dxfs></styleSheet>')


def _row(number: int, cells: Iterable[str]) -> str:
    """One `<row>` of whole cells, their row numbers filled in."""
    return f'<row r="{ROW}">{"".join(cells)}</row>'.replace(ROW, str(number))


def _sheet_xml(sheet: Sheet, selected: bool, dxfs: Sequence[str]) -> Iterator[str | bytes]:
    """The worksheet part in chunks: settings, then the rows ROWS_PER_CHUNK at a time, then filter and rules."""
    (whole,) = _sheet_sections(sheet, selected, dxfs, 1)
    return whole


def _sheet_sections(sheet: Sheet, selected: bool, dxfs: Sequence[str], count: int) -> list[Iterator[str | bytes]]:
    """The worksheet part in at most `count` runs of chunks (the column rows' chunks shared out in order; one run
    for a sheet of fewer chunks), read one after the other they are the whole part."""
    total = _length(sheet.columns[0]) if sheet.columns else 0
    starts = list(range(0, total, ROWS_PER_CHUNK))
    count = max(1, min(count, len(starts)))
    shares = [starts[len(starts) * at // count:len(starts) * (at + 1) // count] for at in range(count)]
    return [_section_xml(sheet, selected, dxfs, share, first=at == 0, last=at == count - 1)
            for at, share in enumerate(shares)]


def _section_xml(sheet: Sheet, selected: bool, dxfs: Sequence[str], starts: Sequence[int], first: bool,
                 last: bool) -> Iterator[str | bytes]:
    """The chunks of one run of the part: the settings and header when `first`, the column rows' chunks that begin
    at `starts`, the small rows, filter and rules when `last`."""
    header_rows = 1 if sheet.header else 0
    if first:
        yield from _sheet_start(sheet, selected)
    total = _length(sheet.columns[0]) if sheet.columns else 0
    for start in starts:
        yield _column_rows(sheet.columns, start, min(start + ROWS_PER_CHUNK, total), header_rows + 1 + start)
    if last:
        yield from _sheet_tail(sheet, dxfs, header_rows + total + 1)


def _sheet_start(sheet: Sheet, selected: bool) -> Iterator[str]:
    """The part up to its first column row: the settings and the header row."""
    yield _sheet_head(sheet, selected)
    if sheet.header:
        yield _row(1, [cell(column_letter(n), name, sheet.header_style) for n, name in enumerate(sheet.header, 1)])


def _column_rows(columns: list[Column], start: int, stop: int, first_number: int) -> bytes:
    """Rows start..stop-1 of the columns' cells, numbered from `first_number` (joined with the GIL released)."""
    return join_rows(columns, start, stop, f'<row r="{ROW}">', "</row>", "", first_number, "replace", released=True)


def _column_rows_into(columns: list[Column], start: int, stop: int, first_number: int,
                      into: bytearray | None) -> bytes | bytearray:
    """_column_rows' rows written into `into` (the deflating thread's buffer) when given."""
    try:
        return join_rows_into(columns, start, stop, f'<row r="{ROW}">', "</row>", "", into, first_number)
    except UnicodeEncodeError:  # a lone surrogate: replaced, as _column_rows does
        return _column_rows(columns, start, stop, first_number)


QUEUE_BLOCKS = 4  # column blocks put ahead of the thread that spells them at most (bounds the memory they hold)


class ColumnBlocks:
    """A streamed sheet's big table, handed over in blocks of rows: the caller puts functions that make each
    block's columns (column_cells()), run on the thread that spells the part, in order, then closes."""

    def __init__(self) -> None:
        self._queue: Queue[Callable[[], list[Column]] | None] = Queue(maxsize=QUEUE_BLOCKS)
        self._stopped = Event()  # the spelling thread takes no more (it ended, or failed: save raises its error)

    def put(self, make: Callable[[], list[Column]]) -> None:
        """Queue the next block's maker (waits while QUEUE_BLOCKS are queued; dropped once spelling stopped)."""
        self._send(make)

    def close(self) -> None:
        """No more blocks: the part's tail follows."""
        self._send(None)

    def _send(self, item: Callable[[], list[Column]] | None) -> None:
        while not self._stopped.is_set():
            try:
                self._queue.put(item, timeout=0.05)
                return
            except Full:
                continue

    def blocks(self) -> Iterator[list[Column]]:
        """The blocks' columns as they come, until close() (on the spelling thread)."""
        try:
            while (make := self._queue.get()) is not None:
                yield make()
        finally:
            self._stopped.set()


def _streamed_xml(sheet: Sheet, selected: bool, dxfs: Sequence[str], blocks: ColumnBlocks, joined: bool = True
                  ) -> Iterator[Chunk]:
    """A streamed sheet's part: its start, the column rows block after block as the caller puts them, its tail
    (`joined`: the column rows' chunks joined here; else functions that join them, for the deflating threads)."""
    header_rows = 1 if sheet.header else 0
    yield from _sheet_start(sheet, selected)
    first_number = header_rows + 1
    for columns in blocks.blocks():
        total = _length(columns[0]) if columns else 0
        for start in range(0, total, ROWS_PER_CHUNK):
            stop = min(start + ROWS_PER_CHUNK, total)
            yield (_column_rows(columns, start, stop, first_number + start) if joined else
                   Pooled(functools.partial(_column_rows_into, columns, start, stop, first_number + start)))
        first_number += total
    if first_number - header_rows - 1 != sheet.streamed_rows:
        raise ValueError("xlsx: a streamed sheet's blocks hold another count of rows than its head names")
    yield from _sheet_tail(sheet, dxfs, first_number)


def _sheet_head(sheet: Sheet, selected: bool) -> str:
    """The part up to <sheetData>: the used range, the view (frozen header), the column widths."""
    view = ' tabSelected="1"' if selected else ""
    pane = ('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
            '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>') if sheet.freeze_header else ""
    cols = "".join(f'<col min="{n}" max="{n}" width="{width:g}" customWidth="1"/>'
                   for n, width in sorted(sheet.widths.items()))
    # The used range: what read-only readers (openpyxl's among them) take the sheet's size from.
    used = f"A1:{column_letter(max(1, sheet.width()))}{max(1, sheet.row_count())}"
    return (f'{XML_HEAD}<worksheet xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><dimension ref="{used}"/>'
            f'<sheetViews><sheetView workbookViewId="0"'
            f'{view}>{pane}</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>'
            f'{f"<cols>{cols}</cols>" if cols else ""}<sheetData>')


def _sheet_tail(sheet: Sheet, dxfs: Sequence[str], first_number: int) -> Iterator[str]:
    """The part after the column rows: the small rows (numbered from `first_number`), filter and rules."""
    numbers = count(first_number)
    for row in sheet.rows:
        yield _row(next(numbers), row)
    yield "</sheetData>"
    if sheet.autofilter:
        yield f'<autoFilter ref="A1:{sheet.last_cell()}"/>'
    for priority, rule in enumerate(sheet.conditional, start=1):
        yield (f'<conditionalFormatting sqref="{rule.ref}"><cfRule type="expression" '
               f'dxfId="{dxfs.index(rule.colour.upper())}" priority="{priority}"><formula>{escape(rule.formula)}'
               "</formula></cfRule></conditionalFormatting>")
    yield "</worksheet>"
