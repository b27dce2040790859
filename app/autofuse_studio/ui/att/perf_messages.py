"""The notes the perf canvas shows instead of a picture: what the logs hold when nothing can be drawn."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication

from autofuse_studio.core.att.found import log_findings
from autofuse_studio.core.att.model import FileScan


def _tr(text: str) -> str:
    return QCoreApplication.translate("PerfMessages", text)


def skipped_operator(name: str) -> str:
    """The note for an operator listed in grey (no [PERF] lines)."""
    return _tr("%1 has no [PERF] lines: there is nothing to draw for it.\nChoose an operator in black on the "
               "left.").replace("%1", name)


def nothing_to_draw(scans: Sequence[FileScan]) -> str:
    """Why the canvas is empty: no [PERF] line anywhere, and what the logs do hold."""
    found = log_findings(scans)
    lines = [_tr("No [PERF] lines in %1 file(s) (%2 lines read): there is no perf picture.").replace(
        "%1", str(found.files)).replace("%2", f"{found.lines:,}")]
    if found.has_att_lines:
        names = ", ".join(found.operators[:5]) + (", …" if len(found.operators) > 5 else "")
        lines.append(_tr("Found: %1 operator(s) with other ATT lines (%2), %3 FINAL_TILING record(s), "
                         "%4 [DFX] marker(s); see the Summary and Split slog tabs.").replace(
            "%1", str(len(found.operators))).replace("%2", names or "-").replace(
            "%3", str(found.final_records)).replace("%4", str(found.dfx_markers)))
    else:
        lines.append(_tr("No ATT lines at all ([PERF], [PROF], [DFX], FINAL_TILING): is this the log of an "
                         "Autofuse compile with ATT logging on?"))
    if found.undecodable_lines:
        lines.append(_tr("%1 line(s) were not valid UTF-8.").replace("%1", f"{found.undecodable_lines:,}"))
    return "\n".join(lines)
