"""ProcessRunner: live UTF-8 output, exit codes, timeout, cancel, crash and missing-program sentences."""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio import __version__
from autofuse_studio.ui.process_runner import ProcessOutcome, ProcessRunner, frozen_command

TIMEOUT_MS = 20000


def python(script: str) -> list[str]:
    """argv running a short Python script in a fresh interpreter."""
    return [sys.executable, "-c", textwrap.dedent(script)]


@pytest.fixture
def runner() -> Iterator[ProcessRunner]:
    process_runner = ProcessRunner(grace_period=0.5)
    yield process_runner
    # Never leave a child behind (and never destroy a running QProcess).
    assert not process_runner.is_running()


def run(qtbot: QtBot, runner: ProcessRunner, argv: list[str], **options: Any) -> tuple[ProcessOutcome, str]:
    """Start argv, wait for finished, return the outcome and all output text."""
    chunks: list[str] = []
    runner.output.connect(chunks.append)
    with qtbot.waitSignal(runner.finished, timeout=TIMEOUT_MS) as blocker:
        runner.start(argv, **options)
    runner.output.disconnect(chunks.append)
    return blocker.args[0], "".join(chunks)


def test_output_arrives_live_before_the_process_ends(
    qtbot: QtBot, runner: ProcessRunner, tmp_path: Path
) -> None:
    go = tmp_path / "go"
    script = f"""
        import pathlib, time
        print("first", flush=True)
        deadline = time.monotonic() + 30
        while not pathlib.Path({str(go)!r}).exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        print("second")
    """
    chunks: list[str] = []
    runner.output.connect(chunks.append)
    with qtbot.waitSignal(runner.output, timeout=TIMEOUT_MS):
        runner.start(python(script), what="build")
    assert "first" in "".join(chunks)
    assert runner.is_running()
    with qtbot.waitSignal(runner.finished, timeout=TIMEOUT_MS) as blocker:
        go.touch()
    outcome: ProcessOutcome = blocker.args[0]
    assert "".join(chunks).splitlines() == ["first", "second"]
    assert outcome.ok
    assert outcome.message == "The build finished."


def test_utf8_split_across_writes_and_invalid_bytes(qtbot: QtBot, runner: ProcessRunner) -> None:
    script = r"""
        import sys, time
        out = sys.stdout.buffer
        out.write("精度".encode()[:4]); out.flush(); time.sleep(0.05)
        out.write("精度".encode()[4:] + b"\xff\n"); out.flush()
    """
    outcome, text = run(qtbot, runner, python(script))
    assert outcome.ok
    assert text == "精度\ufffd\n"


def test_separate_channels(qtbot: QtBot, runner: ProcessRunner) -> None:
    errors: list[str] = []
    runner.stderrOutput.connect(errors.append)
    script = "import sys; print('out'); print('err', file=sys.stderr)"
    outcome, text = run(qtbot, runner, python(script), merge_channels=False)
    assert text == "out\n"
    assert "".join(errors) == "err\n"
    assert outcome.tail.count("err") == 1


def test_merged_channels_by_default(qtbot: QtBot, runner: ProcessRunner) -> None:
    script = "import sys; print('out', flush=True); print('err', file=sys.stderr)"
    _outcome, text = run(qtbot, runner, python(script))
    assert sorted(text.split()) == ["err", "out"]


def test_exit_code_cwd_and_env(qtbot: QtBot, runner: ProcessRunner, tmp_path: Path) -> None:
    script = "import os, sys; print(os.getcwd()); print(os.environ['AF_TEST_VALUE']); sys.exit(3)"
    outcome, text = run(
        qtbot, runner, python(script), cwd=tmp_path, env={"AF_TEST_VALUE": "x y"}, what="build"
    )
    assert text.splitlines() == [str(tmp_path.resolve()), "x y"]
    assert outcome.exit_code == 3
    assert outcome.exit_status == "normal"
    assert not outcome.ok
    assert outcome.message == "The build failed with exit code 3."


def test_timeout_stops_the_process(qtbot: QtBot, runner: ProcessRunner) -> None:
    outcome, _text = run(qtbot, runner, python("import time; time.sleep(60)"), timeout=0.5)
    assert outcome.timed_out
    assert outcome.signal_name == "SIGTERM"
    assert outcome.message == "The process was stopped after the 0.5 s timeout."


