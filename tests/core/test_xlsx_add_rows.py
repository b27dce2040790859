"""A sheet's rows added in bulk (add_rows: the summary's thousands of culprit lines) are the bytes add_row writes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.reports import row_join
from autofuse_studio.core.reports.xlsx_stream import Sheet, _sheet_xml
from tests.core.test_row_join import HOSTILE_TEXTS

VALUES: list[Any] = [None, "", "plain", "=SUM(A1)", " edge ", "tab\tin", "x" * 40_000, "中文", 0, -7, 2**70, True,
                     1.5, 1e-7, math.nan, math.inf, np.float64(2.5), *HOSTILE_TEXTS]


def _xml(sheet: Sheet) -> bytes:
    return b"".join(chunk if isinstance(chunk, bytes) else chunk.encode("utf-8", "replace")
                    for chunk in _sheet_xml(sheet, False, []))


def _both(records: list[tuple[Any, ...]]) -> tuple[bytes, bytes]:
    one_by_one, bulk = Sheet("summary"), Sheet("summary")
    for record in records:
        one_by_one.add_row(record)
    bulk.add_rows(records)
    return _xml(one_by_one), _xml(bulk)


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("column", [
    VALUES,  # every kind at once: spelled cell by cell
    [value for value in VALUES if value.__class__ is str or value is None],  # texts and empties
    ["label"] * 5 + [None, ""],  # plain texts and empties: no cell at all would be wrong
    [1, None, 2.5, math.nan, -3, 1e300],  # numbers and empties
    [1, "2", None, "x"],  # folder numbers and names
])
def test_bulk_rows_are_the_rows_added_one_by_one(column: list[Any], native: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if not native:
        monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    records = [(f"label {at}", value) for at, value in enumerate(column)]
    one_by_one, bulk = _both(records)
    assert bulk == one_by_one
    assert bulk.count(b"<row ") == len(records)


def test_rows_of_other_lengths_or_after_rows_are_added_one_by_one() -> None:
    ragged = [("a", 1), ("b",), ("c", None, "=x")]
    one_by_one, bulk = _both(ragged)
    assert bulk == one_by_one
    sheet = Sheet("summary")
    sheet.add_row(["first", 1])
    sheet.add_rows([("second", None)])
    assert len(sheet.rows) == 2 and not sheet.columns
