"""Signatures follow a threshold edit (issue 31): a row that becomes CULPRIT is signed off the GUI thread and its
code shows in the Signature column; loosening drops it at once; tightening again restores it without reading the
files; the signature is the one a fresh run with those thresholds gives."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.engine import compare_two
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.signature_helpers import tail_pair

SIGNATURE = COLUMN_KEYS.index("signature")
TIGHT = Thresholds(default=Limits(cosine=0.99999))


def test_tightening_the_cosine_signs_the_new_culprit(qtbot: QtBot, tmp_path: Path) -> None:
    fused, origin = tail_pair(tmp_path)
    _, result = compare_two(fused, origin, Thresholds())
    row = result.rows[0]
    assert row.verdict != VERDICT_CULPRIT and row.signature is None
    fresh = compare_two(fused, origin, TIGHT)[1].rows[0]  # what a run with the tight thresholds gives
    assert fresh.verdict == VERDICT_CULPRIT and fresh.signature is not None
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.set_result(result, {})
    assert bench.view.isColumnHidden(SIGNATURE)

    with qtbot.waitSignal(bench.resigner.settledAll, timeout=20000):
        bench.apply_thresholds(TIGHT)
        assert row.verdict == VERDICT_CULPRIT and bench.resigner.busy  # signed on the worker, not here
    signed = result.rows[0].signature  # (mypy narrowed row.signature to None above)
    assert signed is not None and signed == fresh.signature and signed.code == "tail_block"
    assert signed.params["first_index"] == 48 and signed.params["tile"] == 16
    assert not bench.view.isColumnHidden(SIGNATURE)
    assert bench.proxy.index(0, SIGNATURE).data() == "Tail block"
    assert bench.filter_bar.signature_combo.findData("tail_block") > 0

    bench.apply_thresholds(Thresholds())  # passes again: no signature, as a fresh run would give
    assert row.verdict != VERDICT_CULPRIT and row.signature is None and not bench.resigner.busy
    assert bench.view.isColumnHidden(SIGNATURE)

    fused.unlink()  # tightened again: the signature comes back from what was worked out, no file is read
    bench.apply_thresholds(TIGHT)
    assert not bench.resigner.busy and row.signature == fresh.signature
    assert bench.proxy.index(0, SIGNATURE).data() == "Tail block"


def test_a_new_result_cancels_the_signing(qtbot: QtBot, tmp_path: Path) -> None:
    fused, origin = tail_pair(tmp_path)
    _, result = compare_two(fused, origin, Thresholds())
    bench = PrecisionWorkbench()
    qtbot.addWidget(bench)
    bench.set_result(result, {})
    bench.apply_thresholds(TIGHT)
    other = compare_two(fused, origin, Thresholds())[1]
    bench.set_result(other, {})  # the first result's signing is not wanted any more
    assert not bench.resigner.busy
    qtbot.wait(200)
    assert other.rows[0].signature is None
