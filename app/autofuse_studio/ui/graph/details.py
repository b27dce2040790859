"""DetailsPanel: the selected op's tensors, attributes, fusion mapping and precision rows as HTML tables."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QTextBrowser, QWidget

from autofuse_studio.core.graphview.details import Section

CONTEXT = "GraphDetails"
NOT_IN_GRAPH = ": not in this graph"


def _translated(text: str) -> str:
    """A section title or column header of describe_op() in the current language (others stay as they are).

    Literal translate() calls so that lupdate finds them; field names, op names and values are not translated.
    """
    texts = {
        "Op": QCoreApplication.translate("GraphDetails", "Op"),
        "Inputs": QCoreApplication.translate("GraphDetails", "Inputs"),
        "Outputs": QCoreApplication.translate("GraphDetails", "Outputs"),
        "Attributes": QCoreApplication.translate("GraphDetails", "Attributes"),
        "Fusion mapping": QCoreApplication.translate("GraphDetails", "Fusion mapping"),
        "Fused into": QCoreApplication.translate("GraphDetails", "Fused into"),
        "Precision rows": QCoreApplication.translate("GraphDetails", "Precision rows"),
        "field": QCoreApplication.translate("GraphDetails", "field"),
        "value": QCoreApplication.translate("GraphDetails", "value"),
        "name": QCoreApplication.translate("GraphDetails", "name"),
        "from / to": QCoreApplication.translate("GraphDetails", "from / to"),
        "origin format": QCoreApplication.translate("GraphDetails", "origin format"),
        "origin shape": QCoreApplication.translate("GraphDetails", "origin shape"),
        "shape": QCoreApplication.translate("GraphDetails", "shape"),
        "what": QCoreApplication.translate("GraphDetails", "what"),
        "original": QCoreApplication.translate("GraphDetails", "original"),
        "fused op": QCoreApplication.translate("GraphDetails", "fused op"),
        "step": QCoreApplication.translate("GraphDetails", "step"),
        "kind": QCoreApplication.translate("GraphDetails", "kind"),
        "fused": QCoreApplication.translate("GraphDetails", "fused"),
        "origin": QCoreApplication.translate("GraphDetails", "origin"),
        "status": QCoreApplication.translate("GraphDetails", "status"),
        "verdict": QCoreApplication.translate("GraphDetails", "verdict"),
        "cosine": QCoreApplication.translate("GraphDetails", "cosine"),
        "max abs err": QCoreApplication.translate("GraphDetails", "max abs err"),
    }
    if text.endswith(NOT_IN_GRAPH):
        return QCoreApplication.translate("GraphDetails", "%1: not in this graph").replace(
            "%1", text[: -len(NOT_IN_GRAPH)])
    return texts.get(text, text)


def sections_html(sections: list[Section]) -> str:
    """Sections as compact HTML tables (empty sections say so), titles and headers in the UI language."""
    parts = []
    none = QCoreApplication.translate("GraphDetails", "none")
    for section in sections:
        parts.append(f"<h4 style='margin:6px 0 2px 0'>{escape(_translated(section.title))}</h4>")
        if not section.rows:
            parts.append(f"<i>{escape(none)}</i>")
            continue
        head = "".join(_cell(_translated(h), False, header=True) for h in section.headers)
        body = "".join("<tr>" + "".join(_cell(cell, column in section.wrap) for column, cell in enumerate(row))
                       + "</tr>" for row in section.rows)
        parts.append(f"<table border='0' cellspacing='0' cellpadding='2'><tr>{head}</tr>{body}</table>")
    return "".join(parts)


def _cell(text: str, wrap: bool, header: bool = False) -> str:
    """One table cell; names, dtypes and shapes stay on one line (never "DT_FLO" over "AT16")."""
    tag = "th" if header else "td"
    style = "" if wrap else " style='white-space:pre'"
    return f"<{tag} align='left'{style}>{escape(text)}</{tag}>"


class DetailsPanel(QTextBrowser):
    """Read-only HTML view of describe_op() sections; wide tables scroll sideways instead of being cut."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphDetails")
        self.setOpenLinks(False)
        # Qt wraps "anywhere" by default when a column is narrow; prose (attribute values) wraps at spaces.
        self.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.sections: list[Section] = []
        self.pending: str | None = None  # the op whose details wait for the graph's look-ups
        self.show_sections([])

    def show_pending(self, op_name: str) -> None:
        """Say that the op's details follow once the graph's look-ups are built (nothing of an earlier pick stays)."""
        self.sections, self.pending = [], op_name
        text = self.tr("%1: reading the graph's links…").replace("%1", op_name)
        self.setHtml(f"<i>{escape(text)}</i>")

    def show_sections(self, sections: list[Section]) -> None:
        """Replace the content (an empty list shows a hint)."""
        self.sections, self.pending = list(sections), None
        if not sections:
            hint = self.tr("Select a node to see its inputs, outputs, attributes and precision rows.")
            self.setHtml(f"<i>{escape(hint)}</i>")
        else:
            self.setHtml(sections_html(sections))

    def changeEvent(self, event: QEvent) -> None:
        """Re-translate when the application language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            if self.pending is not None:
                self.show_pending(self.pending)
            else:
                self.show_sections(self.sections)
        super().changeEvent(event)
