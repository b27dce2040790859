"""Fixtures of the cluster tests: a generated multi-rank case, per-node views of it, a real local cluster."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.local_cluster import LocalCluster, require_dask, two_node_cluster
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    """Four ranks, two steps, two runs, the culprit on rank 2 only."""
    root = tmp_path_factory.mktemp("cluster_case") / "case"
    return root, generate_case(root, multi_rank_spec(runs=2))


def node_view(case_root: Path, target: Path, ranks: dict[str, set[str]]) -> Path:
    """A copy of the case (hard links) holding only the given device folders per side: one node's disk."""
    for side, kept in ranks.items():
        data = case_root / side / "dump"
        for folder, _, files in os.walk(data):
            parts = Path(folder).relative_to(data).parts
            if len(parts) < 2 or parts[1] not in kept:  # standard tree: {time}/{device}/...
                continue
            destination = target / side / "dump" / Path(*parts)
            destination.mkdir(parents=True, exist_ok=True)
            for name in files:
                os.link(Path(folder) / name, destination / name)
    return target


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A scheduler and two workers (nodeA, nodeB) on 127.0.0.1, shared by the module's tests."""
    require_dask()
    yield from two_node_cluster(LocalCluster(tmp_path_factory.mktemp("dask")))


@pytest.fixture
def very_slow_cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    """One worker whose tasks each take a second first: a whole run takes far longer than a cancel."""
    from autofuse_studio.core.cluster.tasks import DELAY_ENV

    require_dask()
    local = LocalCluster(tmp_path / "dask")
    local.folder.mkdir()
    try:
        local.start_scheduler()
        local.start_worker("slow", env={DELAY_ENV: "1.0"})
        local.wait_for_workers(1)
        yield local
    finally:
        local.stop()
