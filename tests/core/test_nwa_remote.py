"""The `nwa --host` remote command line: every word reaches the program literally through a POSIX shell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.remote.nwa_remote import gated_command_line, nwa_command_line, nwa_words, word_problem
from autofuse_studio.core.run.spec import DEFAULT_REMOTE_COMMAND, LOCAL, OnHost, RunSpec, mode1_spec, spec_from_record

HOSTILE = ["/a b/c", "/x;touch {m}", "/x$(touch {m})", "/x`touch {m}`", "/x' ; touch {m}; '", '/x" && touch {m}"',
           "/x | touch {m}", "/x\\\\y", "/x*?[a]", "/x{a,b}", "/路径/数据", "/x#c", "/x~y", "/x%n%s", "/x  y "]


def RemoteNwaRequest(*paths: str, remote_command: str = DEFAULT_REMOTE_COMMAND, **options: object) -> RunSpec:
    """A mode-1 spec that runs on host 'h' (the shape the tests below were written for)."""
    return mode1_spec(paths, where=OnHost("h", remote_command), **options)


def _echo_argv(folder: Path) -> str:
    script = folder / "echo-argv"
    script.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("template", HOSTILE)
def test_words_arrive_literally_and_run_nothing(tmp_path: Path, template: str) -> None:
    marker = tmp_path / "ran"
    value = template.replace("{m}", str(marker))
    assert word_problem(value) is None
    request = RemoteNwaRequest(value, value, value, value, step=value, ranks=["0", "2"], jobs=3,
                               thresholds=Thresholds(Limits(0.1 + 0.2, None, 1e-3)), remote_command=_echo_argv(tmp_path))
    done = subprocess.run(["/bin/sh", "-c", nwa_command_line(request, "h")], capture_output=True, text=True,
                          check=True, cwd=tmp_path)
    assert json.loads(done.stdout) == nwa_words(request)
    assert not marker.exists()


def test_the_gated_line_runs_only_after_go(tmp_path: Path) -> None:
    echo = _echo_argv(tmp_path)
    request = RemoteNwaRequest("/g1", "/g2", "/d1", "/d2", remote_command=echo)
    line = gated_command_line(request, "h")
    stopped = subprocess.run(["/bin/sh", "-c", line], input="", capture_output=True, text=True, check=False)
    assert stopped.stdout.splitlines() == ['AFS-VERSION ["--version"]']  # no go: the run never starts
    went = subprocess.run(["/bin/sh", "-c", line], input="go\n", capture_output=True, text=True, check=True)
    assert json.loads(went.stdout.splitlines()[1]) == nwa_words(request)
    missing = subprocess.run(["/bin/sh", "-c", gated_command_line(RemoteNwaRequest(
        "/g1", "/g2", "/d1", "/d2", remote_command=str(tmp_path / "nothing")), "h")], input=b"go\n",
        capture_output=True, check=False)
    assert missing.returncode == 127 and missing.stdout == b""


@pytest.mark.parametrize(("value", "reason"), [
    ("-x", "starts with '-'"), ("", "empty"), ("/a\nb", "control character"), ("/a\x00b", "control character"),
    ("/a\u202eb", "control character"), ("/a\tb", "control character"), ("/" + "a" * 2000, "longer than")])
def test_unsendable_words_are_refused(value: str, reason: str) -> None:
    request = RemoteNwaRequest("/g1", value, "/d1", "/d2")
    with pytest.raises(InputError, match=reason):
        nwa_command_line(request, "h")


@pytest.mark.parametrize("command", ["a b", "x;y", "$(id)", "-v", "rel/path", "~user/x", "/opt/a b"])
def test_remote_command_grammar(command: str) -> None:
    with pytest.raises(InputError, match="--remote-command"):
        nwa_command_line(RemoteNwaRequest("/g1", "/g2", "/d1", "/d2", remote_command=command), "h")


def test_the_spec_travels_as_one_json_word_run_there_locally(tmp_path: Path) -> None:
    spec = RemoteNwaRequest("/g1", "/g2", "/d1", "/d2", step="3", ranks=["0", "2"], jobs=3, compare_input=True,
                            thresholds=Thresholds(Limits(0.1 + 0.2, None, 1e-3)), remote_command=_echo_argv(tmp_path))
    done = subprocess.run(["/bin/sh", "-c", nwa_command_line(spec, "h", producers=True)], capture_output=True,
                          text=True, check=True)
    argv = json.loads(done.stdout)
    assert argv[:4] == ["nwa", "--emit-jsonl", "--watch-stdin", "--emit-producers"]
    assert argv[4] == "--run-spec"
    sent = spec_from_record(json.loads(argv[5]))
    assert sent == RunSpec("/g1", "/g2", "/d1", "/d2", step="3", ranks=("0", "2"), jobs=3, compare_input=True,
                           thresholds=spec.thresholds, where=LOCAL)  # the limits exact, the host runs it locally


def test_home_relative_paths_expand_on_the_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.cli.run_args import home_expanded

    spec = RemoteNwaRequest("~/g 1", "/g2", "~user/d1", "/d2", remote_command=_echo_argv(tmp_path))
    done = subprocess.run(["/bin/sh", "-c", nwa_command_line(spec, "h")], capture_output=True, text=True,
                          check=True, env={"HOME": "/home/som eone", "PATH": "/usr/bin:/bin"})
    monkeypatch.setenv("HOME", "/home/som eone")
    there = home_expanded(spec_from_record(json.loads(json.loads(done.stdout)[-1])))
    assert there.af_open_graph == "/home/som eone/g 1"
    assert there.af_open_data == "~user/d1"  # only ~/ is the host user's home, as the shell word was before
