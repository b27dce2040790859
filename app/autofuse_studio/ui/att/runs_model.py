"""Qt models of the Runs view: both sides' discovered files, the compared operators, the evidence lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.diff import CHANGED, ONLY_CANDIDATE, ONLY_DEFAULT, OperatorDiff
from autofuse_studio.core.att.runs.discovery import NOT_PARSED
from autofuse_studio.core.att.runs.report_md import size_text
from autofuse_studio.core.att.runs.sides import ROLES
from autofuse_studio.core.att.runs.texts import EN, ZH, cause_text, number, percent
from autofuse_studio.ui.att.palette import ONLY_ONE, perf_change_fill
from autofuse_studio.ui.widgets.columns_model import ColumnsTableModel

AnyIndex = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole



def report_language() -> str:
    """The report language matching the UI language (Chinese UI -> zh)."""
    from autofuse_studio.ui.i18n import CHINESE, translations

    return ZH if translations().language == CHINESE else EN


@dataclass(frozen=True)
class FileRow:
    """One line of the files table."""

    side: str
    kind: str  # "log", "plain", "binary", "folder", "note"
    path: str
    size: int | None
    lines: int | None
    category: str = ""  # folders: logs, profiling, kernel_meta, dump
    files: int = 0  # folders: files inside


def file_rows(analysis: RunAnalysis) -> list[FileRow]:
    """ATT logs, other text files, binary files, notable folders and notes of both sides."""
    rows: list[FileRow] = []
    for role in ROLES:
        scan = analysis.scans[role]
        rows += [FileRow(role, "log", log.file.relpath, log.file.size, log.scan.line_count) for log in scan.logs]
        rows += [FileRow(role, "plain", f.relpath, f.size, None) for f in scan.plain]
        rows += [FileRow(role, "binary", f.relpath, f.size, None) for f in scan.binary]
        rows += [FileRow(role, "folder", f"{folder.relpath}/", folder.bytes, None, folder.category, folder.files)
                 for folder in scan.listing.folders]
        rows += [FileRow(role, "note", note, None, None) for note in analysis.side_notes(role)]
    return rows


class RunFilesModel(ColumnsTableModel):
    """What discovery found on each side; notes (links not followed, unreadable files) are rows too."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = ["Side", "Kind", "Path", "Size", "Lines"]
        self.rows: list[FileRow] = []

    def set_analysis(self, analysis: RunAnalysis | None) -> None:
        """Show an analysis' files (None clears)."""
        self.beginResetModel()
        self.rows = file_rows(analysis) if analysis else []
        self.endResetModel()

    def header_text(self, column: str) -> str:
        """Column titles in the UI language."""
        return {"Side": self.tr("Side"), "Kind": self.tr("Kind"), "Path": self.tr("Path"), "Size": self.tr("Size"),
                "Lines": self.tr("Lines")}.get(column, column)

    def row_total(self) -> int:
        """One row per file, folder or note."""
        return len(self.rows)

    def kind_text(self, row: FileRow) -> str:
        """What a row is, in the UI language."""
        if row.kind == "folder":
            text = self.tr("%1/ folder, %2 file(s)").replace("%1", row.category).replace("%2", str(row.files))
            return text + (self.tr(", never parsed") if row.category in NOT_PARSED else "")
        return {"log": self.tr("ATT log"), "plain": self.tr("text, no ATT lines"),
                "binary": self.tr("binary, not read"), "note": self.tr("note")}[row.kind]

    def retranslate(self) -> None:
        """Headers and kinds in the new language."""
        super().retranslate()
        if self.rows:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self.rows) - 1, 1))

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """Texts; notes are dark red and carry the whole sentence as tooltip."""
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role in (DISPLAY, TOOLTIP):
            return (row.side, self.kind_text(row), row.path, "" if row.size is None else size_text(row.size),
                    "" if row.lines is None else str(row.lines))[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and row.kind in ("note", "binary"):
            return QBrush(QColor("#a33" if row.kind == "note" else "#888"))
        return None


def row_fill(diff: OperatorDiff) -> QColor | None:
    """Compare's palette: a faster change green, a slower one red, one with the same perf pale yellow, one side grey."""
    if diff.status == CHANGED:
        return perf_change_fill(diff.perf_delta_pct)
    return ONLY_ONE if diff.status in (ONLY_DEFAULT, ONLY_CANDIDATE) else None


class RunOperatorsModel(ColumnsTableModel):
    """The compared operators in report order (changed first, largest regression first)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = ["Status", "Operator", "Perf Δ", "Default perf", "Candidate perf", "Causes"]
        self.diffs: list[OperatorDiff] = []

    def set_analysis(self, analysis: RunAnalysis | None) -> None:
        """Show an analysis' operators (None clears)."""
        self.beginResetModel()
        self.diffs = list(analysis.diffs) if analysis else []
        self.endResetModel()

    def retranslate(self) -> None:
        """Headers, statuses and causes in the new language."""
        super().retranslate()
        if self.diffs:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.diffs) - 1, len(self.columns) - 1))

    def status_text(self, status: str) -> str:
        """An operator status in the UI language."""
        return {"changed": self.tr("changed"), "unchanged": self.tr("unchanged"),
                "only_default": self.tr("only in default"), "only_candidate": self.tr("only in candidate")}.get(
            status, status)

    def header_text(self, column: str) -> str:
        """Column titles in the UI language."""
        return {"Status": self.tr("Status"), "Operator": self.tr("Operator"), "Perf Δ": self.tr("Perf Δ"),
                "Default perf": self.tr("Default perf"), "Candidate perf": self.tr("Candidate perf"),
                "Causes": self.tr("Causes")}.get(column, column)

    def row_total(self) -> int:
        """One row per operator."""
        return len(self.diffs)

    def diff_at(self, row: int) -> OperatorDiff | None:
        """The operator of a row."""
        return self.diffs[row] if 0 <= row < len(self.diffs) else None

    def row_of(self, name: str) -> int:
        """The row of an operator, -1 when absent."""
        return next((i for i, d in enumerate(self.diffs) if d.name == name), -1)

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """Cells; changed and one-sided rows are tinted; the causes are the tooltip too."""
        if not index.isValid():
            return None
        diff = self.diffs[index.row()]
        column = index.column()
        lang = report_language()
        if role == DISPLAY:
            a, b = diff.default, diff.candidate
            return (self.status_text(diff.status), diff.name,
                    percent(diff.perf_delta_pct) if diff.status == CHANGED else "",
                    number(a.result_perf) if a else "", number(b.result_perf) if b else "",
                    "; ".join(cause_text(c, lang) for c in diff.causes))[column]
        if role == TOOLTIP and column == 5:
            return "\n".join(cause_text(c, lang) for c in diff.causes)
        if role == Qt.ItemDataRole.BackgroundRole:
            fill = row_fill(diff)
            return QBrush(fill) if fill is not None else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (2, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class EvidenceModel(ColumnsTableModel):
    """The evidence lines of one operator: side, path:line and the line's text."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = ["Side", "Location", "Line"]
        self.rows: list[tuple[str, str, str]] = []

    def set_operator(self, analysis: RunAnalysis | None, diff: OperatorDiff | None) -> None:
        """Show the lines backing one operator's causes (None clears)."""
        self.beginResetModel()
        self.rows = [] if analysis is None or diff is None else [
            (ref.side, f"{analysis.relpath(ref.source)}:{ref.source.line}", analysis.texts.get(ref.source, ""))
            for ref in diff.evidence]
        self.endResetModel()

    def header_text(self, column: str) -> str:
        """Column titles in the UI language."""
        return {"Side": self.tr("Side"), "Location": self.tr("Location (file:line)"),
                "Line": self.tr("Line")}.get(column, column)

    def row_total(self) -> int:
        """One row per evidence line."""
        return len(self.rows)

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        """Side, file:line and text."""
        if not index.isValid() or role not in (DISPLAY, TOOLTIP):
            return None
        return self.rows[index.row()][index.column()]
