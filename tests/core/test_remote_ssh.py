"""Remote builds over a real sshd on 127.0.0.1: success, unreachable port, wrong key, missing python3; argv."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.core.remote.profiles import HostProfile, find_profile, profile_problems, save_profiles
from autofuse_studio.core.remote.session import RemoteOptions, run_remote
from autofuse_studio.core.remote.ssh import RemoteError, remote_path, run_command, ssh_argv
from autofuse_studio.core.tiling.job import VerifyRequest, prepare
from tests.stub_sdk import expected, stub_sdk, write_tf_source
from tests.stub_sdk.sshd import LocalSshd, start_sshd


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


def test_ssh_argv_is_a_list_with_batch_mode() -> None:
    profile = HostProfile("h", "me@box", port=2222, identity_file="/k", proxy_jump="jump@gw")
    argv = ssh_argv(profile, "true", 7)
    assert argv[0] == "ssh"
    assert "BatchMode=yes" in argv
    assert "ConnectTimeout=7" in argv
    assert argv[argv.index("-J") + 1] == "jump@gw"
    assert argv[-3:] == ["--", "me@box", "true"]


def test_remote_strings_are_quoted() -> None:
    assert run_command("/w/a b; rm -rf /", "python3").startswith("cd '/w/a b; rm -rf /' && exec python3")
    assert remote_path("~/x y") == "\"$HOME\"/'x y'"


def test_profile_problems_and_storage() -> None:
    assert len(profile_problems(HostProfile("", "-oProxyCommand=x", port=0, work_dir="rel"))) == 4
    save_profiles([HostProfile("a", "me@box")])
    assert find_profile("a").destination == "me@box"
    with pytest.raises(Exception, match="No host profile named 'b'"):
        find_profile("b")


@pytest.fixture
def job_request(tmp_path: Path) -> VerifyRequest:
    return VerifyRequest(str(write_tf_source(tmp_path / "src")), output=str(tmp_path / "out"))


def test_remote_success_downloads_result_and_cleans_up(
        sshd: LocalSshd, tmp_path_factory: pytest.TempPathFactory, job_request: VerifyRequest) -> None:
    sdk = stub_sdk(tmp_path_factory)
    job_request.keep_build = True
    lines: list[str] = []
    outcome = run_remote(prepare(job_request), sshd.profile(ascend_home=str(sdk)), RemoteOptions(), lines.append)
    assert outcome.exit_code == 0, "\n".join(lines)
    assert outcome.result is not None
    assert outcome.result["status"] == "SUCCEEDED"
    assert outcome.result["fields"] == expected("tf_static", [])
    assert Path(outcome.result["so_path"]).is_file()  # the downloaded copy, valid here
    assert (Path(job_request.output) / "build.log").read_text()
    assert "✓ cmake OK" in lines
    assert list(sshd.work_root.iterdir()) == []  # remote folder removed


def test_remote_missing_cann_is_a_sentence(sshd: LocalSshd, tmp_path: Path, job_request: VerifyRequest) -> None:
    outcome = run_remote(prepare(job_request), sshd.profile(ascend_home=str(tmp_path / "nope")),
                         RemoteOptions(), lambda _line: None)
    assert outcome.result is not None
    assert "The CANN toolkit was not found" in outcome.result["error"]


@pytest.mark.parametrize(("changes", "message"), [
    ({"port": 1}, "connection was refused"),
    ({"identity_file": "OTHER"}, "refused the key"),
    ({"python": "/nonexistent/python3"}, "/nonexistent/python3 was not found on host"),
])
def test_remote_failures_are_clear(sshd: LocalSshd, job_request: VerifyRequest,
                                   changes: dict[str, object], message: str) -> None:
    if changes.get("identity_file") == "OTHER":
        changes = {"identity_file": str(sshd.other_key)}
    with pytest.raises(RemoteError, match=message):
        run_remote(prepare(job_request), sshd.profile(**changes), RemoteOptions(connect_timeout=5), lambda _l: None)
    assert list(sshd.work_root.iterdir()) == []

