"""Opening cases: drops on the window, the case panel's roles and errors, *.afcase files, recent cases."""

from __future__ import annotations

import shutil
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from autofuse_studio.core.case import CaseFiles, load_case_file
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision import analysis as analysis_module
from autofuse_studio.ui.precision.case_panel import CasePanel
from autofuse_studio.ui.precision.row_batches import FLUSH_INTERVAL_MS
from tests.synth import CaseManifest, demo_spec, generate_case

WAIT_MS = 30_000


@pytest.fixture(scope="module")
def demo_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    """A generated demo case shared by the tests of this module (read-only)."""
    root = tmp_path_factory.mktemp("case") / "demo"
    return root, generate_case(root, demo_spec())


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    return window


def drop(window: MainWindow, paths: list[Path]) -> bool:
    """Simulate dragging `paths` onto the window and dropping them; True when the drag was accepted."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    position = QPointF(window.width() / 2, window.height() / 2)
    with warnings.catch_warnings():
        # PySide6 flags QDragEnterEvent's only (QPoint) constructor as deprecated; Qt itself still uses it.
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(position.toPoint(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    event = QDropEvent(position, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)
    return enter.isAccepted()


def test_dropping_a_run_folder_fills_roles_and_analyses(qtbot: QtBot, demo_case: tuple[Path, CaseManifest]) -> None:
    root, manifest = demo_case
    window = _window(qtbot)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        assert drop(window, [root])
    edits = window.case_panel.edits
    assert Path(edits["af_open_graph"].text()) == (root / manifest.graphs["af_open"]).resolve()
    assert Path(edits["af_close_data"].text()) == (root / manifest.data["af_close"]).resolve()
    assert window.workbench.model.rowCount() == len([row for row in manifest.rows if row.kind == "output"])
    first = window.workbench.result.first_divergence if window.workbench.result else None
    assert first is not None and first.fused_op == manifest.first_divergence["fused_op"]
    assert not window.case_panel.cancel_button.isEnabled()


def test_rows_stream_in_before_the_run_finishes(qtbot: QtBot, demo_case: tuple[Path, CaseManifest],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root, _ = demo_case
    finished_analysis = analysis_module.finished_analysis

    def slow_to_finish(*args: Any) -> Any:  # a run whose last step outlasts a flush of the streamed rows
        time.sleep(4 * FLUSH_INTERVAL_MS / 1000)
        return finished_analysis(*args)

    monkeypatch.setattr(analysis_module, "finished_analysis", slow_to_finish)
    window = _window(qtbot)
    events: list[str] = []
    window.analysis.rowsArrived.connect(lambda rows: events.append(f"rows {len(rows)}"))
    window.analysis.finished.connect(lambda _analysis: events.append("finished"))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(root)])
    assert events[-1] == "finished"
    assert sum(int(event.split()[1]) for event in events[:-1]) == window.workbench.model.rowCount()


def test_dropping_parts_one_by_one_completes_the_case(qtbot: QtBot, demo_case: tuple[Path, CaseManifest]) -> None:
    root, manifest = demo_case
    window = _window(qtbot)
    with qtbot.waitSignal(window.graph.loader.loaded, timeout=WAIT_MS):
        drop(window, [root / manifest.graphs["af_close"], root / manifest.graphs["af_open"]])
    # Graphs without dumps are browsed in the Graph tab; the Precision tab says what is missing.
    assert not window.case_panel.banner.isVisible()
    assert "dump folder" in window.workbench.notices.model.notices[0].message
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        drop(window, [root / manifest.data["af_open"], root / manifest.data["af_close"]])
    assert window.workbench.model.rowCount() > 0


def test_missing_folder_is_a_sentence_and_the_rest_still_loads(
        qtbot: QtBot, tmp_path: Path, demo_case: tuple[Path, CaseManifest]) -> None:
    root, manifest = demo_case
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    window = _window(qtbot)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(copy)])
    shutil.rmtree(copy / manifest.data["af_close"])
    window.analyse()
    banner = window.case_panel.banner
    assert banner.isVisible() and "does not exist" in banner.text() and "Traceback" not in banner.text()
    assert window.case_panel.edits["af_open_graph"].text()  # the other roles are still shown


def test_unreadable_graph_fails_with_a_sentence(qtbot: QtBot, tmp_path: Path,
                                                demo_case: tuple[Path, CaseManifest]) -> None:
    root, manifest = demo_case
    window = _window(qtbot)
    bad = tmp_path / "ge_proto_bad_Build.json"
    bad.write_text('{"graph": [ {"op": [ AscBackend')
    case = CaseFiles(bad, root / manifest.graphs["af_close"], root / manifest.data["af_open"],
                     root / manifest.data["af_close"])
    window.case_panel.set_case(case)
    with qtbot.waitSignal(window.analysis.failed, timeout=WAIT_MS):
        window.analyse()
    assert window.case_panel.banner.isVisible()
    assert str(bad.name) in window.case_panel.banner.text()


def test_swap_and_edit_roles(qtbot: QtBot, tmp_path: Path) -> None:
    panel = CasePanel()
    qtbot.addWidget(panel)
    panel.set_case(CaseFiles(af_open_graph=tmp_path / "a.json", af_close_graph=tmp_path / "b.json"))
    qtbot.mouseClick(panel.swap_graphs, Qt.MouseButton.LeftButton)
    case = panel.case()
    assert (case.af_open_graph, case.af_close_graph) == (tmp_path / "b.json", tmp_path / "a.json")
    panel.edits["af_open_data"].setText(str(tmp_path))
    panel.step_edit.setText("1")
    panel.compare_input.setChecked(True)
    case = panel.case()
    assert (case.af_open_data, case.step, case.compare_input) == (tmp_path, "1", True)
    with qtbot.waitSignal(panel.analyseRequested, timeout=1000):
        qtbot.mouseClick(panel.analyse_button, Qt.MouseButton.LeftButton)


def test_cancel_stops_the_run(qtbot: QtBot, demo_case: tuple[Path, CaseManifest]) -> None:
    root, _ = demo_case
    window = _window(qtbot)
    window.case_panel.set_case(load_roles(window, root))
    with qtbot.waitSignals([window.analysis.cancelled], timeout=WAIT_MS, raising=False) as blocker:
        window.analyse()
        window.case_panel.cancel_button.click()
    # A tiny case may finish before the cancel lands; either way the panel is idle again.
    qtbot.waitUntil(lambda: not window.analysis.running, timeout=WAIT_MS)
    assert window.case_panel.analyse_button.isEnabled()
    assert blocker.signal_triggered or window.workbench.result is not None


def load_roles(window: MainWindow, root: Path) -> CaseFiles:
    """The detected case for `root` without starting an analysis."""
    from autofuse_studio.core.case import detect_roles

    return detect_roles([root]).case


def test_case_file_save_and_reopen_restores_view(qtbot: QtBot, tmp_path: Path,
                                                 demo_case: tuple[Path, CaseManifest]) -> None:
    root, _ = demo_case
    window = _window(qtbot)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.open_paths([str(root)])
    window.thresholds_editor.edits["cosine"].setText("0.995")
    window.thresholds_editor.edits["cosine"].editingFinished.emit()
    window.workbench.filter_bar.search.setText("Mul")
    window.workbench.view.sortByColumn(5, Qt.SortOrder.DescendingOrder)
    from autofuse_studio.core.case import save_case

    path = save_case(window.current_case(), tmp_path / "saved.afcase")
    assert load_case_file(path).thresholds.default.cosine == 0.995
    other = _window(qtbot)
    with qtbot.waitSignal(other.resultShown, timeout=WAIT_MS):
        drop(other, [path])
    assert other.thresholds_editor.edits["cosine"].text() == "0.995"
    assert other.workbench.filter_bar.search.text() == "Mul"
    assert other.workbench.view.horizontalHeader().sortIndicatorSection() == 5
    recent = other.settings.recent_cases()
    assert recent[0] == [str(path.resolve())]
    assert other.recent_menu.actions()[0].toolTip() == str(path.resolve())
