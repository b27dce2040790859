"""A worker killed mid-run: its tasks move to a worker that sees the same files, else their rows get WORKER_LOST."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.core.cluster.address import parse_scheduler_address
from autofuse_studio.core.cluster.pathmap import PathMap
from autofuse_studio.core.cluster.run import ClusterOptions, run_cluster
from autofuse_studio.core.cluster.submit import CLUSTER_PROGRESS, WORKER_LOST
from autofuse_studio.core.cluster.tasks import DELAY_ENV
from autofuse_studio.core.precision.engine import run_mode1
from tests.cluster.conftest import node_view
from tests.cluster.local_cluster import LocalCluster, require_dask, two_node_cluster
from tests.cluster.test_cluster_rows import assert_same, path_map, request_for
from tests.synth import CaseManifest


@pytest.fixture
def slow_cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    """Two single-thread workers whose tasks each sleep 0.25 s first: a kill always finds tasks in flight."""
    require_dask()
    yield from two_node_cluster(LocalCluster(tmp_path / "dask"), env={DELAY_ENV: "0.25"})


def _kill_after_first_task(cluster: LocalCluster, name: str) -> object:
    killed: list[int] = []

    def progress(done: int, total: int, message: str = "") -> None:
        if message == CLUSTER_PROGRESS and done >= 1 and not killed:
            killed.append(done)
            cluster.kill(name)

    progress.killed = killed  # type: ignore[attr-defined]
    return progress


def test_tasks_of_a_killed_worker_are_retried_elsewhere(case: tuple[Path, CaseManifest],
                                                        slow_cluster: LocalCluster) -> None:
    root, manifest = case
    request = request_for(root, manifest)
    local = run_mode1(request)
    progress = _kill_after_first_task(slow_cluster, "nodeA")
    run = run_cluster(request, ClusterOptions(parse_scheduler_address(slow_cluster.address), PathMap()),
                      progress=progress)  # type: ignore[arg-type]
    assert progress.killed  # type: ignore[attr-defined]
    assert slow_cluster.processes["nodeA"].poll() is not None
    assert_same(run.result, local)
    assert run.stats.lost_pairs == 0


def test_rows_of_a_killed_worker_nobody_else_sees_get_worker_lost(case: tuple[Path, CaseManifest],
                                                                  slow_cluster: LocalCluster, tmp_path: Path) -> None:
    root, manifest = case
    views = {"nodeA": node_view(root, tmp_path / "a", {"af_open": {"0", "1"}, "af_close": {"0", "1"}}),
             "nodeB": node_view(root, tmp_path / "b", {"af_open": {"2", "3"}, "af_close": {"2", "3"}})}
    request = request_for(root, manifest)
    local = run_mode1(request)
    progress = _kill_after_first_task(slow_cluster, "nodeB")
    run = run_cluster(request, ClusterOptions(parse_scheduler_address(slow_cluster.address), path_map(root, views)),
                      progress=progress)  # type: ignore[arg-type]
    rows = run.result.rows
    assert len(rows) == len(local.rows)  # never a dropped row
    lost = [row for row in rows if row.status == WORKER_LOST]
    assert lost and {row.rank for row in lost} <= {"2", "3"}
    assert all(row.metrics is None and row.verdict == "UNKNOWN" for row in lost)
    assert "left the cluster during the run" in lost[0].message or "Dask gave up" in lost[0].message
    for row, expected in zip(rows, local.rows, strict=True):
        if row.status != WORKER_LOST and row.rank in ("0", "1"):
            assert repr(row) == repr(expected)
    assert any(notice.kind == "row_worker_lost" for notice in run.result.notices)
