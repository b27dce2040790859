"""Scanning the dump folders on the cluster: the workers of one host scan a folder each, in parallel.

A scan task that fails loses only its folder, a group whose workers all left is given up at once, a worker
killed while it scans has its scan moved to another worker of its host, a cancel while scanning leaves no
task on the scheduler, and a rank with no pairs gives the local run's rows.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.cluster import run as cluster_run
from autofuse_studio.core.cluster.address import parse_scheduler_address
from autofuse_studio.core.cluster.options import ClusterStats
from autofuse_studio.core.cluster.pathmap import PathMap
from autofuse_studio.core.cluster.run import ClusterOptions, run_cluster
from autofuse_studio.core.cluster.safe_client import TaskError
from autofuse_studio.core.cluster.scan import SCAN_DELAY_ENV, ScanTask, scan_tasks
from autofuse_studio.core.cluster.wire import encode_failure, encode_scan
from autofuse_studio.core.dumps.index import TreeScan
from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.pair import RANK_NOT_FOUND
from autofuse_studio.core.progress import CancelToken
from tests.cluster.conftest import node_view
from tests.cluster.local_cluster import LocalCluster, require_dask, two_node_cluster
from tests.cluster.test_cluster_rows import assert_same, request_for
from tests.synth import CaseManifest

A, B, C = "tcp://10.0.0.1:1", "tcp://10.0.0.1:2", "tcp://10.0.0.2:1"
INDEXING = "indexing the dump folders on the workers"


def test_the_workers_of_one_host_get_a_folder_each() -> None:
    tasks = scan_tasks({A: frozenset({A, B}), C: frozenset({C})}, 2)
    assert tasks == [ScanTask(A, frozenset({A, B}), (0,)), ScanTask(A, frozenset({A, B}), (1,)),
                     ScanTask(C, frozenset({C}), (0, 1))]  # a lone worker: one task (one round trip)


class _Future:
    """A finished (or failed) task as the run sees it: done(), status, exception(), cancel()."""

    def __init__(self, status: str, payload: bytes | None = None, error: str = "") -> None:
        self.status, self.payload, self.error, self.cancelled = status, payload, error, False

    def done(self) -> bool:
        return self.status != "pending"

    def exception(self) -> TaskError:
        return TaskError(self.error)

    def cancel(self) -> None:
        self.cancelled = True


@pytest.fixture
def fake_cluster(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replies come from the fake futures; the live workers are the list returned (edit it to make them leave)."""
    alive = [A, B, C]
    monkeypatch.setattr(cluster_run, "gather_payloads", lambda _client, futures, *_: [f.payload for f in futures])
    monkeypatch.setattr(cluster_run, "live_workers", lambda _client: dict.fromkeys(alive))
    monkeypatch.setattr(cluster_run, "_LIVENESS_CHECK_S", 0.0)
    return alive


def _scan(root: str) -> TreeScan:
    return TreeScan({Path(root) / "0": []})


def test_a_failed_scan_task_loses_only_its_folder(fake_cluster: list[str]) -> None:
    from autofuse_studio import __version__

    group = frozenset({A, B})
    futures: dict[Any, ScanTask] = {
        _Future("finished", encode_failure(__version__, OSError("disk gone"))): ScanTask(A, group, (0,)),
        _Future("finished", encode_scan(__version__, [_scan("/close")], [])): ScanTask(A, group, (1,)),
        _Future("error", error="ModuleNotFoundError: autofuse_studio"): ScanTask(C, frozenset({C}), (0, 1)),
    }
    stats = ClusterStats()
    scans = cluster_run._wait_scans(object(), futures, 2, CancelToken(), stats, refused=0)
    assert [(scan.worker, scan.sides) for scan in scans] == [(A, [None, _scan("/close")])]
    assert stats.notes == [
        f"The Dask workers {A}, {B} (one of them) could not scan the dump folders (OSError: disk gone).",
        f"The Dask worker {C} could not scan the dump folders (ModuleNotFoundError: autofuse_studio); "
        "install autofuse-studio[cluster] there, the same version as here."]


