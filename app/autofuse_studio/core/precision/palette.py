"""The one verdict palette: hex colours per verdict that the table, legend, overview, xlsx and graph pictures use."""

from __future__ import annotations

from dataclasses import dataclass

from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, VERDICT_OK, VERDICT_PROPAGATED, VERDICT_UNKNOWN

__all__ = ["PALETTE", "VERDICT_COLOURS", "VERDICT_FILLS", "VerdictColours", "background_hex"]


@dataclass(frozen=True)
class VerdictColours:
    """The two shades of one verdict.

    `background` (RRGGBB, as openpyxl takes it) is light, so black text on it stays readable: table cells,
    xlsx rows, legend swatches, the rank × step grid. `fill` (#rrggbb) is saturated: a graph node's colour
    is all it says, and it must stand out from the uncompared ops' near-white.
    """

    verdict: str
    background: str
    fill: str


PALETTE: tuple[VerdictColours, ...] = (
    VerdictColours(VERDICT_CULPRIT, "F8B4B4", "#e34a33"),
    VerdictColours(VERDICT_PROPAGATED, "FBD9A6", "#fdbb84"),
    VerdictColours(VERDICT_OK, "C8EBC8", "#a6d96a"),
    VerdictColours(VERDICT_UNKNOWN, "E0E0E0", "#cfcfcf"),
)
# Light backgrounds by verdict (RRGGBB): what the xlsx writer, the table model and the legend read.
VERDICT_COLOURS: dict[str, str] = {colours.verdict: colours.background for colours in PALETTE}
# Saturated node fills by verdict (#rrggbb): what the graph pictures read.
VERDICT_FILLS: dict[str, str] = {colours.verdict: colours.fill for colours in PALETTE}


def background_hex(verdict: str) -> str:
    """'#RRGGBB' background of a verdict (UNKNOWN's for a verdict the palette does not know)."""
    return f"#{VERDICT_COLOURS.get(verdict, VERDICT_COLOURS[VERDICT_UNKNOWN])}"
