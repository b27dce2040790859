"""Benchmark: `att summary` on a 140 MB log against a loop that only reads lines and tests markers."""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main as att_main
from tests.synth.att_log import SyntheticShape, write_synthetic_log

pytestmark = pytest.mark.bench

# 400 operators x 3 results x 3 groups x 4 cases; noise lines bring the log to ~140 MB.
SHAPE = SyntheticShape(operators=400, results=3, groups=3, cases=4, noise_per_case=45, noise_width=60)


def _baseline(path: Path) -> float:
    """A Python loop that merely reads every line and tests it for [PROF]/[PERF]."""
    start = time.perf_counter()
    hits = 0
    with path.open("rb") as handle:
        for line in handle:
            if b"[PROF]" in line or b"[PERF]" in line:
                hits += 1
    assert hits > 0
    return time.perf_counter() - start


def test_summary_speed_and_memory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "big.log"
    size = write_synthetic_log(log, SHAPE)
    baselines = [_baseline(log) for _ in range(2)]
    baseline = min(baselines)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    timings = []
    for _ in range(2):  # best of two, like the baseline: the machine is shared
        start = time.perf_counter()
        code = att_main(["summary", str(log), "-f", "csv", "-o", str(tmp_path / "out.csv")])
        timings.append(time.perf_counter() - start)
    ours = min(timings)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out.count("Total operators extracted: 1200") == 2  # 400 operators x 3 groups of the best result
    ratio = ours / baseline
    with capsys.disabled():
        print(f"\natt summary on {size / 1e6:.0f} MB: {ours:.2f} s; read-lines baseline {baseline:.2f} s; "
              f"ratio {ratio:.2f}x (target <= 3x); peak RSS {peak_mb:.0f} MB "
              f"(before the run {rss_before / 1024:.0f} MB; target < 300 MB); every run: "
              f"{' '.join(f'{t:.2f}' for t in timings)} s, baseline {' '.join(f'{t:.2f}' for t in baselines)} s",
              file=sys.stderr)
    assert ratio <= 3.0
    assert peak_mb < 300
