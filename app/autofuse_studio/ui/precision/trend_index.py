"""The rows of a result grouped by comparison across ranks and steps (the Trend tab's look-up), without Qt.

Grouping a 20k-row result took the GUI thread 10-12 ms when its first row was shown; the analysis worker
does it with the result's other facts (result_facts) and the tensor panel takes the index from there.
"""

from __future__ import annotations

from collections.abc import Iterable

from autofuse_studio.core.precision.rows import PrecisionRow

TrendKey = tuple[int | None, str, str, int]
TrendIndex = dict[TrendKey, list[PrecisionRow]]


def trend_key(row: PrecisionRow) -> TrendKey:
    """What stays the same for one comparison across ranks and steps."""
    return row.occurrence, row.kind, row.fused_op, row.fused_index


def index_rows(rows: Iterable[PrecisionRow]) -> TrendIndex:
    """The rows of a result grouped by trend_key (one pass; selections then cost a dictionary look-up)."""
    groups: TrendIndex = {}
    for row in rows:
        groups.setdefault(trend_key(row), []).append(row)
    return groups
