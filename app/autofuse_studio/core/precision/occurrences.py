"""Repeated dumps of one op in one step: what the plan paired (k-th with k-th) or chose (the newest), as notices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from autofuse_studio.core.notices import Notice, examples, plural
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.sorting import natural_key


@dataclass
class OccurrenceLog:
    """Every mapping whose tensors were dumped several times, and what was done about it."""

    paired_items: list[dict[str, Any]] = field(default_factory=list)
    newest_items: list[dict[str, Any]] = field(default_factory=list)

    def paired(self, row: PrecisionRow, count: int) -> None:
        """Both sides dumped the tensors `count` times: occurrences are paired in timestamp order."""
        self.paired_items.append({**_where(row), "occurrences": count})

    def newest(self, row: PrecisionRow, fused_count: int, origin_count: int) -> None:
        """The two sides dumped the tensors a different number of times: the newest dumps are compared."""
        self.newest_items.append({**_where(row), "af_open_dumps": fused_count, "af_close_dumps": origin_count})

    def notices(self) -> list[Notice]:
        """At most one notice per kind, each with a count of operators and a few examples."""
        notices = []
        if self.newest_items:
            notices.append(_notice(
                "dumped_several_times", self.newest_items,
                "{ops} dumped several times{where}, not as often on both sides: the newest dump of each is "
                "compared; e.g. {names}."))
        if self.paired_items:
            notices.append(_notice(
                "occurrences_paired", self.paired_items,
                "{ops} dumped as many times on both sides{where} (loops or re-executed kernels): the k-th dump "
                "is compared with the k-th in timestamp order (column occurrence); e.g. {names}."))
        return notices


def _where(row: PrecisionRow) -> dict[str, Any]:
    return {"rank": row.rank, "step": row.step, "kind": row.kind, "fused_op": row.fused_op,
            "fused_index": row.fused_index, "origin_op": row.origin_op, "origin_index": row.origin_index}


def location(items: list[dict[str, Any]]) -> str:
    """' in step 0 on rank 3', or ' in 2 steps on 8 ranks'."""
    steps = sorted({item["step"] for item in items if item["step"]}, key=natural_key)
    ranks = sorted({item["rank"] for item in items if item["rank"] is not None}, key=natural_key)
    text = ""
    if steps:
        text += f" in step {steps[0]}" if len(steps) == 1 else f" in {plural(len(steps), 'step')}"
    if ranks:
        text += f" on rank {ranks[0]}" if len(ranks) == 1 else f" on {plural(len(ranks), 'rank')}"
    return text


def _notice(kind: str, items: list[dict[str, Any]], template: str) -> Notice:
    ops = list(dict.fromkeys(item["fused_op"] for item in items))
    subject = f"{plural(len(ops), 'operator')} {'was' if len(ops) == 1 else 'were'}"
    message = template.format(ops=subject, where=location(items), names=examples(ops))
    params = {"names": ops, "steps": sorted({item["step"] for item in items if item["step"]}, key=natural_key),
              "ranks": sorted({item["rank"] for item in items if item["rank"] is not None}, key=natural_key)}
    return Notice(kind, message, len(ops), items, params=params)
