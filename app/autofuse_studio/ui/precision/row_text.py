"""A row named in the UI language for a status line: op name, output/input (输出/输入), index, rank and step."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from autofuse_studio.core.precision.rows import INPUT, PrecisionRow
from autofuse_studio.core.printable import escape_controls


def kind_word(kind: str) -> str:
    """'output' / 'input' in the UI language."""
    if kind == INPUT:
        return QCoreApplication.translate("RowText", "input")
    return QCoreApplication.translate("RowText", "output")


def describe_row_here(row: PrecisionRow) -> str:
    """A row (a first divergence) for a status line, in the UI language; op names as they are."""
    where = [QCoreApplication.translate("RowText", "rank %1").replace("%1", str(row.rank))] \
        if row.rank is not None else []
    if row.step and row.rank is not None:
        where.append(QCoreApplication.translate("RowText", "step %1").replace("%1", str(row.step)))
    text = f"{row.fused_op} {kind_word(row.kind)} {row.fused_index}"
    if where:
        text += QCoreApplication.translate("RowText", " (%1)").replace(
            "%1", QCoreApplication.translate("RowText", ", ").join(where))
    return escape_controls(text)
