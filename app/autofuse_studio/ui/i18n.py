"""UI languages: English (source) and Simplified Chinese, from resources/translations/*.qm, switchable live."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

log = logging.getLogger(__name__)

ENGLISH = "en"
CHINESE = "zh_CN"
LANGUAGES = {ENGLISH: "English", CHINESE: "简体中文"}
QM_PREFIX = "autofuse_studio_"


def translations_dir() -> Path:
    """resources/translations in a checkout or a frozen bundle."""
    from autofuse_studio.ui.app import resources_dir

    return resources_dir() / "translations"


def system_language() -> str:
    """The supported language closest to the system locale (Chinese locales -> zh_CN, else English)."""
    return CHINESE if QLocale.system().name().lower().startswith("zh") else ENGLISH


def resolve_language(choice: str) -> str:
    """A saved choice ('' = follow the system) as a supported language code."""
    return choice if choice in LANGUAGES else system_language()


class Translations:
    """Owns the installed translators so that switching language removes the old ones first."""

    def __init__(self) -> None:
        self._installed: list[QTranslator] = []
        self.language = ENGLISH

    def apply(self, language: str) -> bool:
        """Install `language` on the running application (LanguageChange reaches every widget).

        Returns False when its .qm file is missing (the UI then stays in English).
        """
        app = QCoreApplication.instance()
        if app is None:
            return False
        from autofuse_studio.ui.precision.columns import translated_texts

        translated_texts.cache_clear()
        for translator in self._installed:
            app.removeTranslator(translator)
        self._installed.clear()
        self.language = ENGLISH
        if language == ENGLISH:
            return True
        ours = QTranslator(app)
        if not ours.load(str(translations_dir() / f"{QM_PREFIX}{language}.qm")):
            log.warning("no translation file for %s in %s", language, translations_dir())
            return False
        self._installed.append(ours)
        # Qt's own strings (standard dialogs, context menus) when the Qt install ships them.
        qt_base = QTranslator(app)
        qt_path = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if qt_base.load(f"qtbase_{language}", qt_path):
            self._installed.append(qt_base)
        for translator in self._installed:
            app.installTranslator(translator)
        self.language = language
        return True


_translations: Translations | None = None


def translations() -> Translations:
    """The process-wide Translations."""
    global _translations
    if _translations is None:
        _translations = Translations()
    return _translations
