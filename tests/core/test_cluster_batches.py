"""Which workers a batch may run on: those that see both files, preferring the rank's declared resource."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from autofuse_studio.core.cluster.scan import MergedSide
from autofuse_studio.core.cluster.submit import MAX_BATCH, NO_WORKER, plan_batches
from autofuse_studio.core.cluster.workers import LiveWorker, preferred
from autofuse_studio.core.precision.pair import FILE_NOT_FOUND, PairSide
from autofuse_studio.core.precision.plan import PlannedRow
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow

A, B = "tcp://10.0.0.1:1", "tcp://10.0.0.2:1"
WORKERS = {A: LiveWorker(A, "nodeA", frozenset()), B: LiveWorker(B, "nodeB", frozenset({"rank1"}))}


def _row(rank: str, number: int, open_folder: str | None, close_folder: str = "/c") -> PlannedRow:
    row = PrecisionRow(OUTPUT, f"op{number}", 0, f"origin{number}", 0, "", rank=rank, step="0")
    fused = PairSide(Path(f"{open_folder}/f{number}.npy") if open_folder else None, None, f"op{number} output 0")
    origin = PairSide(Path(f"{close_folder}/o{number}.npy"), None, f"origin{number} output 0")
    return PlannedRow(row, fused, origin, 1000)


def test_preferred_workers() -> None:
    both = frozenset({A, B})
    assert preferred(both, "1", WORKERS) == frozenset({B})  # nodeB declares rank1
    assert preferred(both, "0", WORKERS) == both  # nobody declares rank0: every worker that sees it
    assert preferred(frozenset({A}), "1", WORKERS) == frozenset({A})  # the resource never beats visibility


def test_batches_go_where_both_files_are() -> None:
    open_side = MergedSide(cast(Any, None), {"/o0": frozenset({A, B}), "/o1": frozenset({A, B}), "/o2": frozenset({A})})
    close_side = MergedSide(cast(Any, None), {"/c": frozenset({A, B}), "/c2": frozenset({B})})
    planned = [_row("0", 0, "/o0"), _row("1", 1, "/o1"), _row("2", 2, "/o2", "/c2"), _row("0", 3, None)]
    batches, known = plan_batches(planned, [open_side, close_side], WORKERS)
    assert {(batch.rank, batch.workers) for batch in batches} == {("0", frozenset({A, B})), ("1", frozenset({B}))}
    assert known[2].status == NO_WORKER
    assert "af-open seen by nodeA, af-close by nodeB" in known[2].message
    assert known[3].status == FILE_NOT_FOUND  # nothing to read: settled on the client
    assert sorted(number for batch in batches for rows in batch.rows for number in rows) == [0, 1]


def test_a_rank_is_cut_into_even_batches_of_at_most_max_batch() -> None:
    side = MergedSide(cast(Any, None), {"/o": frozenset({A, B}), "/c": frozenset({A, B})})
    count = 2 * MAX_BATCH + 10
    planned = [_row("0", number, "/o") for number in range(count)]
    batches, known = plan_batches(planned, [side, side], WORKERS, expected_pairs=100 * count)
    assert not known
    assert [len(batch.pairs) for batch in batches] == [count // 3] * 3  # not two full ones and a tail of 10
    assert [number for batch in batches for rows in batch.rows for number in rows] == list(range(count))
