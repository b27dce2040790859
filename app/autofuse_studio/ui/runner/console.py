"""Live log console: appends output chunks as they arrive, marks the stages and highlights errors."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

MAX_BLOCKS = 20000  # a runaway build log must not eat the memory


def line_kind(line: str) -> str:
    """'stage', 'error', 'ok', 'info' or 'plain' for one console line."""
    stripped = line.strip()
    if stripped.startswith("===") and stripped.endswith("==="):
        return "stage"
    if stripped.startswith("[runner]"):
        return "info"  # the panel's own lines (a path holding "error" is not an error)
    lowered = stripped.lower()
    if stripped.startswith("✗") or "error" in lowered or "失败" in stripped or "crashed" in lowered:
        return "error"
    if stripped.startswith("✓"):
        return "ok"
    if stripped.startswith("[verify-tiling]"):
        return "info"
    return "plain"


def _formats() -> dict[str, QTextCharFormat]:
    styles = {"stage": ("#1f5fbf", True), "error": ("#c0392b", True), "ok": ("#1e8449", False),
              "info": ("#6c3483", False), "plain": ("", False)}
    formats = {}
    for kind, (color, bold) in styles.items():
        fmt = QTextCharFormat()
        if color:
            fmt.setForeground(QColor(color))
        if bold:
            fmt.setFontWeight(QFont.Weight.Bold)
        formats[kind] = fmt
    return formats


class LogConsole(QPlainTextEdit):
    """Read-only console; append_output() takes raw chunks (lines may be split between chunks)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setMaximumBlockCount(MAX_BLOCKS)
        self.setFont(QFont("monospace"))
        self._formats = _formats()
        self._pending = ""
        self.stage_lines: list[str] = []
        self.error_lines: list[str] = []

    def clear_log(self) -> None:
        """Empty the console for a new run."""
        self.clear()
        self._pending = ""
        self.stage_lines, self.error_lines = [], []

    def append_output(self, chunk: str) -> None:
        """Add a chunk of output; complete lines are formatted, the rest waits for its end."""
        text = self._pending + chunk.replace("\r\n", "\n")
        *lines, self._pending = text.split("\n")
        for line in lines:
            self.append_line(line)

    def flush(self) -> None:
        """Write a last unterminated line."""
        if self._pending:
            self.append_line(self._pending)
            self._pending = ""

    def append_line(self, line: str) -> None:
        """Add one formatted line at the end and keep it in view."""
        kind = line_kind(line)
        if kind == "stage":
            self.stage_lines.append(line.strip())
        elif kind == "error":
            self.error_lines.append(line)
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if not self.document().isEmpty():
            cursor.insertBlock()
        cursor.insertText(line, self._formats[kind])
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
