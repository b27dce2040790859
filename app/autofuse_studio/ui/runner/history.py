"""Run history of the runner panel: records persisted as JSON in the app data folder, and their table model."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QStandardPaths, Qt

from autofuse_studio.core.reports.atomic import atomic_write_text

log = logging.getLogger(__name__)

MAX_RECORDS = 200
COLUMNS = ("When", "Source", "Host", "Status", "block_dim", "workspace", "aiv_num")  # English; see headers()
Index = QModelIndex | QPersistentModelIndex


@dataclass
class RunRecord:
    """One run: its inputs (the verify-tiling arguments), where it ran and what came back."""

    when: str
    source_dir: str
    host: str  # "local" or a profile name
    args: list[str]  # verify-tiling arguments after the subcommand
    output_dir: str
    status: str = "RUNNING"
    block_dim: int | None = None
    workspace_size: int | None = None
    aiv_num: str = ""
    aiv_source: str = ""
    error: str = ""
    input_json: str = ""  # the editor text when the run used it
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunRecord:
        """Build from stored JSON, ignoring unknown keys."""
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


def history_path() -> Path:
    """runner_history.json in the generic data folder (XDG_DATA_HOME), next to the app's other data."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(folder) / "AutofuseStudio" / "runner_history.json"


def load_history() -> list[RunRecord]:
    """Saved records, newest first; an unreadable file is logged and ignored."""
    path = history_path()
    if not path.is_file():
        return []
    try:
        return [RunRecord.from_dict(item) for item in json.loads(path.read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError) as exc:
        log.warning("ignoring unreadable run history %s: %s", path, exc)
        return []


def save_history(records: list[RunRecord]) -> None:
    """Write the records (atomic)."""
    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps([asdict(r) for r in records[:MAX_RECORDS]], indent=2, ensure_ascii=False))


class HistoryModel(QAbstractTableModel):
    """The run history table, newest first; every change is saved at once."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._records = load_history()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's default argument
        """Number of runs."""
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Number of columns."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles."""
        horizontal = orientation == Qt.Orientation.Horizontal
        if role == Qt.ItemDataRole.DisplayRole and horizontal and 0 <= section < len(COLUMNS):
            return self.headers()[section]
        return None

    def headers(self) -> tuple[str, ...]:
        """The column titles in the current language (block_dim and aiv_num are the CLI's field names)."""
        return (self.tr("When"), self.tr("Source"), self.tr("Host"), self.tr("Status"), "block_dim",
                self.tr("workspace"), "aiv_num")

    def retranslate(self) -> None:
        """Tell views that the headers changed language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text; the tooltip carries the error."""
        if not index.isValid() or not 0 <= index.row() < len(self._records):
            return None
        record = self._records[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            values = (record.when, Path(record.source_dir).name, record.host, record.status,
                      record.block_dim, record.workspace_size, record.aiv_num)
            value = values[index.column()]
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            return record.error or record.source_dir
        return None

    def record(self, row: int) -> RunRecord:
        """The record shown in row."""
        return self._records[row]

    def records(self) -> list[RunRecord]:
        """All records, newest first."""
        return list(self._records)

    def add(self, record: RunRecord) -> None:
        """Insert a new run at the top."""
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._records.insert(0, record)
        self.endInsertRows()
        save_history(self._records)

    def update_first(self, record: RunRecord) -> None:
        """The newest run changed (it finished)."""
        if self._records:
            self._records[0] = record
            self.dataChanged.emit(self.index(0, 0), self.index(0, len(COLUMNS) - 1))
            save_history(self._records)

    def export(self, path: str | Path) -> None:
        """Write every record to a JSON file."""
        atomic_write_text(path, json.dumps([asdict(r) for r in self._records], indent=2, ensure_ascii=False))
