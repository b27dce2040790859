"""`autofuse-studio hosts`: profiles added, listed, changed and removed from a terminal; bad input is a sentence."""

from __future__ import annotations

import pytest

from autofuse_studio.cli import main
from autofuse_studio.core.remote.profiles import HostProfile, find_profile, load_profiles


def test_add_list_set_remove(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hosts", "add", "npu", "me@box", "--port", "2222", "--proxy-jump", "jump@gw",
                 "--identity-file", "/keys/id", "--ascend-home", "/usr/local/Ascend/latest",
                 "--remote-python", "/usr/bin/python3.9", "--work-dir", "~/builds"]) == 0
    assert find_profile("npu") == HostProfile("npu", "me@box", port=2222, identity_file="/keys/id",
                                              proxy_jump="jump@gw", work_dir="~/builds",
                                              ascend_home="/usr/local/Ascend/latest", python="/usr/bin/python3.9")
    assert main(["hosts", "add", "second", "ci"]) == 0
    capsys.readouterr()
    assert main(["hosts", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[:2] for line in lines] == [["npu", "me@box:2222 via jump@gw"], ["second", "ci"]]
    assert main(["hosts", "set", "npu", "--port", "22", "--destination", "you@box"]) == 0
    changed = find_profile("npu")
    assert (changed.destination, changed.port, changed.proxy_jump) == ("you@box", 22, "jump@gw")
    assert main(["hosts", "remove", "second"]) == 0
    assert [profile.name for profile in load_profiles()] == ["npu"]
    # verify-tiling sees the same profiles.
    capsys.readouterr()
    assert main(["att", "verify-tiling", "--list-hosts"]) == 0
    assert capsys.readouterr().out.startswith("npu\tyou@box:22 via jump@gw")


@pytest.mark.parametrize(("argv", "code", "message"), [
    (["hosts", "add", "x", "--", "-oProxyCommand=evil"], 1, "must be user@host"),
    (["hosts", "add", "x", "me@box", "--port", "70000"], 1, "Port 70000"),
    (["hosts", "add", "x", "me@box", "--work-dir", "relative"], 1, "must be absolute"),
    (["hosts", "set", "ghost", "--port", "22"], 1, "No host profile named 'ghost'"),
    (["hosts", "remove", "ghost"], 1, "No host profile named 'ghost'"),
])
def test_bad_input_is_a_sentence_and_saves_nothing(argv: list[str], code: int, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == code
    assert message in capsys.readouterr().err
    assert load_profiles() == []


def test_adding_a_name_twice_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hosts", "add", "npu", "me@box"]) == 0
    assert main(["hosts", "add", "npu", "other@box"]) == 2
    assert "exists already" in capsys.readouterr().err
    assert find_profile("npu").destination == "me@box"


def test_list_without_profiles_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hosts", "list"]) == 0
    assert "No host profiles saved yet" in capsys.readouterr().err
