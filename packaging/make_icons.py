"""Render resources/icons/autofuse-studio.svg into the PNGs next to it (16-512 px): `python packaging/make_icons.py`.

Each PNG records the SVG's SHA-256 in a text chunk, so a test notices PNGs older than their source.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from autofuse_studio.core.resources import APP_ID, ICON_SIZES  # noqa: E402  (after the path is set)

ICONS = ROOT / "resources" / "icons"
SOURCE = ICONS / f"{APP_ID}.svg"
SOURCE_KEY = "Source-SHA256"


def source_digest(svg: Path = SOURCE) -> str:
    """The SHA-256 of the SVG's bytes, as recorded in every PNG made from it."""
    return hashlib.sha256(svg.read_bytes()).hexdigest()


def png_path(size: int, folder: Path = ICONS) -> Path:
    """resources/icons/autofuse-studio-<size>.png."""
    return folder / f"{APP_ID}-{size}.png"


def render(svg: Path, size: int, out: Path) -> Path:
    """Draw the SVG into a transparent size x size PNG (antialiased) tagged with the SVG's digest."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: {svg} is not an SVG Qt can draw.")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    image.setText(SOURCE_KEY, source_digest(svg))
    if not image.save(str(out), "PNG"):
        raise SystemExit(f"make_icons: cannot write {out}.")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Write every size; prints one line per file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, default=SOURCE, help="source SVG (default: the app icon)")
    parser.add_argument("--out", type=Path, default=ICONS, help="output folder (default resources/icons)")
    options = parser.parse_args(argv)
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    options.out.mkdir(parents=True, exist_ok=True)
    for size in ICON_SIZES:
        path = render(options.svg, size, png_path(size, options.out))
        print(f"{path} ({path.stat().st_size} bytes)")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
