"""Mode 1 benchmark: 300 fused ops x 260k fp16 (~850 MB of NPY), ours vs a naive float64 loop.

The baseline already knows every file path (taken from our own plan before timing) and computes the
reference's three metrics pair by pair in float64. Ours includes parsing both graphs and indexing both
dump folders. Target: ours <= 0.25x the baseline's wall time (issue 29, target 5; was 0.5x).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.run.spec import RunSpec
from tests.bench.naive import best_of_runs, known_pairs
from tests.synth import bench_spec, generate_case

pytestmark = pytest.mark.bench


def test_mode1_300_fused_ops(tmp_path: Path) -> None:
    manifest = generate_case(tmp_path, bench_spec())
    request = RunSpec(tmp_path / manifest.graphs["af_open"], tmp_path / manifest.graphs["af_close"],
                           tmp_path / manifest.data["af_open"], tmp_path / manifest.data["af_close"], jobs=2)
    pairs = known_pairs(request)
    total_bytes = sum(path.stat().st_size for pair in pairs for path in pair)
    dump_bytes = sum(path.stat().st_size for side in ("af_open", "af_close")
                     for path in (tmp_path / manifest.data[side]).rglob("*.npy"))
    naive_time, our_time, result = best_of_runs(pairs, request)
    ratio = our_time / naive_time
    print(f"\nmode 1: {len(pairs)} pairs ({total_bytes / 2**20:.0f} MB) in {dump_bytes / 2**20:.0f} MB of dump NPYs; "
          f"naive float64 loop {naive_time:.2f} s, ours (parse + index + compare, 2 jobs) {our_time:.2f} s; "
          f"ratio {ratio:.3f} (target <= 0.25)")
    culprits = [row for row in result.rows if row.verdict == "CULPRIT"]
    assert len(culprits) == 1
    assert ratio <= 0.25, f"mode 1 ratio {ratio:.3f} > 0.25"
