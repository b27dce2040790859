"""Cluster benchmark: the 8-rank case (8 x 300 fused ops x 65k fp16) on a local 2-worker Dask cluster vs locally.

One machine, so the cluster can only add cost: the scheduler and two single-thread worker processes share
the two cores with the client, every pair's sides are pickled there and its metrics back. Both runs parse,
index (the cluster's on the workers, one dump folder per worker, merged on the client), plan and compare
everything; best of ROUNDS runs each, alternated. Target: cluster <= 1.3x the local run (2 jobs). Also
printed: the bytes the compare tasks send back per row, and when the best cluster run had both indexes and
submitted its first comparison. The rows must be the local run's.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from autofuse_studio.core.cluster.address import parse_scheduler_address
from autofuse_studio.core.cluster.run import ClusterOptions, ClusterRun, run_cluster
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.run.spec import RunSpec
from tests.cluster.local_cluster import LocalCluster, require_dask
from tests.synth import generate_case
from tests.synth.spec import multi_rank_spec

pytestmark = pytest.mark.bench

RANKS, FUSED, ELEMENTS = 8, 300, 65_536
ROUNDS = 5


def test_eight_ranks_on_a_local_cluster(tmp_path: Path) -> None:
    require_dask()
    spec = multi_rank_spec(ranks=RANKS, culprit_rank=5, n_fused=FUSED, elements=ELEMENTS, steps=1,
                           chains=FUSED // 6, culprit=FUSED - 3 * (FUSED // 6))
    manifest = generate_case(tmp_path / "case", spec)
    root = tmp_path / "case"
    request = RunSpec(root / manifest.graphs["af_open"], root / manifest.graphs["af_close"],
                           root / manifest.data["af_open"], root / manifest.data["af_close"], jobs=2)
    cluster = LocalCluster(tmp_path / "dask")
    cluster.folder.mkdir()
    try:
        cluster.start_scheduler()
        for name in ("nodeA", "nodeB"):
            cluster.start_worker(name)
        cluster.wait_for_workers(2)
        options = ClusterOptions(parse_scheduler_address(cluster.address))
        local_times, cluster_times = [], []
        local: PrecisionResult | None = None
        runs: list[ClusterRun] = []
        for _ in range(ROUNDS):
            start = time.perf_counter()
            local = run_mode1(request)
            local_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            runs.append(run_cluster(request, options))
            cluster_times.append(time.perf_counter() - start)
    finally:
        cluster.stop()
    assert local is not None and runs
    expected = [repr(row) for row in local.rows]
    for number, run in enumerate(runs):
        differing = [(mine, theirs) for mine, theirs in zip((repr(row) for row in run.result.rows), expected,
                                                            strict=True) if mine != theirs]
        assert not differing, (f"cluster run {number}: {len(differing)} rows differ from the local run's "
                               f"(notes {run.stats.notes}); first: {differing[0]}")
    stats = runs[cluster_times.index(min(cluster_times))].stats
    ratio = min(cluster_times) / min(local_times)
    print(f"\ncluster: {RANKS} ranks, {len(local.rows)} rows, {stats.tasks} tasks on {stats.workers} local workers; "
          f"local (2 jobs) {min(local_times):.2f} s, cluster {min(cluster_times):.2f} s (runs: local "
          f"{', '.join(f'{t:.2f}' for t in local_times)}; cluster {', '.join(f'{t:.2f}' for t in cluster_times)}); "
          f"overhead ratio {ratio:.2f} (target <= 1.3); results sent back {stats.result_bytes / 1024:.0f} KiB, "
          f"{stats.bytes_per_pair:.0f} bytes per row; best cluster run: indexes at {stats.indexed_s:.2f} s, first "
          f"comparison submitted at {stats.first_task_s:.2f} s")
