"""QApplication setup and the GUI entry point."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication

from autofuse_studio import APP_NAME, __version__


def resources_dir() -> Path:
    """The resources folder, both from a source checkout and from a frozen bundle."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parents[3] / "resources"


def demo_case_dir() -> Path:
    """The bundled demo case (an af-open/af-close pair made by the project's generator)."""
    return resources_dir() / "demo"


# How long a Python thread may keep the GIL while another one waits for it (CPython's default: 5 ms).
GUI_SWITCH_INTERVAL = 0.0005


def prefer_gui_thread() -> None:
    """Let the GUI thread get the GIL within 0.5 ms while background tasks run Python.

    A repaint of the Python-wrapped widgets and models takes the GIL hundreds of times (once per
    virtual call); with the default 5 ms interval each take waited for the worker, and switching the
    perf tab to a picture built in the background froze the window for the whole build (~200 ms, now
    ~30 ms). Only threads that wait for the GIL pay for switching, so an idle GUI costs the workers nothing.
    """
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)


def make_application() -> QApplication:
    """Return the running QApplication, creating it with the app's identity if needed."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName("AutofuseStudio")
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    return QApplication(sys.argv[:1])


def apply_saved_language() -> str:
    """Install the translator for the saved language choice (or the system locale); returns the code."""
    from autofuse_studio.ui.i18n import resolve_language, translations
    from autofuse_studio.ui.settings import AppSettings

    language = resolve_language(AppSettings().language())
    translations().apply(language)
    return language


def run_app(paths: Sequence[str] = (), demo: bool = False, self_check: bool = False) -> int:
    """Open the main window; with self_check, build it headless and exit 0 when it came up."""
    app = make_application()
    prefer_gui_thread()
    from autofuse_studio.ui.errors import install_excepthook
    from autofuse_studio.ui.main_window import MainWindow

    install_excepthook()
    apply_saved_language()
    window = MainWindow()
    if demo:
        window.open_paths([str(demo_case_dir())])
    elif paths:
        window.open_paths(list(paths))
    window.show()
    if self_check:
        ok = window.isVisible() and bool(window.windowTitle())
        verdict = "ok" if ok else "FAILED"
        sys.stdout.write(f"self-check: {verdict} ({APP_NAME} {__version__}, {app.platformName()})\n")
        QTimer.singleShot(0, window.close)
        app.processEvents()
        return 0 if ok else 1
    return app.exec()
