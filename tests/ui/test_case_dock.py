"""The case dock: paths elided in the middle (full path in the tooltip, still editable), long messages wrap
instead of widening the dock, wrong paths are outlined with a tooltip saying what is wrong."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.dump_pairs import SidesSummary
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.case_panel import CasePanel
from autofuse_studio.ui.widgets.path_edit import INVALID_STYLE, PathEdit
from autofuse_studio.ui.widgets.wrap_label import ZWSP, WrapLabel

WAIT_MS = 30_000
LONG = "/data/runs/2025-01-06/very_long_experiment_name/af_open/ge_proto_00000094_graph_1_Build.json"
LONG_OP = "autofuse_16_Mul_Add_Relu_Sub_Exp_Cast_Mul_Add_ReduceSum_Cast_Mul_Add_Relu_Sub_Exp"


def test_path_edit_elides_in_the_middle_and_stays_editable(qtbot: QtBot) -> None:
    edit = PathEdit()
    qtbot.addWidget(edit)
    edit.resize(180, edit.sizeHint().height())
    edit.show()
    edit.setText(LONG)
    shown = edit.displayed_text()
    assert "…" in shown and shown.startswith("/data") and shown.endswith(".json")
    assert edit.text() == LONG and edit.toolTip() == LONG
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    assert edit.displayed_text() == LONG  # editing shows the whole text
    edit.end(False)
    qtbot.keyClicks(edit, ".bak")
    assert edit.text() == LONG + ".bak"


def test_wrong_paths_are_outlined_with_what_is_wrong(qtbot: QtBot, tmp_path: Path) -> None:
    panel = CasePanel()
    qtbot.addWidget(panel)
    graph = panel.edits["af_open_graph"]
    graph.setText(str(tmp_path / "missing.json"))
    assert graph.styleSheet() == INVALID_STYLE
    assert graph.toolTip().splitlines() == ["There is no file at this path.", str(tmp_path / "missing.json")]
    graph.setText(str(tmp_path))
    assert graph.problem == "This is a folder; choose a file."
    (tmp_path / "g.json").write_text("{}", encoding="utf-8")
    graph.setText(str(tmp_path / "g.json"))
    assert graph.problem == "" and graph.styleSheet() == "" and graph.toolTip() == str(tmp_path / "g.json")
    dumps = panel.edits["af_open_data"]
    dumps.setText(str(tmp_path / "g.json"))
    assert dumps.problem == "This is a file; choose the dump folder that holds the dump files."


def test_a_graph_that_fails_to_parse_outlines_its_field(qtbot: QtBot, tmp_path: Path) -> None:
    bad = tmp_path / "open.json"
    bad.write_text('{"hello": [1, 2]}', encoding="utf-8")
    close = tmp_path / "close.json"
    close.write_text('{"graph": [{"name": "g", "op": []}]}', encoding="utf-8")
    for name in ("d1", "d2"):
        (tmp_path / name).mkdir()
    window = MainWindow()
    qtbot.addWidget(window)
    edits = window.case_panel.edits
    for role, path in (("af_open_graph", bad), ("af_close_graph", close), ("af_open_data", tmp_path / "d1"),
                       ("af_close_data", tmp_path / "d2")):
        edits[role].setText(str(path))
    with qtbot.waitSignal(window.analysis.failed, timeout=WAIT_MS):
        window.analyse()
    assert edits["af_open_graph"].styleSheet() == INVALID_STYLE
    assert "contains no GE graph" in edits["af_open_graph"].problem
    assert str(bad) in edits["af_open_graph"].toolTip()
    assert all(edits[role].problem == "" for role in ("af_close_graph", "af_open_data", "af_close_data"))


def _inside(widget: QWidget, viewport: QWidget) -> bool:
    """True when the widget lies wholly inside the viewport (not clipped, not scrolled away sideways)."""
    top_left = widget.mapTo(viewport, QPoint(0, 0))
    return top_left.x() >= 0 and top_left.x() + widget.width() <= viewport.width()


def test_long_messages_wrap_and_never_widen_the_dock(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    panel = window.case_panel
    panel.show_error(f"The af-open dump folder {LONG}/dump/{LONG_OP} does not exist or is not a folder.")
    panel.set_progress(1, 1, f"58 rows; first divergence: {LONG_OP} output 0")
    panel.notes.setText(f"{LONG} is neither a graph, a dump folder nor an NPY file; it was ignored.")
    panel.notes.show()
    panel.set_dump_summary(SidesSummary(10, f"2 steps (0, 1), {LONG_OP}", "2 steps (0, 1)", f"ranks differ: {LONG_OP}"))
    for edit in panel.edits.values():
        edit.setText(LONG)
    panel.mode2_box.set_expanded(True)  # folded away at first; its rows must fit too
    qtbot.wait(50)
    viewport = panel.parentWidget()
    assert viewport is not None
    assert panel.minimumSizeHint().width() <= viewport.width()
    assert panel.width() <= viewport.width()
    for widget in (*panel.browse_buttons.values(), panel.analyse_button, panel.cancel_button):
        assert _inside(widget, viewport), widget
    assert panel.dump_summary.isVisible() and LONG_OP in panel.dump_summary.text()
    assert panel.progress_label.text() == f"58 rows; first divergence: {LONG_OP} output 0"  # as set


def test_wrap_label_copies_the_text_without_break_marks(qtbot: QtBot) -> None:
    label = WrapLabel(LONG)
    qtbot.addWidget(label)
    assert label.text() == LONG and ZWSP not in label.text()
    label.setFocus()
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard)
    qtbot.keyClick(label, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == LONG
