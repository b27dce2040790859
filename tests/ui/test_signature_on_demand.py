"""Any row compared by value can be signed on demand in the tensor panel (issue 31): off the GUI thread, from the
row's two files, shown as a sentence with the heatmap's outline, remembered per row, never written into the row;
a run's signature shows as its sentence with no button; a late answer never lands on another row."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.engine import compare_two
from autofuse_studio.core.precision.rows import VERDICT_OK, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.ui.precision.signature_line import reason_text
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.signature_helpers import tail_pair

TIMEOUT_MS = 20000
TIGHT = Thresholds(default=Limits(cosine=0.99999))


@pytest.fixture
def panel(tensor_panel: TensorPanel) -> TensorPanel:
    return tensor_panel


def _passing_row(folder: Path) -> PrecisionRow:
    fused, origin = tail_pair(folder)
    row = compare_two(fused, origin, Thresholds())[1].rows[0]
    assert row.verdict == VERDICT_OK and row.signature is None
    return row


def _show(qtbot: QtBot, panel: TensorPanel, row: PrecisionRow) -> None:
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS):
        panel.show_row(row)


def _sign(qtbot: QtBot, panel: TensorPanel) -> None:
    line = panel.signature_line
    with qtbot.waitSignal(line.signatureChanged, timeout=TIMEOUT_MS):
        line.button.click()
        assert line.busy and line.button.isHidden()  # worked out on the panel's worker, not here


def test_a_passing_row_is_signed_on_demand(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    row = _passing_row(tmp_path)
    _show(qtbot, panel, row)
    line = panel.signature_line
    assert line.isVisible() and line.button.isVisible()
    assert "no signature" in line.label.text()
    assert not panel.heatmaps.outline_rects

    _sign(qtbot, panel)
    assert line.label.text().startswith("Signature (worked out on demand): tail block")
    assert "axis 1" in line.label.text() and "48" in line.label.text()
    assert line.button.isHidden()
    assert panel.heatmaps.outline_rects, "the tail the signature names is outlined"
    assert "Outlined: Tail block." in panel.heatmaps.hover_label.text()
    assert row.signature is None, "the row keeps what a run gives: exports and the table do not change"


def test_the_answer_is_remembered_per_row(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    row = _passing_row(tmp_path / "one")
    other = _passing_row(tmp_path / "two")
    _show(qtbot, panel, row)
    _sign(qtbot, panel)
    _show(qtbot, panel, other)
    assert panel.signature_line.button.isVisible() and not panel.heatmaps.outline_rects
    Path(row.fused_file or "").rename(tmp_path / "moved.npy")  # not read again: what was worked out is shown
    panel.show_row(row)
    assert panel.signature_line.label.text().startswith("Signature (worked out on demand): tail block")
    panel.forget_signatures()  # another result: nothing of the old rows is kept
    Path(tmp_path / "moved.npy").rename(row.fused_file or "")
    _show(qtbot, panel, row)
    assert panel.signature_line.button.isVisible()


def test_a_run_signature_shows_its_sentence(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    fused, origin = tail_pair(tmp_path)
    row = compare_two(fused, origin, TIGHT)[1].rows[0]
    assert row.signature is not None
    _show(qtbot, panel, row)
    line = panel.signature_line
    assert line.label.text() == f"Signature: {row.signature.sentence}"
    assert line.button.isHidden() and panel.heatmaps.outline_rects


def test_a_late_answer_does_not_land_on_another_row(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    row = _passing_row(tmp_path / "one")
    other = _passing_row(tmp_path / "two")
    _show(qtbot, panel, row)
    line = panel.signature_line
    answers: list[object] = []
    line.signatureChanged.connect(answers.append)
    line.button.click()
    _show(qtbot, panel, other)  # selected before the first row's answer came back
    qtbot.wait(300)
    assert answers == [] and line.row is other and line.button.isVisible()
    assert not panel.heatmaps.outline_rects


def test_why_there_is_no_signature(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    same = tmp_path / "same.npy"
    np.save(same, np.arange(12, dtype=np.float32).reshape(3, 4))
    row = compare_two(same, same, Thresholds())[1].rows[0]
    _show(qtbot, panel, row)
    _sign(qtbot, panel)
    assert panel.signature_line.label.text() == reason_text("no_difference")
    assert "differs" in reason_text("no_difference")
    # Rows with nothing to sign: no line at all.
    panel.show_row(replace(row, fused_file=None, metrics=None))
    assert panel.signature_line.isHidden()
    panel.clear()
    assert panel.signature_line.isHidden() and panel.signature_line.row is None


def test_a_threshold_edit_fills_the_shown_line(qtbot: QtBot, tmp_path: Path) -> None:
    fused, origin = tail_pair(tmp_path)
    result = compare_two(fused, origin, Thresholds())[1]
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.resize(1280, 720)
    bench.show()
    bench.set_result(result, {})
    panel = bench.tensor_panel
    assert isinstance(panel, TensorPanel)
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS):
        bench.view.select_row(result.rows[0])
    assert panel.signature_line.button.isVisible()
    with qtbot.waitSignal(bench.resigner.settledAll, timeout=TIMEOUT_MS):
        bench.apply_thresholds(TIGHT)  # the row now fails: a run would sign it, and so does the window
    signed = result.rows[0].signature
    assert signed is not None
    assert panel.signature_line.label.text() == f"Signature: {signed.sentence}"
    assert panel.signature_line.button.isHidden() and panel.heatmaps.outline_rects
    bench.apply_thresholds(Thresholds())  # passes again: back to the offer
    assert panel.signature_line.button.isVisible() and not panel.heatmaps.outline_rects


def test_a_failing_row_the_run_left_unsigned(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    fused, origin = tail_pair(tmp_path)
    row = replace(compare_two(fused, origin, TIGHT)[1].rows[0], signature=None)  # as when its files were unreadable
    _show(qtbot, panel, row)
    line = panel.signature_line
    assert line.label.text() == "The run could not work out this failing row's signature."
    _sign(qtbot, panel)
    assert line.label.text().startswith("Signature (worked out on demand): tail block")
