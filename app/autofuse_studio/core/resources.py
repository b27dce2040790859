"""Where the shipped resources are (demo case, icons, translations, desktop entry): checkout, wheel or bundle."""

from __future__ import annotations

import sys
from pathlib import Path

# The desktop file id, the icon name and the executables' stem, everywhere the desktop sees the app.
APP_ID = "autofuse-studio"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def resources_dir() -> Path:
    """The resources folder of a frozen bundle, an installed wheel, or a source checkout."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    package = Path(__file__).resolve().parents[1]
    # A wheel carries the repository's resources/ as the data-only package autofuse_studio.resources.
    installed = package / "resources"
    if installed.is_dir():
        return installed
    return package.parents[1] / "resources"  # app/autofuse_studio -> the checkout's root


def demo_case_dir() -> Path:
    """The bundled demo case (an af-open/af-close pair made by the project's generator)."""
    return resources_dir() / "demo"


def icon_svg() -> Path:
    """The app icon's SVG source."""
    return resources_dir() / "icons" / f"{APP_ID}.svg"


def icon_pngs() -> dict[int, Path]:
    """The app icon's PNGs by pixel size (those that exist), rendered from the SVG by packaging/make_icons.py."""
    folder = resources_dir() / "icons"
    found = {size: folder / f"{APP_ID}-{size}.png" for size in ICON_SIZES}
    return {size: path for size, path in found.items() if path.is_file()}


def desktop_dir() -> Path:
    """resources/desktop: the .desktop entry and the shared-mime-info package for *.afcase."""
    return resources_dir() / "desktop"
