"""The Signature column (issue 31): shown only when a row is signed, a translated label with the sentence in its
tooltip, sortable, and a filter-bar chooser of the codes present that narrows the rows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import VERDICT_CULPRIT
from autofuse_studio.ui.i18n import CHINESE, ENGLISH, translations
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from tests.ui.signature_helpers import signed_result
from tests.ui.test_table_model import make_rows

SIGNATURE = COLUMN_KEYS.index("signature")
FAULTS = {2: "tail_block", 5: "bias", 9: "tail_block", 11: "mixed"}


@pytest.fixture
def bench(qtbot: QtBot) -> Iterator[PrecisionWorkbench]:
    """A workbench (English again afterwards)."""
    widget = PrecisionWorkbench()
    qtbot.addWidget(widget)
    yield widget
    translations().apply(ENGLISH)


def _cells(bench: PrecisionWorkbench, role: int = Qt.ItemDataRole.DisplayRole) -> list[object]:
    proxy = bench.proxy
    return [proxy.index(row, SIGNATURE).data(role) for row in range(proxy.rowCount())]


def test_the_column_is_shown_only_when_some_row_is_signed(bench: PrecisionWorkbench) -> None:
    bench.set_result(signed_result(make_rows(20), {}), {})
    assert bench.view.isColumnHidden(SIGNATURE)
    assert bench.filter_bar.signature_combo.isHidden()
    bench.set_result(signed_result(make_rows(20), FAULTS), {})
    assert not bench.view.isColumnHidden(SIGNATURE)
    assert bench.model.headerData(SIGNATURE, Qt.Orientation.Horizontal) == "Signature"
    cells = _cells(bench)
    assert cells[2] == cells[9] == "Tail block" and cells[5] == "Bias"
    assert str(cells[11]).startswith("Mixed: ") and "+" in str(cells[11])
    assert cells[0] == "-"
    tooltip = str(bench.proxy.index(2, SIGNATURE).data(Qt.ItemDataRole.ToolTipRole))
    assert tooltip.startswith("tail block: axis ") and "confidence" in tooltip
    bench.clear()
    assert bench.view.isColumnHidden(SIGNATURE)


def test_the_filter_offers_the_codes_present_and_narrows_the_rows(bench: PrecisionWorkbench) -> None:
    result = signed_result(make_rows(20), FAULTS)
    bench.set_result(result, {})
    combo = bench.filter_bar.signature_combo
    assert not combo.isHidden()
    offered = [combo.itemData(number) for number in range(combo.count())]
    mixed_parts = {part["code"] for part in result.rows[11].signature.params["parts"]}  # type: ignore[union-attr]
    assert offered[0] is None and set(offered[1:]) == {"tail_block", "bias", "mixed"} | mixed_parts
    combo.setCurrentIndex(combo.findData("bias"))
    shown = [bench.proxy.row_at(row) for row in range(bench.proxy.rowCount())]
    expected = [row for row in result.rows if row.signature is not None and (
        row.signature.code == "bias" or "bias" in {part["code"] for part in row.signature.params.get("parts", [])})]
    assert shown == expected and result.rows[5] in shown and len(shown) < len(result.rows)
    combo.setCurrentIndex(combo.findData("tail_block"))
    shown = [bench.proxy.row_at(row) for row in range(bench.proxy.rowCount())]
    assert result.rows[2] in shown and result.rows[9] in shown and result.rows[5] not in shown
    assert all(row.verdict == VERDICT_CULPRIT for row in shown)
    bench.filter_bar.clear()
    assert bench.proxy.rowCount() == len(result.rows)


def test_the_column_sorts_by_its_label(bench: PrecisionWorkbench) -> None:
    bench.set_result(signed_result(make_rows(20), FAULTS), {})
    bench.proxy.sort(SIGNATURE, Qt.SortOrder.AscendingOrder)
    cells = [str(cell) for cell in _cells(bench)]
    signed = [cell for cell in cells if cell != "-"]
    assert signed == sorted(signed) and cells[:len(signed)] == signed  # unsigned rows last
    bench.proxy.sort(SIGNATURE, Qt.SortOrder.DescendingOrder)
    assert [str(cell) for cell in _cells(bench)][:len(signed)] == sorted(signed, reverse=True)


def test_label_tooltip_and_chooser_follow_the_language(bench: PrecisionWorkbench) -> None:
    bench.set_result(signed_result(make_rows(20), FAULTS), {})
    assert translations().apply(CHINESE)
    bench.model.retranslate()
    bench.filter_bar.retranslate()
    assert bench.model.headerData(SIGNATURE, Qt.Orientation.Horizontal) == "误差特征"
    assert bench.proxy.index(2, SIGNATURE).data() == "尾块"
    tooltip = str(bench.proxy.index(2, SIGNATURE).data(Qt.ItemDataRole.ToolTipRole))
    assert tooltip.startswith("尾块：第 ") and "置信度" in tooltip
    combo = bench.filter_bar.signature_combo
    assert combo.itemText(combo.findData("tail_block")) == "尾块"
