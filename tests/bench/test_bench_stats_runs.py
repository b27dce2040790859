"""Statistics-mode dumps vs their NPY twins: whole mode-1 runs on the same case, both formats, the same run.

A statistics-mode dump (`dump_data: stats`, all an LLM-scale job can afford) is one small CSV per op dump
instead of a tensor file per input and output: fewer files and almost no bytes, so a statistics run should
cost no more than the NPY run of the same model (GOAL). Before issue 29's statistics work a 3000-op run took
3.4x the NPY run (csv.reader and a regex per field, ~35 us a line, the file read through a 64 MB buffer, every
CSV opened by compare_pair with five GIL releases). The ratio is printed against GOAL and asserted against
GUARD, a regression bound. Best of ROUNDS runs each, alternated.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.run.spec import RunSpec
from tests.bench.twin_cases import best_alternated, twin_bench_case

pytestmark = pytest.mark.bench

SHAPES = {"many_small": (3000, 1000), "fewer_bigger": (600, 65536)}
ROUNDS = 3
GOAL = 1.0
GUARD = 2.0


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_statistics_runs_cost_what_npy_runs_cost(tmp_path: Path, shape: str) -> None:
    n_fused, elements = SHAPES[shape]
    case = twin_bench_case(tmp_path, n_fused, elements, "stats")
    graphs, npy, stats_folders = case.graphs, case.npy, case.twin
    csvs = sum(1 for folder in stats_folders for _ in folder.rglob("*.csv"))
    npys = sum(1 for folder in npy for _ in folder.rglob("*.npy"))
    results = {}

    def mode1(kind: str, folders: list[Path]) -> Callable[[], object]:
        def run() -> None:
            results[kind] = run_mode1(RunSpec(*graphs, *folders, jobs=2))
        return run

    whole = best_alternated({"npy": mode1("npy", npy), "stats": mode1("stats", stats_folders)}, ROUNDS)
    ratio = whole["stats"] / whole["npy"]
    print(f"\nstatistics vs NPY, {shape} ({n_fused} fused ops x {elements} elements; {csvs:,} CSVs, {npys:,} NPYs): "
          f"mode 1 {whole['stats']:.2f} s vs {whole['npy']:.2f} s = {ratio:.2f}x (goal {GOAL}x, guard {GUARD}x)")
    compared = [row for row in results["stats"].rows if row.stats is not None]
    assert len(compared) == len(results["npy"].rows)  # every row judged by its statistics
    assert [row.key for row in results["stats"].rows] == [row.key for row in results["npy"].rows]
    assert ratio <= GUARD
