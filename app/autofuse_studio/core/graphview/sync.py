"""FusionIndex: fused op <-> original ops <-> precision rows, the look-ups that keep panes and table in step."""

from __future__ import annotations

from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.precision.rows import VERDICT_UNKNOWN, VERDICTS, PrecisionResult, PrecisionRow

__all__ = ["FusionIndex", "worst_verdict"]


def worst_verdict(rows: list[PrecisionRow]) -> str | None:
    """The most severe verdict among rows (CULPRIT > PROPAGATED > OK > UNKNOWN), None without rows."""
    if not rows:
        return None
    present = {row.verdict for row in rows}
    return next((verdict for verdict in VERDICTS if verdict in present), VERDICT_UNKNOWN)


class FusionIndex:
    """Which original ops each fused op replaced (names attribute + output mappings) and the reverse."""

    def __init__(self, mapping: FusionMapping | None, result: PrecisionResult | None = None) -> None:
        self._originals: dict[str, tuple[str, ...]] = {}
        self._fused_of: dict[str, list[str]] = {}
        for fused in mapping.fused_ops if mapping is not None else []:
            names = list(dict.fromkeys(
                [*fused.original_op_names, *(out.origin_op for out in fused.outputs if out.origin_op)]))
            self._originals[fused.op.name] = tuple(names)
            for name in names:
                self._fused_of.setdefault(name, []).append(fused.op.name)
        self._rows_by_fused: dict[str, list[PrecisionRow]] = {}
        self._rows_by_origin: dict[str, list[PrecisionRow]] = {}
        self.result = result
        for row in result.rows if result is not None else []:
            self._rows_by_fused.setdefault(row.fused_op, []).append(row)
            if row.origin_op:
                self._rows_by_origin.setdefault(row.origin_op, []).append(row)

    def groups(self) -> dict[str, tuple[str, ...]]:
        """Fused op -> the original ops it replaced (for the overlay's compound boxes)."""
        return dict(self._originals)

    def originals_of(self, fused_op: str) -> tuple[str, ...]:
        """Original op names a fused op replaced; a non-fused op stands for itself."""
        return self._originals.get(fused_op, (fused_op,))

    def fused_of(self, original_op: str) -> list[str]:
        """Fused ops that replaced `original_op` (itself when it survived fusion unchanged)."""
        return list(self._fused_of.get(original_op, [original_op]))

    def is_fused(self, name: str) -> bool:
        """True for a fused op of the af-open graph."""
        return name in self._originals

    def rows_of_fused(self, fused_op: str) -> list[PrecisionRow]:
        """Precision rows of one fused op (every step, outputs and inputs)."""
        return list(self._rows_by_fused.get(fused_op, ()))

    def rows_of_original(self, original_op: str) -> list[PrecisionRow]:
        """Rows comparing against `original_op`, plus the rows of every fused op that replaced it."""
        rows = list(self._rows_by_origin.get(original_op, ()))
        seen = {id(row) for row in rows}
        for fused in self._fused_of.get(original_op, ()):
            rows += [row for row in self._rows_by_fused.get(fused, ()) if id(row) not in seen]
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
        for fused, rows in self._rows_by_fused.items():
            if any(row.verdict in VERDICTS[:2] for row in rows):
                failing += [fused] if fused_side else list(self.originals_of(fused))
        return list(dict.fromkeys(failing))
