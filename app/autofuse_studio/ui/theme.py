"""The colour theme: follow the desktop, or a light or dark palette on the Fusion style (View > Theme)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QColor, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QStyleFactory, QWidget

from autofuse_studio.ui.settings import AppSettings
from autofuse_studio.ui.widgets.retranslate import Retranslating

SYSTEM, LIGHT, DARK = "system", "light", "dark"
THEMES = (SYSTEM, LIGHT, DARK)
# A palette only takes full effect on a style that draws with it: the native Windows and macOS styles ignore
# most roles, so the light and dark themes use Fusion. The desktop's own style comes back with "system".
FUSION = "fusion"
_desktop_style: list[str] = []  # the style name the application started with (set on the first switch)

_ROLE = QPalette.ColorRole
_GROUP = QPalette.ColorGroup
# The dark theme's colours: Fusion's usual dark set. Every text role against its background is well over the
# WCAG 4.5:1 contrast (white on #353535 is 12:1, disabled grey #8c8c8c on #353535 is 4.6:1).
_DARK = {
    _ROLE.Window: "#353535", _ROLE.WindowText: "#f0f0f0", _ROLE.Base: "#262626", _ROLE.AlternateBase: "#303030",
    _ROLE.ToolTipBase: "#454545", _ROLE.ToolTipText: "#f0f0f0", _ROLE.PlaceholderText: "#a0a0a0",
    _ROLE.Text: "#f0f0f0", _ROLE.Button: "#404040", _ROLE.ButtonText: "#f0f0f0", _ROLE.BrightText: "#ff6b6b",
    _ROLE.Light: "#505050", _ROLE.Midlight: "#454545", _ROLE.Mid: "#2f2f2f", _ROLE.Dark: "#232323",
    _ROLE.Shadow: "#141414", _ROLE.Highlight: "#2f6fb3", _ROLE.HighlightedText: "#ffffff",
    _ROLE.Link: "#6cb4ff", _ROLE.LinkVisited: "#c29bff",
}
_DARK_DISABLED = {_ROLE.WindowText: "#8c8c8c", _ROLE.Text: "#8c8c8c", _ROLE.ButtonText: "#8c8c8c",
                  _ROLE.HighlightedText: "#b0b0b0", _ROLE.Highlight: "#505050"}


def dark_palette() -> QPalette:
    """The dark theme's palette (light text on dark grey)."""
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    for role, colour in _DARK_DISABLED.items():
        palette.setColor(_GROUP.Disabled, role, QColor(colour))
    return palette


def light_palette() -> QPalette:
    """The light theme's palette: Fusion's standard one (dark text on light grey)."""
    style = QStyleFactory.create(FUSION)
    palette = style.standardPalette()
    style.deleteLater()
    return palette


def normalised(theme: str) -> str:
    """`theme` when it names a theme, else "system" (an unknown or empty saved value)."""
    return theme if theme in THEMES else SYSTEM


def apply_theme(theme: str) -> str:
    """Give the running application the theme's style and palette; returns the theme applied."""
    app = QApplication.instance()
    theme = normalised(theme)
    if not isinstance(app, QApplication):
        return theme
    if not _desktop_style:
        _desktop_style.append(app.style().name())
    style = _desktop_style[0] if theme == SYSTEM else FUSION
    if app.style().name().lower() != style.lower():
        app.setStyle(style)
    # An empty palette resolves to the platform's: the desktop's colours, following its light/dark switches.
    app.setPalette({SYSTEM: QPalette, LIGHT: light_palette, DARK: dark_palette}[theme]())
    return theme


def apply_saved_theme() -> str:
    """Apply the theme remembered in the settings (at start-up, before the first window); returns it."""
    return apply_theme(AppSettings().theme())


def contrast_ratio(first: QColor, second: QColor) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21; body text wants at least 4.5)."""
    def luminance(colour: QColor) -> float:
        channels = [value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
                    for value in (colour.redF(), colour.greenF(), colour.blueF())]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


class ThemeMenu(Retranslating, QMenu):
    """View > Theme: System / Light / Dark, applied at once and remembered."""

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("themeMenu")
        self._settings = settings
        self.group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for theme in THEMES:
            action = QAction(self.group)
            action.setCheckable(True)
            action.setData(theme)
            action.triggered.connect(lambda _checked=False, theme=theme: self.set_theme(theme))
            self.theme_actions[theme] = action
            self.addAction(action)
        self.theme_actions[normalised(settings.theme())].setChecked(True)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.setTitle(self.tr("&Theme"))
        texts = {SYSTEM: self.tr("&System (follow the desktop)"), LIGHT: self.tr("&Light"), DARK: self.tr("&Dark")}
        for theme, text in texts.items():
            self.theme_actions[theme].setText(text)

    def set_theme(self, theme: str) -> None:
        """Switch to `theme` now and remember it."""
        theme = apply_theme(theme)
        self._settings.set_theme(theme)
        self.theme_actions[theme].setChecked(True)
