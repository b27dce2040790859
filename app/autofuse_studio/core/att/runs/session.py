"""What the GUI's Runs view holds for one run root, and its Export and Archive: the CLI's own functions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.att.perf_model import PerfFormulaModel, PerfOperator, build_all_cases_model
from autofuse_studio.core.att.runs.analysis import RunAnalysis, analyze_run
from autofuse_studio.core.att.runs.archive import ArchiveResult, archive_run
from autofuse_studio.core.att.runs.outputs import check_report_dir, render_reports, write_reports
from autofuse_studio.core.att.runs.sides import ROLES
from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress


@dataclass
class RunSession:
    """An analysis plus each side's perf-formula model (every case of each operator's chosen result)."""

    analysis: RunAnalysis
    perf: dict[str, PerfFormulaModel]

    def perf_operator(self, role: str, name: str) -> PerfOperator | None:
        """The perf section of an operator on one side; None without [PERF] lines there."""
        return next((op for op in self.perf[role].operators if op.name == name), None)

    def command(self, verb: str = "analyze", *extra: str) -> list[str]:
        """The CLI command that gives the same files, recorded in reports and manifests."""
        sides = self.analysis.sides
        argv = ["autofuse-studio", "att", verb, "--run-root", str(sides.run_root)]
        if sides.how == "explicit":
            argv += ["--default-root", sides.default.label, "--candidate-root", sides.candidate.label]
        return [*argv, *extra]


def open_run(run_root: str | Path, default_root: str | Path | None = None,
             candidate_root: str | Path | None = None, *, progress: Progress = no_progress,
             cancel: CancelToken = NEVER_CANCELLED) -> RunSession:
    """Analyse a run root and build both sides' perf models (on a worker thread in the GUI)."""
    with gc_paused():
        analysis = analyze_run(run_root, default_root, candidate_root, progress, cancel)
        cancel.check()
        perf = {role: build_all_cases_model(analysis.scans[role].scans) for role in ROLES}
        session = RunSession(analysis, perf)
        # Kept for the GUI session: frozen before the GC resumes so no full collection walks the scans again
        # (the ATT workspace does the same, see workspace.load_workspace). No cycles: still freed when replaced.
        keep_long_lived()
    return session


def export_run(session: RunSession, report_dir: str | Path, lang: str, force: bool = False, *,
               progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> list[Path]:
    """Write the four report files as `att analyze --output REPORT_DIR` does."""
    check_report_dir(report_dir, session.analysis.sides.run_root, force)
    progress(0, 1, "Writing the report")
    command = session.command("analyze", "--output", str(report_dir), "--lang", lang)
    files = render_reports(session.analysis, lang, command)
    cancel.check()
    written = write_reports(files, report_dir)
    progress(1, 1, "Report written")
    return written


def archive_session(session: RunSession, archive_root: str | Path, lang: str, name: str | None = None, *,
                    progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> ArchiveResult:
    """Write both archives as `att analyze --archive ARCHIVE_ROOT` does (report files rendered afresh)."""
    extra = ["--archive", str(archive_root), "--lang", lang] + (["--name", name] if name else [])
    command = session.command("analyze", *extra)
    files = render_reports(session.analysis, lang, command)
    return archive_run(session.analysis, files, archive_root, name, command, progress, cancel)
