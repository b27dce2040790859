"""nwa --scheduler on dumps as the NPU writes them: raw files and statistics CSVs, the local run's rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.cluster.address import parse_scheduler_address
from autofuse_studio.core.cluster.run import ClusterOptions, run_cluster
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.run.spec import RunSpec
from tests.cluster.local_cluster import LocalCluster
from tests.cluster.test_cluster_rows import assert_same
from tests.synth import CaseManifest
from tests.synth.raw_twin import twin_case


@pytest.mark.parametrize("kind", ["raw", "stats"])
def test_raw_and_statistics_dumps_on_the_cluster(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                                 tmp_path: Path, kind: str) -> None:
    root, manifest = case
    folders = twin_case(root, tmp_path / kind, kind, nano_every=3 if kind == "raw" else 0)
    request = RunSpec(root / manifest.graphs["af_open"], root / manifest.graphs["af_close"],
                           folders["af_open"], folders["af_close"], compare_input=True, jobs=2)
    local = run_mode1(request)
    run = run_cluster(request, ClusterOptions(parse_scheduler_address(cluster.address)))
    assert_same(run.result, local)
    assert run.result.first_divergence is not None and run.result.first_divergence.rank == "2"
    if kind == "stats":
        assert any(row.stats is not None for row in run.result.rows)
