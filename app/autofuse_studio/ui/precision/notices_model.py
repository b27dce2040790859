"""NoticesModel: a run's notices as a two-level tree (notice -> its items), item texts made on demand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt

from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.explain import CasePaths, item_files, item_line, notice_files

Index = QModelIndex | QPersistentModelIndex
TOP = 0  # internalId of a notice row; an item row stores its notice's position + 1
MESSAGE, FILES, COUNT = range(3)
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole


def side_label(side: str | None) -> str:
    """'af-open', 'af-close' or 'both sides', in the current language."""
    if side is None:
        return QCoreApplication.translate("NoticesModel", "both sides")
    return side


def short_names(files: Sequence[str]) -> list[str]:
    """Each file once, by its name; names that would repeat ("dump, dump") keep enough parent folders to differ."""
    unique = list(dict.fromkeys(file.rstrip("/\\") or file for file in files))
    parts = [[part for part in file.replace("\\", "/").split("/") if part] or [file] for file in unique]
    depth = [1] * len(unique)
    while True:
        names = ["/".join(split[-d:]) for split, d in zip(parts, depth, strict=True)]
        clashes = {name for name in names if names.count(name) > 1}
        grow = [i for i, name in enumerate(names) if name in clashes and depth[i] < len(parts[i])]
        if not grow:
            return list(dict.fromkeys(names))
        for i in grow:
            depth[i] += 1


def _files_text(files: list[str], role: int, fallback: str) -> str:
    """File names for the cell (full paths in the tooltip)."""
    if role == _TOOLTIP:
        return "\n".join(dict.fromkeys(files)) or fallback
    return ", ".join(short_names(files)) or fallback


class NoticesModel(QAbstractItemModel):
    """Rows: notices (message, files, count); children: one row per item (thousands are fine: lazy text)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.notices: list[Notice] = []
        self.files: list[list[str]] = []

    def set_notices(self, notices: Sequence[Notice], paths: CasePaths) -> None:
        """Show these notices; `paths` names the files of notices whose items name none."""
        self.beginResetModel()
        self.notices = list(notices)
        self.files = [notice_files(notice, paths) for notice in self.notices]
        self.endResetModel()

    def notice_of(self, index: Index) -> Notice | None:
        """The notice of a notice row or of one of its item rows."""
        if not index.isValid():
            return None
        position = index.row() if index.internalId() == TOP else index.internalId() - 1
        return self.notices[position] if 0 <= position < len(self.notices) else None

    def files_of(self, index: Index) -> list[str]:
        """The files the notice of `index` concerns."""
        notice = self.notice_of(index)
        return self.files[self.notices.index(notice)] if notice is not None else []

    # --- QAbstractItemModel ---------------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        """Notice rows under the root, item rows under a notice."""
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, TOP)
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        """The notice row of an item row; nothing for a notice row."""
        if not index.isValid() or index.internalId() == TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, TOP)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Notices at the top, a notice's items below it."""
        if not parent.isValid():
            return len(self.notices)
        if parent.internalId() != TOP or parent.column() != 0:
            return 0
        return len(self.notices[parent.row()].items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Message, files, count."""
        return 3

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        """Texts and tooltips (the whole message and every file)."""
        if not index.isValid() or role not in (_DISPLAY, _TOOLTIP):
            return None
        if index.internalId() != TOP:
            item = self.notices[index.internalId() - 1].items[index.row()]
            if index.column() == MESSAGE:
                return item_line(item)
            return _files_text(item_files(item), role, "") if index.column() == FILES else None
        notice, files = self.notices[index.row()], self.files[index.row()]
        if index.column() == MESSAGE:
            return notice.message
        if index.column() == FILES:
            return _files_text(files, role, side_label(notice.side))
        return f"{notice.count:,}"

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        """Column titles in the current language."""
        if orientation != Qt.Orientation.Horizontal or role != _DISPLAY or not 0 <= section < 3:
            return None
        titles = (QCoreApplication.translate("NoticesModel", "Warning"),
                  QCoreApplication.translate("NoticesModel", "Concerns"),
                  QCoreApplication.translate("NoticesModel", "Count"))
        return titles[section]

    def flags(self, index: Index) -> Qt.ItemFlag:
        """Selectable, not editable."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def retranslate(self) -> None:
        """Headers and side labels follow the application language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 2)
        if self.notices:
            self.dataChanged.emit(self.index(0, FILES), self.index(len(self.notices) - 1, FILES))
