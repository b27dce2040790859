"""The session's Qt adapter, and the views following the session: the tensor panel never shows a row that is not
the selected row of the current result (a row without a file pair, a new analysis, a failed one, 0 rows)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QThread
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.session import CaseChanged, FocusChanged, ResultChanged, Session, ThresholdsChanged
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from autofuse_studio.ui.session_adapter import SessionAdapter
from tests.synth import CaseSpec, generate_case

WAIT_MS = 60_000


def _row(name: str, rank: str | None = None, step: str = "0") -> PrecisionRow:
    return PrecisionRow(kind="output", fused_op=name, fused_index=0, origin_op=name, origin_index=0,
                        status="FILE_NOT_FOUND", step=step, rank=rank)


def test_the_adapter_emits_each_change_as_its_signal(qtbot: QtBot) -> None:
    session = Session()
    adapter = SessionAdapter(session)
    row = _row("a", rank="1", step="2")
    result = PrecisionResult(rows=[row], thresholds=Thresholds())
    with qtbot.waitSignal(adapter.caseChanged, timeout=1000) as case:
        session.set_case("case")
    assert case.args == [CaseChanged("case")]
    with qtbot.waitSignal(adapter.resultChanged, timeout=1000) as shown:
        session.set_result(result)
    assert shown.args == [ResultChanged(result)]
    with qtbot.waitSignal(adapter.focusChanged, timeout=1000) as focus:
        session.select_row(row)
    change = focus.args[0]
    assert isinstance(change, FocusChanged) and change.focus.row is row and change.focus.cell == ("1", "2")
    with qtbot.waitSignal(adapter.thresholdsChanged, timeout=1000) as judged:
        session.set_thresholds(Thresholds(Limits(cosine=0.5)))
    assert isinstance(judged.args[0], ThresholdsChanged) and judged.args[0].summary is not None
    adapter.detach()
    with qtbot.assertNotEmitted(adapter.caseChanged, wait=50):
        session.set_case(None)


def test_a_change_made_on_another_thread_arrives_on_the_gui_thread(qtbot: QtBot) -> None:
    session = Session()
    adapter = SessionAdapter(session)
    threads: list[bool] = []
    adapter.caseChanged.connect(lambda _change: threads.append(QThread.currentThread() is adapter.thread()))
    with qtbot.waitSignal(adapter.caseChanged, timeout=2000):
        worker = threading.Thread(target=session.set_case, args=("from a worker",))
        worker.start()
        worker.join()
    assert threads == [True]


def test_a_workbench_follows_a_result_set_on_its_session(qtbot: QtBot) -> None:
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.show()
    rows = [_row("a"), _row("b", step="1")]
    result = PrecisionResult(rows=rows, thresholds=Thresholds())
    bench.session.set_result(result)  # as a run layer hands its result over: the table follows
    assert bench.result is result and bench.model.rowCount() == 2
    assert bench.view.select_row(rows[1])
    panel = bench.tensor_panel
    assert isinstance(panel, TensorPanel)
    assert bench.session.focus.row is rows[1] and bench.focus == (None, "1")
    assert panel.title.text() == TensorPanel.row_title(rows[1]) and "has no file pair" in panel.cover.text()
    bench.session.set_result(None)
    assert bench.result is None and bench.model.rowCount() == 0 and bench.focus == (None, None)
    assert panel.title.text() == "No tensor pair selected." and "No result" in panel.cover.text()


# --- the window -------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def other_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second, smaller case without a culprit (nothing is selected after its analysis)."""
    root = tmp_path_factory.mktemp("session") / "other"
    generate_case(root, CaseSpec(seed=7, n_fused=3, elements=64))
    return root


@pytest.fixture
def window(qtbot: QtBot, demo_root: Path) -> MainWindow:
    """The demo case analysed in a shown 1280x720 window."""
    shown = MainWindow()
    qtbot.addWidget(shown)
    shown.resize(1280, 720)
    shown.show()
    with qtbot.waitSignal(shown.resultShown, timeout=WAIT_MS):
        shown.open_paths([str(demo_root)])
    return shown


