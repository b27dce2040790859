"""Hostile host profiles never reach ssh; hand-edited hosts.json entries fail alone, with a sentence."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.remote.profiles import HostProfile, load_profiles, profiles_path, save_profiles
from autofuse_studio.core.remote.ssh import ssh_argv
from tests.robustness.conftest import run_cli
from tests.stub_sdk import needs_build, write_tf_source
from tests.stub_sdk.sshd import LocalSshd, start_sshd

INJECTION = "a$(touch${IFS}X)"


def _fake_ssh(folder: Path) -> tuple[dict[str, str], Path]:
    """A PATH whose `ssh` only records that it ran (and exits like a failed connection)."""
    folder.mkdir()
    record = folder / "ssh-ran"
    script = folder / "ssh"
    script.write_text(f"#!/bin/sh\necho \"$@\" >> '{record}'\nexit 255\n")
    script.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}, record


def _write_hosts(entries: list[object]) -> Path:
    path = profiles_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hosts": entries}))
    return path


def _no_marker(*folders: Path) -> None:
    for folder in folders:
        assert not list(folder.rglob("X")), f"an injected command ran in {folder}"


def test_hosts_add_refuses_shell_code_in_proxy_jump(tmp_path: Path) -> None:
    run = run_cli("hosts", "add", "h", "127.0.0.1", "--proxy-jump", INJECTION, cwd=tmp_path)
    assert run.returncode != 0
    assert "ProxyJump" in run.output
    assert INJECTION in run.output
    assert not profiles_path().exists()
    _no_marker(tmp_path)


def test_hand_edited_proxy_jump_makes_verify_tiling_refuse_without_ssh(tmp_path: Path) -> None:
    _write_hosts([{"name": "h", "destination": "127.0.0.1", "proxy_jump": INJECTION}])
    env, record = _fake_ssh(tmp_path / "bin")
    source = write_tf_source(tmp_path / "src")
    run = run_cli("att", "verify-tiling", str(source), "--host", "h", "-o", str(tmp_path / "out"), cwd=tmp_path,
                  env=env)
    assert run.returncode != 0
    assert "ProxyJump" in run.output
    assert "Entry 1 ('h')" in run.output
    assert not record.exists(), "ssh was run with a hostile profile"
    _no_marker(tmp_path, Path.home())


@pytest.mark.parametrize(("option", "value", "field"), [
    ("--proxy-jump", "gw;touch X", "ProxyJump"),
    ("--proxy-jump", "-oProxyCommand=touch X", "ProxyJump"),
    ("--proxy-jump", "gw:abc", "ProxyJump"),
    ("--proxy-jump", "gw:0", "ProxyJump"),
    ("--proxy-jump", "gw:" + "9" * 5000, "ProxyJump"),
    ("--proxy-jump", "me@gw,", "ProxyJump"),
    ("--proxy-jump", "fe80::1%$(touch X)", "ProxyJump"),
    ("--proxy-jump", "`touch X`@gw", "ProxyJump"),
    ("--proxy-jump", "gw\x1b[31m", "ProxyJump"),
    ("--identity-file", "/k ey", "identity file"),
    ("--identity-file", "-oProxyCommand=x", "identity file"),
    ("--known-hosts-file", "/kh ProxyCommand=touch X", "known_hosts file"),
    ("--work-dir", "/tmp/$(touch X)", "work folder"),
    ("--ascend-home", "/opt/a\nb", "ascend_home"),
    ("--remote-python", "python3;touch X", "python3 path"),
    ("--port", "0", "Port 0"),
])
def test_every_field_has_a_strict_grammar(option: str, value: str, field: str, tmp_path: Path) -> None:
    run = run_cli("hosts", "add", "h", "me@box", f"{option}={value}", cwd=tmp_path)
    assert run.returncode == 1
    assert field in run.output
    assert "\x1b" not in run.output  # control bytes are shown escaped
    assert not profiles_path().exists()
    _no_marker(tmp_path)


@pytest.mark.parametrize("destination", ["me@", "@box", "-oProxyCommand=x", "me@box:22", "me@b ox", "me;id@box",
                                         "ssh://me@box", "me@[::1]", "me@box.."])
def test_destinations_outside_the_grammar_are_refused(destination: str, tmp_path: Path) -> None:
    run = run_cli("hosts", "add", "h", "--", destination, cwd=tmp_path)
    assert run.returncode == 1
    assert "ssh destination" in run.output


@pytest.mark.parametrize("name", ["", "-x", "a b", "a/b", "a\x07"])
def test_profile_names_outside_the_grammar_are_refused(name: str, tmp_path: Path) -> None:
    run = run_cli("hosts", "add", "--", name, "me@box", cwd=tmp_path)
    assert run.returncode == 1
    assert "profile name" in run.output


def test_valid_values_are_accepted(tmp_path: Path) -> None:
    run = run_cli("hosts", "add", "npu-1.lab_2", "deploy.user@npu-01.example.com", "--port", "2222",
                  "--proxy-jump", "gw,me@10.0.0.1:2200,[::1]:22,admin@fd00::5", "--identity-file", "~/.ssh/id_npu",
                  "--work-dir", "~/afs-builds", "--ascend-home", "/usr/local/Ascend/latest",
                  "--remote-python", "/usr/bin/python3.9", "--known-hosts-file", "/home/张三/.ssh/kh", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    for destination in ("10.1.2.3", "root@::1", "box"):
        assert run_cli("hosts", "set", "npu-1.lab_2", "--destination", destination).returncode == 0
    assert load_profiles()[0].destination == "box"


def test_hand_edited_wrong_types_fail_alone_and_name_their_entry(tmp_path: Path) -> None:
    _write_hosts([{"name": None, "destination": "x"}, {"name": "n", "destination": 5},
                  {"name": "p", "destination": "a@b", "port": "abc"}, {"name": "t", "destination": "a@b", "port": True},
                  {"name": "f", "destination": "a@b", "port": 22.0}, {"name": "ok", "destination": "me@box"}, 7,
                  {"destination": "a@b"}])
    run = run_cli("hosts", "list", cwd=tmp_path)
    assert run.returncode == 1
    assert run.stdout.splitlines() == ["ok\tme@box\twork_dir=/tmp/autofuse-studio python=python3"]
    for expected in ("Entry 1 of", "'name' must be a text value, not null", "Entry 2 ('n')", "'destination'",
                     "Entry 3 ('p')", "Port 'abc'", "Entry 4 ('t')", "Port true", "Entry 5 ('f')", "Port 22.0",
                     "Entry 7 of", "Entry 8 of"):
        assert expected in run.output
    # The valid entry is still usable, and a broken one can be repaired from the terminal.
    listed = run_cli("att", "verify-tiling", "--list-hosts")
    assert listed.stdout.splitlines() == ["ok\tme@box"]
    assert run_cli("hosts", "set", "p", "--port", "22").returncode == 0
    assert [profile.name for profile in load_profiles()] == ["p", "ok"]
    assert "Entry 2 ('n')" in run_cli("hosts", "remove", "p").stderr + run_cli("hosts", "list").stderr


@pytest.mark.parametrize("content", [b"\xff\xfe{", b"[" * 100_000 + b"]" * 100_000, b'{"hosts": 3}', b"[]",
                                     b'{"hosts": [{"name": "a", "destination": "b", "port": 1' + b"0" * 5000 + b"}]}"])
def test_a_damaged_hosts_file_is_one_sentence(content: bytes, tmp_path: Path) -> None:
    path = profiles_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    run = run_cli("hosts", "list", cwd=tmp_path)
    assert run.returncode == 1
    assert str(path) in run.output
    assert run_cli("hosts", "add", "x", "me@box").returncode == 1
    assert path.read_bytes() == content  # never overwritten


def test_ssh_argv_checks_the_profile_again() -> None:
    for profile in (HostProfile("h", "127.0.0.1", proxy_jump=INJECTION), HostProfile("h", "-oProxyCommand=x"),
                    HostProfile("h", "me@box", port=True), HostProfile("h", "me@box", python="python3; id")):
        with pytest.raises(AppError, match="refused"):
            ssh_argv(profile, "true")
    with pytest.raises(AppError, match="connect timeout"):
        ssh_argv(HostProfile("h", "me@box"), "true", 0)


# --- The tiling process: results over a runner-owned channel, every descendant stopped -----------------------

TILING_HEAD = """#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>
#include "autofuse_tiling_data.h"
#include "stub_sdk.h"

