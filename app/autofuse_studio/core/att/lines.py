"""Line grammars of ATT logs: [PROF] kinds, [PERF] formulas, [DFX] markers and case labels.

One grammar for every subcommand (the reference disagreed with itself): any `[tag]` prefixes and
`TilingSummary:` forms; numbers with sign, fraction and exponent; `_R<n>` sub-case notation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from itertools import islice
from typing import Any

from autofuse_studio.core.att.model import (
    BestResult,
    CaseKey,
    DfxMarker,
    Objective,
    PerfItem,
    PerfLine,
    PerfNode,
    ResultPerf,
    SourceRef,
    TemplateSelection,
    TilingValue,
)

NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_KEY = r"graph(\d+)_result(\d+)_g(-?\d+)_R?(\d+)"
# The operator tag is the `[tag]` right before [PROF]/[PERF]; tags never contain brackets.
_PROF = re.compile(r"\[([^\[\]]+)\]\s*\[PROF\]\s*")
_PERF = re.compile(r"\[([^\[\]]+)\]\s*\[PERF\]")
_BEST = re.compile(r"Among all schedule results,\s*graph(\d+)_result(\d+)\s+is the best choice")
_TEMPLATE = re.compile(
    r"Among the templates,\s*tiling case\s+R?(\d+)\s+of\s+graph(\d+)_result(\d+)_g(-?\d+)(?:_R?\d+)?"
    r"\s+is the best choice"
)
_VALUE = re.compile(rf"The value of\s+(\S+)\s+is\s+({NUMBER})\s+in\s+{_KEY}")
# The most frequent line kind in one regex call (tag, [PROF], value): the scanner's hot path.
_PROF_VALUE = re.compile(rf"\[([^\[\]]+)\]\s*\[PROF\]\s*The value of\s+(\S+)\s+is\s+({NUMBER})\s+in\s+{_KEY}")
_OBJECTIVE = re.compile(rf"The objective value of the tiling data is\s+({NUMBER})\s+in\s+{_KEY}")
_RESULT_PERF = re.compile(
    rf"\[([^\[\]]+)\]\s*(?:\[PROF\]\s*)?The value of\s+graph(\d+)_result(\d+)\s+is\s+({NUMBER})"
)
_PERF_BODY = re.compile(
    rf"\[PERF\](?:\[{_KEY}\])?\s*([^\s\[]+)\[([^\]]*)\]:\s*(\S+)\s*=\s*(.*)$"
)
_PERF_TOTAL = re.compile(rf"(?:^|[\s)])=\s*({NUMBER})\s*$")
# A formula term `name=number`. `(\w+)=` searched from every position of a long word run fails at each
# one after a scan to the run's end (quadratic: 80k word characters took 38 s); perf_terms tries it where
# a run starts instead, which finds the same terms in linear time.
_PERF_ITEM = re.compile(rf"(\w+)=({NUMBER})")
# may_overflow: ASCII digits become "0", "E" becomes "e" and "-" becomes "+", so a plain substring test
# finds a run of 20 digits or an exponent of 3 digits (a regex over every digit of a formula cost 0.3 s
# on 35k lines; translate and `in` run in C at memory speed).
_OVERFLOW_MASK = bytes.maketrans(b"123456789E-", b"000000000e+")
_LONG_DIGITS = b"0" * 20
_PERF_ITEM_AT_RUN_START = re.compile(rf"(?<!\w)(\w+)=({NUMBER})")
_DFX_OUTER_BEGIN = re.compile(
    r"\[DFX\]Begin to gen model info for asc graph (\d+), schedule result (\d+), schedule group (-?\d+)"
    r"(?:.*graph name ([^\s,]+?)\.?\s*$)?"
)
_DFX_OUTER_END = re.compile(
    r"\[DFX\]End to gen model info for graph(\d+)_result(\d+)_g(-?\d+)(?:.*graph name ([^\s,]+?)\.?\s*$)?"
)
_DFX_INNER = re.compile(
    r"\[DFX\](Begin|End) to generate model info for graph (\S+) of tiling case id R?(\d+)"
)
CASE_LABEL = re.compile(_KEY)
# Terms kept per [PERF] formula: each is a row of the picture (one 12 MB line drew a 520 MB SVG).
MAX_PERF_TERMS = 100
# Digits an id (graph, result, group, case) may have: int() refuses 4300+, and no real id has 20.
MAX_ID_DIGITS = 19
_NOT_OPERATORS = frozenset({"PROF", "PERF", "DFX", "ATT"})

ProfRecord = TilingValue | Objective | TemplateSelection | BestResult | ResultPerf


_KEY_CACHE: dict[tuple[str | Any, ...], CaseKey] = {}


class UnreadableNumber(ValueError):
    """A number in a marked line that no record can hold: the scanner skips the line with a warning."""


class IdTooLong(UnreadableNumber):
    """A graph/result/group/case id in a line has more than MAX_ID_DIGITS digits."""

    def __init__(self, digits: int) -> None:
        super().__init__(f"an id of {digits} digits is too long (at most {MAX_ID_DIGITS})")
        self.digits = digits


class InfiniteCost(UnreadableNumber):
    """A [PERF] cost or term beyond float range (a 400-digit number is inf; inf/inf shares are NaN)."""

    def __init__(self) -> None:
        super().__init__("a [PERF] cost is too large for a number")


def _id(text: str) -> int:
    """int(text) of an id matched by the grammar; IdTooLong beyond MAX_ID_DIGITS digits."""
    if len(text.lstrip("-")) > MAX_ID_DIGITS:
        raise IdTooLong(len(text.lstrip("-")))
    return int(text)


def case_key(ids: tuple[str, str, str, str]) -> CaseKey:
    """The CaseKey of (graph, result, group, case) as written in a line (cached; IdTooLong if too long)."""
    return _key(ids)


def _key(groups: tuple[str | Any, ...]) -> CaseKey:
    # Each label repeats on many lines: caching the parsed key saves four int() calls per line.
    key = _KEY_CACHE.get(groups)
    if key is None:
        if len(_KEY_CACHE) > 100_000:
            _KEY_CACHE.clear()
        graph, result, group, case = groups
        key = _KEY_CACHE[groups] = CaseKey(_id(graph), _id(result), _id(group), _id(case))
    return key


def parse_prof_value(text: str, source: SourceRef) -> TilingValue | None:
    """Parse `[op] [PROF]The value of <name> is <num> in <label>` (the hot kind); None for anything else."""
    value = _PROF_VALUE.search(text)
    if value is None:
        return None
    groups = value.groups()  # one call instead of one group() call per field
    if groups[0] in _NOT_OPERATORS:
        return None
    return TilingValue(groups[0], _key(groups[3:]), groups[1], float(groups[2]), source)


def parse_prof(text: str, source: SourceRef, value_tried: bool = False) -> ProfRecord | None:
    """Parse one line holding a [PROF] record or a result-perf line; None when it is neither.

    `value_tried`: the caller already knows parse_prof_value finds nothing in the line (each pass over a
    long line costs time).
    """
    value = None if value_tried else parse_prof_value(text, source)
    if value is not None:
        return value
    match = _PROF.search(text)
    if match and match.group(1) not in _NOT_OPERATORS:
        record = _parse_prof_body(match.group(1), text, match.end(), source)
        if record is not None:
            return record
    return parse_result_perf(text, source)


def _parse_prof_body(op: str, text: str, start: int, source: SourceRef) -> ProfRecord | None:
    value = _VALUE.match(text, start)
    if value:
        key = _key(value.groups()[2:])
        return TilingValue(op, key, value.group(1), float(value.group(2)), source)
    objective = _OBJECTIVE.match(text, start)
    if objective:
        return Objective(op, _key(objective.groups()[1:]), float(objective.group(1)), source)
    template = _TEMPLATE.match(text, start)
    if template:
        case, graph, result, group = (_id(g) for g in template.groups())
        return TemplateSelection(op, CaseKey(graph, result, group, case), source)
    best = _BEST.match(text, start)
    if best:
        return BestResult(op, _id(best.group(1)), _id(best.group(2)), source)
    return None


def parse_result_perf(text: str, source: SourceRef) -> ResultPerf | None:
    """Parse `[op] [PROF]? The value of graph<G>_result<R> is <num>` (any prefixes)."""
    match = _RESULT_PERF.search(text)
    if not match or match.group(1) in _NOT_OPERATORS:
        return None
    return ResultPerf(match.group(1), _id(match.group(2)), _id(match.group(3)), float(match.group(4)),
                      source)


def parse_perf(text: str, source: SourceRef) -> PerfNode | None:
    """Parse one `[op] [PERF][graph…] Node[Type]: PIPE = formula = total` line."""
    return parse_perf_counted(text, source)[0]


def _perf_match(text: str) -> tuple[re.Match[str] | None, re.Match[str] | None]:
    """The [PERF] tag of an operator's line and the body after it (None, None when the line is neither)."""
    tag = _PERF.search(text)
    if not tag or tag.group(1) in _NOT_OPERATORS:
        return None, None
    return tag, _PERF_BODY.match(text, tag.end() - len("[PERF]"))