def _panel(window: MainWindow) -> TensorPanel:
    panel = window.workbench.tensor_panel
    assert isinstance(panel, TensorPanel)
    return panel


def _show_a_pair(qtbot: QtBot, window: MainWindow) -> PrecisionRow:
    """Select a compared row of the current result and wait for its tensors."""
    result = window.workbench.result
    assert result is not None
    row = next(row for row in result.rows if row.status == "OK" and row.fused_file and row.origin_file)
    panel = _panel(window)
    if panel.view is None or window.session.focus.row is not row:
        with qtbot.waitSignal(panel.viewReady, timeout=WAIT_MS):
            assert window.workbench.view.select_row(row)
    assert panel.top_model.rowCount() > 0 and panel.stats_model.rowCount() > 0
    return row


def _assert_empty(panel: TensorPanel, reason: str) -> None:
    """Nothing of a pair is left: no view, empty tables, the cover saying `reason`."""
    assert panel.view is None and panel.pair is None
    assert panel.top_model.rowCount() == 0 and panel.stats_model.rowCount() == 0
    assert panel.cover.isVisible() and reason in panel.cover.text()


def test_a_row_without_a_file_pair_empties_the_panel_and_says_why(qtbot: QtBot, window: MainWindow,
                                                                  tmp_path: Path) -> None:
    _show_a_pair(qtbot, window)
    result = window.workbench.result
    assert result is not None
    missing = next(row for row in result.rows if row.status == "FILE_NOT_FOUND" and row.fused_file is None)
    assert window.workbench.view.select_row(missing)
    panel = _panel(window)
    assert window.session.focus.row is missing
    assert panel.title.text() == TensorPanel.row_title(missing)  # the selected row's title, not the previous one
    _assert_empty(panel, "has no file pair to show")
    window.grab().save(str(tmp_path / "file_not_found.png"))


def test_a_new_analysis_of_another_case_empties_the_panel(qtbot: QtBot, window: MainWindow, other_root: Path,
                                                          tmp_path: Path) -> None:
    old = _show_a_pair(qtbot, window)
    panel = _panel(window)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(other_root)])
    result = window.workbench.result
    assert result is not None and result.rows and result.first_divergence is None
    assert window.session.result is result and window.session.focus.row is None
    assert old.fused_op not in panel.title.text()
    assert panel.title.text() == "No tensor pair selected."
    _assert_empty(panel, "Select a row to see its tensors here.")
    window.grab().save(str(tmp_path / "new_case.png"))
    with qtbot.waitSignal(panel.viewReady, timeout=WAIT_MS):  # a row of the new result shows again
        assert window.workbench.view.select_row(result.rows[0])
    assert panel.title.text() == TensorPanel.row_title(result.rows[0])


def test_the_same_case_analysed_again_shows_a_row_of_the_new_result(qtbot: QtBot, window: MainWindow) -> None:
    old = _show_a_pair(qtbot, window)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.analyse()
    result = window.workbench.result
    assert result is not None and window.session.result is result
    selected = window.session.focus.row  # the first divergence, selected for the user: equal keys, new objects
    assert selected is not None and selected is not old and any(row is selected for row in result.rows)
    assert window.workbench.view.selected_rows() == [selected]
    assert _panel(window).title.text() == TensorPanel.row_title(selected)


def test_a_failed_analysis_leaves_no_table_overview_colours_or_tensors(qtbot: QtBot, window: MainWindow,
                                                                       tmp_path: Path) -> None:
    _show_a_pair(qtbot, window)
    assert window.graph.result is not None and window.workbench.overview.isVisible()
    bad = tmp_path / "open.json"
    bad.write_text('{"hello": [1, 2]}', encoding="utf-8")
    close = tmp_path / "close.json"
    close.write_text('{"graph": [{"name": "g", "op": []}]}', encoding="utf-8")
    for name in ("d1", "d2"):
        (tmp_path / name).mkdir()
    edits = window.case_panel.edits
    for role, path in (("af_open_graph", bad), ("af_close_graph", close), ("af_open_data", tmp_path / "d1"),
                       ("af_close_data", tmp_path / "d2")):
        edits[role].setText(str(path))
    with qtbot.waitSignal(window.analysis.failed, timeout=WAIT_MS):
        window.analyse()
    assert "first divergence" not in window.statusBar().currentMessage()  # the old result's summary is gone
    assert window.session.result is None and window.workbench.result is None
    assert window.workbench.model.rowCount() == 0 and not window.workbench.overview.isVisible()
    assert window.graph.result is None  # no verdict colours of the previous case on its graphs
    assert _panel(window).title.text() == "No tensor pair selected."
    _assert_empty(_panel(window), "No result")
    window.grab().save(str(tmp_path / "failed.png"))


