"""Column widths from the cell texts of a sample of rows: readable numbers and names, instant for 100k rows.

QTableView.resizeColumnsToContents asks the model for every role of up to 1000 rows per column (a
Python call each: about a second for the precision table). Here each column's texts come from an
evenly spaced sample plus the rows the caller names (the visible ones, the first divergence), each
distinct text measured once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle, QTableView

from autofuse_studio.core.precision.palette import VERDICT_COLOURS
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.columns import COLUMNS, Column
from autofuse_studio.ui.precision.filters import PrecisionProxyModel
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH, header_width

SAMPLE_ROWS = 300
FIT_FIRST_ROWS = 60  # rows measured at the top of the table and around the first divergence


def sample(rows: Sequence[PrecisionRow], count: int = SAMPLE_ROWS) -> list[PrecisionRow]:
    """At most `count` rows spread evenly over `rows` (all of them when there are fewer)."""
    if len(rows) <= count:
        return list(rows)
    step = len(rows) / count
    return [rows[int(number * step)] for number in range(count)]


def widest(texts: Iterable[str], metrics: QFontMetrics) -> int:
    """The pixel width of the widest text (each distinct text measured once: '+' and '-' differ in width)."""
    return max((metrics.horizontalAdvance(text) for text in set(texts)), default=0)


def cell_margin(view: QTableView) -> int:
    """Horizontal space a cell needs besides its text: the style's text margins, rounding, the grid line."""
    # Qt elides when the text layout's width (fractional, rounded up) exceeds the cell minus a margin of
    # PM_FocusFrameHMargin + 1 on each side; 2 px more absorb the rounding (what the delegate's hint adds).
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return 2 * margin + 2 + (1 if view.showGrid() else 0)


def column_texts(column: Column, rows: Iterable[PrecisionRow], extra: Iterable[str] = ()) -> list[str]:
    """The texts a column shows for `rows`, plus values every row could take (e.g. each verdict)."""
    return [column.display(row) for row in rows] + list(extra)


def fit_columns(view: QTableView, rows: Sequence[PrecisionRow], also: Iterable[PrecisionRow] = (),
                extra: dict[str, list[str]] | None = None, max_width: int = MAX_WIDTH) -> None:
    """Size every column of `view` to its header and the texts of a sample of `rows`, once."""
    chosen = sample(rows) + list(also)
    metrics, margin, header = view.fontMetrics(), cell_margin(view), view.horizontalHeader()
    extra = extra or {}
    for number, column in enumerate(COLUMNS):
        cells = widest(column_texts(column, chosen, extra.get(column.key, ())), metrics) + margin
        width = max(header_width(header, number), min(cells, max_width))
        view.setColumnWidth(number, width)


def fit_result_columns(view: QTableView, proxy: PrecisionProxyModel, rows: Sequence[PrecisionRow],
                       first: PrecisionRow | None, statuses: list[str]) -> None:
    """fit_columns for a finished result: the first rows, those around the first divergence, a sample."""
    near = [proxy.row_at(number) for number in range(min(FIT_FIRST_ROWS, proxy.rowCount()))]
    position = proxy.proxy_row_of(first) if first is not None else -1
    if position >= 0:  # the table opens scrolled to it
        low, high = max(0, position - FIT_FIRST_ROWS), min(proxy.rowCount(), position + FIT_FIRST_ROWS)
        near += [proxy.row_at(number) for number in range(low, high)]
    # Every verdict and status a threshold change or filter can bring, so no later resize is needed.
    fit_columns(view, rows, near, {"verdict": list(VERDICT_COLOURS), "status": statuses})
