"""Help > Keyboard shortcuts and Help > Documentation: two actions that word and retranslate themselves."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox

from autofuse_studio.core.resources import resources_dir
from autofuse_studio.ui.dialogs.shortcuts import ShortcutsDialog

# The workbench's manual, else the README that links every document (a source checkout or an unpacked sdist).
DOCUMENTS = (Path("docs") / "precision-workbench.md", Path("README.md"))


def documentation_path(root: Path | None = None) -> Path | None:
    """The first document of DOCUMENTS under `root` (default: the folder holding resources/), or None."""
    folder = root if root is not None else resources_dir().parent
    for relative in DOCUMENTS:
        if (folder / relative).is_file():
            return folder / relative
    return None


def documentation_url(root: Path | None = None) -> QUrl:
    """A file URL of the documentation on disk (documentation_path), or an empty URL when none is there."""
    path = documentation_path(root)
    return QUrl.fromLocalFile(str(path)) if path is not None else QUrl()


class HelpActions(QObject):
    """Adds Keyboard shortcuts and Documentation (F1) to the front of the Help menu."""

    def __init__(self, window: QMainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self._window = window
        self.shortcuts_action = QAction(window)
        self.shortcuts_action.setObjectName("keyboardShortcutsAction")
        self.shortcuts_action.triggered.connect(self._on_shortcuts_triggered)
        self.documentation_action = QAction(window)
        self.documentation_action.setObjectName("documentationAction")
        self.documentation_action.setShortcut(QKeySequence.StandardKey.HelpContents)
        self.documentation_action.triggered.connect(self._on_documentation_triggered)
        before = menu.actions()[0] if menu.actions() else None
        menu.insertActions(before, [self.documentation_action, self.shortcuts_action])  # type: ignore[arg-type]
        if before is not None:
            menu.insertSeparator(before)
        self.dialog: ShortcutsDialog | None = None
        # Retranslated by its window on a language switch (MainWindow.retranslate): an event filter on the window
        # took the GIL for each of its events (every repaint's UpdateRequest), beside the analysis's threads.
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.shortcuts_action.setText(self.tr("&Keyboard shortcuts…"))
        self.documentation_action.setText(self.tr("&Documentation"))

    def _on_shortcuts_triggered(self) -> None:
        self.dialog = ShortcutsDialog(self._window)
        self.dialog.open()

    def _on_documentation_triggered(self) -> None:
        url = documentation_url()
        if url.isEmpty() or not QDesktopServices.openUrl(url):
            QMessageBox.information(self._window, self.tr("Documentation"), self.tr(
                "No documentation was found next to this copy of the program; the README and the docs folder of "
                "the source distribution describe every view."))
