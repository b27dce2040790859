"""SplitPanel: split in the background, tree operator → side → result → group → case, text search, export."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.workspace import load_workspace
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.split_panel import SplitPanel
from tests.synth.att_log import SyntheticShape
from tests.synth.att_perf_log import write_synthetic_perf_log

TIMEOUT_MS = 10000


@pytest.fixture
def panel(qtbot: QtBot, jobs: AttJobs, tmp_path: Path) -> Iterator[SplitPanel]:
    log = tmp_path / "run.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=2, results=2, groups=2, cases=3))
    widget = SplitPanel(jobs)
    qtbot.addWidget(widget)
    widget.set_workspace(load_workspace([log]))
    with qtbot.waitSignal(widget.splitDone, timeout=TIMEOUT_MS):
        widget.ensure_split()
    yield widget
    widget.cleanup()


def _children(model: object, index: object) -> list[str]:
    return [model.index(r, 0, index).data() for r in range(model.rowCount(index))]  # type: ignore[attr-defined]


def test_tree_levels(panel: SplitPanel, qtmodeltester: ModelTester) -> None:
    qtmodeltester.check(panel.model)
    model = panel.model
    root = model.index(0, 0).parent()
    assert _children(model, root) == ["Op0", "Op1"]
    op1 = model.index(1, 0)
    assert _children(model, op1) == ["compiler", "runtime"]
    compiler_results = model.index(0, 0, op1)
    assert _children(model, compiler_results) == ["graph0_result0", "graph0_result1"]
    runtime_result = model.index(1, 0, model.index(1, 0, op1))
    assert _children(model, runtime_result) == ["g0", "g1", "selection"]
    assert _children(model, model.index(0, 0, runtime_result)) == ["case0", "case1", "case2"]


def test_case_text_and_search(panel: SplitPanel) -> None:
    assert panel.select_path("Op1/runtime/graph0_result1/g1/case2.log")
    text = panel.viewer.text.toPlainText()
    assert "[Op1] [PROF]The value of s0t_size is" in text and "graph0_result1_g1_2" in text
    assert all("g1_2" in line or "g1_R2" in line for line in text.splitlines())
    panel.viewer.search.setText("AIV_MTE")
    assert panel.viewer.matches.text() == f"{text.count('AIV_MTE')} match(es)"
    assert panel.viewer.find_next()
    assert panel.viewer.text.textCursor().selectedText() == "AIV_MTE"
    assert panel.select_path("Op0/compiler/graph0_result0/g0/case1.log")
    assert "model info of Op0 result 0 group 0 case 1" in panel.viewer.text.toPlainText()
    assert not panel.select_path("Nope/case0.log")


def test_export_never_overwrites(panel: SplitPanel, qtbot: QtBot, tmp_path: Path) -> None:
    target = tmp_path / "exported" / "split"
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT_MS) as first:
        panel.export(target)
    with qtbot.waitSignal(panel.exported, timeout=TIMEOUT_MS) as second:
        panel.export(target)
    assert first.args == [str(target)] and second.args == [str(target.with_name("split-2"))]
    assert (target / "Op1" / "runtime" / "graph0_result1" / "g1" / "case2.log").is_file()
    assert (target.with_name("split-2") / "Op1" / "runtime" / "graph0_result1" / "selection.log").is_file()


def test_new_logs_drop_the_old_split(panel: SplitPanel) -> None:
    folder = panel.folder
    assert folder is not None and folder.is_dir()
    panel.set_workspace(None)
    assert not folder.exists() and panel.model.rowCount() == 0
