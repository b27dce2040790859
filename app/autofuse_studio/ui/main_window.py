"""The main window: menus, status bar and the panels of the workbench."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
)

from autofuse_studio import APP_NAME, __version__


def _placeholder(text: str) -> QLabel:
    label = QLabel(text)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    return label


class MainWindow(QMainWindow):
    """Top-level window hosting the precision, graph, ATT and runner panels."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(APP_NAME)
        self.resize(1280, 800)
        self.setAcceptDrops(True)
        self.tabs = QTabWidget()
        self.tabs.addTab(_placeholder("Precision: drop dump folders or graphs here."), "Precision")
        self.tabs.addTab(_placeholder("Graph view of fusion-to-origin mappings."), "Graph")
        self.tabs.addTab(_placeholder("ATT logs: perf-formula canvas, summary and compare."), "ATT")
        self.tabs.addTab(_placeholder("verify-tiling runner (local or ssh host)."), "Runner")
        self.setCentralWidget(self.tabs)
        self.case_dock = QDockWidget("Case", self)
        self.case_dock.setObjectName("case_dock")
        self.case_label = _placeholder("No case open.")
        self.case_dock.setWidget(self.case_label)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.case_dock)
        self._build_menus()
        self.statusBar().showMessage("Ready")

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        open_action = QAction("&Open…", self)
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self._on_open_triggered)
        file_menu.addAction(open_action)
        file_menu.addSeparator()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        self.menuBar().addMenu("&View").addAction(self.case_dock.toggleViewAction())
        help_menu = self.menuBar().addMenu("&Help")
        about_action = QAction(f"&About {APP_NAME}", self)
        about_action.triggered.connect(self._on_about_triggered)
        help_menu.addAction(about_action)

    def open_paths(self, paths: list[str]) -> None:
        """Show the given inputs in the case panel (analysis arrives with the workbench issue)."""
        self.case_label.setText("\n".join(paths) if paths else "No case open.")
        self.statusBar().showMessage(f"Opened {len(paths)} item(s)")

    def about_text(self) -> str:
        """The text of the About box."""
        return (
            f"<b>{APP_NAME}</b> {__version__}<br>"
            "A workbench for CANN Autofuse: fusion precision and ATT tiling analysis."
        )

    def _on_open_triggered(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open dump folder")
        if folder:
            self.open_paths([folder])

    def _on_about_triggered(self) -> None:
        QMessageBox.about(self, f"About {APP_NAME}", self.about_text())