def test_the_scans_of_a_group_that_left_are_given_up(fake_cluster: list[str]) -> None:
    from autofuse_studio import __version__

    fake_cluster[:] = [A]  # B (alone on its host) left; A's scan is done
    waiting = _Future("pending")
    futures: dict[Any, ScanTask] = {waiting: ScanTask(B, frozenset({B}), (0, 1)),
                                    _Future("finished", encode_scan(__version__, [_scan("/o"), None], [])):
                                        ScanTask(A, frozenset({A}), (0, 1))}
    stats = ClusterStats()
    scans = cluster_run._wait_scans(object(), futures, 2, CancelToken(), stats, refused=0)
    assert [scan.worker for scan in scans] == [A]
    assert waiting.cancelled
    assert stats.notes == [f"The Dask worker {B} left the cluster while scanning the dump folders."]


def test_workers_of_one_host_scan_in_parallel(case: tuple[Path, CaseManifest], cluster: LocalCluster) -> None:
    root, manifest = case
    request = request_for(root, manifest)
    before = cluster.worker_keys("af-scan")
    run = run_cluster(request, ClusterOptions(parse_scheduler_address(cluster.address), PathMap()))
    ran = {name: keys - before.get(name, set()) for name, keys in cluster.worker_keys("af-scan").items()}
    assert sorted(len(keys) for keys in ran.values()) == [1, 1]  # one dump folder each
    assert run.stats.workers == 2 and run.stats.notes == []
    assert_same(run.result, run_mode1(request))


def test_a_rank_with_no_pairs_gives_the_local_rows(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                                   tmp_path: Path) -> None:
    """Rank 3 has no af-close dump: its rows say so (RANK_NOT_FOUND), nothing of it is compared."""
    root, manifest = case
    view = node_view(root, tmp_path / "view", {"af_open": {"0", "1", "2", "3"}, "af_close": {"0", "1", "2"}})
    for name in manifest.graphs.values():
        shutil.copy(root / name, view / name)
    request = request_for(view, manifest)
    local = run_mode1(request)
    run = run_cluster(request, ClusterOptions(parse_scheduler_address(cluster.address), PathMap()))
    assert_same(run.result, local)
    missing = [row for row in run.result.rows if row.rank == "3"]
    assert any(row.status == RANK_NOT_FOUND for row in missing) and all(row.metrics is None for row in missing)


@pytest.fixture
def slow_scans(tmp_path: Path) -> Iterator[LocalCluster]:
    """Two workers on one host whose scans each take a second first: a kill or a cancel finds them scanning."""
    require_dask()
    yield from two_node_cluster(LocalCluster(tmp_path / "dask"), env={SCAN_DELAY_ENV: "1.0"})


def test_a_worker_killed_while_scanning_has_its_scan_moved(case: tuple[Path, CaseManifest],
                                                          slow_scans: LocalCluster) -> None:
    root, manifest = case
    request = request_for(root, manifest)
    killed: list[str] = []

    def progress(done: int, total: int, message: str = "") -> None:
        if message == INDEXING and not killed:
            killed.append(message)
            slow_scans.kill("nodeA")  # its scan task is in its one-second sleep

    run = run_cluster(request, ClusterOptions(parse_scheduler_address(slow_scans.address), PathMap()),
                      progress=progress)
    assert killed and slow_scans.processes["nodeA"].poll() is not None
    assert run.stats.notes == []  # nodeB scanned the folder nodeA was scanning
    assert_same(run.result, run_mode1(request))


def test_a_cancel_while_scanning_leaves_no_task(case: tuple[Path, CaseManifest], slow_scans: LocalCluster) -> None:
    root, manifest = case
    cancel = CancelToken()

    def progress(done: int, total: int, message: str = "") -> None:
        if message == INDEXING:
            cancel.cancel()

    with pytest.raises(Cancelled):
        run_cluster(request_for(root, manifest), ClusterOptions(parse_scheduler_address(slow_scans.address),
                                                                PathMap()), progress=progress, cancel=cancel)
    assert all(not keys for keys in slow_scans.worker_keys("af-compare").values())  # stopped before comparing
    deadline = time.monotonic() + 10
    while slow_scans.task_keys("af-scan") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert slow_scans.task_keys("af-scan") == []
