"""A rogue Dask worker cannot run code in the client: nothing it sends is unpickled, the run stops with a sentence.

Each test starts a real scheduler and one worker with `--preload tests/cluster/rogue_worker_preload.py`, which replaces
autofuse-studio's tasks (or patches the worker's Dask code) so that it sends objects whose unpickling
appends to a marker file, then runs the real CLI (`autofuse-studio nwa --scheduler …`) in a fresh process.
With a plain distributed.Client every one of these modes creates the marker.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cluster.local_cluster import LocalCluster, require_dask
from tests.robustness.conftest import CliRun, run_cli
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec

PRELOAD = Path(__file__).parents[1] / "cluster" / "rogue_worker_preload.py"
REFUSED = "it was refused (this client never unpickles data from the cluster) and the run stops"


@dataclass
class Rogue:
    """A cluster whose only worker is rogue, and the files that say what it tried and what ran."""

    cluster: LocalCluster
    marker: Path
    sent: Path

    def tried(self) -> str:
        return self.sent.read_text(encoding="utf-8") if self.sent.exists() else ""


@pytest.fixture(scope="module")
def small_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    root = tmp_path_factory.mktemp("rogue_case") / "case"
    return root, generate_case(root, multi_rank_spec(ranks=2, culprit_rank=1))


@pytest.fixture
def rogue(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rogue]:
    require_dask()
    mode = request.param
    marker, sent = tmp_path / "marker", tmp_path / "sent"
    env = {"AFS_ROGUE": "1", "AFS_ROGUE_MODE": mode, "AFS_ROGUE_MARKER": str(marker), "AFS_ROGUE_SENT": str(sent)}
    cluster = LocalCluster(tmp_path / "dask")
    cluster.folder.mkdir()
    try:
        cluster.start_scheduler(env=env)  # if it unpickled something, the payload would stay quiet there
        cluster.start_worker("rogue", env=env, preload=PRELOAD)
        cluster.wait_for_workers(1)
        yield Rogue(cluster, marker, sent)
    finally:
        cluster.stop()


def _nwa(case: tuple[Path, CaseManifest], *extra: str) -> list[str]:
    root, manifest = case
    return ["nwa", "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), "--compare-input", *extra]


def _run(case: tuple[Path, CaseManifest], rogue: Rogue, env: dict[str, str] | None = None) -> CliRun:
    started = time.monotonic()
    run = run_cli(*_nwa(case, "--scheduler", rogue.cluster.address), timeout=120, env=env)  # no traceback
    assert time.monotonic() - started < 60
    assert not rogue.marker.exists(), f"code from the rogue worker ran in the client: {rogue.marker.read_text()}"
    return run


def _error(run: CliRun) -> str:
    errors = [line for line in run.output.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1, run.output
    return errors[0]


@pytest.mark.parametrize(("rogue", "what", "why"), [
    ("scan-object", "dump scan", "Data serialized with error but only able to deserialize data with ['msgpack']"),
    ("compare-object", "comparison result", "Data serialized with error"),
    ("compare-dict", "comparison result", "it sent a dict where autofuse-studio sends bytes"),
], indirect=["rogue"])
def test_a_result_that_is_not_bytes_is_refused_naming_the_worker(small_case: tuple[Path, CaseManifest], rogue: Rogue,
                                                                 what: str, why: str) -> None:
    run = _run(small_case, rogue)
    assert rogue.tried()
    assert run.returncode == 1
    error = _error(run)
    assert error.startswith("ERROR: The Dask worker rogue (tcp://127.0.0.1:") and f"sent a {what} " in error, error
    assert why in error and REFUSED in error


@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("rogue", ["pickled-frames"], indirect=True)
def test_a_pickle_in_the_messages_is_refused(small_case: tuple[Path, CaseManifest], rogue: Rogue,
                                             direct: bool) -> None:
    """The worker's Dask code sends `__Pickled__` parts, which Dask unpickles whatever the deserializers.

    Through the scheduler (the default) the scheduler unpickles it and forwards what came out; directly from
    the worker (distributed.client.direct-to-workers) this process's guard refuses it.
    """
    env = {"DASK_DISTRIBUTED__CLIENT__DIRECT_TO_WORKERS": "True"} if direct else None
    run = _run(small_case, rogue, env)
    assert "pickled frame" in rogue.tried()
    assert run.returncode == 1
    error = _error(run)
    assert error.startswith("ERROR: The Dask worker rogue (tcp://127.0.0.1:") and REFUSED in error, error
    assert ("it sent a pickled Python object" if direct else "it sent a str where autofuse-studio sends bytes") in error


@pytest.mark.parametrize("rogue", ["scan-raise"], indirect=True)
def test_a_scan_that_raises_a_malicious_exception(small_case: tuple[Path, CaseManifest], rogue: Rogue) -> None:
    run = _run(small_case, rogue)
    assert rogue.tried()
    assert run.returncode == 1
    error = _error(run)
    assert error.startswith(f"ERROR: No worker of the Dask cluster at {rogue.cluster.address} sees the af-open")
    # The exception's class is read from its pickle's opcodes, never unpickled.
    assert "could not scan the dump folders (ValueError); install autofuse-studio[cluster] there" in error


@pytest.mark.parametrize("rogue", ["compare-raise"], indirect=True)
def test_a_comparison_that_raises_a_malicious_exception(small_case: tuple[Path, CaseManifest], rogue: Rogue) -> None:
    run = _run(small_case, rogue)
    assert rogue.tried()
    assert run.returncode == 0  # the rows say it: not compared
    assert "CLUSTER_ERROR" in run.stdout
    assert "the task failed on the cluster (on rogue: ValueError)" in run.stdout


@pytest.mark.parametrize("rogue", ["events"], indirect=True)
def test_events_and_result_types_are_never_read(small_case: tuple[Path, CaseManifest], rogue: Rogue) -> None:
    """`warn` events (unpickled by Dask's client), `print` events (written to its stdout) and the result's
    pickled type (key-in-memory): an otherwise honest worker's run prints exactly the local run's output."""
    local = run_cli(*_nwa(small_case))
    run = _run(small_case, rogue)
    assert "events" in rogue.tried() and "type" in rogue.tried()
    assert run.returncode == local.returncode == 0
    assert run.stdout == local.stdout
    assert "a rogue worker prints" not in run.output
