"""PerfPanel's whole picture: built on a worker (the GUI thread returns at once), cached per workspace,
stale results ignored, cancel and failure fall back to the operator view."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.perf_render import perf_display_list
from autofuse_studio.core.att.workspace import AttWorkspace, load_workspace
from autofuse_studio.core.errors import AppError
from autofuse_studio.core.render.display import DisplayItem
from autofuse_studio.ui.att import perf_panel
from autofuse_studio.ui.att.jobs import AttJobs
from autofuse_studio.ui.att.perf_panel import EXPORT_SVG, OPERATOR_VIEW, WHOLE_VIEW, PerfPanel
from tests.synth.att_log import SyntheticShape
from tests.synth.att_perf_log import write_synthetic_perf_log

TIMEOUT_MS = 30000


def _workspace(folder: Path, operators: int) -> AttWorkspace:
    log = folder / f"perf{operators}.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=operators, results=3, groups=3, cases=4,
                                                 noise_per_case=0))
    return load_workspace([log])


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> AttWorkspace:
    """150 operators: about 9,000 leaves in the whole picture."""
    return _workspace(tmp_path_factory.mktemp("big"), 150)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> AttWorkspace:
    return _workspace(tmp_path_factory.mktemp("small"), 2)


@pytest.fixture
def panel(qtbot: QtBot, jobs: AttJobs, big: AttWorkspace) -> PerfPanel:
    widget = PerfPanel(jobs)
    qtbot.addWidget(widget)
    widget.resize(1300, 800)
    widget.set_workspace(big)
    return widget


def _items(workspace: AttWorkspace) -> list[DisplayItem]:
    return perf_display_list(workspace.perf)[0]


def _idle(panel: PerfPanel, qtbot: QtBot) -> None:
    """Wait until every task (also a superseded one) has reported its end."""
    qtbot.waitUntil(lambda: not panel.jobs.busy, timeout=TIMEOUT_MS)


def test_switching_returns_at_once_and_the_picture_arrives_later(panel: PerfPanel, qtbot: QtBot,
                                                                  big: AttWorkspace) -> None:
    with qtbot.waitSignal(panel.wholeShown, timeout=TIMEOUT_MS):
        panel.mode.setCurrentIndex(WHOLE_VIEW)
        # Back from the switch without the picture: the canvas says it is being built, a task runs.
        assert panel.canvas.message and panel.canvas.items_list == [] and panel.canvas.drawn_items() == []
        assert panel.jobs.busy and panel.building is not None
        assert not panel.buttons[EXPORT_SVG].isEnabled()
    assert panel.canvas.message == "" and panel.canvas.items_list == _items(big)
    assert len(panel.canvas.drawn_items()) > 8000 and panel.buttons[EXPORT_SVG].isEnabled()
    assert panel.picture is None and panel.building is None


def test_switching_back_and_forth_reuses_the_picture(panel: PerfPanel, qtbot: QtBot) -> None:
    with qtbot.waitSignal(panel.wholeShown, timeout=TIMEOUT_MS):
        panel.mode.setCurrentIndex(WHOLE_VIEW)
    built = panel.canvas.prepared
    panel.mode.setCurrentIndex(OPERATOR_VIEW)
    assert panel.picture is not None and panel.canvas.prepared is not built
    with qtbot.waitSignal(panel.wholeShown, timeout=1000):  # emitted during the switch itself
        panel.mode.setCurrentIndex(WHOLE_VIEW)
        assert panel.canvas.prepared is built and not panel.jobs.busy  # no second build
    assert panel.select_operator("Op3") and panel.canvas.prepared is built


def test_going_back_during_the_build_keeps_the_operator_view_and_caches(panel: PerfPanel, qtbot: QtBot) -> None:
    panel.mode.setCurrentIndex(WHOLE_VIEW)
    panel.mode.setCurrentIndex(OPERATOR_VIEW)  # before the picture arrived
    operator_picture = panel.canvas.prepared
    _idle(panel, qtbot)
    assert panel.canvas.prepared is operator_picture and panel.picture is not None
    assert panel.whole is not None
    panel.mode.setCurrentIndex(WHOLE_VIEW)
    assert panel.canvas.prepared is panel.whole[1] and not panel.jobs.busy


def test_result_for_replaced_workspace_is_ignored(panel: PerfPanel, qtbot: QtBot, small: AttWorkspace) -> None:
    panel.mode.setCurrentIndex(WHOLE_VIEW)
    assert panel.building is not None
    panel.set_workspace(small)  # before the big picture was delivered
    with qtbot.waitSignal(panel.wholeShown, timeout=TIMEOUT_MS):
        pass
    _idle(panel, qtbot)
    assert panel.canvas.items_list == _items(small)
    assert panel.whole is not None and panel.whole[0] is small


def test_cancel_goes_back_to_the_operator_view(panel: PerfPanel, qtbot: QtBot) -> None:
    panel.mode.setCurrentIndex(WHOLE_VIEW)
    panel.jobs.strip.cancel_button.click()
    _idle(panel, qtbot)
    assert panel.mode.currentIndex() == OPERATOR_VIEW and panel.picture is not None
    assert panel.whole is None and panel.canvas.message == "" and not panel.jobs.banner.isVisibleTo(panel)
    with qtbot.waitSignal(panel.wholeShown, timeout=TIMEOUT_MS):  # choosing it again builds it
        panel.mode.setCurrentIndex(WHOLE_VIEW)


def test_failure_is_reported_and_goes_back(panel: PerfPanel, qtbot: QtBot,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_model: object) -> object:
        raise AppError("The picture could not be laid out.")

    monkeypatch.setattr(perf_panel, "perf_display_list", broken)
    with qtbot.waitSignal(panel.jobs.failed, timeout=TIMEOUT_MS):
        panel.mode.setCurrentIndex(WHOLE_VIEW)
    assert panel.mode.currentIndex() == OPERATOR_VIEW and panel.canvas.message == ""
    assert "could not be laid out" in panel.jobs.banner.label.text()