def parse_perf_counted(text: str, source: SourceRef) -> tuple[PerfNode | None, int]:
    """parse_perf, and how many terms beyond MAX_PERF_TERMS were left out of the node (but not its total)."""
    tag, body = _perf_match(text)
    if tag is None or body is None:
        return None, 0
    key = _key(body.groups()[:4]) if body.group(1) is not None else CaseKey(0, 0, 0, 0)
    node, node_type, pipe, rhs = body.groups()[4:]
    terms = perf_terms(rhs)
    values = [(name, float(number)) for name, number in islice(terms, MAX_PERF_TERMS)]
    dropped, dropped_sum = 0, 0.0
    for _, number in terms:  # a formula beyond the cap still counts whole in the node total
        dropped += 1
        dropped_sum += float(number)
    total_match = _PERF_TOTAL.search(rhs)
    # Without an explicit `= total` the node cost is the sum of its terms (the reference took
    # only the first term, which is wrong for `(a=1 + b=2)`).
    total = float(total_match.group(1)) if total_match else sum(v for _, v in values) + dropped_sum
    if not math.isfinite(total) or not all(math.isfinite(v) for _, v in values):
        raise InfiniteCost()  # perf-formula drew NaN bars (and stopped with a traceback) from such a line
    items = tuple(PerfItem(name, value, value / total if total > 0 else 0.0) for name, value in values)
    return PerfNode(tag.group(1), key, node, node_type, pipe, total, items, source), dropped


