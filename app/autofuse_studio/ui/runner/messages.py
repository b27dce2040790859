"""The runner's sentences in the UI language: how a run ended, where it ran, a CLI error line without its prefix.

The CLI keeps the reference tool's wording ("✗ 无法自动检测场景: …" before an English detail); shown as is in
an English or Chinese window that is two languages in one sentence. The UI says in its own language how
the run ended and quotes only the CLI's detail sentence.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from autofuse_studio.ui.process_runner import ProcessOutcome
from autofuse_studio.ui.runner.form import LOCAL

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("Context", "…") calls

EXIT_BAD_INPUT = 2  # verify-tiling: the inputs were refused, nothing was built
# "✗ ", "[verify-tiling] " and a heading in the reference's Chinese ("编译失败: ") before the detail.
_PREFIX = re.compile(r"^\s*(?:✗\s*)?(?:\[verify-tiling\]\s*)?(?:[^\x00-\x7f:：]*[\u3400-\u9fff][^:：]*[:：]\s*)?")

_CJK = re.compile(r"[\u3400-\u9fff]")


def host_label(host: str) -> str:
    """'this computer' for the local host (translated), the profile name otherwise."""
    return translate("RunnerMessages", "this computer") if host == LOCAL else host


def outcome_sentence(outcome: ProcessOutcome) -> str:
    """How the verify-tiling process ended, as one sentence in the UI language."""
    if outcome.cancelled:
        return translate("RunnerMessages", "The run was cancelled.")
    if outcome.timed_out:
        return translate("RunnerMessages", "The run was stopped: it took too long.")
    if outcome.exit_status == "not-started":
        return translate("RunnerMessages", "verify-tiling could not be started.")
    if outcome.exit_status == "crashed":
        crashed = translate("RunnerMessages", "verify-tiling crashed (%1).")
        return crashed.replace("%1", outcome.signal_name or "?")
    if outcome.exit_code == 0:
        return translate("RunnerMessages", "The run finished.")
    if outcome.exit_code == EXIT_BAD_INPUT:
        return translate("RunnerMessages", "The inputs were refused; nothing was built.")
    failed = translate("RunnerMessages", "The run failed with exit code %1.")
    return failed.replace("%1", str(outcome.exit_code))


def cli_detail(line: str) -> str:
    """A CLI error line without its marks and the reference's heading: the sentence that says what is wrong."""
    detail = _PREFIX.sub("", line, count=1).strip()
    return detail or line.strip()


def cli_error(lines: list[str]) -> str:
    """The last CLI error line that says something in words of its own (not just a reference heading)."""
    for line in reversed(lines):
        detail = cli_detail(line)
        if detail and not _CJK.search(detail):
            return detail
    return ""


def finished_message(host: str, status: str) -> str:
    """The status-bar sentence after a run: where it ran and the CLI's status word."""
    text = translate("RunnerMessages", "verify-tiling on %1: %2")
    return text.replace("%1", host_label(host)).replace("%2", status)
