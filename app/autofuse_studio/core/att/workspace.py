"""What the ATT workbench holds for one set of opened logs: paths, scans, perf model and summaries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.att.model import FileScan
from autofuse_studio.core.att.perf_model import PerfFormulaModel, build_all_cases_model, build_perf_model
from autofuse_studio.core.att.scanner import find_logs, scan_logs_by_bytes
from autofuse_studio.core.att.summary import Summary, build_summary
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress


@dataclass
class AttWorkspace:
    """Opened inputs, the log files found under them, one scan per file and the derived views."""

    inputs: list[Path]
    logs: list[Path]
    scans: list[FileScan]
    perf: PerfFormulaModel  # exactly what `att perf-formula` draws (perf_formula.svg)
    cases: PerfFormulaModel  # every case of the chosen result per operator (the canvas' operator view)
    summaries: dict[bool, Summary] = field(default_factory=dict)  # keyed by all_results

    def summary(self, all_results: bool) -> Summary:
        """The summary (best or all schedule results), built once and cached."""
        if all_results not in self.summaries:
            self.summaries[all_results] = build_summary(self.scans, all_results)
        return self.summaries[all_results]

    @property
    def title(self) -> str:
        """A short name for the opened inputs (window titles, default export names)."""
        if len(self.inputs) == 1:
            return self.inputs[0].name
        return f"{self.inputs[0].name} (+{len(self.inputs) - 1})"


def find_all_logs(inputs: Sequence[str | Path]) -> list[Path]:
    """Every log under the inputs (files as is, folders searched), duplicates removed, order kept."""
    seen: dict[Path, None] = {}
    for item in inputs:
        for path in find_logs(item):
            seen.setdefault(path.resolve(), None)
    if not seen:
        names = ", ".join(f"'{p}'" for p in inputs)
        raise InputError.of("att_no_logs_in", names=names)
    return list(seen)


def load_workspace(inputs: Sequence[str | Path], progress: Progress = no_progress,
                   cancel: CancelToken = NEVER_CANCELLED) -> AttWorkspace:
    """Find and scan the logs in one streaming pass each, then build the perf model and best summary."""
    logs = find_all_logs(inputs)
    with gc_paused():
        scan = scan_logs_by_bytes(logs, progress, cancel)
        cancel.check()
        source_dir = str(Path(inputs[0]).resolve()) if inputs else None
        workspace = AttWorkspace([Path(p) for p in inputs], logs, scan.files,
                                 build_perf_model(scan.files, source_dir=source_dir),
                                 build_all_cases_model(scan.files, source_dir=source_dir))
        workspace.summary(False)
        # The workspace lives for the session. Frozen before the GC resumes, no collection ever walks its
        # ~700k objects (0.1-0.3 s each, holding the GIL: a stalled window wherever it runs). It holds no
        # cycles, so a replaced workspace is still freed by reference counting.
        keep_long_lived()
    return workspace
