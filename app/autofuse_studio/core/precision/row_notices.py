"""Rows that carry a message (file not found, load failed, shape mismatch): one notice per status."""

from __future__ import annotations

from collections.abc import Iterable

from autofuse_studio.core.notices import Notice, clip, examples, plural
from autofuse_studio.core.precision.occurrences import location
from autofuse_studio.core.precision.pair import RANK_NOT_FOUND
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.sorting import natural_key


def _name(row: PrecisionRow) -> str:
    return f"{row.fused_op} {row.kind} {row.fused_index}"


def row_notices(rows: Iterable[PrecisionRow]) -> list[Notice]:
    """'37 rows are FILE_NOT_FOUND in 2 steps on rank 3: Fused-side NPY not found: a output 0; also b output 0, …'."""
    by_status: dict[str, list[PrecisionRow]] = {}
    for row in rows:
        # A rank dumped on one side only already has its own notice (dump_pairs), naming rank and side.
        if row.message and row.status != RANK_NOT_FOUND:
            by_status.setdefault(row.status, []).append(row)
    notices = []
    for status, group in by_status.items():
        items = [{"rank": row.rank, "step": row.step, "occurrence": row.occurrence, "kind": row.kind,
                  "fused_op": row.fused_op, "fused_index": row.fused_index, "status": row.status,
                  "message": row.message, "fused_file": row.fused_file, "origin_file": row.origin_file}
                 for row in group]
        verb = "is" if len(group) == 1 else "are"
        # The first row's own message, in the reference's wording (it names both sides), then a few others.
        message = f"{plural(len(group), 'row')} {verb} {status}{location(items)}: {clip(group[0].message, 110)}"
        others = [_name(row) for row in group[1:] if _name(row) != _name(group[0])]
        if others:
            message += f"; also {examples(others, 2)}"
        params = {"status": status, "tensors": [(row.fused_op, row.kind, row.fused_index) for row in group],
                  "steps": sorted({row.step for row in group if row.step}, key=natural_key),
                  "ranks": sorted({row.rank for row in group if row.rank is not None}, key=natural_key)}
        notices.append(Notice(f"row_{status.lower()}", message, len(group), items, params=params))
    return notices
