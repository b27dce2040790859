"""Fixtures shared by the UI tests: a TaskRunner, and the ATT panels' AttJobs with its banner and strip."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.att.jobs import AttJobs, TaskStrip
from autofuse_studio.ui.errors import ErrorBanner
from autofuse_studio.ui.tasks import TaskRunner


@pytest.fixture
def runner() -> Iterator[TaskRunner]:
    """A TaskRunner, shut down after the test."""
    task_runner = TaskRunner()
    yield task_runner
    task_runner.shutdown()


@pytest.fixture
def jobs(qtbot: QtBot, runner: TaskRunner) -> AttJobs:
    """AttJobs on `runner`, with its error banner and task strip owned by qtbot."""
    banner, strip = ErrorBanner(), TaskStrip()
    for widget in (banner, strip):
        qtbot.addWidget(widget)
    return AttJobs(runner, strip, banner)
