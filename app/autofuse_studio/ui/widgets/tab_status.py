"""TabStatus: status-bar messages that belong to a tab, so an ATT message does not linger on the table."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QStatusBar, QTabWidget, QWidget


class TabStatus(QObject):
    """Shows a tab's message, clears it when another tab comes up, shows its lasting one again on return."""

    def __init__(self, bar: QStatusBar, tabs: QTabWidget, together: Sequence[Sequence[QWidget]] = ()) -> None:
        super().__init__(tabs)
        self._bar = bar
        self._tabs = tabs
        self._together = [list(group) for group in together]  # tabs about one thing share their messages
        self._lasting: dict[int, str] = {}
        self._shown = self._key(tabs.currentIndex())
        tabs.currentChanged.connect(self._on_tabs_current_changed)

    def page(self, widget: QWidget) -> int:
        """The tab index holding widget (itself a page or inside one); -1 when no tab does."""
        for number in range(self._tabs.count()):
            page = self._tabs.widget(number)
            if page is not None and (page is widget or page.isAncestorOf(widget)):
                return number
        return -1

    def _key(self, number: int) -> int:
        """The first page of the group a page belongs to (or the page itself)."""
        for group in self._together:
            pages = [found for found in (self.page(widget) for widget in group) if found >= 0]
            if number in pages:
                return min(pages)
        return number

    def show(self, text: str, widget: QWidget, timeout_ms: int = 0) -> None:
        """Show text for widget's tab; without a timeout it comes back whenever that tab is shown again."""
        number = self.page(widget)
        key = self._key(number) if number >= 0 else -1
        if timeout_ms == 0:
            self._lasting[key] = text
        else:
            self._lasting.pop(key, None)
        if number < 0 or key == self._key(self._tabs.currentIndex()):
            self._bar.showMessage(text, timeout_ms)

    def lasting(self, widget: QWidget) -> str:
        """The message that comes back whenever widget's tab is shown ('' when none)."""
        number = self.page(widget)
        return self._lasting.get(self._key(number) if number >= 0 else -1, "")

    def _on_tabs_current_changed(self, number: int) -> None:
        key = self._key(number)
        if key == self._shown:
            return  # e.g. from the table to the graph of the same case: the message still holds
        self._shown = key
        text = self._lasting.get(key, "")
        if text:
            self._bar.showMessage(text)
        else:
            self._bar.clearMessage()
