"""ResultFacts: what the precision tab derives from a finished result's rows, worked out off the GUI thread.

Showing a 20k-row result took 65 ms of GUI-thread Python, half of it passes over every row: the texts
the filter searches, the status and verdict counts, the rank x step grid, whether the optional
columns have a value; the column-width fit (column_texts), the signature codes and the Trend tab's
look-up took 25-30 ms more. The analysis worker works them out with the result (finished_analysis); a
result that comes from elsewhere (a remote run, a session file) gets them on the GUI thread as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autofuse_studio.core.precision.overview import Overview, build_overview
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.ui.precision.column_texts import ColumnTexts, result_column_texts
from autofuse_studio.ui.precision.columns import OPTIONAL_COLUMNS
from autofuse_studio.ui.precision.filters import search_text, signature_codes
from autofuse_studio.ui.precision.trend_index import TrendIndex, index_rows


@dataclass(frozen=True)
class ResultFacts:
    """Per-result facts of the precision tab; every list and grid is of `result.rows` in their order."""

    result: PrecisionResult  # the facts are of this result's rows as they were then (verdicts included)
    overview: Overview
    status_counts: dict[str, int]
    verdict_counts: dict[str, int]
    optional_columns: dict[str, bool]  # column key -> some row has a value in it
    search_texts: list[str]  # the free-text filter's haystack of each row
    column_texts: ColumnTexts | None = None  # what the column-width fit measures (None: worked out when shown)
    signature_codes: frozenset[str] | None = None  # every code the signature filter offers (None: not worked out)
    trend_index: TrendIndex | None = None  # the tensor panel's Trend look-up (None: worked out when first shown)

    def of(self, result: PrecisionResult) -> bool:
        """True when these facts describe `result` (the same object, with the same number of rows)."""
        return self.result is result and len(self.search_texts) == len(result.rows)


def optional_columns(rows: Sequence[PrecisionRow]) -> dict[str, bool]:
    """For each optional column (rank, occurrence), whether some row has a value in it."""
    return {key: any(has_value(row) for row in rows) for key, has_value in OPTIONAL_COLUMNS.items()}


def result_facts(result: PrecisionResult) -> ResultFacts:
    """The facts of a result whose verdicts are assigned."""
    rows = result.rows
    return ResultFacts(result, build_overview(rows), result.counts("status"), result.counts("verdict"),
                       optional_columns(rows), [search_text(row) for row in rows],
                       result_column_texts(rows, result.first_divergence),
                       frozenset(code for row in rows for code in signature_codes(row.signature)), index_rows(rows))
