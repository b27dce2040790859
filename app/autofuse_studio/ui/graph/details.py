"""DetailsPanel: the selected op's tensors, attributes, fusion mapping and precision rows as HTML tables."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser, QWidget

from autofuse_studio.core.graphview.details import Section


def sections_html(sections: list[Section]) -> str:
    """Sections as compact HTML tables (empty sections say so)."""
    parts = []
    for section in sections:
        parts.append(f"<h4 style='margin:6px 0 2px 0'>{escape(section.title)}</h4>")
        if not section.rows:
            parts.append("<i>none</i>")
            continue
        head = "".join(f"<th align='left'>{escape(h)}</th>" for h in section.headers)
        body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in section.rows)
        parts.append(f"<table border='0' cellspacing='0' cellpadding='2'><tr>{head}</tr>{body}</table>")
    return "".join(parts)


class DetailsPanel(QTextBrowser):
    """Read-only HTML view of describe_op() sections."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphDetails")
        self.setOpenLinks(False)
        self.show_sections([])

    def show_sections(self, sections: list[Section]) -> None:
        """Replace the content (an empty list shows a hint)."""
        if not sections:
            self.setHtml("<i>Select a node to see its inputs, outputs, attributes and precision rows.</i>")
        else:
            self.setHtml(sections_html(sections))
