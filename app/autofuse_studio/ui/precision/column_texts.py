"""The cell texts a column-width fit measures, worked out without fonts, so the analysis worker can do it.

Fitting the precision table to a 20k-row result took 15-45 ms of the GUI thread: ~14k Column.display calls for
a sample of rows and ~3k QFontMetrics measurements of the distinct texts. Here (no widget, no font: any
thread) each column keeps only the distinct texts an estimate from typical glyph widths puts near its widest,
so the GUI thread measures a few dozen texts per column exactly and the widths come out as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.columns import COLUMNS

SAMPLE_ROWS = 300
FIT_FIRST_ROWS = 60  # rows measured at the top of the table and around the first divergence
# A text is measured exactly when its estimate is within this share of the column's widest estimate; the
# estimate of one text against another is off by a few percent in the usual UI fonts, 15% leaves room.
CANDIDATE_SHARE = 0.85
MAX_CANDIDATES = 32  # per column: equal estimates (numbers of one length) differ by a pixel or two at most
# Cells worded through columns.translated_texts, a cache the GUI thread clears when the language changes: a
# worker must not fill it (it could keep the old language's words). Their few texts are measured on the GUI.
GUI_WORDED = frozenset({"kind"})

# Advance widths in 1/1000 em of a typical sans-serif face (Helvetica's metrics): only their ratios matter.
_NARROW = dict.fromkeys("ijl.,:;'!|/\\[]() fIt", 278) | dict.fromkeys("r-", 333)
_WIDE = dict.fromkeys("mM", 833) | dict.fromkeys("wCDHNRUAV", 722) | dict.fromkeys("GOQ%", 800) | {"W": 944}
_ADVANCES: dict[str, int] = {**dict.fromkeys("ckvxyzsJ", 500), **_NARROW, **_WIDE}
_DEFAULT_ADVANCE = 556  # digits, most lower case letters, '_', '+', most capitals are about this wide
_FULL_WIDTH = 1000  # CJK ideographs, kana, full-width forms
_FULL_WIDTH_FROM = 0x2E80


def estimated_width(text: str) -> int:
    """The text's width in 1/1000 em by typical glyph widths (compares texts; no font is asked)."""
    return sum(_ADVANCES.get(char, _FULL_WIDTH if ord(char) >= _FULL_WIDTH_FROM else _DEFAULT_ADVANCE)
               for char in text)


def width_candidates(texts: Iterable[str]) -> list[str]:
    """The distinct texts that may be the widest: those estimated near the widest, at most MAX_CANDIDATES."""
    distinct = set(texts)
    if len(distinct) <= MAX_CANDIDATES:
        return sorted(distinct)
    scored = sorted(((estimated_width(text), text) for text in distinct), reverse=True)
    floor = scored[0][0] * CANDIDATE_SHARE
    return [text for estimate, text in scored[:MAX_CANDIDATES] if estimate >= floor]


def sample(rows: Sequence[PrecisionRow], count: int = SAMPLE_ROWS) -> list[PrecisionRow]:
    """At most `count` rows spread evenly over `rows` (all of them when there are fewer)."""
    if len(rows) <= count:
        return list(rows)
    step = len(rows) / count
    return [rows[int(number * step)] for number in range(count)]


def _language() -> str:
    """What the cell texts depend on besides the rows: the UI language (the Kind column's word for 'output')."""
    return QCoreApplication.translate("PrecisionColumns", "output")


@dataclass(frozen=True)
class ColumnTexts:
    """Per column key, the texts to measure for its width; of `rows_seen` (ids) and more, in one UI language."""

    texts: dict[str, list[str]]
    rows_seen: frozenset[int]  # id() of the rows whose every cell text was considered (not only the sample's)
    language: str

    @property
    def current(self) -> bool:
        """True while the UI language is still the one the texts were worded in."""
        return self.language == _language()

    def with_rows(self, rows: Sequence[PrecisionRow]) -> ColumnTexts:
        """These texts plus those of `rows` (rows already seen add nothing)."""
        new = [row for row in rows if id(row) not in self.rows_seen]
        if not new:
            return self
        texts = {column.key: width_candidates(self.texts.get(column.key, []) + [column.display(row) for row in new])
                 for column in COLUMNS if column.key in self.texts}
        return ColumnTexts(texts, self.rows_seen | {id(row) for row in new}, self.language)


def column_texts(rows: Sequence[PrecisionRow], also: Iterable[PrecisionRow] = (),
                 skip: frozenset[str] = frozenset()) -> ColumnTexts:
    """The width candidates of each column for a sample of `rows` plus `also` (every row of it counts as seen);
    none for the columns in `skip`."""
    also = list(also)
    chosen = sample(rows) + also
    texts = {column.key: width_candidates(column.display(row) for row in chosen)
             for column in COLUMNS if column.key not in skip}
    return ColumnTexts(texts, frozenset(id(row) for row in also), _language())


def result_column_texts(rows: Sequence[PrecisionRow], first: PrecisionRow | None) -> ColumnTexts:
    """column_texts of a finished result, on any thread: also its first rows and those around the first
    divergence, in the result's order (the table's, unless the user sorted or filtered: the GUI adds the rows
    it shows then); without the GUI_WORDED columns."""
    near = list(rows[:FIT_FIRST_ROWS])
    position = next((number for number, row in enumerate(rows) if row is first), -1) if first is not None else -1
    if position >= 0:
        near += rows[max(0, position - FIT_FIRST_ROWS):position + FIT_FIRST_ROWS]
    return column_texts(rows, near, skip=GUI_WORDED)
