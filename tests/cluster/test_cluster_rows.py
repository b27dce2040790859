"""nwa on a real local Dask cluster: the same rows, verdicts, first divergence and files as the local run."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.cluster.address import parse_scheduler_address
from autofuse_studio.core.cluster.pathmap import PathMap, PathMapEntry
from autofuse_studio.core.cluster.run import ClusterOptions, run_cluster
from autofuse_studio.core.cluster.safe_client import refusals
from autofuse_studio.core.cluster.submit import NO_WORKER
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.run.spec import RunSpec
from tests.cluster.conftest import node_view
from tests.cluster.local_cluster import LocalCluster
from tests.synth import CaseManifest


def request_for(root: Path, manifest: CaseManifest, compare_input: bool = True) -> RunSpec:
    return RunSpec(root / manifest.graphs["af_open"], root / manifest.graphs["af_close"],
                        root / manifest.data["af_open"], root / manifest.data["af_close"],
                        compare_input=compare_input, jobs=2)


def path_map(root: Path, views: dict[str, Path]) -> PathMap:
    return PathMap(tuple(PathMapEntry(name, str(root), str(view)) for name, view in views.items()))


def assert_same(cluster_result: PrecisionResult, local: PrecisionResult) -> None:
    assert [repr(row) for row in cluster_result.rows] == [repr(row) for row in local.rows]
    assert cluster_result.to_dict() == local.to_dict()
    assert repr(cluster_result.first_divergence) == repr(local.first_divergence)


@pytest.fixture(scope="module")
def split_views(case: tuple[Path, CaseManifest], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """nodeA holds ranks 0 and 1, nodeB ranks 2 and 3 (both sides), on 'disks' of their own."""
    root, _ = case
    base = tmp_path_factory.mktemp("views")
    return {"nodeA": node_view(root, base / "a", {"af_open": {"0", "1"}, "af_close": {"0", "1"}}),
            "nodeB": node_view(root, base / "b", {"af_open": {"2", "3"}, "af_close": {"2", "3"}})}


def test_rows_equal_the_local_run(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                  split_views: dict[str, Path]) -> None:
    root, manifest = case
    request = request_for(root, manifest)
    local = run_mode1(request)
    progress: list[tuple[int, int, str]] = []
    options = ClusterOptions(parse_scheduler_address(cluster.address), path_map(root, split_views))
    refused = refusals()
    run = run_cluster(request, options, progress=lambda done, total, text="": progress.append((done, total, text)))
    assert refusals() == refused  # an honest cluster sends nothing to unpickle (safe_client.py)
    assert_same(run.result, local)
    assert run.result.first_divergence is not None and run.result.first_divergence.rank == "2"
    assert run.stats.workers == 2 and run.stats.tasks >= 4  # at least one task per (rank, step)
    tasks = [entry for entry in progress if entry[2] == "comparing on the cluster"]
    assert tasks[-1] == (run.stats.tasks, run.stats.tasks, "comparing on the cluster")
    assert 0 < run.stats.bytes_per_pair < 200  # msgpack replies (wire.py)


def test_a_pair_no_worker_sees_gets_a_clear_status(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                                    tmp_path: Path) -> None:
    """Rank 3's af-open dump is on nodeA, its af-close dump on nodeB: no worker can compare it."""
    root, manifest = case
    views = {"nodeA": node_view(root, tmp_path / "a", {"af_open": {"0", "1", "2", "3"}, "af_close": {"0", "1", "2"}}),
             "nodeB": node_view(root, tmp_path / "b", {"af_open": {"2"}, "af_close": {"2", "3"}})}
    request = request_for(root, manifest)
    local = run_mode1(request)
    run = run_cluster(request, ClusterOptions(parse_scheduler_address(cluster.address), path_map(root, views)))
    rows = run.result.rows
    lost = [row for row in rows if row.status == NO_WORKER]
    assert lost and {row.rank for row in lost} == {"3"}
    assert all(row.verdict == "UNKNOWN" and row.metrics is None for row in lost)
    assert "No Dask worker sees both dump files of rank 3 (af-open seen by nodeA, af-close by nodeB)" in lost[0].message
    assert len(rows) == len(local.rows)  # never a dropped row
    others = [repr(row) for row in rows if row.rank != "3"]
    assert others == [repr(row) for row in local.rows if row.rank != "3"]
    assert any(notice.kind == "row_no_worker" for notice in run.result.notices)
