"""A tls:// scheduler with certificates: the local run's rows and output; every missing piece is one sentence."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.cli import main
from autofuse_studio.core.cluster.address import parse_scheduler_address
from autofuse_studio.core.cluster.run import ClusterOptions, run_cluster
from autofuse_studio.core.cluster.safe_client import refusals
from autofuse_studio.core.cluster.tls import TlsFiles
from autofuse_studio.core.precision.engine import run_mode1
from tests.cluster.local_cluster import LocalCluster, TlsPaths, make_tls, require_dask, two_node_cluster
from tests.cluster.test_cluster_cli import _args
from tests.cluster.test_cluster_rows import assert_same, path_map, request_for, split_views  # noqa: F401
from tests.synth import CaseManifest


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> TlsPaths:
    return make_tls(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory: pytest.TempPathFactory, tls: TlsPaths) -> Iterator[LocalCluster]:
    """A scheduler and two workers (nodeA, nodeB) on 127.0.0.1 speaking only TLS with the test CA."""
    require_dask()
    yield from two_node_cluster(LocalCluster(tmp_path_factory.mktemp("dask_tls"), tls))


def _files(tls: TlsPaths) -> TlsFiles:
    return TlsFiles(str(tls.ca_file), str(tls.cert), str(tls.key))


def test_rows_over_tls_equal_the_local_run(case: tuple[Path, CaseManifest], tls_cluster: LocalCluster,
                                           tls: TlsPaths, split_views: dict[str, Path]) -> None:  # noqa: F811
    root, manifest = case
    assert tls_cluster.address.startswith("tls://127.0.0.1:")
    request = request_for(root, manifest)
    before = refusals()
    options = ClusterOptions(parse_scheduler_address(tls_cluster.address), path_map(root, split_views),
                             tls=_files(tls))
    run = run_cluster(request, options)
    assert_same(run.result, run_mode1(request))
    assert run.stats.workers == 2
    assert refusals() == before  # an honest cluster never sends this client anything to unpickle


def test_the_cli_over_tls_prints_the_local_output(case: tuple[Path, CaseManifest], tls_cluster: LocalCluster,
                                                  tls: TlsPaths, capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    assert main(_args(root, manifest)) == 0
    local = capsys.readouterr().out
    assert main(_args(root, manifest, "--scheduler", tls_cluster.address, "--tls-ca-file", str(tls.ca_file),
                      "--tls-cert", str(tls.cert), "--tls-key", str(tls.key))) == 0
    captured = capsys.readouterr()
    assert captured.out == local
    assert f"Cluster {tls_cluster.address}: 2 workers" in captured.err


def test_tls_without_certificates_is_one_sentence(case: tuple[Path, CaseManifest], tls_cluster: LocalCluster,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    started = time.monotonic()
    assert main(_args(root, manifest, "--scheduler", tls_cluster.address)) == 2
    assert time.monotonic() - started < 5
    text = capsys.readouterr().out
    assert text.strip() == (f"ERROR: The scheduler {tls_cluster.address} speaks TLS: give the cluster's CA and this "
                            "client's certificate with --tls-ca-file, --tls-cert and --tls-key (or set them in "
                            "Dask's configuration, distributed.comm.tls).")


@pytest.mark.parametrize(("extra", "expected", "code"), [
    (["--tls-cert", "CERT"], "A tls:// scheduler needs both --tls-ca-file and --tls-cert (and --tls-key unless the "
     "certificate file holds the key): --tls-ca-file missing.", 2),
    (["--tls-ca-file", "CA", "--tls-cert", "MISSING"], "Cannot read --tls-cert MISSING: No such file or directory.",
     1),
    (["--tls-ca-file", "CA", "--tls-cert", "CA"], "Cannot use the TLS files (--tls-ca-file CA, --tls-cert CA):", 1),
    (["--tls-ca-file", "CA", "--tls-cert", "DIR"], "--tls-cert DIR is not a file.", 1),
])
def test_tls_files_that_cannot_work_are_one_sentence(case: tuple[Path, CaseManifest], tls_cluster: LocalCluster,
                                                     tls: TlsPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     extra: list[str], expected: str, code: int) -> None:
    root, manifest = case
    names = {"CERT": str(tls.cert), "CA": str(tls.ca_file), "MISSING": str(tmp_path / "missing.pem"),
             "DIR": str(tmp_path)}
    extra = [names.get(word, word) for word in extra]
    for word, path in names.items():
        expected = expected.replace(f" {word}", f" {path}")
    assert main(_args(root, manifest, "--scheduler", tls_cluster.address, *extra)) == code
    text = capsys.readouterr().out
    assert text.startswith("ERROR: ") and expected in text and text.count("\n") == 1, text


def test_tls_options_with_a_tcp_scheduler_or_none(case: tuple[Path, CaseManifest], tls: TlsPaths,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    require_dask()
    root, manifest = case
    assert main(_args(root, manifest, "--scheduler", "tcp://127.0.0.1:8786", "--tls-ca-file", str(tls.ca_file))) == 2
    assert ("--tls-ca-file, --tls-cert and --tls-key are for a tls:// scheduler: tcp://127.0.0.1:8786 is not one "
            "(write tls://127.0.0.1:8786, or leave them out).") in capsys.readouterr().out
    assert main(_args(root, manifest, "--tls-cert", str(tls.cert))) == 2
    assert "--tls-ca-file, --tls-cert and --tls-key need --scheduler tls://HOST:PORT" in capsys.readouterr().out


def test_a_certificate_of_another_ca_is_refused_within_the_timeout(
        case: tuple[Path, CaseManifest], tls_cluster: LocalCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The scheduler refuses a client whose certificate its CA did not sign (and the client its certificate)."""
    monkeypatch.setattr("autofuse_studio.core.cluster.workers.CONNECT_TIMEOUT_S", 2.0)
    stranger = make_tls(tmp_path, "stranger")
    root, manifest = case
    started = time.monotonic()
    assert main(_args(root, manifest, "--scheduler", tls_cluster.address, "--tls-ca-file", str(stranger.ca_file),
                      "--tls-cert", str(stranger.cert), "--tls-key", str(stranger.key))) == 1
    assert time.monotonic() - started < 6
    text = capsys.readouterr().out
    assert "Traceback" not in text
    error = text.splitlines()[-1]
    assert error.startswith(f"ERROR: Cannot reach the Dask scheduler at {tls_cluster.address} within 2 s ("), text
    print(error)


def test_a_tcp_client_on_a_tls_scheduler_is_one_sentence(case: tuple[Path, CaseManifest], tls_cluster: LocalCluster,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("autofuse_studio.core.cluster.workers.CONNECT_TIMEOUT_S", 2.0)
    root, manifest = case
    address = tls_cluster.address.replace("tls://", "tcp://")
    started = time.monotonic()
    assert main(_args(root, manifest, "--scheduler", address)) == 1
    assert time.monotonic() - started < 6
    text = capsys.readouterr().out
    assert "Traceback" not in text
    error = text.splitlines()[-1]
    assert error.startswith(f"ERROR: Cannot reach the Dask scheduler at {address} within 2 s ("), text
    print(error)
