"""Column widths from the cell texts of a sample of rows: readable numbers and names, instant for 100k rows.

QTableView.resizeColumnsToContents asks the model for every role of up to 1000 rows per column (a
Python call each: about a second for the precision table). Here each column's texts come from an
evenly spaced sample plus the rows the caller names (the visible ones, the first divergence); which of
them could be the widest is worked out without fonts (column_texts, on the analysis worker for a run's
result), and only those are measured.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle, QTableView

from autofuse_studio.core.precision.palette import VERDICT_COLOURS
from autofuse_studio.core.precision.rows import INPUT, OUTPUT, PrecisionRow
from autofuse_studio.ui.precision.column_texts import FIT_FIRST_ROWS, ColumnTexts, column_texts
from autofuse_studio.ui.precision.columns import COLUMN_KEYS, COLUMNS
from autofuse_studio.ui.precision.filters import PrecisionProxyModel
from autofuse_studio.ui.widgets.column_width import MAX_WIDTH, header_width


def widest(texts: Iterable[str], metrics: QFontMetrics) -> int:
    """The pixel width of the widest text (each distinct text measured once: '+' and '-' differ in width)."""
    return max((metrics.horizontalAdvance(text) for text in set(texts)), default=0)


def cell_margin(view: QTableView) -> int:
    """Horizontal space a cell needs besides its text: the style's text margins, rounding, the grid line."""
    # Qt elides when the text layout's width (fractional, rounded up) exceeds the cell minus a margin of
    # PM_FocusFrameHMargin + 1 on each side; 2 px more absorb the rounding (what the delegate's hint adds).
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return 2 * margin + 2 + (1 if view.showGrid() else 0)


def apply_widths(view: QTableView, texts: ColumnTexts, extra: dict[str, list[str]] | None = None,
                 max_width: int = MAX_WIDTH) -> None:
    """Size every column of `view` to its header and the widest of its texts (plus `extra`: e.g. each verdict)."""
    metrics, margin, header = view.fontMetrics(), cell_margin(view), view.horizontalHeader()
    extra = extra or {}
    for number, column in enumerate(COLUMNS):
        cells = widest(texts.texts.get(column.key, []) + extra.get(column.key, []), metrics) + margin
        view.setColumnWidth(number, max(header_width(header, number), min(cells, max_width)))


def fit_columns(view: QTableView, rows: Sequence[PrecisionRow], also: Iterable[PrecisionRow] = (),
                extra: dict[str, list[str]] | None = None, max_width: int = MAX_WIDTH) -> None:
    """Size every column of `view` to its header and the texts of a sample of `rows`, once."""
    apply_widths(view, column_texts(rows, also), extra, max_width)


def fit_result_columns(view: QTableView, proxy: PrecisionProxyModel, rows: Sequence[PrecisionRow],
                       first: PrecisionRow | None, statuses: list[str], texts: ColumnTexts | None = None) -> None:
    """fit_columns for a finished result: the first rows, those around the first divergence, a sample.

    `texts`: the result's column_texts worked out on the worker (in the result's order); the rows the table
    opens on are added when sorting or a filter shows others (in the language the texts were worded in only).
    """
    near = [proxy.row_at(number) for number in range(min(FIT_FIRST_ROWS, proxy.rowCount()))]
    position = proxy.proxy_row_of(first) if first is not None else -1
    if position >= 0:  # the table opens scrolled to it
        low, high = max(0, position - FIT_FIRST_ROWS), min(proxy.rowCount(), position + FIT_FIRST_ROWS)
        near += [proxy.row_at(number) for number in range(low, high)]
    texts = texts.with_rows(near) if texts is not None and texts.current else column_texts(rows, near)
    # Every verdict and status a threshold change or filter can bring, so no later resize is needed.
    extra = {"verdict": list(VERDICT_COLOURS), "status": statuses}
    if "kind" not in texts.texts:  # not worded on the worker (column_texts.GUI_WORDED): both values it can take
        extra["kind"] = [COLUMNS[COLUMN_KEYS.index("kind")].text(kind) for kind in (OUTPUT, INPUT)]
    apply_widths(view, texts, extra)
