"""PrecisionProxyModel: filter (status, verdict, signature, text) and numeric sort in bulk, fast enough for 100k rows.

QSortFilterProxyModel asks the source for two cells per comparison, i.e. millions of Python calls to
sort 100k rows (seconds). This proxy computes the visible order in one pass over the row objects
(numpy argsort for numbers) and keeps it as a list, so sorting and filtering cost tens of milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QAbstractProxyModel, QModelIndex, QPersistentModelIndex, Qt

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.ui.precision.columns import COLUMNS, VERDICT_COLUMN, sort_order
from autofuse_studio.ui.precision.table_model import PrecisionTableModel, RoleSpan, clear_roles

AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class RowFilter:
    """Which rows to show: empty sets mean 'any'; text matches op names, files, dtypes and messages."""

    statuses: frozenset[str] = field(default_factory=frozenset)
    verdicts: frozenset[str] = field(default_factory=frozenset)
    text: str = ""
    ranks: frozenset[str] = field(default_factory=frozenset)
    steps: frozenset[str] = field(default_factory=frozenset)
    signatures: frozenset[str] = field(default_factory=frozenset)  # signature codes (a mixed one's parts count)

    @property
    def active(self) -> bool:
        """True when the filter hides anything."""
        return bool(self.statuses or self.verdicts or self.text.strip() or self.ranks or self.steps
                    or self.signatures)

    def accepts(self, row: PrecisionRow, haystack: str) -> bool:
        """True when `row` (with its lower-case search text) passes every criterion."""
        if self.statuses and row.status not in self.statuses:
            return False
        if self.verdicts and row.verdict not in self.verdicts:
            return False
        if self.ranks and row.rank not in self.ranks:
            return False
        if self.steps and row.step not in self.steps:
            return False
        if self.signatures and not self.signatures & signature_codes(row.signature):
            return False
        needle = self.text.strip().lower()
        # The verdict is searched on the row itself: it changes with every threshold edit, the rest never.
        return not needle or needle in haystack or needle in row.verdict.lower()


# What the filter bar's state holds (saved presets, the last filter, case files): chooser values and the text.
FILTER_CHOICES = ("status", "verdict", "signature", "rank", "step")
MAX_FILTER_TEXT = 1000
MAX_PRESETS = 50
MAX_PRESET_NAME = 80


def clean_filter_state(raw: object) -> dict[str, Any] | None:
    """A filter bar state read back from settings or a case file, or None when it is not one.

    Only the known keys are kept; each chooser value is a non-empty string (or absent: any), the text a
    string. A corrupt value never reaches the widgets.
    """
    if not isinstance(raw, dict):
        return None
    state: dict[str, Any] = {}
    for key in FILTER_CHOICES:
        value = raw.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value or len(value) > MAX_FILTER_TEXT:
            return None
        state[key] = value
    text = raw.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_FILTER_TEXT:
        return None
    state["text"] = text
    return state


def clean_presets(raw: object) -> dict[str, dict[str, Any]]:
    """Named filter presets read back from settings: {name: state}; bad entries are left out."""
    if not isinstance(raw, dict):
        return {}
    presets: dict[str, dict[str, Any]] = {}
    for name, value in raw.items():
        state = clean_filter_state(value)
        if isinstance(name, str) and name.strip() and len(name) <= MAX_PRESET_NAME and state is not None:
            presets[name] = state
        if len(presets) >= MAX_PRESETS:
            break
    return presets


def signature_codes(signature: Signature | None) -> frozenset[str]:
    """The codes a signature answers to in the filter: its own, and a mixed one's parts' (so 'tail block' also
    finds a bias next to a tail block)."""
    if signature is None:
        return frozenset()
    parts = signature.params.get("parts") if signature.code == "mixed" else None
    named = [str(part.get("code")) for part in parts if isinstance(part, dict)] if isinstance(parts, list) else []
    return frozenset([signature.code, *named])


def search_text(row: PrecisionRow) -> str:
    """The lower-case text the free-text filter searches in (all but the verdict, which RowFilter checks)."""
    parts = (row.fused_op, row.origin_op or "", row.status, row.step, row.fused_dtype,
             row.origin_dtype, row.message, row.kind)
    return "\x00".join(parts).lower()


# Worked out once: `|` of two Qt flags is six calls into Python's enum module, and a paint asks every
# cell twice (40% of the Python calls of a table paint, doubled while a worker runs Python).
CELL_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class PrecisionProxyModel(QAbstractProxyModel):
    """A flat proxy over PrecisionTableModel holding the visible source positions in display order."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._order: list[int] = []
        self._proxy_of: list[int] = []  # source position -> proxy row, -1 when hidden
        self._haystacks: list[str] = []
        self._filter = RowFilter()
        self._sort_column = -1
        self._descending = False
        self._source: PrecisionTableModel | None = None  # sourceModel() without a call into Qt per cell

    # --- QAbstractProxyModel -------------------------------------------------------------------
    def setSourceModel(self, source: QAbstractItemModel) -> None:
        """Attach the PrecisionTableModel and follow its changes."""
        assert isinstance(source, PrecisionTableModel)
        self.beginResetModel()
        super().setSourceModel(source)
        self._source = source
        source.rowsInserted.connect(self._on_source_rows_inserted)
        source.modelAboutToBeReset.connect(self._on_source_about_to_reset)
        source.modelReset.connect(self._on_source_reset)
        source.dataChanged.connect(self._on_source_data_changed)
        source.headerDataChanged.connect(self.headerDataChanged)
        self._rebuild_haystacks()
        self._recompute()
        self.endResetModel()

    def source(self) -> PrecisionTableModel:
        """The source model."""
        assert self._source is not None
        return self._source

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        """Index of a visible cell."""
        if parent.isValid() or not (0 <= row < len(self._order) and 0 <= column < len(COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column)

    def parent(self, child: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        """Flat model: no parents."""
        return QModelIndex()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """Visible rows."""
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """Same columns as the source."""
        return 0 if parent.isValid() else len(COLUMNS)

    def hasChildren(self, parent: AnyIndex = QModelIndex()) -> bool:  # noqa: B008
        """Only the root has children."""
        return not parent.isValid() and bool(self._order)

    def mapToSource(self, proxy_index: AnyIndex) -> QModelIndex:
        """Proxy cell -> source cell."""
        if not proxy_index.isValid() or self.sourceModel() is None or proxy_index.row() >= len(self._order):
            return QModelIndex()
        return self.source().index(self._order[proxy_index.row()], proxy_index.column())

    def mapFromSource(self, source_index: AnyIndex) -> QModelIndex:
        """Source cell -> proxy cell (invalid when filtered out)."""
        if not source_index.isValid() or source_index.row() >= len(self._proxy_of):
            return QModelIndex()
        row = self._proxy_of[source_index.row()]
        return QModelIndex() if row < 0 else self.createIndex(row, source_index.column())

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The source's data for the mapped cell."""
        if not self._shows(index):
            return None
        return self.source().value(self._order[index.row()], index.column(), role)

    def multiData(self, index: AnyIndex, roleDataSpan: RoleSpan) -> None:
        """Every role of the mapped cell in one call, without making a source index (a call back into Qt)."""
        # _shows() inlined: this runs for every painted cell, and each Python call counts twice while a
        # worker runs Python (see PrecisionTableModel.fill_roles).
        source = self._source
        if source is not None and index.isValid() and (row := index.row()) < len(self._order):
            source.fill_roles(self._order[row], index.column(), roleDataSpan)
        else:
            clear_roles(roleDataSpan)

    def _shows(self, index: AnyIndex) -> bool:
        return self._source is not None and index.isValid() and index.row() < len(self._order)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        """Selectable, enabled cells."""
        return CELL_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Source headers horizontally, display row numbers vertically."""
        if orientation == Qt.Orientation.Horizontal and self._source is not None:
            return self._source.headerData(section, orientation, role)
        return str(section + 1) if role == Qt.ItemDataRole.DisplayRole else None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by a column (-1: run order); empty cells stay last."""
        self._sort_column = column if 0 <= column < len(COLUMNS) else -1
        self._descending = order == Qt.SortOrder.DescendingOrder
        self._relayout()

    # --- public API ----------------------------------------------------------------------------
    @property
    def row_filter(self) -> RowFilter:
        """The current filter."""
        return self._filter

    def set_filter(self, row_filter: RowFilter) -> None:
        """Show only the rows that `row_filter` accepts."""
        if row_filter != self._filter:
            self._filter = row_filter
            self._relayout()

    def invalidate(self) -> None:
        """Re-filter and re-sort (after verdicts changed or streaming finished)."""
        self._relayout()

    def row_at(self, proxy_row: int) -> PrecisionRow:
        """The PrecisionRow shown at a proxy row."""
        return self.source().row_at(self._order[proxy_row])

    def proxy_row_of(self, row: PrecisionRow) -> int:
        """The proxy row showing `row`, or -1 when it is hidden or unknown."""
        position = self.source().position_of(row)
        return -1 if position < 0 else self._proxy_of[position]

    def visible_rows(self) -> list[PrecisionRow]:
        """The shown rows in display order."""
        rows = self.source().rows
        return [rows[position] for position in self._order]

    # --- internals -----------------------------------------------------------------------------
    def _rebuild_haystacks(self) -> None:
        known = self.source().take_search_texts()  # worked out with a finished result, off the GUI thread
        # A copy: inserts edit the haystacks in place, and the given list belongs to the result's facts.
        self._haystacks = list(known) if known is not None else [search_text(row) for row in self.source().rows]

    def _recompute(self) -> None:
        rows = self.source().rows
        if self._filter.active:
            accepted = [position for position, row in enumerate(rows)
                        if self._filter.accepts(row, self._haystacks[position])]
        else:  # the usual case when a result appears: no call per row
            accepted = list(range(len(rows)))
        if self._sort_column >= 0:
            subset: Sequence[PrecisionRow] = [rows[position] for position in accepted]
            ranks = sort_order(subset, COLUMNS[self._sort_column], self._descending)
            accepted = [accepted[rank] for rank in ranks]
        self._set_order(accepted, len(rows))

    def _set_order(self, order: list[int], source_rows: int) -> None:
        self._order = order
        self._proxy_of = [-1] * source_rows
        for proxy_row, position in enumerate(order):
            self._proxy_of[position] = proxy_row

    def _relayout(self) -> None:
        """Recompute the order, keeping selections and the current cell on the same rows."""
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        sources = [(self._order[index.row()], index.column()) if index.isValid() and index.row() < len(self._order)
                   else None for index in persistent]
        self._recompute()
        moved = [QModelIndex() if where is None or self._proxy_of[where[0]] < 0
                 else self.createIndex(self._proxy_of[where[0]], where[1]) for where in sources]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    def _on_source_about_to_reset(self) -> None:
        # A Python slot rather than connecting the C++ method directly (PySide bound-builtin slots
        # mis-count references, see docs/developer-guide.md, Development).
        self.beginResetModel()

    def _on_source_reset(self) -> None:
        self._rebuild_haystacks()
        self._recompute()
        self.endResetModel()

    def _on_source_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        rows = self.source().rows
        new = [search_text(rows[position]) for position in range(first, last + 1)]
        self._haystacks[first:first] = new
        if first != len(self._proxy_of):  # not an append: cheap enough to redo everything
            self.beginResetModel()
            self._recompute()
            self.endResetModel()
            return
        self._proxy_of.extend([-1] * len(new))
        accepted = [position for position in range(first, last + 1)
                    if self._filter.accepts(rows[position], self._haystacks[position])] \
            if self._filter.active else list(range(first, last + 1))  # no filter: no call per row
        if not accepted:
            return
        # Streamed rows go to the end, even while sorted: re-sorting on every batch would make the
        # table jump under the user's cursor. invalidate() sorts them in when the run finishes.
        start = len(self._order)
        self.beginInsertRows(QModelIndex(), start, start + len(accepted) - 1)
        for offset, position in enumerate(accepted):
            self._proxy_of[position] = start + offset
        self._order.extend(accepted)
        self.endInsertRows()

    def _on_source_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex,
                                roles: Sequence[int] = ()) -> None:
        if not self._order:
            return
        if self._filter.active or self._sort_column == VERDICT_COLUMN:
            self._relayout()
            return
        self.dataChanged.emit(self.index(0, 0), self.index(len(self._order) - 1, len(COLUMNS) - 1), list(roles))
