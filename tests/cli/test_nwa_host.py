"""`nwa --host` against a real sshd on 127.0.0.1: output identical to a local run, clear failures, cancel, quoting."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.cli import main
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.remote.profiles import save_profiles
from autofuse_studio.core.run.events import RowsDone
from autofuse_studio.core.run.runners import start
from autofuse_studio.core.run.spec import OnHost, RunSpec, mode1_spec
from tests.stub_sdk.remote_nwa import case_args, fake_command, processes_with, remote_command, stalling_remote_command
from tests.stub_sdk.sshd import LocalSshd, start_sshd
from tests.synth import CaseManifest, full_coverage_spec, generate_case
from tests.synth.spec import multi_rank_spec

Case = tuple[Path, CaseManifest]


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


@pytest.fixture(scope="module")
def command(tmp_path_factory: pytest.TempPathFactory) -> str:
    return remote_command(tmp_path_factory.mktemp("remote-bin"))


@pytest.fixture
def host(sshd: LocalSshd) -> str:
    save_profiles([sshd.profile(), sshd.profile("wrongkey", identity_file=str(sshd.other_key)),
                   sshd.profile("closed", port=_closed_port())])
    return "testhost"


@pytest.fixture(scope="module")
def ranks_case(tmp_path_factory: pytest.TempPathFactory) -> Case:
    root = tmp_path_factory.mktemp("ranks") / "case"
    return root, generate_case(root, multi_rank_spec(runs=2, missing_ranks=(("af_close", 3),)))


@pytest.fixture(scope="module")
def coverage_case(tmp_path_factory: pytest.TempPathFactory) -> Case:
    # A folder name a shell would act on: it must reach the host as one literal word.
    root = tmp_path_factory.mktemp("cov") / "we'ird $(touch PWNED) `id` ; dir"
    return root, generate_case(root, full_coverage_spec())


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("case_name", "extra"), [
    ("ranks_case", ["--compare-input"]),
    ("ranks_case", ["--rank", "1,2", "--fail-on-divergence", "--cosine-threshold", "0.995"]),
    ("coverage_case", ["--compare-input", "--step", "1", "--dtype-threshold", "float16:max_rel=2.5"]),
])
def test_console_json_and_exit_code_equal_a_local_run(request: pytest.FixtureRequest, host: str, command: str,
                                                      tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      case_name: str, extra: list[str]) -> None:
    root, manifest = request.getfixturevalue(case_name)
    local_code, local_out, _ = _run(capsys, ["nwa", *case_args(root, manifest, *extra),
                                             "--output", str(tmp_path / "local.json")])
    remote_code, remote_out, remote_err = _run(capsys, ["nwa", "--host", host, "--remote-command", command,
                                                        *case_args(root, manifest, *extra),
                                                        "--output", str(tmp_path / "remote.json")])
    assert remote_err == ""
    assert remote_code == local_code
    assert remote_out.replace("remote.json", "local.json") == local_out
    assert json.loads((tmp_path / "remote.json").read_text()) == json.loads((tmp_path / "local.json").read_text())
    assert not (root.parent / "PWNED").exists() and not Path("PWNED").exists()


def test_csv_output_is_byte_identical(host: str, command: str, ranks_case: Case, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = ranks_case
    assert main(["nwa", *case_args(root, manifest), "--output", str(tmp_path / "local.csv")]) == 0
    assert main(["nwa", "--host", host, "--remote-command", command, *case_args(root, manifest),
                 "--output", str(tmp_path / "remote.csv")]) == 0
    capsys.readouterr()
    assert (tmp_path / "remote.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()


def test_rows_equal_the_local_rows_repr_included(host: str, command: str, coverage_case: Case) -> None:
    root, manifest = coverage_case
    paths = [str(root / manifest.graphs["af_open"]), str(root / manifest.graphs["af_close"]),
             str(root / manifest.data["af_open"]), str(root / manifest.data["af_close"])]
    local = run_mode1(RunSpec(*map(Path, paths), compare_input=True))
    streamed: list[object] = []
    spec = mode1_spec(paths, compare_input=True, where=OnHost(host, command))
    outcome = start(spec, live=True, producers=True).wait(
        on_event=lambda event: streamed.extend(event.rows) if isinstance(event, RowsDone) else None)
    assert [repr(row) for row in outcome.result.rows] == [repr(row) for row in local.rows]
    assert repr(outcome.result.first_divergence) == repr(local.first_divergence)
    assert len(streamed) == len(local.rows)  # every row arrived once while the run went on
    assert outcome.producers and outcome.files_indexed > 0


def _one_sentence(code: int, out: str, err: str) -> str:
    assert code != 0
    text = (out + err).strip()
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_missing_remote_command(host: str, ranks_case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = ranks_case
    line = _one_sentence(*_run(capsys, ["nwa", "--host", host, "--remote-command", "/nonexistent/autofuse-studio",
                                       *case_args(root, manifest)]))
    assert "'/nonexistent/autofuse-studio' was not found on host 'testhost'" in line
    line = _one_sentence(*_run(capsys, ["nwa", "--host", host, "--remote-command", "autofuse-studio-nowhere",
                                       *case_args(root, manifest)]))
    assert "was not found on host 'testhost'" in line and "--remote-command" in line


def test_old_or_foreign_remote_version(host: str, ranks_case: Case, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = ranks_case
    old = fake_command(tmp_path, "old-studio", 'echo "Autofuse Studio 0.0.9"')
    line = _one_sentence(*_run(capsys, ["nwa", "--host", host, "--remote-command", old, *case_args(root, manifest)]))
    assert "is Autofuse Studio 0.0.9, older than" in line and "upgrade it there" in line
    foreign = fake_command(tmp_path, "foreign", 'echo "some other tool 3.2"')
    line = _one_sentence(*_run(capsys, ["nwa", "--host", host, "--remote-command", foreign,
                                       *case_args(root, manifest)]))
    assert "did not answer like Autofuse Studio" in line and "some other tool 3.2" in line


def test_unreachable_host_and_refused_key(host: str, command: str, ranks_case: Case,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = ranks_case
    line = _one_sentence(*_run(capsys, ["nwa", "--host", "closed", "--remote-command", command,
                                       *case_args(root, manifest)]))
    assert "connection was refused" in line
    line = _one_sentence(*_run(capsys, ["nwa", "--host", "wrongkey", "--remote-command", command,
                                       *case_args(root, manifest)]))
    assert "refused the key" in line
    line = _one_sentence(*_run(capsys, ["nwa", "--host", "nosuchhost", *case_args(root, manifest)]))
    assert "No host profile named 'nosuchhost'" in line


def test_remote_path_missing(host: str, command: str, ranks_case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = ranks_case
    args = case_args(root, manifest)
    args[args.index("--af-open-data") + 1] = "/nowhere/dump"
    code, out, err = _run(capsys, ["nwa", "--host", host, "--remote-command", command, *args])
    assert code == 1 and "Traceback" not in out + err
    assert "ERROR: datadump 目录不存在: /nowhere/dump (on host 'testhost')" in out


@pytest.mark.parametrize(("value", "reason"), [
    ("-rf", "starts with '-'"), ("/tmp/a\nb", "control character"), ("/tmp/\x1b[31m", "control character"),
    ("/tmp/\u202egnp.json", "control character"), ("", None)])
def test_unsendable_paths_are_refused_before_ssh(host: str, command: str, ranks_case: Case, value: str,
                                                 reason: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = ranks_case
    args = case_args(root, manifest)
    at = args.index("--af-close-graph")
    args[at:at + 2] = [f"--af-close-graph={value}"]  # the = form lets a value start with '-' here
    code, out, err = _run(capsys, ["nwa", "--host", host, "--remote-command", command, *args])
    assert code == 1 and "Traceback" not in out + err
    if reason:
        assert f"cannot be sent to host 'testhost': it {reason}" in out or reason in out
    else:
        assert "--af-close-graph" in out


def test_hostile_words_run_nothing_on_the_host(host: str, command: str, ranks_case: Case, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = ranks_case
    marker = tmp_path / "ran"
    for hostile in (f"/x; touch {marker}", f"/x$(touch {marker})", f"/x`touch {marker}`", f"/x' ; touch {marker}; '",
                    f"/x\" && touch {marker} && \"", f"/x | touch {marker}", f"~/x$(touch {marker})"):
        args = case_args(root, manifest)
        args[args.index("--af-open-graph") + 1] = hostile
        code, out, _ = _run(capsys, ["nwa", "--host", host, "--remote-command", command, *args, "--step", hostile])
        assert code == 1 and "dump 图 JSON 文件不存在" in out, out
        assert not marker.exists(), hostile
    assert not Path("PWNED").exists()


def test_ctrl_c_stops_the_remote_process(host: str, ranks_case: Case, tmp_path: Path) -> None:
    slow = stalling_remote_command(tmp_path)
    root, manifest = ranks_case
    token = str(tmp_path / "token-dump")
    os.symlink(root / manifest.data["af_open"], token)  # a path only this run's command line holds
    args = case_args(root, manifest)
    args[args.index("--af-open-data") + 1] = token
    proc = subprocess.Popen([sys.executable, "-m", "autofuse_studio", "nwa", "--host", host, "--remote-command", slow,
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        end = time.monotonic() + 60
        while not [p for p in processes_with(token) if "-m autofuse_studio nwa --emit-jsonl" in p]:  # the host's Python
            assert time.monotonic() < end, "the remote run never started"
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 130, (out, err)
        end = time.monotonic() + 15
        while processes_with(token):
            assert time.monotonic() < end, processes_with(token)
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_mode_2_is_refused_with_host(host: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = _one_sentence(*_run(capsys, ["nwa", "--host", host, "--mode", "2", "--npy-a", "a", "--npy-b", "b"]))
    assert "--host runs mode 1" in line


def test_a_remote_process_killed_mid_run_is_one_sentence(host: str, ranks_case: Case, tmp_path: Path) -> None:
    slow = stalling_remote_command(tmp_path)
    root, manifest = ranks_case
    token = str(tmp_path / "killed-dump")
    os.symlink(root / manifest.data["af_open"], token)
    args = case_args(root, manifest)
    args[args.index("--af-open-data") + 1] = token
    proc = subprocess.Popen([sys.executable, "-m", "autofuse_studio", "nwa", "--host", host, "--remote-command", slow,
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        # The host's Python itself (the login shell before it exec'd would be killed before the version came).
        while not (remote := [p for p in processes_with(token) if "-m autofuse_studio nwa --emit-jsonl" in p]):
            assert time.monotonic() < end and proc.poll() is None, "the remote run never started"
            time.sleep(0.1)
        os.kill(int(remote[0].split(":")[0]), signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1 and "Traceback" not in out + err
    assert "ERROR: The comparison on host 'testhost' ended before its result" in out


@pytest.mark.parametrize("kind", ["raw", "stats"])
def test_raw_and_statistics_dumps_on_a_host(host: str, command: str, ranks_case: Case, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str], kind: str) -> None:
    """Dumps as the NPU writes them, compared where they are: the local run's console and JSON."""
    from tests.synth.raw_twin import twin_case

    root, manifest = ranks_case
    folders = twin_case(root, tmp_path / kind, kind)
    args = ["--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(folders["af_open"]), "--af-close-data", str(folders["af_close"]),
            "--compare-input", "--stats-max-rel", "0.02"]
    local_code, local_out, _ = _run(capsys, ["nwa", *args, "--output", str(tmp_path / "local.json")])
    remote_code, remote_out, remote_err = _run(capsys, ["nwa", "--host", host, "--remote-command", command, *args,
                                                        "--output", str(tmp_path / "remote.json")])
    assert remote_err == ""
    assert (remote_code, remote_out.replace("remote.json", "local.json")) == (local_code, local_out)
    local = json.loads((tmp_path / "local.json").read_text())
    assert json.loads((tmp_path / "remote.json").read_text()) == local
    assert local["thresholds"]["stats"]["default"]["max_rel"] == 0.02
    if kind == "stats":
        assert any(row["statistics"] is not None for row in local["rows"])
