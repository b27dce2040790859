"""GraphToolbar: mode, colouring, fuzzy search, neighbourhood filter, trace, scopes, fit and export controls."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QLabel,
    QLineEdit,
    QMenu,
    QSpinBox,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.graphview.filters import AROUND_HOPS, BOTH, DOWN, UP
from autofuse_studio.core.graphview.style import BY_VERDICT, METRICS
from autofuse_studio.ui.widgets.retranslate import Retranslating

MODE_SIDE_BY_SIDE = "side-by-side"
MODE_OVERLAY = "overlay"
FILTER_NONE = "none"
FILTER_SELECTION = "selection"
FILTER_FAILING = "failing"


class GraphToolbar(Retranslating, QWidget):
    """Plain controls; the workbench reads their values and connects their signals."""

    searchEdited = Signal(str)
    searchChosen = Signal(str)
    exportRequested = Signal(str, bool)  # format "png"/"svg", whole graph (True) or current view

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(2, 2, 2, 2)
        rows.setSpacing(0)
        # Combo item data are identifiers; retranslate() sets the display texts.
        self.mode = _combo([MODE_SIDE_BY_SIDE, MODE_OVERLAY])
        self.colour = _combo([BY_VERDICT, *METRICS])
        self.search = QLineEdit()
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
        self.filter = _combo([FILTER_NONE, FILTER_SELECTION, FILTER_FAILING])
        self.filter.setCurrentIndex(1)  # the readable view: around the selection (the first divergence)
        self.hops = QSpinBox()
        self.hops.setRange(0, 99)
        self.hops.setValue(AROUND_HOPS)
        self.hops.setSpecialValueText("∞")
        self.direction = _combo([BOTH, UP, DOWN])
        self.scope_depth = QSpinBox()
        self.scope_depth.setRange(0, 20)
        # Buttons are actions: a row too narrow for them (a 1280 px laptop, Chinese labels) moves them into its
        # ">>" menu, where QToolBar can show actions but never widgets. The inputs come first in each row, so
        # the actions are what overflows.
        self.trace_up, self.trace_down, self.clear_trace = QAction(self), QAction(self), QAction(self)
        self.subgraphs, self.collapse_groups = QAction(self), QAction(self)
        for check in (self.subgraphs, self.collapse_groups):
            check.setCheckable(True)
        self.subgraphs.setChecked(True)
        self.fit = QAction(self)
        # Back/forward through the selection history (Alt+Left/Alt+Right while the Graph tab has the focus),
        # synced zoom and pan of a pair, a second graph beside a graph alone and the scope (layer) tree.
        self.back, self.forward = QAction(self), QAction(self)
        self.back.setShortcut("Alt+Left")
        self.forward.setShortcut("Alt+Right")
        for nav in (self.back, self.forward):
            nav.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            nav.setEnabled(False)
        self.sync = QAction(self)
        self.sync.setCheckable(True)
        self.sync.setChecked(True)
        self.compare = QAction(self)
        self.scopes_panel = QAction(self)
        self.scopes_panel.setCheckable(True)
        self.scopes_panel.setChecked(True)
        menu = QMenu(self)
        self.export_actions: list[QAction] = []
        for fmt, whole in (("png", False), ("svg", False), ("png", True), ("svg", True)):
            action = menu.addAction("")
            action.triggered.connect(lambda _=False, f=fmt, w=whole: self.exportRequested.emit(f, w))
            self.export_actions.append(action)
        self.export = menu.menuAction()
        self.search.setMinimumWidth(200)
        self.mode_label, self.colour_label, self.show_label = QLabel(), QLabel(), QLabel()
        self.rows: list[QToolBar] = []
        for widgets, actions in (
                ((self.mode_label, self.mode, self.colour_label, self.colour, self.search),
                 (self.back, self.forward, self.fit, self.export)),
                ((self.show_label, self.filter, self.hops, self.direction, self.scope_depth),
                 (self.trace_up, self.trace_down, self.clear_trace, self.subgraphs, self.collapse_groups,
                  self.sync, self.scopes_panel, self.compare))):
            row = QToolBar()
            row.setMovable(False)
            row.setFloatable(False)
            row.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            for widget in widgets:
                row.addWidget(widget)
            row.addSeparator()
            row.addActions(list(actions))
            rows.addWidget(row)
            self.rows.append(row)
        export_button = self.rows[0].widgetForAction(self.export)
        if isinstance(export_button, QToolButton):
            export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language; combo item data (identifiers) stay as they are."""
        _texts(self.mode, [self.tr("Side by side"), self.tr("Overlay (fusion boxes)")])
        _texts(self.colour, [self.tr("Verdict")])  # metric names (the other entries) are not translated
        _texts(self.filter, [self.tr("All nodes"), self.tr("Around selection"), self.tr("Around failing rows")])
        _texts(self.direction, [self.tr("up+down"), self.tr("upstream"), self.tr("downstream")])
        self.search.setPlaceholderText(self.tr("Search op name or type…"))
        self.hops.setToolTip(self.tr("Hops up/downstream to keep (∞: unlimited)"))
        self.trace_up.setText(self.tr("Trace inputs"))
        self.trace_down.setText(self.tr("Trace outputs"))
        self.clear_trace.setText(self.tr("Clear"))
        self.scope_depth.setSpecialValueText(self.tr("no scopes"))
        self.scope_depth.setPrefix(self.tr("collapse scopes at depth "))
        self.subgraphs.setText(self.tr("Subgraphs in place"))
        self.collapse_groups.setText(self.tr("Collapse fusion groups"))
        self.fit.setText(self.tr("Fit"))
        self.fit.setToolTip(self.tr("Fit the whole graph (both panes when zoom is synced); F in a pane"))
        self.back.setToolTip(self.tr("Back to the previous selection (Alt+Left)"))
        self.forward.setToolTip(self.tr("Forward to the next selection (Alt+Right)"))
        self.back.setText("◀")
        self.forward.setText("▶")
        self.sync.setText(self.tr("Sync zoom"))
        self.sync.setToolTip(self.tr("Zoom and pan both panes together"))
        self.compare.setText(self.tr("Compare with…"))
        self.compare.setToolTip(self.tr("Open a second graph beside this one"))
        self.scopes_panel.setText(self.tr("Layers"))
        self.scopes_panel.setToolTip(self.tr("Show the tree of op name scopes (layers)"))
        self.export.setText(self.tr("Export"))
        labels = (self.tr("Current view as PNG…"), self.tr("Current view as SVG…"), self.tr("Whole graph as PNG…"),
                  self.tr("Whole graph as SVG…"))
        for action, label in zip(self.export_actions, labels, strict=True):
            action.setText(label)
        self.mode_label.setText(self.tr("Mode"))
        self.colour_label.setText(self.tr("Colour"))
        self.show_label.setText(self.tr("Show"))


    def set_completions(self, items: list[str]) -> None:
        """Replace the fuzzy-search suggestions."""
        self.completions.setStringList(items)


def _combo(entries: list[str]) -> QComboBox:
    """A combo whose items carry these identifiers as data (and show them until retranslated)."""
    combo = QComboBox()
    for data in entries:
        combo.addItem(data, data)
    return combo


def _texts(combo: QComboBox, texts: list[str]) -> None:
    """Set the display texts of the first items, keeping their data."""
    for number, text in enumerate(texts):
        combo.setItemText(number, text)
