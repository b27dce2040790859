"""AppendsBelow: a table view that does not repaint its rows when streamed rows are appended out of sight."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import QTableView


def appended_out_of_sight(view: QTableView, start: int) -> bool:
    """True when rows inserted at `start` (the end) lie below the viewport: the painted rows stay as they are."""
    if start <= 0:
        return False
    # The bottom of the row before them: valid whether or not the header counts the new rows yet.
    bottom = view.rowViewportPosition(start - 1) + view.rowHeight(start - 1)
    return view.rowViewportPosition(start - 1) >= 0 and bottom >= view.viewport().height()


class AppendsBelow(QTableView):
    """A QTableView whose layout after an append below the visible rows only updates the scroll bars.

    Qt lays the items out again after every insert and repaints the whole viewport: while a big run
    streams its rows in (500 at a time, at the end of the table) that was 5 ms of GUI-thread CPU per
    batch for the table and 2-3 ms for its frozen columns, repainting the very same cells. Anything
    else that asks for a layout (a reset, a re-sort or re-filter, rows removed, a font or style change)
    repaints as before.
    """

    # Since the last layout: rows were appended out of sight (_appended), something else needs a repaint (_owed).
    _appended = False
    _owed = False

    def setModel(self, model: QAbstractItemModel | None) -> None:
        """Show `model`; its re-sorts and re-filters always repaint."""
        super().setModel(model)
        self._owed = True
        if model is not None:
            model.layoutAboutToBeChanged.connect(self._on_model_layout_about_to_be_changed)

    def rowsInserted(self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int) -> None:
        """Note whether the new rows went to the end, out of sight."""
        at_end = not parent.isValid() and end == self.model().rowCount() - 1
        if at_end and appended_out_of_sight(self, start):
            self._appended = True
        else:
            self._owed = True
        super().rowsInserted(parent, start, end)

    def rowsAboutToBeRemoved(self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int) -> None:
        """Removed rows always repaint."""
        self._owed = True
        super().rowsAboutToBeRemoved(parent, start, end)

    def reset(self) -> None:
        """A reset always repaints."""
        self._owed = True
        super().reset()

    def changeEvent(self, event: QEvent) -> None:
        """A font, style or palette change always repaints."""
        self._owed = True
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            # Qt lays a style change out before this handler: paint in case that layout was skipped.
            self.viewport().update()
        super().changeEvent(event)

    def doItemsLayout(self) -> None:
        """Lay the items out; when only rows out of sight were appended, only the scroll bars and headers change."""
        skip_paint = self._appended and not self._owed
        self._appended = self._owed = False
        if skip_paint:
            self.updateGeometries()
            return
        super().doItemsLayout()

    def _on_model_layout_about_to_be_changed(self, *_args: Any) -> None:
        self._owed = True
