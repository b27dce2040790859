"""Re-translation on a live language switch, for every widget that sets its texts in retranslate()."""

from __future__ import annotations

from PySide6.QtCore import QEvent


class Retranslating:
    """Mixin (put it before the Qt base class): calls retranslate() when the application language changes."""

    def retranslate(self) -> None:
        """Set every user-visible text in the current language (implemented by the widget)."""
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:
        """Re-translate when the application language changes."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)  # type: ignore[misc]
