"""Chinese text in the Chinese UI: an installed CJK font, else the bundle's Noto Sans CJK, else how to get one."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtGui import QFontDatabase, QFontInfo
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from autofuse_studio.core.resources import resources_dir
from autofuse_studio.ui.i18n import CHINESE

log = logging.getLogger(__name__)

INSTALL_COMMAND = "sudo apt-get install fonts-noto-cjk"
FONT_SUFFIXES = (".ttc", ".otf", ".ttf")
NOTICE_NAME = "cjkFontNotice"
_CHINESE_FONTS = QFontDatabase.WritingSystem.SimplifiedChinese


@dataclass(frozen=True)
class CjkFont:
    """Which font draws Chinese text: an installed one, one shipped in the bundle, or none (with a notice)."""

    family: str | None = None
    bundled: bool = False
    notice: str = ""

    def describe(self) -> str:
        """'Noto Sans CJK SC (shipped in the bundle)', 'WenQuanYi Micro Hei (installed)' or 'none'."""
        if self.family is None:
            return "none"
        return f"{self.family} ({'shipped in the bundle' if self.bundled else 'installed'})"


def fonts_dir() -> Path:
    """resources/fonts: filled by the bundle build from the build machine's fonts-noto-cjk (never committed)."""
    return resources_dir() / "fonts"


def simplified_first(families: list[str]) -> str:
    """The family meant for Simplified Chinese (Noto's 'SC' face, not its JP/KR/TC ones), else the first."""
    proportional = [name for name in families if "Mono" not in name] or families
    return next((name for name in proportional if name.endswith(" SC")), proportional[0])


def ensure_cjk_font(language: str, folder: Path | None = None) -> CjkFont:
    """For the Chinese UI, make sure some font draws Chinese; returns which, or a notice when none can."""
    if language != CHINESE:
        return CjkFont()
    installed = QFontDatabase.families(_CHINESE_FONTS)
    if installed:
        return CjkFont(simplified_first(list(installed)))
    for path in sorted((folder or fonts_dir()).glob("*")):
        if path.suffix.lower() not in FONT_SUFFIXES:
            continue
        font_id = QFontDatabase.addApplicationFont(str(path))
        families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if families:
            family = simplified_first(list(families))
            _add_fallback(family)
            log.info("no installed CJK font: registered %s from %s", family, path)
            return CjkFont(family, bundled=True)
        log.warning("cannot load the font file %s", path)
    used = QFontInfo(QApplication.font()).family()
    # English on purpose: without a CJK font a Chinese sentence would itself be drawn as boxes.
    notice = (f"No installed font has Chinese glyphs, so Chinese labels show as boxes in {used}; "
              f"install one with `{INSTALL_COMMAND}` and restart the app.")
    log.info("%s", notice)
    return CjkFont(notice=notice)


def _add_fallback(family: str) -> None:
    """Put `family` after the app font's own families, so Chinese picks it and not the first face of a .ttc."""
    font = QApplication.font()
    families = list(dict.fromkeys([font.family(), *font.families()]))
    if family not in families:
        font.setFamilies([*families, family])
        QApplication.setFont(font)


def show_font_notice(window: QMainWindow, font: CjkFont) -> None:
    """Show the notice as a permanent status-bar label (hidden again once a font draws Chinese)."""
    label = window.statusBar().findChild(QLabel, NOTICE_NAME)
    if not font.notice:
        if label is not None:
            label.hide()
        return
    if label is None:
        label = QLabel(window.statusBar())
        label.setObjectName(NOTICE_NAME)
        window.statusBar().addPermanentWidget(label)
    label.setText(font.notice)
    label.setToolTip(font.notice)
    label.show()
