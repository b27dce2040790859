"""FusionIndex: fused op <-> original ops <-> precision rows, the look-ups that keep panes and table in step."""

from __future__ import annotations

import threading

from autofuse_studio.core.ge.fusion import FusedOp, FusionMapping
from autofuse_studio.core.precision.rows import VERDICT_UNKNOWN, VERDICTS, PrecisionResult, PrecisionRow

__all__ = ["FusionIndex", "worst_verdict"]


def worst_verdict(rows: list[PrecisionRow]) -> str | None:
    """The most severe verdict among rows (CULPRIT > PROPAGATED > OK > UNKNOWN), None without rows."""
    if not rows:
        return None
    present = {row.verdict for row in rows}
    return next((verdict for verdict in VERDICTS if verdict in present), VERDICT_UNKNOWN)


def _replaced(fused: FusedOp) -> tuple[str, ...]:
    """The original ops one fused op replaced: its names attribute, then its outputs' origins."""
    origins = [out.origin_op for out in fused.outputs if out.origin_op]
    return tuple(dict.fromkeys([*fused.original_op_names, *origins]))


class _Links:
    """Fused op <-> original op links of one mapping, each side worked out on first use (once per mapping).

    At 20k fused ops the whole of it costs ~80 ms of Python: on the GUI thread that is a stall, so only a
    name look-up is built eagerly and the rest comes when asked, or ahead of time from a worker (warm()).
    """

    def __init__(self, mapping: FusionMapping | None) -> None:
        self.mapping = mapping
        fused_ops = mapping.fused_ops if mapping is not None else []
        self.fused = {fused.op.name: fused for fused in fused_ops}  # the last of a name wins, as it always did
        self._originals: dict[str, tuple[str, ...]] = {}
        self._fused_of: dict[str, list[str]] | None = None
        self._lock = threading.Lock()  # a worker may warm the links while the GUI thread reads them

    def originals(self, name: str) -> tuple[str, ...] | None:
        """The original ops fused op `name` replaced (names attribute, then output origins), None if not fused."""
        found = self._originals.get(name)
        if found is None:
            fused = self.fused.get(name)
            if fused is None:
                return None
            found = self._originals[name] = _replaced(fused)
        return found

    def fused_of(self) -> dict[str, list[str]]:
        """Original op -> the fused ops that replaced it, in execution order."""
        if self._fused_of is None:
            with self._lock:
                if self._fused_of is None:
                    reverse: dict[str, list[str]] = {}
                    for fused in self.mapping.fused_ops if self.mapping is not None else []:
                        for name in _replaced(fused):
                            reverse.setdefault(name, []).append(fused.op.name)
                    self._fused_of = reverse
        return self._fused_of


class FusionIndex:
    """Which original ops each fused op replaced (names attribute + output mappings) and the reverse.

    `reuse`: an earlier index whose fused <-> original links (same mapping) and row groups (same result) are kept.
    """

    def __init__(self, mapping: FusionMapping | None, result: PrecisionResult | None = None,
                 reuse: FusionIndex | None = None) -> None:
        self._links: _Links = (reuse._links if reuse is not None and reuse._links.mapping is mapping
                               else _Links(mapping))
        self.result = result
        self._by_row: tuple[dict[str, list[PrecisionRow]], dict[str, list[PrecisionRow]]] | None = None
        self._row_count: int = len(result.rows) if result is not None else 0
        if reuse is not None and result is not None and reuse.result is result and reuse._row_count == len(result.rows):
            self._by_row = reuse._by_row  # the same rows (verdicts may change in place, their ops do not)
        self._lock = threading.Lock()

    def _rows(self) -> tuple[dict[str, list[PrecisionRow]], dict[str, list[PrecisionRow]]]:
        """Rows by fused op and by original op, grouped on first use (20k rows: tens of ms)."""
        if self._by_row is None:
            with self._lock:
                if self._by_row is None:
                    by_fused: dict[str, list[PrecisionRow]] = {}
                    by_origin: dict[str, list[PrecisionRow]] = {}
                    for row in self.result.rows if self.result is not None else []:
                        by_fused.setdefault(row.fused_op, []).append(row)
                        if row.origin_op:
                            by_origin.setdefault(row.origin_op, []).append(row)
                    self._by_row = by_fused, by_origin
        return self._by_row

    def warm(self) -> None:
        """Work out every look-up now (from a worker), so none of them stalls the GUI thread later."""
        self._links.fused_of()
        self._rows()

    def groups(self) -> dict[str, tuple[str, ...]]:
        """Fused op -> the original ops it replaced (for the overlay's compound boxes)."""
        return {name: self._links.originals(name) or () for name in self._links.fused}

    def originals_of(self, fused_op: str) -> tuple[str, ...]:
        """Original op names a fused op replaced; a non-fused op stands for itself."""
        found = self._links.originals(fused_op)
        return (fused_op,) if found is None else found

    def fused_of(self, original_op: str) -> list[str]:
        """Fused ops that replaced `original_op` (itself when it survived fusion unchanged)."""
        return list(self._links.fused_of().get(original_op, [original_op]))

    def is_fused(self, name: str) -> bool:
        """True for a fused op of the af-open graph."""
        return name in self._links.fused

    def rows_of_fused(self, fused_op: str) -> list[PrecisionRow]:
        """Precision rows of one fused op (every step, outputs and inputs)."""
        return list(self._rows()[0].get(fused_op, ()))

    def may_have_rows(self, op: str, fused_side: bool) -> bool:
        """False when `op` certainly has no rows on that side (a quick test before rows_of_ops)."""
        by_fused, by_origin = self._rows()
        if fused_side:
            return op in by_fused
        return op in by_origin or op in by_fused or op in self._links.fused_of()

    def rows_of_original(self, original_op: str) -> list[PrecisionRow]:
        """Rows comparing against `original_op`, plus the rows of every fused op that replaced it."""
        by_fused, by_origin = self._rows()
        rows = list(by_origin.get(original_op, ()))
        seen = {id(row) for row in rows}
        for fused in self._links.fused_of().get(original_op, ()):
            rows += [row for row in by_fused.get(fused, ()) if id(row) not in seen]
        return rows

    def rows_of_ops(self, ops: tuple[str, ...] | list[str], fused_side: bool) -> list[PrecisionRow]:
        """Rows for every op a node stands for, on the af-open (fused) or af-close side."""
        rows: list[PrecisionRow] = []
        seen: set[int] = set()
        for op in ops:
            for row in self.rows_of_fused(op) if fused_side else self.rows_of_original(op):
                if id(row) not in seen:
                    seen.add(id(row))
                    rows.append(row)
        return rows

    def failing_ops(self, fused_side: bool) -> list[str]:
        """Ops with a CULPRIT or PROPAGATED row (fused names, or the original ops they replaced)."""
        failing: list[str] = []
        for fused, rows in self._rows()[0].items():
            if any(row.verdict in VERDICTS[:2] for row in rows):
                failing += [fused] if fused_side else list(self.originals_of(fused))
        return list(dict.fromkeys(failing))
