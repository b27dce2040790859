"""The tour's contact sheet (packaging/tour.py): captioned thumbnails of the screenshots in one PNG grid."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

REPO_ROOT = Path(__file__).resolve().parents[1]


def _tour(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # tour.py runs as a script next to its helpers (qt_waits.py): the packaging folder is its import path.
    monkeypatch.syspath_prepend(str(REPO_ROOT / "packaging"))
    spec = importlib.util.spec_from_file_location("tour", REPO_ROOT / "packaging" / "tour.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _picture(path: Path, size: tuple[int, int], colour: str) -> Path:
    image = QImage(*size, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    assert image.save(str(path))
    return path


def test_contact_sheet_lays_out_captioned_thumbnails(qtbot: QtBot, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    tour = _tour(monkeypatch)
    shots = [(_picture(tmp_path / "a.png", (1280, 720), "#ff0000"), "demo: Precision · en-1280x720"),
             (_picture(tmp_path / "b.png", (1600, 1000), "#00ff00"), "demo: Graph · en-1600x1000"),
             (_picture(tmp_path / "c.png", (640, 360), "#0000ff"), "Runner · zh-1280x720")]
    out = tour.contact_sheet(shots, tmp_path / "sheet" / "contact.png", columns=2, thumb_width=100)
    sheet = QImage(str(out))
    assert sheet.width() == 8 + 2 * (100 + 8)  # two columns of 100 px thumbnails with 8 px gaps
    cell = sheet.height() - 8  # two rows: the tallest thumbnail (62 px) plus its caption, and the gaps
    assert 2 * 62 < cell < 2 * (62 + 40)
    second_row = 8 + cell // 2
    # Each thumbnail keeps its picture (inside its border) in its own cell.
    assert sheet.pixelColor(8 + 50, 8 + 25).name() == "#ff0000"
    assert sheet.pixelColor(8 + 108 + 50, 8 + 25).name() == "#00ff00"
    assert sheet.pixelColor(8 + 50, second_row + 20).name() == "#0000ff"
    assert sheet.pixelColor(8 + 108 + 50, second_row + 20).name() == "#f4f4f4"  # no fourth picture
    under = range(8 + 56 + 2, 8 + 56 + 18)  # the first thumbnail is 56 px high; its caption follows
    caption = [sheet.pixelColor(x, y).lightness() for x in range(8, 108) for y in under]
    assert min(caption) < 100  # dark caption text under the first thumbnail


def test_contact_sheet_needs_a_picture(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="at least one"):
        _tour(monkeypatch).contact_sheet([], tmp_path / "sheet.png")
