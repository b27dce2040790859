"""The app icon: PNGs rendered from the committed SVG (and not stale), set on the app and every window."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QColor, QGuiApplication, QIcon, QImage
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox
from pytestqt.qtbot import QtBot

from autofuse_studio.core.resources import APP_ID, ICON_SIZES, icon_pngs, icon_svg
from autofuse_studio.ui.app import apply_icon
from autofuse_studio.ui.main_window import MainWindow
from tests.conftest import REPO_ROOT

MAKE_ICONS = REPO_ROOT / "packaging" / "make_icons.py"


def test_every_size_is_rendered_from_the_current_svg() -> None:
    digest = hashlib.sha256(icon_svg().read_bytes()).hexdigest()
    pngs = icon_pngs()
    assert sorted(pngs) == list(ICON_SIZES)
    for size, path in pngs.items():
        image = QImage(str(path))
        assert (image.width(), image.height()) == (size, size)
        # Written by packaging/make_icons.py: rerun it after editing the SVG.
        assert image.text("Source-SHA256") == digest, f"{path.name} is stale: run packaging/make_icons.py"
        assert image.pixelColor(0, 0).alpha() == 0  # rounded tile: transparent corners
        assert QColor(image.pixel(size // 2, size // 2)).alpha() == 255


def test_make_icons_renders_the_svg(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(MAKE_ICONS), "--out", str(tmp_path)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    made = sorted(path.name for path in tmp_path.glob("*.png"))
    assert made == sorted(f"{APP_ID}-{size}.png" for size in ICON_SIZES)
    fresh, committed = QImage(str(tmp_path / f"{APP_ID}-64.png")), QImage(str(icon_pngs()[64]))
    assert fresh.text("Source-SHA256") == committed.text("Source-SHA256")


def test_the_app_and_every_window_carry_the_icon(qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    app.setWindowIcon(QIcon())  # as a fresh application: no icon yet
    apply_icon(app)
    assert sorted(size.width() for size in app.windowIcon().availableSizes()) == list(ICON_SIZES)
    assert QGuiApplication.desktopFileName() == APP_ID  # Wayland finds the icon through the desktop entry
    window = MainWindow()
    qtbot.addWidget(window)
    dialog, box = QDialog(window), QMessageBox(window)
    for widget in (window, dialog, box):
        assert widget.windowIcon().cacheKey() == app.windowIcon().cacheKey()
