"""QApplication setup and the GUI entry point."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QSize, QTimer
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

from autofuse_studio import APP_NAME, __version__
from autofuse_studio.core.gc_pause import long_lived_freezing
from autofuse_studio.core.resources import APP_ID, icon_pngs
from autofuse_studio.core.resources import demo_case_dir as demo_case_dir
from autofuse_studio.core.resources import resources_dir as resources_dir
from autofuse_studio.ui.gui_gc import GuiThreadCollector

# How long a Python thread may keep the GIL while another one waits for it (CPython's default: 5 ms).
GUI_SWITCH_INTERVAL = 0.0001


def prefer_gui_thread() -> None:
    """Let the GUI thread get the GIL within 0.1 ms while background tasks run Python.

    A repaint of the Python-wrapped widgets and models takes the GIL hundreds of times (once per
    virtual call, and again after every Qt call PySide makes without it); with the default 5 ms interval
    each take waited for the worker, and switching the perf tab to a picture built in the background
    froze the window for the whole build (~200 ms, then ~30 ms at 0.5 ms). At 0.5 ms, a table repaint
    next to the analysis worker's last steps still took 100-170 ms on a big model; at 0.1 ms no block
    was left, and the runs were no slower (3 + 3 alternated runs). An idle GUI costs the workers nothing, but
    several busy workers switch among themselves at this interval too: while a run loads its case (three of
    them at once) ui.loading_interval holds 1 ms.
    """
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)
    # A graph decoded in one C call holds the GIL for up to 0.7 s (230 MB): decode it in short steps.
    from autofuse_studio.core.ge.stepwise_json import prefer_short_gil_holds

    prefer_short_gil_holds()


def make_application() -> QApplication:
    """Return the running QApplication, creating it with the app's identity if needed."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName("AutofuseStudio")
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    app = QApplication(sys.argv[:1])
    apply_icon(app)
    return app


def app_icon() -> QIcon:
    """The app icon at every shipped size (resources/icons/autofuse-studio-<N>.png)."""
    icon = QIcon()
    for size, path in icon_pngs().items():
        icon.addFile(str(path), QSize(size, size))
    return icon


def apply_icon(app: QGuiApplication) -> None:
    """Give the application (hence every window and dialog without its own) the app icon.

    The desktop file name lets Wayland compositors, which ignore window icons, find the icon through
    the installed autofuse-studio.desktop entry (`autofuse-studio desktop install`).
    """
    if app.windowIcon().isNull():
        app.setWindowIcon(app_icon())
    QGuiApplication.setDesktopFileName(APP_ID)


def apply_saved_language() -> str:
    """Install the translator for the saved language choice (or the system locale); returns the code."""
    from autofuse_studio.ui.i18n import resolve_language, translations
    from autofuse_studio.ui.settings import AppSettings

    language = resolve_language(AppSettings().language())
    translations().apply(language)
    return language


def run_app(paths: Sequence[str] = (), demo: bool = False, self_check: bool = False) -> int:
    """Open the main window; with self_check, build it headless and exit 0 when it came up."""
    # The GUI owns the process: core and ui may freeze the models, results and views that live for the session,
    # and its cyclic garbage is collected on the GUI thread only (ui.gui_gc).
    with long_lived_freezing():
        app = make_application()
        collector = GuiThreadCollector(app)  # parented: it lives as long as the application
        collector.install()
        try:
            return _run_app(app, paths, demo, self_check)
        finally:
            collector.remove()


def _run_app(app: QApplication, paths: Sequence[str], demo: bool, self_check: bool) -> int:
    apply_icon(app)
    prefer_gui_thread()
    from autofuse_studio.ui.errors import install_excepthook
    from autofuse_studio.ui.fonts import ensure_cjk_font, show_font_notice
    from autofuse_studio.ui.main_window import MainWindow
    from autofuse_studio.ui.theme import apply_saved_theme

    install_excepthook()
    apply_saved_theme()
    cjk_font = ensure_cjk_font(apply_saved_language())
    window = MainWindow()
    show_font_notice(window, cjk_font)
    if demo:
        window.open_paths([str(demo_case_dir())])
    elif paths:
        window.open_paths(list(paths))
    window.show()
    if self_check:
        # The icon is read from resources/: a missing resources folder (a broken wheel or bundle) fails here.
        ok = window.isVisible() and bool(window.windowTitle()) and not window.windowIcon().isNull()
        verdict = "ok" if ok else "FAILED"
        sys.stdout.write(f"self-check: {verdict} ({APP_NAME} {__version__}, {app.platformName()})\n")
        if cjk_font.family or cjk_font.notice:
            sys.stdout.write(f"self-check: Chinese text font: {cjk_font.describe()}\n")
        QTimer.singleShot(0, window.close)
        app.processEvents()
        return 0 if ok else 1
    return app.exec()
