"""The printed summary counts rows in correct English: "1 row", "2 rows"."""

from __future__ import annotations

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.table import format_summary
from autofuse_studio.core.precision.thresholds import Thresholds


def test_one_row_is_singular() -> None:
    row = PrecisionRow("output", "a", 0, "b", 0, "OK")
    assert format_summary(PrecisionResult([row], Thresholds())).splitlines()[0] == "Summary: 1 row"
    assert format_summary(PrecisionResult([row, row], Thresholds())).splitlines()[0] == "Summary: 2 rows"
    assert format_summary(PrecisionResult([], Thresholds())).splitlines()[0] == "Summary: 0 rows"
