"""The one QProcess wrapper: live UTF-8 output, timeout, cancel, and an outcome with a human sentence."""

from __future__ import annotations

import codecs
import contextlib
import logging
import os
import shutil
import signal
import sys
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Literal

from PySide6.QtCore import QCoreApplication, QObject, QProcess, QProcessEnvironment, QTimer, Signal

log = logging.getLogger(__name__)

ExitStatus = Literal["normal", "crashed", "not-started"]
GRACE_PERIOD_S = 3.0  # between SIGTERM and SIGKILL: enough for cmake/make to clean up
TAIL_CHARS = 8000


def frozen_command(subcommand_args: Sequence[str]) -> list[str]:
    """argv that re-runs this program with a subcommand: the bundle's executable when frozen."""
    if getattr(sys, "frozen", False):
        return [sys.executable, *subcommand_args]
    return [sys.executable, "-m", "autofuse_studio", *subcommand_args]


def signal_name(number: int) -> str:
    """SIGSEGV for 11, or 'signal 99' for numbers Python does not know."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


@dataclass(frozen=True)
class ProcessOutcome:
    """How a child process ended; `message` is the sentence to show the user."""

    program: str
    exit_code: int | None
    exit_status: ExitStatus
    signal_name: str | None = None
    timed_out: bool = False
    cancelled: bool = False
    error: str | None = None
    tail: str = ""
    message: str = ""

    @property
    def ok(self) -> bool:
        """True when the program ran to the end and exited with code 0."""
        return self.exit_status == "normal" and self.exit_code == 0 and not (self.timed_out or self.cancelled)


def _new_decoders() -> dict[str, codecs.IncrementalDecoder]:
    # Incremental: a multi-byte character split across two reads still decodes correctly.
    return {name: codecs.getincrementaldecoder("utf-8")(errors="replace") for name in ("out", "err")}


def _not_started_message(program: str, env: QProcessEnvironment, error: str) -> str:
    name = Path(program).name or program
    if os.sep in program:
        found = os.path.exists(program)
    else:
        found = shutil.which(program, path=env.value("PATH", os.environ.get("PATH", ""))) is not None
    if not found:
        return f"{name} was not found."
    return f"{name} could not be started ({error})."


def describe(outcome: ProcessOutcome, subject: str, timeout: float | None) -> str:
    """The human sentence for an outcome; subject is e.g. 'The build'."""
    if outcome.cancelled:
        return f"{subject} was cancelled."
    if outcome.timed_out:
        return f"{subject} was stopped after the {timeout:g} s timeout."
    if outcome.exit_status == "crashed":
        return f"{subject} crashed ({outcome.signal_name})."
    if outcome.exit_code == 0:
        return f"{subject} finished."
    return f"{subject} failed with exit code {outcome.exit_code}."


class ProcessRunner(QObject):
    """Runs one child process at a time from an argv list (never a shell string)."""

    output = Signal(str)  # stdout, plus stderr when channels are merged
    stderrOutput = Signal(str)  # stderr when started with merge_channels=False
    finished = Signal(object)  # ProcessOutcome, exactly once per start()

    _running: ClassVar[weakref.WeakSet[ProcessRunner]] = weakref.WeakSet()
    _quit_hooked: ClassVar[bool] = False

    def __init__(self, parent: QObject | None = None, grace_period: float = GRACE_PERIOD_S) -> None:
        super().__init__(parent)
        self.grace_period = grace_period
        self._process: QProcess | None = None
        self._timeout: float | None = None
        self._subject = "The process"
        self._flags = {"timed_out": False, "cancelled": False}
        self._tail = ""
        self._decoders = _new_decoders()
        self._timeout_timer = QTimer(self, singleShot=True)
        self._timeout_timer.timeout.connect(self._on_timeout_timer_timeout)
        self._kill_timer = QTimer(self, singleShot=True)
        self._kill_timer.timeout.connect(self._on_kill_timer_timeout)
        self._hook_app_quit()

    @classmethod
    def _hook_app_quit(cls) -> None:
        app = QCoreApplication.instance()
        if app is not None and not cls._quit_hooked:
            app.aboutToQuit.connect(cls.kill_all)
            cls._quit_hooked = True

    @classmethod
    def kill_all(cls) -> None:
        """Kill every running child at once (app quit); their finished signals still follow."""
        for runner in list(cls._running):
            runner.kill()

    def is_running(self) -> bool:
        """True between start() and the finished signal."""
        return self._process is not None

    def start(
        self,
        argv: Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
        what: str = "process",
        merge_channels: bool = True,
    ) -> None:
        """Start argv; env entries are added to the inherited environment; timeout is in seconds."""
        if self._process is not None:
            raise RuntimeError("ProcessRunner is already running a process")
        if not argv:
            raise ValueError("argv must name a program")
        self._subject, self._timeout, self._tail = f"The {what}", timeout, ""
        self._flags = {"timed_out": False, "cancelled": False}
        process = QProcess(self)
        process.setProgram(str(argv[0]))
        process.setArguments([str(arg) for arg in argv[1:]])
        environment = QProcessEnvironment.systemEnvironment()
        for key, value in (env or {}).items():
            environment.insert(key, value)
        process.setProcessEnvironment(environment)
        if cwd is not None:
            process.setWorkingDirectory(os.fspath(cwd))
        mode = QProcess.ProcessChannelMode
        process.setProcessChannelMode(mode.MergedChannels if merge_channels else mode.SeparateChannels)
        if sys.platform != "win32":
            # Own session: cancel reaches grandchildren (cmake -> make -> cc); default SIGPIPE for them.
            flags = QProcess.UnixProcessFlag
            process.setUnixProcessParameters(flags.CreateNewSession | flags.ResetSignalHandlers)
        process.readyReadStandardOutput.connect(self._on_process_stdout)
        process.readyReadStandardError.connect(self._on_process_stderr)
        process.finished.connect(self._on_process_finished)
        process.errorOccurred.connect(self._on_process_error)
        self._process = process
        self._running.add(self)
        log.info("starting %s", " ".join(argv))
        process.start()
        if timeout is not None:
            self._timeout_timer.start(max(1, round(timeout * 1000)))

    def cancel(self) -> None:
        """Stop the process: SIGTERM to its process group, SIGKILL after the grace period."""
        if self._process is not None:
            self._flags["cancelled"] = True
            self._terminate()

    def kill(self) -> None:
        """Stop the process now with SIGKILL (counts as cancelled)."""
        if self._process is not None:
            self._flags["cancelled"] = True
            self._signal_group(signal.SIGKILL)

    def kill_and_wait(self, msecs: int = 3000) -> None:
        """Kill the process and wait for it (its finished signal is emitted before this returns)."""
        process = self._process
        if process is not None:
            self.kill()
            process.waitForFinished(msecs)

    def _terminate(self) -> None:
        self._signal_group(signal.SIGTERM)
        if not self._kill_timer.isActive():
            self._kill_timer.start(max(1, round(self.grace_period * 1000)))

    def _signal_group(self, sig: signal.Signals) -> None:
        process = self._process
        if process is None or process.state() == QProcess.ProcessState.NotRunning:
            return
        pid = process.processId()
        if sys.platform == "win32" or pid <= 0:
            if sig == signal.SIGKILL:
                process.kill()
            else:
                process.terminate()
            return
        # ProcessLookupError: it ended between the state check and the signal.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, sig)

    def _on_timeout_timer_timeout(self) -> None:
        self._flags["timed_out"] = True
        self._terminate()

    def _on_kill_timer_timeout(self) -> None:
        self._signal_group(signal.SIGKILL)

    def _emit_text(self, channel: str, data: bytes | bytearray | memoryview, final: bool = False) -> None:
        text = self._decoders[channel].decode(bytes(data), final)
        if not text:
            return
        self._tail = (self._tail + text)[-TAIL_CHARS:]
        (self.stderrOutput if channel == "err" else self.output).emit(text)

    def _on_process_stdout(self) -> None:
        if self._process is not None:
            self._emit_text("out", self._process.readAllStandardOutput().data())

    def _on_process_stderr(self) -> None:
        # With merged channels there is no stderr to read (Qt warns "Called with MergedChannels").
        process = self._process
        if process is not None and process.processChannelMode() != QProcess.ProcessChannelMode.MergedChannels:
            self._emit_text("err", process.readAllStandardError().data())

    def _on_process_error(self, error: QProcess.ProcessError) -> None:
        process = self._process
        if process is None or error != QProcess.ProcessError.FailedToStart:
            return  # crashes and timeouts are reported by finished
        message = _not_started_message(process.program(), process.processEnvironment(), process.errorString())
        outcome = ProcessOutcome(
            process.program(), None, "not-started", error=process.errorString(), message=message
        )
        self._finish(outcome)

    def _on_process_finished(self, exit_code: int, exit_status: QProcess.ExitStatus) -> None:
        process = self._process
        if process is None:
            return
        # Drain what arrived after the last readyRead, then flush split UTF-8 sequences.
        self._on_process_stdout()
        self._on_process_stderr()
        self._emit_text("out", b"", final=True)
        self._emit_text("err", b"", final=True)
        crashed = exit_status == QProcess.ExitStatus.CrashExit
        outcome = ProcessOutcome(
            program=process.program(),
            exit_code=None if crashed else exit_code,
            exit_status="crashed" if crashed else "normal",
            # On Unix Qt reports the terminating signal's number as the exit code of a crash.
            signal_name=signal_name(exit_code) if crashed else None,
            timed_out=self._flags["timed_out"],
            cancelled=self._flags["cancelled"],
            tail=self._tail,
        )
        self._finish(outcome)

    def _finish(self, outcome: ProcessOutcome) -> None:
        if not outcome.message:
            outcome = replace(outcome, message=describe(outcome, self._subject, self._timeout))
        self._timeout_timer.stop()
        self._kill_timer.stop()
        process, self._process = self._process, None
        self._running.discard(self)
        self._decoders = _new_decoders()
        if process is not None:
            process.deleteLater()
        log.info("%s (%s)", outcome.message, outcome.program)
        self.finished.emit(outcome)
