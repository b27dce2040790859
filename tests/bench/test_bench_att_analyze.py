"""Benchmark: `att analyze` on a run root with two 140 MB logs against `att summary` on the same two logs."""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main as att_main
from tests.synth.att_log import SyntheticShape
from tests.synth.att_runs import CASE, GONE, RESULT, SLOWER, VALUES, RunLogSpec, write_run_root

pytestmark = pytest.mark.bench

# As test_bench_att.py: 400 operators x 3 results x 3 groups x 4 cases, noise up to ~140 MB per log.
SHAPE = SyntheticShape(operators=400, results=3, groups=3, cases=4, noise_per_case=45, noise_width=60)
# One operator in ten changed in the candidate run (a realistic PGO outcome), five kinds in turn.
CHANGES = {op: (CASE, RESULT, SLOWER, VALUES, GONE)[op // 10 % 5] for op in range(0, 400, 10)}


def _best(runs: int, work: object) -> tuple[float, list[float]]:
    timings = []
    for index in range(runs):
        start = time.perf_counter()
        assert callable(work)
        assert work(index) == 0
        timings.append(time.perf_counter() - start)
    return min(timings), timings


def test_analyze_speed_against_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ops = range(SHAPE.operators)
    root = write_run_root(tmp_path / "run-root", SHAPE, [RunLogSpec("logs/att.log", ops)],
                          [RunLogSpec("logs/att.log", ops, changes=CHANGES)], extras=False)
    sizes = [p.stat().st_size for p in root.rglob("*.log")]
    # `att summary` over the run root reads the very same two logs (it searches folders for *.log).
    summary, summary_runs = _best(2, lambda i: att_main(["summary", str(root), "-f", "csv",
                                                         "-o", str(tmp_path / f"summary{i}.csv")]))
    analyze, analyze_runs = _best(2, lambda i: att_main(["analyze", "--run-root", str(root),
                                                         "--output", str(tmp_path / f"report{i}")]))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    captured = capsys.readouterr()
    assert "Operators: 400 — 24 changed, 8 only in default, 0 only in candidate, 368 unchanged" in captured.out
    ratio = analyze / summary
    with capsys.disabled():
        print(f"\natt analyze on two logs of {' + '.join(f'{s / 1e6:.0f}' for s in sizes)} MB: {analyze:.2f} s; "
              f"att summary on both {summary:.2f} s; ratio {ratio:.2f}x (target <= 2.5x); peak RSS {peak_mb:.0f} MB; "
              f"every run: analyze {' '.join(f'{t:.2f}' for t in analyze_runs)} s, "
              f"summary {' '.join(f'{t:.2f}' for t in summary_runs)} s", file=sys.stderr)
    assert ratio <= 2.5
