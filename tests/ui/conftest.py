"""Fixtures shared by the UI tests: a TaskRunner, the ATT panels' AttJobs, the demo case in a GraphWorkbench, a
small TensorPanel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.tensor_view import ViewOptions
from autofuse_studio.ui.att.jobs import AttJobs, TaskStrip
from autofuse_studio.ui.errors import ErrorBanner
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from autofuse_studio.ui.tasks import TaskRunner
from tests.core.test_graphview_build import demo_case
from tests.synth import demo_spec, generate_case


@pytest.fixture
def tensor_panel(qtbot: QtBot) -> Iterator[TensorPanel]:
    """A shown TensorPanel with small view options (top 10, 64 cells, 4096-element blocks), shut down after."""
    widget = TensorPanel(options=ViewOptions(top_k=10, max_cells=64, block_elements=4096))
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()


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


@pytest.fixture
def demo_bench(qtbot: QtBot) -> Iterator[GraphWorkbench]:
    """The demo case in a shown GraphWorkbench (1400×800), fed as the main window does; layouts done."""
    af_open, af_close, mapping, result = demo_case()
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1400, 800)
    widget.show()
    qtbot.waitExposed(widget)
    with qtbot.waitSignals([widget.open_pane.layoutReady, widget.close_pane.layoutReady], timeout=20_000):
        widget.set_case(af_open, af_close, mapping, result)
    yield widget
    widget.shutdown()


@pytest.fixture(scope="module")
def demo_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated demo case (read-only), one per test module."""
    root = tmp_path_factory.mktemp("window") / "demo"
    generate_case(root, demo_spec())
    return root


@pytest.fixture
def chinese_window(qtbot: QtBot) -> Iterator[MainWindow]:
    """A shown main window in Chinese; English again afterwards."""
    widget = MainWindow()
    qtbot.addWidget(widget)
    widget.show()
    widget.set_language("zh_CN")
    qtbot.waitUntil(lambda: widget.workbench.notices.toggle.text() == "警告")  # LanguageChange is posted
    yield widget
    widget.set_language("en")
