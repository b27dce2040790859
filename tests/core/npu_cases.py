"""npu_run_folder(): a run folder as it comes off the NPU (graphs + raw dump files, or statistics CSVs)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.synth import full_coverage_spec, generate_case
from tests.synth.raw_twin import twin_case

SIDES = ("af_open", "af_close")


def npu_run_folder(work: Path, kind: str) -> Path:
    """`work`/run: af_open/ and af_close/, each with its graph and a `kind` ('raw' or 'stats') dump tree.

    The dumps are the raw or statistics twin of the full-coverage case's NPYs (`work`/npy, kept for reference).
    """
    npy = work / "npy"
    manifest = generate_case(npy, full_coverage_spec())
    run = work / "run"
    twins = twin_case(npy, run / "dumps", kind)
    for side in SIDES:
        graph = npy / manifest.graphs[side]
        (run / side).mkdir(parents=True)
        shutil.copy(graph, run / side / graph.name)
        twins[side].rename(run / side / "dump")
    (run / "dumps").rmdir()
    return run
