"""The graph details panel: words never break mid-character, wide tables scroll instead of being cut."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from autofuse_studio.core.graphview.details import describe_op
from autofuse_studio.core.graphview.sync import FusionIndex
from autofuse_studio.ui.graph.details import DetailsPanel
from tests.core.test_graphview_build import demo_case


def shown_panel(qtbot: QtBot, width: int) -> DetailsPanel:
    """The panel at a given width, showing the first divergence's fused op."""
    af_open, _, mapping, result = demo_case()
    assert result.first_divergence is not None
    panel = DetailsPanel()
    qtbot.addWidget(panel)
    panel.resize(width, 700)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_sections(describe_op(af_open, result.first_divergence.fused_op, mapping, FusionIndex(mapping, result)))
    return panel


def line_breaks(panel: DetailsPanel) -> list[tuple[str, int]]:
    """(block text, position) of every soft line break the layout made."""
    breaks = []
    block = panel.document().begin()
    while block.isValid():
        layout = block.layout()
        for number in range(1, layout.lineCount()):
            breaks.append((block.text(), layout.lineAt(number).textStart()))
        block = block.next()
    return breaks


def test_words_wrap_only_at_word_boundaries(qtbot: QtBot) -> None:
    panel = shown_panel(qtbot, 300)
    breaks = line_breaks(panel)
    assert breaks  # the attribute lists do wrap
    # Unicode line breaking: after a space, or after the "/" of a scope path; never inside a word.
    wrong = [(text, position) for text, position in breaks if not (text[position - 1].isspace()
                                                                   or text[position - 1] in "/-")]
    assert not wrong
    assert "DT_FLOAT16" in panel.toPlainText()
    cursor = panel.document().find("DT_FLOAT16")
    assert not cursor.isNull()
    cursor.movePosition(QTextCursor.MoveOperation.StartOfLine)
    assert cursor.block().layout().lineCount() == 1  # the dtype cell is one line, never "DT_FLO" / "AT16"


def test_wide_tables_scroll_and_show_every_precision_column(qtbot: QtBot) -> None:
    panel = shown_panel(qtbot, 360)
    document_width = panel.document().size().width()
    bar = panel.horizontalScrollBar()
    assert document_width > panel.viewport().width()
    assert bar.maximum() >= document_width - panel.viewport().width() - 2  # everything is reachable
    text = panel.toPlainText()
    for header in ("verdict", "status", "cosine", "max abs err", "fused", "origin"):
        assert header in text
    assert "CULPRIT" in text
