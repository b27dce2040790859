"""The summary and ranks facts worked out from the table's columns equal those of the passes over the rows."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.overview import Overview, build_overview
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, PrecisionResult
from autofuse_studio.core.reports.precision_files import _column_values, table_columns
from autofuse_studio.core.reports.table_facts import table_facts
from tests.synth.result_rows import synthetic_result


def _cells(overview: Overview) -> list[tuple[object, ...]]:
    """Every cell's facts, in the overview's rank and step order (min cosine with its sign)."""
    found: list[tuple[object, ...]] = []
    for rank in overview.ranks:
        for step in overview.steps:
            cell = overview.cell(rank, step)
            if cell is not None:
                cosine = cell.min_cosine
                found.append((rank, step, cell.rows, cell.verdicts, cell.first_divergence,
                              None if cosine is None else (cosine, math.copysign(1, cosine))))
    return found


def _with_cosines(result: PrecisionResult, cosines: list[float], one_cell: bool = False) -> PrecisionResult:
    """`result` whose first rows have these cosines (NaN, ±0 ties, ints), the rest without metrics; with
    `one_cell`, every row in one rank and step."""
    if one_cell:
        result = replace(result, rows=[replace(row, rank="0", step="0") for row in result.rows])
    rows = [replace(row, metrics=replace(row.metrics or Metrics(0.5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0), cosine=cosine))
            for row, cosine in zip(result.rows, cosines, strict=False)]
    return replace(result, rows=rows + [replace(row, metrics=None) for row in result.rows[len(rows):]])


CASES = [
    synthetic_result(3000),
    synthetic_result(2000, seed=3, hostile=True),
    replace(synthetic_result(500, seed=1), rows=[replace(row, rank=None) for row in synthetic_result(500).rows]),
    _with_cosines(synthetic_result(400, seed=2), [0.0, -0.0, math.nan, 1, -0.0, 0.0, math.nan] * 40),
    _with_cosines(synthetic_result(60, seed=4), [-0.0, 0.0] * 20),
    _with_cosines(synthetic_result(40, seed=5), [math.nan] * 40),
    _with_cosines(synthetic_result(30, seed=6), [0.5, math.nan, -0.0, 0.0, 0.0], one_cell=True),
    _with_cosines(synthetic_result(30, seed=7), [math.nan, 0.0, -0.0, 0.25], one_cell=True),
]


@pytest.mark.parametrize("result", CASES)
def test_table_facts_equal_the_row_passes(result: PrecisionResult) -> None:
    facts = table_facts(result, _column_values(result, table_columns(result)))
    assert list(facts.status_counts.items()) == list(result.counts("status").items())
    assert list(facts.verdict_counts.items()) == list(result.counts("verdict").items())
    assert facts.culprits == [row for row in result.rows if row.verdict == VERDICT_CULPRIT]
    expected = build_overview(result.rows)
    assert (facts.overview.ranks, facts.overview.steps) == (expected.ranks, expected.steps)
    assert _cells(facts.overview) == _cells(expected)
    assert list(facts.overview.cells) == list(expected.cells)  # the cells in the order the rows first reach them


def test_table_facts_without_the_columns_read_the_rows() -> None:
    result = synthetic_result(200)
    facts = table_facts(result, {})
    assert facts.verdict_counts == result.counts("verdict")
    assert _cells(facts.overview) == _cells(build_overview(result.rows))
