"""PerfPanel: operator list, per-operator canvas, the CLI's whole picture, hover formulas, case facts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.perf_cases_render import operator_picture
from autofuse_studio.core.att.perf_output import perf_svg
from autofuse_studio.core.att.workspace import AttWorkspace, load_workspace
from autofuse_studio.core.render.display import walk
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.perf_panel import WHOLE_VIEW, PerfPanel
from tests.synth.att_log import SyntheticShape, objective_of
from tests.synth.att_perf_log import write_synthetic_perf_log

TIMEOUT_MS = 20000


@pytest.fixture
def workspace(tmp_path: Path) -> AttWorkspace:
    log = tmp_path / "perf.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=3, results=2, groups=2, cases=3))
    return load_workspace([log])


@pytest.fixture
def panel(qtbot: QtBot, jobs: AttJobs, workspace: AttWorkspace) -> PerfPanel:
    widget = PerfPanel(jobs)
    qtbot.addWidget(widget)
    widget.resize(1300, 800)
    widget.set_workspace(workspace)
    return widget


def test_models_pass_the_model_tester(panel: PerfPanel, qtmodeltester: ModelTester) -> None:
    qtmodeltester.check(panel.operators)
    panel.show_case(CaseKey(0, 0, 0, 1))
    qtmodeltester.check(panel.facts)


def test_operators_listed_with_selected_result_and_groups(panel: PerfPanel) -> None:
    model = panel.operators
    rows = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]
    assert rows[1][:4] == ["Op1", "graph0_result1", "g0, g1", "6"]
    assert panel.current_operator == "Op0"


def test_operator_canvas_draws_the_operator_picture(panel: PerfPanel, workspace: AttWorkspace) -> None:
    assert panel.select_operator("Op1")
    picture = operator_picture(workspace.cases.operators[1])
    leaves = [leaf for leaf, _, _ in walk(picture.items)]
    drawn = panel.canvas.drawn_items()
    assert [(d.kind, d.role) for d in drawn] == [(type(leaf).__name__.lower(), leaf.role) for leaf in leaves]
    red = [d for d in drawn if d.role == "bottleneck-bar"]
    assert len(red) == 6 and {d.fill for d in red} == {"#ff0000"}
    texts = {d.text for d in drawn if d.kind == "text"}
    assert {"case0 ★", "case1", "case2", "AIC_CUBE"} <= texts


def test_whole_view_is_the_cli_svg(panel: PerfPanel, qtbot: QtBot, workspace: AttWorkspace,
                                   tmp_path: Path) -> None:
    with qtbot.waitSignal(panel.wholeShown, timeout=TIMEOUT_MS):
        panel.mode.setCurrentIndex(WHOLE_VIEW)
    with_roles = [(leaf.role, getattr(leaf, "fill", None)) for leaf, _, _ in walk(panel.canvas.items_list)]
    assert ("bottleneck", "red") in with_roles
    panel.export_svg(tmp_path / "whole.svg")
    assert (tmp_path / "whole.svg").read_text() == perf_svg(workspace.perf)


def test_hover_shows_the_formula_with_values(panel: PerfPanel) -> None:
    picture = panel.picture
    assert picture is not None
    node = next(h for h in picture.hotspots if h.kind == "node")
    text = panel.canvas.hover_text_at(node.x + 5, node.y + 5)
    assert "graph0_result0_g0_0" in text and "Load_0[Load]: AIV_MTE2 = tile=100 + head=20 = 120" in text
    pipe = next(h for h in picture.hotspots if h.kind == "pipe")
    assert "AIV_MTE2 = 120" in panel.canvas.hover_text_at(pipe.x + 5, pipe.y + 5)


def test_click_on_a_case_shows_its_facts_and_log_lines(panel: PerfPanel, qtbot: QtBot,
                                                       workspace: AttWorkspace) -> None:
    picture = panel.picture
    assert picture is not None
    frame = next(h for h in picture.hotspots if h.kind == "case" and h.key == CaseKey(0, 0, 1, 2))
    with qtbot.waitSignal(panel.caseSelected, timeout=2000) as blocker:
        panel.click_at(frame.x + frame.width - 3, frame.y + frame.height - 3)
    details = blocker.args[0]
    assert details.key == CaseKey(0, 0, 1, 2)
    assert details.value("objective") == objective_of(0, 0, 1, 2)
    lines = workspace.logs[0].read_text().splitlines()
    for row in range(panel.facts.rowCount()):
        kind, source = panel.facts.index(row, 0).data(), panel.facts.index(row, 3).data()
        path, line = source.rsplit(":", 1)
        expected = "The value of graph0_result0 is" if kind == "result-perf" else "graph0_result0_g1_"
        assert path == str(workspace.logs[0]) and expected in lines[int(line) - 1]
    assert f"objective {objective_of(0, 0, 1, 2):g}" in panel.case_label.text()


def test_png_export_and_screenshot(panel: PerfPanel, qtbot: QtBot, tmp_path: Path) -> None:
    panel.show()
    qtbot.waitExposed(panel)
    panel.export_png(tmp_path / "op.png")
    image = QImage(str(tmp_path / "op.png"))
    assert image.width() == 2 * panel.canvas.size_hint_wh[0]
    shot = panel.grab()
    shot.save(str(tmp_path / "perf_panel.png"))
    assert len({shot.toImage().pixel(x, y) for x in range(0, shot.width(), 23) for y in range(0, shot.height(), 23)}) > 5


def test_empty_workspace_clears(panel: PerfPanel) -> None:
    panel.set_workspace(None)
    assert panel.operators.rowCount() == 0 and panel.canvas.drawn_items() == []


def test_a_picture_too_big_for_png_is_a_sentence_on_the_banner(panel: PerfPanel, jobs: AttJobs, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.core.render.display import Rect
    from autofuse_studio.ui.att import dialogs
    from autofuse_studio.ui.att.perf_panel import EXPORT_PNG

    target = tmp_path / "whole.png"
    monkeypatch.setattr(dialogs, "save_file", lambda *args: target)
    panel.canvas.set_display_list([Rect(0, 0, 1800, 144_000, fill="#00ff00")], 1800, 144_000)
    panel.buttons[EXPORT_PNG].click()
    assert "too big for one readable PNG" in jobs.banner.text()
    assert not target.exists()


def test_operator_canvas_captions_follow_the_ui_language(panel: PerfPanel) -> None:
    """The Chinese UI draws the canvas captions in Chinese, and switching back redraws them in English."""
    from autofuse_studio.ui.i18n import translations

    assert panel.select_operator("Op1")
    try:
        assert translations().apply("zh_CN")
        panel.retranslate()
        chinese = " ".join(d.text for d in panel.canvas.drawn_items() if d.kind == "text")
        assert "最敏感参数" in chinese and "选中" in chinese
        assert "most sensitive" not in chinese and "Selected" not in chinese and "case(s)" not in chinese
    finally:
        translations().apply("en")
    panel.retranslate()
    english = " ".join(d.text for d in panel.canvas.drawn_items() if d.kind == "text")
    assert "most sensitive parameter" in english and "最敏感参数" not in english
