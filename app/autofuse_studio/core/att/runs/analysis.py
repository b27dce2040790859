"""`analyze_run`: sides, discovery, one scan per log, comparison and evidence text; read-only on the run root."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.att.model import SourceRef
from autofuse_studio.core.att.runs.diff import STATUSES, OperatorDiff, compare_sides
from autofuse_studio.core.att.runs.discovery import list_side
from autofuse_studio.core.att.runs.operators import SideOperators, repeated_note, side_operators
from autofuse_studio.core.att.runs.rows import RowDiff, row_diffs
from autofuse_studio.core.att.runs.side_scan import ReadProgress, SideScan, scan_side
from autofuse_studio.core.att.runs.sides import ROLES, RunSides, resolve_sides
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress


@dataclass
class RunAnalysis:
    """Everything the reports, the archives and the Runs view show about one run root."""

    sides: RunSides
    scans: dict[str, SideScan]  # role -> what was read on that side
    operators: dict[str, SideOperators]  # role -> operators of that side
    diffs: list[OperatorDiff]
    rows: list[RowDiff]
    texts: dict[SourceRef, str] = field(default_factory=dict)  # evidence line -> its text
    notes: list[str] = field(default_factory=list)  # sentences about the whole analysis
    # relpath's answers: the reports ask for a few files' paths ten thousand times (0.1 s of Path work).
    _relpaths: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def name(self) -> str:
        """The run root's folder name (the default archive name)."""
        return self.sides.run_root.name or "run"

    def relpath(self, source: SourceRef) -> str:
        """A scanned file's path relative to the run root (posix)."""
        known = self._relpaths.get(source.path)
        if known is None:
            known = self._relpaths[source.path] = Path(source.path).relative_to(self.sides.run_root).as_posix()
        return known

    def counts(self) -> dict[str, int]:
        """Operators per status, in report order."""
        return {status: sum(1 for d in self.diffs if d.status == status) for status in STATUSES}

    def side_notes(self, role: str) -> list[str]:
        """Every sentence about one side: listing notes, unreadable files, bad lines, repeated operators."""
        scan = self.scans[role]
        notes = [*scan.listing.notes, *scan.failures, *scan.warnings]
        if scan.listing.note_count > len(scan.listing.notes):
            notes.append(f"{scan.listing.note_count - len(scan.listing.notes)} more note(s) like these.")
        repeated = repeated_note(scan.listing.side.label, self.operators[role].repeated)
        return [*notes, repeated] if repeated else notes


def _read_sides(sides: RunSides, progress: Progress, cancel: CancelToken) -> dict[str, SideScan]:
    listings = {role: list_side(sides.side(role), sides.run_root, cancel) for role in ROLES}
    total = sum(f.size for listing in listings.values() for f in listing.candidates)
    counter = ReadProgress(total, progress)
    scans = {role: scan_side(listings[role], counter, cancel) for role in ROLES}
    for role, scan in scans.items():
        if not scan.logs:
            looked = len(scan.listing.candidates)
            raise InputError.of("att_run_no_log", side=role, path=scan.listing.side.root, count=looked)
    return scans


def analyze_run(run_root: str | Path, default_root: str | Path | None = None,
                candidate_root: str | Path | None = None, progress: Progress = no_progress,
                cancel: CancelToken = NEVER_CANCELLED) -> RunAnalysis:
    """Compare the two runs of a run root; InputError (nothing written anywhere) when a side is missing."""
    from autofuse_studio.core.att.runs.evidence_text import fetch_lines

    sides = resolve_sides(run_root, default_root, candidate_root)
    # Records are acyclic and many: collections during the scan would only walk them again and again.
    with gc_paused():
        scans = _read_sides(sides, progress, cancel)
        operators = {role: side_operators(scans[role]) for role in ROLES}
        diffs = compare_sides(operators[ROLES[0]].operators, operators[ROLES[1]].operators)
        cancel.check()
        progress(0, 1, "Copying evidence lines")
        pins = {log.scan.path: log.scan.pin for scan in scans.values() for log in scan.logs}
        texts, problems = fetch_lines((ref.source for diff in diffs for ref in diff.evidence), cancel, pins)
        analysis = RunAnalysis(sides, scans, operators, diffs, row_diffs(diffs), texts, problems)
    progress(1, 1, "Analysis finished")
    return analysis
