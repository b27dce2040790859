"""`nwa --scheduler` from the command line: stdout and --output files identical to the local run; usage errors."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest

from autofuse_studio.cli import main
from tests.cluster.local_cluster import LocalCluster
from tests.cluster.test_cluster_rows import split_views  # noqa: F401  (fixture)
from tests.synth import CaseManifest


def _args(root: Path, manifest: CaseManifest, *extra: str) -> list[str]:
    return ["nwa", "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), "--compare-input", *extra]


def _cells(path: Path) -> list[list[object]]:
    from openpyxl import load_workbook

    book = load_workbook(path, read_only=True)
    return [[cell for row in book[name].iter_rows(values_only=True) for cell in row] for name in book.sheetnames]


def test_output_is_identical_to_the_local_run(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                             split_views: dict[str, Path], tmp_path: Path,  # noqa: F811
                                             capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    outputs = {}
    for where, extra in (("local", []), ("cluster", ["--scheduler", cluster.address,
                                                     *(f"--path-map={name}:{root}={view}"
                                                       for name, view in split_views.items())])):
        files = [tmp_path / f"{where}.{suffix}" for suffix in ("json", "csv", "xlsx")]
        stdout = []
        for number, path in enumerate(files):
            assert main(_args(root, manifest, "--output", str(path), *extra)) == 0
            captured = capsys.readouterr()
            stdout.append(captured.out.replace(str(path), "OUT"))
            if where == "cluster" and number == 0:
                assert "Cluster tcp://127.0.0.1:" in captured.err and "bytes per pair" in captured.err
        outputs[where] = (stdout, files)
    local_out, local_files = outputs["local"]
    cluster_out, cluster_files = outputs["cluster"]
    assert cluster_out == local_out
    assert "First divergence: autofuse_3_Mul_Add output 0" in cluster_out[0]
    assert json.loads(cluster_files[0].read_text()) == json.loads(local_files[0].read_text())
    with local_files[1].open(encoding="utf-8-sig") as one, cluster_files[1].open(encoding="utf-8-sig") as two:
        assert list(csv.reader(two)) == list(csv.reader(one))
    assert _cells(cluster_files[2]) == _cells(local_files[2])


@pytest.mark.parametrize(("address", "why"), [
    ("127.0.0.1:8786", "write the scheme"), ("tcp://127.0.0.1", "write the scheme"),
    ("http://node1:8786", "the scheme must be tcp or tls"), ("tcp://node1:0", "between 1 and 65535"),
    ("tcp://node_1:8786", "host name or an IP address"), ("tcp://999.1.1.1:8786", "not a valid IPv4"),
    ("tcp://node1:8786/x", "write the scheme"), ("tcp://[::g]:8786", "write the scheme"),
])
def test_a_bad_scheduler_address_is_one_sentence(case: tuple[Path, CaseManifest], address: str, why: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    assert main(_args(root, manifest, "--scheduler", address)) == 2
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "ERROR: --scheduler takes a Dask scheduler address like tcp://HOST:8786" in text and why in text
    assert "Traceback" not in text


def test_path_map_without_scheduler_and_bad_entries(case: tuple[Path, CaseManifest],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    assert main(_args(root, manifest, "--path-map", "nodeA:/a=/b")) == 2
    assert "--path-map and --path-map-file need --scheduler" in capsys.readouterr().out
    assert main(_args(root, manifest, "--scheduler", "tcp://127.0.0.1:1", "--path-map", "nodeA=/a")) == 2
    assert "--path-map takes WORKER:CLIENT_PREFIX=LOCAL_PREFIX" in capsys.readouterr().out


def test_an_unreachable_scheduler_is_one_sentence(case: tuple[Path, CaseManifest], monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cluster.local_cluster import require_dask

    require_dask()
    monkeypatch.setattr("autofuse_studio.core.cluster.workers.CONNECT_TIMEOUT_S", 1.0)
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root, manifest = case
    assert main(_args(root, manifest, "--scheduler", f"tcp://127.0.0.1:{port}")) == 1
    text = capsys.readouterr().out
    assert f"ERROR: Cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 1 s" in text


def test_without_dask_the_sentence_names_the_extra(case: tuple[Path, CaseManifest], monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    root, manifest = case
    assert main(_args(root, manifest, "--scheduler", "tcp://127.0.0.1:8786")) == 2
    text = capsys.readouterr().out
    assert "install autofuse-studio[cluster]" in text
    assert main(_args(root, manifest)) == 0  # the local run never needs dask


def test_ctrl_c_cancels_every_task(case: tuple[Path, CaseManifest], very_slow_cluster: LocalCluster) -> None:
    """SIGINT while the tasks run: exit 130 with one line, and the scheduler drops every compare task."""
    import signal
    import subprocess
    import time

    root, manifest = case
    process = subprocess.Popen([sys.executable, "-m", "autofuse_studio", *_args(root, manifest, "--scheduler",
                                very_slow_cluster.address)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not very_slow_cluster.task_keys("af-compare") and time.monotonic() < deadline:
            assert process.poll() is None
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    assert process.returncode == 130, err
    assert b"Interrupted." in err and b"Traceback" not in err
    deadline = time.monotonic() + 10
    while very_slow_cluster.task_keys("af-compare") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert very_slow_cluster.task_keys("af-compare") == []


def test_no_worker_sees_a_dump_folder(case: tuple[Path, CaseManifest], cluster: LocalCluster, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    assert main(_args(root, manifest, "--scheduler", cluster.address,
                      f"--path-map=*:{root}={tmp_path / 'nothing'}")) == 1
    text = capsys.readouterr().out
    assert f"ERROR: No worker of the Dask cluster at {cluster.address} sees the af-open dump folder" in text
    assert "--path-map" in text


def test_another_version_on_the_workers_is_one_sentence(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import autofuse_studio

    monkeypatch.setattr(autofuse_studio, "__version__", "9.9.9")  # this client is "newer" than its workers
    root, manifest = case
    assert main(_args(root, manifest, "--scheduler", cluster.address)) == 1
    text = capsys.readouterr().out
    assert "runs autofuse-studio 0.1.0, this client 9.9.9: install the same version on every worker." in text


def test_dump_folders_need_not_exist_on_the_client(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    remote = Path("/nodes-only/job42")
    argv = ["nwa", "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(remote / manifest.data["af_open"]),
            "--af-close-data", str(remote / manifest.data["af_close"])]
    assert main([*argv, "--scheduler", cluster.address, f"--path-map=*:{remote}={root}"]) == 0
    out = capsys.readouterr().out
    assert "First divergence: autofuse_3_Mul_Add output 0" in out and "rank 2" in out
    assert main(argv) == 1  # locally they do not exist
    assert "datadump 目录不存在" in capsys.readouterr().out


def test_report_to_an_unreachable_scheduler_fails_with_the_sentence(case: tuple[Path, CaseManifest],
                                                                    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`report --scheduler` once ran locally and exited 0; it now runs on the cluster or fails like `nwa`."""
    from tests.cluster.local_cluster import require_dask

    require_dask()
    monkeypatch.setattr("autofuse_studio.core.cluster.workers.CONNECT_TIMEOUT_S", 1.0)
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root, manifest = case
    args = _args(root, manifest, "--scheduler", f"tcp://127.0.0.1:{port}", "-o", str(tmp_path / "report"))
    assert main(["report", *args[1:]]) == 1
    assert f"Cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 1 s" in capsys.readouterr().err
    assert not (tmp_path / "report" / "report.xlsx").exists()


def test_report_on_a_cluster_writes_the_local_reports_cells(case: tuple[Path, CaseManifest], cluster: LocalCluster,
                                                            split_views: dict[str, Path], tmp_path: Path,  # noqa: F811
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    views = [f"--path-map={name}:{root}={view}" for name, view in split_views.items()]
    for where, extra in (("local", []), ("cluster", ["--scheduler", cluster.address, *views])):
        assert main(["report", *_args(root, manifest, *extra)[1:], "-o", str(tmp_path / where)]) == 0
    captured = capsys.readouterr()
    assert "Cluster tcp://127.0.0.1:" in captured.err
    assert _cells(tmp_path / "cluster" / "report.xlsx") == _cells(tmp_path / "local" / "report.xlsx")
    assert (tmp_path / "cluster" / "graph_first_divergence.svg").exists()  # the graphs were parsed here
