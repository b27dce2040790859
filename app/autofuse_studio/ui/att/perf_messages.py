"""The notes the perf canvas shows instead of a picture: what the logs hold when nothing can be drawn."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication

from autofuse_studio.core.att.found import log_findings
from autofuse_studio.core.att.model import FileScan

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("Context", "…") calls


def skipped_operator(name: str) -> str:
    """The note for an operator listed in grey (no [PERF] lines)."""
    text = translate("PerfMessages", "%1 has no [PERF] lines: there is nothing to draw for it.\n"
                                     "Choose an operator in black on the left.")
    return text.replace("%1", name)


def _found_line(files: int, lines: int) -> str:
    text = translate("PerfMessages", "No [PERF] lines in %1 file(s) (%2 lines read): there is no perf picture.")
    return text.replace("%1", str(files)).replace("%2", f"{lines:,}")


def nothing_to_draw(scans: Sequence[FileScan]) -> str:
    """Why the canvas is empty: no [PERF] line anywhere, and what the logs do hold."""
    found = log_findings(scans)
    lines = [_found_line(found.files, found.lines)]
    if found.has_att_lines:
        names = ", ".join(found.operators[:5]) + (", …" if len(found.operators) > 5 else "")
        text = translate("PerfMessages", "Found: %1 operator(s) with other ATT lines (%2), %3 FINAL_TILING "
                                         "record(s), %4 [DFX] marker(s); see the Summary and Split slog tabs.")
        for number, value in enumerate((len(found.operators), names or "-", found.final_records,
                                        found.dfx_markers), 1):
            text = text.replace(f"%{number}", str(value))
        lines.append(text)
    else:
        lines.append(translate("PerfMessages", "No ATT lines at all ([PERF], [PROF], [DFX], FINAL_TILING): is this "
                                               "the log of an Autofuse compile with ATT logging on?"))
    if found.undecodable_lines:
        text = translate("PerfMessages", "%1 line(s) were not valid UTF-8.")
        lines.append(text.replace("%1", f"{found.undecodable_lines:,}"))
    lines.append(what_to_do())
    return "\n".join(lines)


def what_to_do() -> str:
    """The last line of the note on an empty canvas: how to get a perf picture."""
    return translate("PerfMessages", "To see a perf picture, open the logs of a compile whose ATT output includes "
                                     "the [PERF] perf-formula lines (Open logs… or drop them here).")


def no_logs() -> str:
    """The note on the canvas before any log is opened."""
    return translate("PerfMessages", "No ATT logs open. Open logs… or Open folder… (or drop logs here) to draw "
                                     "their perf formulas.")