def scan_perf(text: str, source: SourceRef) -> tuple[PerfNode | PerfLine | None, int]:
    """What the scanner keeps of a [PERF] line: parse_perf_counted's answer, with the node deferred when it can be.

    Building the terms is most of the cost of a [PERF]-heavy log and `att summary` never shows them, so a
    line is kept as text (PerfLine; OperatorLog.perf_nodes parses it on first use) when the parse is
    certain to give a node without a warning: the line matches the grammar, its ids fit (IdTooLong is
    raised here, as before), it has at most MAX_PERF_TERMS `=` (each term holds one) and no number that
    could be infinite (may_overflow). Any other line is parsed now, so warnings and skips stay as they were.
    """
    tag, body = _perf_match(text)
    if tag is None or body is None:
        return None, 0
    if body.group(1) is not None:
        _key(body.groups()[:4])
    rhs = body.group(8)
    if rhs.count("=") > MAX_PERF_TERMS or may_overflow(rhs):
        return parse_perf_counted(text, source)
    return PerfLine(tag.group(1), text, source, parse_perf), 0


def may_overflow(rhs: str) -> bool:
    """False when no number in `rhs` can parse to an infinite float, nor a sum of a million of them.

    Without a run of 20 digits and an exponent of 3 digits, a number is below 1e19 * 1e99; a non-ASCII
    formula answers True, as the grammar and float() accept digits of other scripts. True is only "maybe".
    """
    if not rhs.isascii():
        return True
    masked = rhs.encode("ascii").translate(_OVERFLOW_MASK)
    return _LONG_DIGITS in masked or b"e000" in masked or b"e+000" in masked


def perf_terms(rhs: str) -> Iterator[tuple[str, str]]:
    """(name, number) of every `name=number` term, exactly what `_PERF_ITEM.finditer` finds, in linear time.

    A match that starts inside a run of word characters ends at the same `=` as one starting where the
    run starts, so when the run start fails every later start in the run fails too: after a failed try
    at `pos` only run starts are tried. (A term may begin right after the previous number, mid-run.)
    """
    pos, size = 0, len(rhs)
    while pos < size:
        match = _PERF_ITEM.match(rhs, pos) or _PERF_ITEM_AT_RUN_START.search(rhs, pos + 1)
        if match is None:
            return
        yield match.group(1), match.group(2)
        pos = match.end()


def parse_dfx(text: str, source: SourceRef) -> DfxMarker | None:
    """Parse a `[DFX]Begin/End … model info …` marker."""
    inner = _DFX_INNER.search(text)
    if inner:
        kind = "inner_begin" if inner.group(1) == "Begin" else "inner_end"
        return DfxMarker(kind, None, None, None, inner.group(2), _id(inner.group(3)), source)
    outer = _DFX_OUTER_BEGIN.search(text)
    kind = "outer_begin"
    if not outer:
        outer = _DFX_OUTER_END.search(text)
        kind = "outer_end"
    if not outer:
        return None
    graph, result, group = (_id(g) for g in outer.groups()[:3])
    return DfxMarker(kind, graph, result, group, outer.group(4), None, source)


def find_case_label(text: str) -> CaseKey | None:
    """The first `graph<G>_result<R>_g<P>_<R?C>` label in a line, if any."""
    match = CASE_LABEL.search(text)
    return _key(match.groups()) if match else None


def bracket_tags(text: str) -> list[str]:
    """Every `[tag]` in a line, in order."""
    return re.findall(r"\[([^\[\]]+)\]", text)
