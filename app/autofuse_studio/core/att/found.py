"""What opened logs hold, counted, so an empty perf picture can say what was found instead."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autofuse_studio.core.att.model import FileScan


@dataclass(frozen=True)
class LogFindings:
    """Counts over the scanned files: lines, operators named by any ATT line, FINAL_TILING and [DFX] records."""

    files: int
    lines: int
    operators: list[str]
    final_records: int
    dfx_markers: int
    undecodable_lines: int

    @property
    def has_att_lines(self) -> bool:
        """True when anything ATT-related was found at all."""
        return bool(self.operators or self.final_records or self.dfx_markers)


def log_findings(scans: Sequence[FileScan]) -> LogFindings:
    """Count what the scans found (operators in first-seen order)."""
    operators: dict[str, None] = {}
    for scan in scans:
        operators.update(dict.fromkeys(scan.operators))
    return LogFindings(len(scans), sum(scan.line_count for scan in scans), list(operators),
                       sum(len(scan.final_records) for scan in scans), sum(len(scan.dfx_markers) for scan in scans),
                       sum(scan.decode_issue_count for scan in scans))
