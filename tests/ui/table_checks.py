"""What a person checks in a table: is any column too narrow for its header or one of its visible cells?"""

from __future__ import annotations

import math

from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

from autofuse_studio.ui.precision.columns import COLUMN_KEYS, LONG_TEXT_COLUMNS
from autofuse_studio.ui.precision.table_view import PrecisionTableView
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH


def rows_in_view(view: PrecisionTableView) -> range:
    """Proxy row numbers inside the viewport."""
    first = max(0, view.rowAt(0))
    last = view.rowAt(view.viewport().height() - 1)
    return range(first, (view.model().rowCount() - 1 if last < 0 else last) + 1)


def needed_width(view: PrecisionTableView, logical: int, rows: range) -> tuple[int, str]:
    """The width a column needs for its header and the given rows' cells, and the text that needs it.

    A cell's need is the larger of the delegate's size hint and the text's exact (fractional) advance
    plus the style's text margins, which is where Qt starts eliding; the header's is Qt's own measure.
    """
    header, model = view.horizontalHeader(), view.model()
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    grid = 1 if view.showGrid() else 0
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    metrics = view.fontMetrics()
    need, text = header.sectionSizeFromContents(logical).width(), str(model.headerData(logical, header.orientation()))
    exact = QFontMetricsF(view.font())
    for row in rows:
        index = model.index(row, logical)
        cell = str(index.data() or "")
        hint = view.itemDelegateForIndex(index).sizeHint(option, index).width() + grid
        by_text = math.ceil(exact.horizontalAdvance(cell)) + margin + grid
        width = max(hint, by_text, metrics.horizontalAdvance(cell) + margin + grid)
        if width > need:
            need, text = width, cell
    return need, text


def elided_columns(view: PrecisionTableView) -> dict[str, str]:
    """Shown columns narrower than their header or a cell in view: key -> 'width < need: text'.

    A name column at the width cap is elided by design (in the middle, the full text in its tooltip): not counted.
    """
    rows = rows_in_view(view)
    found = {}
    for logical in view.visible_columns():
        if COLUMN_KEYS[logical] in LONG_TEXT_COLUMNS and view.columnWidth(logical) >= MAX_WIDTH:
            continue
        need, text = needed_width(view, logical, rows)
        if view.columnWidth(logical) < need:
            found[COLUMN_KEYS[logical]] = f"{view.columnWidth(logical)} < {need}: {text!r}"
    return found
