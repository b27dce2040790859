"""StartPage: what the Precision tab shows while no case is open (as Netron and Model Explorer greet a user).

Recent cases (entries that can still be opened, paths elided in the middle with the full list in a tooltip),
the demo, the open dialogs and a drop hint. It lies over the workbench (a child that covers it), so the
window's tabs, docks and drops stay as they are; the window hides it when a case opens and shows it again
through MainWindow.show_start_page().
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio import APP_NAME
from autofuse_studio.core.case import recent_entry_usable
from autofuse_studio.ui.widgets.retranslate import Retranslating

PATH_WIDTH = 520  # px a recent entry's path is elided to (middle elided: the folder's start and its name show)


def entry_text(entry: Sequence[str]) -> str:
    """One recent entry as one line: its paths joined by ' + '."""
    return " + ".join(str(Path(path)) for path in entry)


class RecentButton(QPushButton):
    """A flat button naming a recent case; the text is elided in the middle to its width, the tooltip is whole."""

    def __init__(self, entry: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entry = list(entry)
        self.full_text = entry_text(entry)
        self.setFlat(True)
        self.setObjectName("recentCase")
        self.setToolTip("\n".join(self.entry))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setStyleSheet("text-align: left; padding: 2px 6px; color: palette(link);")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(120)
        self._elide(PATH_WIDTH)

    def _elide(self, width: int) -> None:
        self.setText(self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideMiddle, max(60, width)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Elide the path to the width the button got."""
        super().resizeEvent(event)
        self._elide(event.size().width() - 16)


class StartPage(Retranslating, QFrame):
    """Recent cases, Open demo / case / graph / run root, and where to drop files."""

    demoRequested = Signal()
    openCaseRequested = Signal()
    openGraphRequested = Signal()
    openRunRootRequested = Signal()
    recentChosen = Signal(list)  # the paths of a recent entry

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("startPage")
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Window)
        self.title = QLabel()
        self.title.setObjectName("startTitle")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.title.setFont(font)
        self.subtitle = QLabel()
        self.subtitle.setWordWrap(True)
        self.subtitle.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.demo_button = QPushButton()
        self.demo_button.setObjectName("openDemo")
        self.demo_button.setDefault(True)
        self.case_button = QPushButton()
        self.case_button.setObjectName("openCase")
        self.graph_button = QPushButton()
        self.graph_button.setObjectName("openGraph")
        self.run_root_button = QPushButton()
        self.run_root_button.setObjectName("openRunRoot")
        for button, signal in ((self.demo_button, self.demoRequested), (self.case_button, self.openCaseRequested),
                               (self.graph_button, self.openGraphRequested),
                               (self.run_root_button, self.openRunRootRequested)):
            button.clicked.connect(signal)
            button.setMinimumHeight(32)
        self.start_label = QLabel()
        self.start_label.setObjectName("startHeading")
        self.recent_label = QLabel()
        self.recent_label.setObjectName("recentHeading")
        for heading in (self.start_label, self.recent_label):
            bold = heading.font()
            bold.setBold(True)
            heading.setFont(bold)
        self.no_recent = QLabel()
        self.no_recent.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.recent_box = QVBoxLayout()
        self.recent_box.setSpacing(0)
        self.recent_buttons: list[RecentButton] = []
        self.drop_hint = QLabel()
        self.drop_hint.setObjectName("dropHint")
        self.drop_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.drop_hint.setWordWrap(True)
        self.drop_hint.setMinimumHeight(72)
        self.drop_hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.drop_hint.setStyleSheet("QLabel#dropHint { border: 2px dashed palette(mid); border-radius: 8px; }")

        actions = QVBoxLayout()
        actions.addWidget(self.start_label)
        for button in (self.demo_button, self.case_button, self.graph_button, self.run_root_button):
            actions.addWidget(button)
        actions.addStretch(1)
        recent = QVBoxLayout()
        recent.addWidget(self.recent_label)
        recent.addWidget(self.no_recent)
        recent.addLayout(self.recent_box)
        recent.addStretch(1)
        columns = QGridLayout()
        columns.setHorizontalSpacing(32)
        columns.addLayout(actions, 0, 0)
        columns.addLayout(recent, 0, 1)
        columns.setColumnStretch(1, 1)
        body = QVBoxLayout()
        body.addWidget(self.title)
        body.addWidget(self.subtitle)
        body.addSpacing(16)
        body.addLayout(columns)
        body.addSpacing(16)
        body.addWidget(self.drop_hint)
        body.addStretch(1)
        centred = QHBoxLayout(self)
        centred.setContentsMargins(24, 24, 24, 24)
        centred.addStretch(1)
        centred.addLayout(body, 6)
        centred.addStretch(1)
        self.retranslate()
        self.set_recent([])

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.title.setText(APP_NAME)
        self.subtitle.setText(self.tr("Find the fused op that introduces a precision error: open a case, "
                                      "or try the demo."))
        self.start_label.setText(self.tr("Start"))
        self.demo_button.setText(self.tr("Open demo case"))
        self.demo_button.setToolTip(self.tr("A small generated case with one wrong fused op, analysed at once"))
        self.case_button.setText(self.tr("Open case…"))
        self.case_button.setToolTip(self.tr("A run or dump folder (File > Open case file… opens a saved .afcase)"))
        self.graph_button.setText(self.tr("Open graph…"))
        self.graph_button.setToolTip(self.tr("One GE graph to browse, or two (af-open, af-close) to compare"))
        self.run_root_button.setText(self.tr("Open run root…"))
        self.run_root_button.setToolTip(self.tr("A field run's default and PGO ATT logs, compared in the ATT tab"))
        self.recent_label.setText(self.tr("Recent cases"))
        self.no_recent.setText(self.tr("No recent cases yet."))
        self.drop_hint.setText(self.tr("Drop a dump folder, a graph or ATT logs here"))

    def set_recent(self, entries: Sequence[Sequence[str]]) -> list[list[str]]:
        """Offer the entries that can still be opened (missing paths and emptied folders are skipped)."""
        for button in self.recent_buttons:
            self.recent_box.removeWidget(button)
            button.hide()  # gone now, not when the event loop gets to deleting it
            button.setParent(None)
            button.deleteLater()
        shown = [list(entry) for entry in entries if recent_entry_usable(entry)]
        self.recent_buttons = []
        for entry in shown:
            button = RecentButton(entry)
            button.clicked.connect(lambda _checked=False, entry=entry: self.recentChosen.emit(list(entry)))
            self.recent_box.addWidget(button)
            self.recent_buttons.append(button)
        self.no_recent.setVisible(not shown)
        return shown


class Covering(QObject):
    """Keeps a widget laid over another one, at its full size, while shown."""

    def __init__(self, cover: QWidget, covered: QWidget) -> None:
        super().__init__(cover)
        self._cover, self._covered = cover, covered
        covered.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the covered widget's size."""
        if watched is self._covered and event.type() == QEvent.Type.Resize:
            self._cover.setGeometry(self._covered.rect())
        return False

    def show(self) -> None:
        """Cover now."""
        self._cover.setGeometry(self._covered.rect())
        self._cover.raise_()
        self._cover.show()