extern "C" size_t GetTilingDataSize() { return sizeof(AutofuseTilingData); }

static void daemonise(const char* pid_file, bool quiet) {
  if (fork() != 0) return;
  setsid();  // leaves the tiling process's session and group
  if (fork() != 0) _exit(0);  // and its parent: the grandchild is an orphan
  if (quiet) { int null = open("/dev/null", O_RDWR); dup2(null, 0); dup2(null, 1); dup2(null, 2); }
  FILE* out = fopen(pid_file, "w");
  fprintf(out, "%d", (int)getpid());
  fclose(out);
  for (;;) pause();
}

extern "C" int64_t AutofuseTiling(AutofuseTilingData* tiling, uint32_t* workspaceSize, uint32_t* blockDim,
                                  uint32_t aiv_num, uint32_t ub_size) {
  (void)tiling; (void)aiv_num; (void)ub_size;
"""
HOSTILE_BODIES = {
    # Prints the runner's old result marker itself and leaves before returning.
    "fake_result": r'printf("AFS_TILING_RESULT {\"ok\": true, \"block_dim\": 7, \"workspace_size\": 7}\n"); '
                   'fflush(stdout); _exit(0);',
    # A setsid'ed grandchild that keeps the output pipe, while the call itself hangs: the timeout case.
    "setsid_hang": 'daemonise("PID_FILE", false); for (;;) usleep(100000); return 0;',
    # A quiet setsid'ed grandchild left behind by a call that succeeds.
    "setsid_leave": 'daemonise("PID_FILE", true); usleep(200000); *blockDim = 3; *workspaceSize = 4; return 0;',
}


def _hostile_source(folder: Path, behaviour: str, pid_file: Path) -> Path:
    write_tf_source(folder)
    body = HOSTILE_BODIES[behaviour].replace("PID_FILE", str(pid_file))
    (folder / "Add_tiling_func.cpp").write_text(TILING_HEAD + "  " + body + "\n}\n")
    return folder


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_pid_file(pid_file: Path) -> int:
    import time

    for _ in range(50):
        if pid_file.exists() and pid_file.read_text():
            return int(pid_file.read_text())
        time.sleep(0.1)
    raise AssertionError("the daemon never started")


def _kill(pid_file: Path) -> None:
    import signal

    if pid_file.exists() and pid_file.read_text():
        with contextlib.suppress(OSError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


@needs_build
def test_printed_result_marker_is_not_a_result(sdk: Path, tmp_path: Path) -> None:
    source = _hostile_source(tmp_path / "src", "fake_result", tmp_path / "pid")
    run = run_cli("att", "verify-tiling", str(source), "-o", str(tmp_path / "out"), timeout=120)
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    assert run.returncode == 1, run.output
    assert result["status"] == "RUNTIME_FAILED"
    assert "without a result" in result["error"]
    assert "fields" not in result


@needs_build
@pytest.mark.parametrize("behaviour", ["setsid_hang", "setsid_leave"])
def test_a_setsid_grandchild_does_not_survive(behaviour: str, sdk: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "daemon.pid"
    source = _hostile_source(tmp_path / "src", behaviour, pid_file)
    try:
        run = run_cli("att", "verify-tiling", str(source), "-o", str(tmp_path / "out"), "--run-timeout", "2",
                      timeout=90)
        pid = _wait_pid_file(pid_file)
        assert not _alive(pid), f"the setsid'ed grandchild {pid} survived the run"
        result = json.loads((tmp_path / "out" / "result.json").read_text())
        if behaviour == "setsid_hang":
            assert run.returncode == 1
            assert "did not finish within the 2 s timeout" in result["error"]
        else:
            assert run.returncode == 0, run.output
            assert result["fields"] == {"block_dim": 3, "workspace_size": 4}
    finally:
        _kill(pid_file)


@pytest.fixture
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


@needs_build
@pytest.mark.parametrize("behaviour", ["fake_result", "setsid_hang"])
def test_remote_runs_keep_the_same_guarantees(behaviour: str, sshd: LocalSshd, sdk: Path, tmp_path: Path) -> None:
    save_profiles([sshd.profile(ascend_home=str(sdk))])
    pid_file = tmp_path / "daemon.pid"
    source = _hostile_source(tmp_path / "src", behaviour, pid_file)
    try:
        run = run_cli("att", "verify-tiling", str(source), "--host", "testhost", "-o", str(tmp_path / "out"),
                      "--run-timeout", "2", timeout=120)
        assert run.returncode == 1, run.output
        result = json.loads((tmp_path / "out" / "result.json").read_text())
        assert result["status"] == "RUNTIME_FAILED"
        if behaviour == "fake_result":
            assert "without a result" in result["error"]
        else:
            assert not _alive(_wait_pid_file(pid_file))
        assert list(sshd.work_root.iterdir()) == []
    finally:
        _kill(pid_file)
