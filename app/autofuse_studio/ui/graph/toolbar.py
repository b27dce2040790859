"""GraphToolbar: mode, colouring, fuzzy search, neighbourhood filter, trace, scopes, fit and export controls."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.graphview.filters import BOTH, DOWN, UP
from autofuse_studio.core.graphview.style import BY_VERDICT, METRICS

MODE_SIDE_BY_SIDE = "side-by-side"
MODE_OVERLAY = "overlay"
FILTER_NONE = "none"
FILTER_SELECTION = "selection"
FILTER_FAILING = "failing"


class GraphToolbar(QWidget):
    """Plain controls; the workbench reads their values and connects their signals."""

    searchEdited = Signal(str)
    searchChosen = Signal(str)
    exportRequested = Signal(str, bool)  # format "png"/"svg", whole graph (True) or current view

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(2, 2, 2, 2)
        rows.setSpacing(2)
        self.mode = _combo([("Side by side", MODE_SIDE_BY_SIDE), ("Overlay (fusion boxes)", MODE_OVERLAY)])
        self.colour = _combo([("Verdict", BY_VERDICT), *((name, name) for name in METRICS)])
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search op name or type…")
        self.search.setClearButtonEnabled(True)
        self.completions = QStringListModel(self)
        completer = QCompleter(self.completions, self)
        # The model already holds fuzzy matches: the completer must show them all, unfiltered.
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search.setCompleter(completer)
        self.search.textEdited.connect(self.searchEdited)
        self.search.returnPressed.connect(lambda: self.searchChosen.emit(self.search.text()))
        completer.activated.connect(self.searchChosen)
        self.filter = _combo([("All nodes", FILTER_NONE), ("Around selection", FILTER_SELECTION),
                              ("Around failing rows", FILTER_FAILING)])
        self.hops = QSpinBox()
        self.hops.setRange(0, 99)
        self.hops.setValue(2)
        self.hops.setSpecialValueText("∞")
        self.hops.setToolTip("Hops up/downstream to keep (∞: unlimited)")
        self.direction = _combo([("up+down", BOTH), ("upstream", UP), ("downstream", DOWN)])
        self.trace_up = QPushButton("Trace inputs")
        self.trace_down = QPushButton("Trace outputs")
        self.clear_trace = QPushButton("Clear")
        self.scope_depth = QSpinBox()
        self.scope_depth.setRange(0, 20)
        self.scope_depth.setSpecialValueText("no scopes")
        self.scope_depth.setPrefix("collapse scopes at depth ")
        self.subgraphs = QCheckBox("Subgraphs in place")
        self.subgraphs.setChecked(True)
        self.collapse_groups = QCheckBox("Collapse fusion groups")
        self.fit = QPushButton("Fit")
        self.export = QToolButton()
        self.export.setText("Export")
        self.export.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export)
        for label, fmt, whole in (("Current view as PNG…", "png", False), ("Current view as SVG…", "svg", False),
                                  ("Whole graph as PNG…", "png", True), ("Whole graph as SVG…", "svg", True)):
            menu.addAction(label).triggered.connect(lambda _=False, f=fmt, w=whole: self.exportRequested.emit(f, w))
        self.export.setMenu(menu)
        self.search.setMinimumWidth(260)
        for widgets in ((QLabel("Mode"), self.mode, QLabel("Colour"), self.colour, self.search, self.fit, self.export),
                        (QLabel("Show"), self.filter, self.hops, self.direction, self.trace_up, self.trace_down,
                         self.clear_trace, self.scope_depth, self.subgraphs, self.collapse_groups)):
            row = QHBoxLayout()
            for widget in widgets:
                row.addWidget(widget)
            row.addStretch(1)
            rows.addLayout(row)

    def set_completions(self, items: list[str]) -> None:
        """Replace the fuzzy-search suggestions."""
        self.completions.setStringList(items)


def _combo(entries: list[tuple[str, str]]) -> QComboBox:
    combo = QComboBox()
    for label, data in entries:
        combo.addItem(label, data)
    return combo
