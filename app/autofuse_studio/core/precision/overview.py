"""The rank × step overview of a result: per cell the row counts, worst verdict, min cosine, first divergence."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from autofuse_studio.core.precision.rows import (
    VERDICT_CULPRIT,
    VERDICT_OK,
    VERDICT_PROPAGATED,
    VERDICT_UNKNOWN,
    VERDICTS,
    PrecisionResult,
    PrecisionRow,
)
from autofuse_studio.core.sorting import natural_key

CellKey = tuple[str | None, str]  # (rank, step)


@dataclass
class OverviewCell:
    """One (rank, step) of a result."""

    rank: str | None
    step: str
    rows: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    min_cosine: float | None = None
    first_divergence: PrecisionRow | None = None

    @property
    def culprits(self) -> int:
        """CULPRIT rows in the cell."""
        return self.verdicts[VERDICT_CULPRIT]

    @property
    def worst_verdict(self) -> str:
        """CULPRIT > PROPAGATED > OK > UNKNOWN (UNKNOWN also for an empty cell)."""
        return next((verdict for verdict in (VERDICT_CULPRIT, VERDICT_PROPAGATED, VERDICT_OK)
                     if self.verdicts[verdict]), VERDICT_UNKNOWN)


def divergence_order(row: PrecisionRow) -> tuple[int, bool, int, int]:
    """Where a row stands within its (rank, step) cell: the earliest is the cell's first divergence."""
    return row.order, row.kind == "output", row.fused_index, row.occurrence or 0


@dataclass
class Overview:
    """Every (rank, step) cell of a result, with the ranks and steps in natural order."""

    ranks: list[str | None]
    steps: list[str]
    cells: dict[CellKey, OverviewCell]

    @property
    def trivial(self) -> bool:
        """One rank and one step: nothing an overview would add to the table."""
        return len(self.ranks) <= 1 and len(self.steps) <= 1

    def cell(self, rank: str | None, step: str) -> OverviewCell | None:
        """The cell of (rank, step), None when that rank has no such step."""
        return self.cells.get((rank, step))


def build_overview(rows: Iterable[PrecisionRow]) -> Overview:
    """Group the rows by (rank, step); verdicts must already be assigned.

    One plain loop with no call per row: a threshold edit rebuilds this for 100k rows.
    """
    cells: dict[CellKey, OverviewCell] = {}
    for row in rows:
        key = (row.rank, row.step)
        cell = cells.get(key)
        if cell is None:
            cell = cells[key] = OverviewCell(row.rank, row.step)
        cell.rows += 1
        verdict = row.verdict
        cell.verdicts[verdict] = cell.verdicts.get(verdict, 0) + 1
        metrics = row.metrics
        if metrics is not None:
            cosine = metrics.cosine
            if cosine == cosine and (cell.min_cosine is None or cosine < cell.min_cosine):  # NaN != NaN
                cell.min_cosine = float(cosine)
        if verdict == VERDICT_CULPRIT and (cell.first_divergence is None
                                           or divergence_order(row) < divergence_order(cell.first_divergence)):
            cell.first_divergence = row
    ranks = sorted({rank for rank, _ in cells}, key=natural_key)
    steps = sorted({step for _, step in cells}, key=natural_key)
    return Overview(ranks, steps, cells)


def rows_at(rows: Iterable[PrecisionRow], rank: str | None, step: str | None) -> list[PrecisionRow]:
    """The rows of one rank and step (step None: every step of the rank)."""
    return [row for row in rows if row.rank == rank and (step is None or row.step == step)]


def focus_result(result: PrecisionResult, rank: str | None, step: str | None) -> PrecisionResult:
    """The result seen from one (rank, step): its rows and its own first divergence (graph colours)."""
    if step is None:
        return result
    rows = rows_at(result.rows, rank, step)
    if len(rows) == len(result.rows):
        return result
    cell = build_overview(rows).cell(rank, step)
    return replace(result, rows=rows, first_divergence=None if cell is None else cell.first_divergence)
