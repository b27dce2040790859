"""The precision table's column layout the user chose (order, hidden columns), remembered in the settings."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.settings import AppSettings

log = logging.getLogger(__name__)
SETTINGS_KEY = "precision/columns"


@dataclass
class ColumnLayout:
    """Column keys in the order the user put them (unknown keys dropped) and the keys the user hid."""

    order: list[str] = field(default_factory=list)
    hidden: set[str] = field(default_factory=set)

    def as_json(self) -> str:
        """The layout as a settings value."""
        return json.dumps({"order": self.order, "hidden": sorted(self.hidden)})

    @classmethod
    def from_json(cls, text: str) -> ColumnLayout:
        """A layout from a settings value; an unreadable one gives the default layout."""
        try:
            data = json.loads(text)
            order = [str(key) for key in data.get("order", []) if key in COLUMN_KEYS]
            hidden = {str(key) for key in data.get("hidden", []) if key in COLUMN_KEYS}
        except (json.JSONDecodeError, AttributeError, TypeError) as error:
            log.warning("ignoring the saved table columns: %s", error)
            return cls()
        return cls(order, hidden)


def load_layout() -> ColumnLayout:
    """The remembered layout (the default, empty, layout when there is none)."""
    raw = AppSettings().qsettings.value(SETTINGS_KEY)
    return ColumnLayout.from_json(str(raw)) if raw else ColumnLayout()


def save_layout(layout: ColumnLayout) -> None:
    """Remember `layout` (an empty layout forgets the saved one)."""
    settings = AppSettings()
    if layout.order or layout.hidden:
        settings.qsettings.setValue(SETTINGS_KEY, layout.as_json())
    else:
        settings.qsettings.remove(SETTINGS_KEY)
    settings.sync()
