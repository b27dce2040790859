"""AppSettings: what the workbench remembers between runs (window layout, recent cases, thresholds, language, theme)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

from autofuse_studio import APP_NAME
from autofuse_studio.core.case import thresholds_from_dict
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.ui.precision.filters import MAX_PRESETS, clean_filter_state, clean_presets

log = logging.getLogger(__name__)

ORGANISATION = "AutofuseStudio"
MAX_RECENT = 10


def settings_path() -> Path:
    """The INI file, resolved from the XDG config folder at call time (tests get a fresh one each)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
    return Path(folder) / ORGANISATION / f"{APP_NAME}.conf"


class AppSettings:
    """Typed accessors over one QSettings INI file."""

    def __init__(self) -> None:
        # An explicit file rather than QSettings(org, app): Qt caches its default paths per process,
        # which would leak settings between tests that each point XDG_CONFIG_HOME somewhere new.
        self.qsettings = QSettings(str(settings_path()), QSettings.Format.IniFormat)

    def sync(self) -> None:
        """Write pending changes to disk."""
        self.qsettings.sync()

    def _bytes(self, key: str) -> QByteArray | None:
        value = self.qsettings.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def window_geometry(self) -> QByteArray | None:
        """Saved QMainWindow geometry, if any."""
        return self._bytes("window/geometry")

    def window_state(self) -> QByteArray | None:
        """Saved dock and toolbar layout, if any."""
        return self._bytes("window/state")

    def save_window(self, geometry: QByteArray, state: QByteArray) -> None:
        """Remember the window geometry and dock layout."""
        self.qsettings.setValue("window/geometry", geometry)
        self.qsettings.setValue("window/state", state)

    def recent_cases(self) -> list[list[str]]:
        """Recently opened cases, newest first: each is the list of paths that was opened."""
        raw = self.qsettings.value("cases/recent", "[]")
        try:
            entries = json.loads(str(raw))
        except json.JSONDecodeError:
            return []
        return [[str(path) for path in entry] for entry in entries
                if isinstance(entry, list) and entry][:MAX_RECENT]

    def add_recent_case(self, paths: list[str]) -> list[list[str]]:
        """Put `paths` first in the recent list (without duplicates) and return the list."""
        entry = [str(path) for path in paths]
        entries = [entry] + [old for old in self.recent_cases() if old != entry]
        self.qsettings.setValue("cases/recent", json.dumps(entries[:MAX_RECENT]))
        return entries[:MAX_RECENT]

    def clear_recent_cases(self) -> None:
        """Forget the recent cases."""
        self.qsettings.remove("cases/recent")

    def thresholds(self) -> Thresholds:
        """The last thresholds used (defaults when none or unreadable)."""
        raw = self.qsettings.value("precision/thresholds")
        if not raw:
            return Thresholds()
        try:
            return thresholds_from_dict(json.loads(str(raw)))
        except (json.JSONDecodeError, InputError, AttributeError) as error:
            log.warning("ignoring saved thresholds: %s", error)
            return Thresholds()

    def set_thresholds(self, thresholds: Thresholds) -> None:
        """Remember thresholds."""
        self.qsettings.setValue("precision/thresholds", json.dumps(thresholds.as_dict()))

    def language(self) -> str:
        """'' (follow the system), 'en' or 'zh_CN'."""
        return str(self.qsettings.value("ui/language", "") or "")

    def set_language(self, language: str) -> None:
        """Remember the UI language ('' = system)."""
        self.qsettings.setValue("ui/language", language)

    def theme(self) -> str:
        """'system' (follow the desktop), 'light' or 'dark' (ui/theme.py)."""
        return str(self.qsettings.value("ui/theme", "system") or "system")

    def set_theme(self, theme: str) -> None:
        """Remember the colour theme."""
        self.qsettings.setValue("ui/theme", theme)

    def _json(self, key: str) -> object:
        """A JSON setting, or None when absent or unreadable (a corrupt file is ignored, never fatal)."""
        raw = self.qsettings.value(key)
        if raw is None or raw == "":
            return None
        try:
            return json.loads(str(raw))
        except (json.JSONDecodeError, TypeError, ValueError) as error:
            log.warning("ignoring saved %s: %s", key, error)
            return None

    def filter_presets(self) -> dict[str, dict[str, object]]:
        """Saved filter presets by name (validated: bad entries are left out)."""
        return clean_presets(self._json("precision/filter_presets"))

    def set_filter_presets(self, presets: dict[str, dict[str, object]]) -> None:
        """Remember the filter presets (at most MAX_PRESETS)."""
        kept = dict(list(clean_presets(presets).items())[:MAX_PRESETS])
        self.qsettings.setValue("precision/filter_presets", json.dumps(kept))

    def last_filter(self) -> dict[str, object] | None:
        """The table filter shown when the app was last used (None: none or unreadable)."""
        return clean_filter_state(self._json("precision/last_filter"))

    def set_last_filter(self, state: dict[str, object]) -> None:
        """Remember the table filter shown now."""
        self.qsettings.setValue("precision/last_filter", json.dumps(state))