def test_cancel_is_terminate_then_kill_after_grace(qtbot: QtBot, runner: ProcessRunner) -> None:
    script = """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("ready", flush=True)
        time.sleep(60)
    """
    with qtbot.waitSignal(runner.output, timeout=TIMEOUT_MS):
        runner.start(python(script), what="verify-tiling run")
    with qtbot.waitSignal(runner.finished, timeout=TIMEOUT_MS) as blocker:
        runner.cancel()
    outcome: ProcessOutcome = blocker.args[0]
    assert outcome.cancelled
    assert outcome.signal_name == "SIGKILL"  # SIGTERM was ignored, the grace period ran out
    assert outcome.message == "The verify-tiling run was cancelled."


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"  # a zombie waiting for its new parent counts as gone


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_cancel_reaches_grandchildren(qtbot: QtBot, runner: ProcessRunner) -> None:
    script = """
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(child.pid, flush=True)
        time.sleep(60)
    """
    with qtbot.waitSignal(runner.output, timeout=TIMEOUT_MS) as blocker:
        runner.start(python(script))
    grandchild = int(blocker.args[0].split()[0])
    with qtbot.waitSignal(runner.finished, timeout=TIMEOUT_MS):
        runner.cancel()
    qtbot.waitUntil(lambda: _gone(grandchild), timeout=TIMEOUT_MS)


def test_crash_names_the_signal(qtbot: QtBot, runner: ProcessRunner) -> None:
    script = """
        import os, resource, signal
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file from this deliberate crash
        os.kill(os.getpid(), signal.SIGSEGV)
    """
    outcome, _text = run(qtbot, runner, python(script), what="program")
    assert outcome.exit_status == "crashed"
    assert outcome.signal_name == "SIGSEGV"
    assert outcome.exit_code is None
    assert outcome.message == "The program crashed (SIGSEGV)."


def test_missing_program(qtbot: QtBot, runner: ProcessRunner) -> None:
    outcomes: list[ProcessOutcome] = []
    runner.finished.connect(outcomes.append)
    outcome, _text = run(qtbot, runner, ["cmake-not-installed-here", "--version"], what="build")
    assert outcome.exit_status == "not-started"
    assert outcome.message == "cmake-not-installed-here was not found."
    qtbot.wait(50)  # let any stray second signal arrive
    assert len(outcomes) == 1


def test_missing_program_path(qtbot: QtBot, runner: ProcessRunner, tmp_path: Path) -> None:
    outcome, _text = run(qtbot, runner, [str(tmp_path / "bin" / "cmake")])
    assert outcome.message == "cmake was not found."


def test_runner_is_reusable_and_refuses_two_at_once(qtbot: QtBot, runner: ProcessRunner) -> None:
    with qtbot.waitSignal(runner.finished, timeout=TIMEOUT_MS):
        runner.start(python("import time; time.sleep(0.2)"))
        with pytest.raises(RuntimeError, match="already running"):
            runner.start(python("pass"))
    outcome, _text = run(qtbot, runner, python("print('again')"))
    assert outcome.ok


def test_kill_all(qtbot: QtBot) -> None:
    runners = [ProcessRunner(), ProcessRunner()]
    for each in runners:
        each.start(python("import time; time.sleep(60)"))
    with qtbot.waitSignals([each.finished for each in runners], timeout=TIMEOUT_MS) as blocker:
        ProcessRunner.kill_all()
    outcomes = [signal.args[0] for signal in blocker.all_signals_and_args]
    assert all(outcome.cancelled and outcome.signal_name == "SIGKILL" for outcome in outcomes)
    assert not any(each.is_running() for each in runners)


def test_frozen_command_from_source_runs_this_program(qtbot: QtBot, runner: ProcessRunner) -> None:
    argv = frozen_command(["--version"])
    assert argv == [sys.executable, "-m", "autofuse_studio", "--version"]
    outcome, text = run(qtbot, runner, argv)
    assert outcome.ok
    assert __version__ in text


def test_frozen_command_in_a_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    bundle_exe = os.path.join("opt", "autofuse-studio", "autofuse-studio")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", bundle_exe)
    assert frozen_command(["att", "summary", "log.txt"]) == [bundle_exe, "att", "summary", "log.txt"]