def test_thresholds_go_through_the_session(qtbot: QtBot, window: MainWindow) -> None:
    result = window.workbench.result
    assert result is not None and result.first_divergence is not None
    assert window.workbench.legend.labels["CULPRIT"].text() != "CULPRIT 0"
    edit = window.thresholds_editor.edits["cosine"]
    edit.setText("0.5")
    with qtbot.waitSignal(window.session_events.thresholdsChanged, timeout=2000) as changed:
        edit.editingFinished.emit()
    assert changed.args[0].thresholds.default.cosine == 0.5
    assert window.session.thresholds.default.cosine == 0.5
    assert result.first_divergence is None  # every demo row passes a cosine of 0.5
    assert window.workbench.legend.labels["CULPRIT"].text() == "CULPRIT 0"  # the legend followed the session
    assert window.graph.result is result


def test_a_result_without_rows_empties_the_panel_and_says_so(qtbot: QtBot, window: MainWindow,
                                                             tmp_path: Path) -> None:
    _show_a_pair(qtbot, window)
    edits = window.case_panel.edits
    fused, original = edits["af_open_graph"].text(), edits["af_close_graph"].text()
    edits["af_open_graph"].setText(original)  # swapped graphs: the af-open one has no fused op, so no row
    edits["af_close_graph"].setText(fused)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.analyse()
    result = window.workbench.result
    assert result is not None and not result.rows and window.session.result is result
    assert window.workbench.model.rowCount() == 0 and not window.workbench.overview.isVisible()
    assert _panel(window).title.text() == "No tensor pair selected."
    _assert_empty(_panel(window), "This result has no rows")
    window.grab().save(str(tmp_path / "no_rows.png"))


def test_the_graph_follows_a_row_selected_behind_its_tab_once_shown(qtbot: QtBot, window: MainWindow,
                                                                     other_root: Path) -> None:
    graph = window.graph
    result = window.workbench.result
    assert result is not None and not graph.isVisible()
    qtbot.waitUntil(lambda: not graph.open_pane.busy() and not graph.close_pane.busy(), timeout=WAIT_MS)  # the start
    row = next(row for row in result.rows if row.fused_op != graph.open_pane.selected_op)
    assert window.workbench.view.select_row(row)
    # Behind the precision tab the graph does nothing yet: no marking, no neighbourhood laid out for a hidden view.
    assert graph.open_pane.selected_op != row.fused_op
    assert not graph.open_pane.busy() and not graph.close_pane.busy()
    window.tabs.setCurrentIndex(1)  # the Graph tab
    assert graph.open_pane.selected_op == row.fused_op  # before the tab's first paint
    qtbot.waitUntil(lambda: any(section.title for section in graph.details.sections), timeout=WAIT_MS)
    assert row.fused_op in graph.details.toPlainText()
    later = next(other for other in result.rows if other.fused_op not in (row.fused_op, graph.open_pane.selected_op))
    assert window.workbench.view.select_row(later)  # the graph in front follows at once
    assert graph.open_pane.selected_op == later.fused_op
    window.tabs.setCurrentIndex(0)
    assert window.workbench.view.select_row(row)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):  # another case before the graph is seen again
        window.open_paths([str(other_root)])
    window.tabs.setCurrentIndex(1)  # the Graph tab
    assert graph.start is not None and graph.start[1]  # the new case opens on its own start op, not the old row
    assert graph.open_pane.selected_op == graph.start[0] != row.fused_op
