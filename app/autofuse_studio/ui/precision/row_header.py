"""The table's headers: painted with the GIL held once, and row numbers sized from a few sections."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QHeaderView, QWidget

# Sections measured at each end: what QHeaderView measures is 100 at each end, each a model call per role.
MEASURED_AT_EACH_END = 10


class PaintingHeader(QHeaderView):
    """A header view whose paint takes the GIL once for all its sections' model calls."""

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None) -> None:
        super().__init__(orientation, parent)
        # What QTableView sets on the headers it makes itself (sorting by a click, selecting by a row number).
        self.setSectionsClickable(True)
        self.setHighlightSections(True)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Paint with the GIL held (see PrecisionTableView.paintEvent)."""
        super().paintEvent(event)


class RowNumberHeader(PaintingHeader):
    """A vertical header of row numbers whose size hint asks the model for 20 sections, not 200.

    QHeaderView.sizeHint() measures the first and the last 100 sections, five model calls each, and
    forgets the result whenever rows are inserted: 1000 Python calls per streamed batch, 100-170 ms
    while a worker held the GIL. Row numbers grow only with their digits, so the first and last few
    sections give the same width.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self._hint: tuple[tuple[int, str], QSize] | None = None

    def sizeHint(self) -> QSize:
        """The largest size any of the measured sections asks for (cached per section count and font)."""
        count = self.count()
        key = (count, self.font().key())
        if self._hint is not None and self._hint[0] == key:
            return self._hint[1]
        measured = sorted(set(range(min(MEASURED_AT_EACH_END, count))) |
                          set(range(max(0, count - MEASURED_AT_EACH_END), count)))
        hint = QSize(0, 0)
        for section in measured:
            if not self.isSectionHidden(section):
                hint = hint.expandedTo(self.sectionSizeFromContents(section))
        self._hint = (key, hint)
        return hint
