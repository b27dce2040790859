"""The Chinese main window on the demo case: every visible label, button, tab, group title and header is Chinese."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QGroupBox, QLabel, QTabBar, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.ui.main_window import MainWindow

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
WAIT_MS = 60000
# Technical tokens a Chinese UI keeps as they are: metric and dtype names, file kinds, the tools' own words.
ALLOWED = {
    "cosine", "nan", "inf", "dtype", "npy", "npys", "json", "csv", "xlsx", "png", "svg", "att", "perf", "tiling",
    "af", "open", "close", "rank", "ranks", "step", "steps", "vs", "log", "max", "min", "mean", "std", "abs",
    "rel", "ulp", "nwa", "ascend", "autofuse", "studio", "cann", "ge", "npu", "cpu", "ssh", "dump", "dumps",
    "mul", "add", "float", "bfloat", "int", "uint", "bool", "mse", "rmse", "mre", "mae", "kl", "case", "demo",
    "origin", "fused", "output", "input", "prof", "formula", "split", "slog", "summary", "compare", "evidence",
    "verify", "graph", "build", "proto", "atc", "onnx", "txt", "md", "html", "culprit", "ok", "dask",
}
_WORD = re.compile(r"(?<![A-Za-z0-9_.\-/])[A-Za-z]{3,}(?![A-Za-z0-9_\-/])")


def english_words(text: str) -> list[str]:
    """Words of three or more Latin letters outside the allowlist and outside names (a_b, a.b, a/b, A1)."""
    return [word for word in _WORD.findall(text) if word.lower() not in ALLOWED and not word.isupper()]


def visible_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) of every visible label, button, tab, group title and item-view header under `root`."""
    found: list[tuple[str, str]] = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root):
            continue
        name = f"{type(widget).__name__}#{widget.objectName()}"
        if isinstance(widget, (QLabel, QAbstractButton)):
            found.append((name, widget.text()))
        elif isinstance(widget, QGroupBox):
            found.append((name, widget.title()))
        elif isinstance(widget, QTabBar):
            found += [(name, widget.tabText(i)) for i in range(widget.count()) if widget.isTabVisible(i)]
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model: QAbstractItemModel = widget.model()
            found += [(f"{name} header", str(model.headerData(c, Qt.Orientation.Horizontal) or ""))
                      for c in range(model.columnCount())]
            if widget.objectName() == "noticesView":  # the warnings themselves
                found += [(f"{name} row", str(model.data(model.index(r, 0)) or "")) for r in range(model.rowCount())]
    return [(where, text) for where, text in found if "<" not in text]  # rich text: checked by its words below


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    """The demo case analysed in a shown 1280x720 window in Chinese; English again afterwards."""
    shown = MainWindow()
    qtbot.addWidget(shown)
    shown.resize(1280, 720)
    shown.show()
    shown.set_language("zh_CN")
    with qtbot.waitSignal(shown.resultShown, timeout=WAIT_MS):
        shown.open_paths([str(DEMO)])
    yield shown
    shown.set_language("en")


def test_the_chinese_precision_tab_has_no_english(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.tabs.setCurrentIndex(0)
    notices = window.workbench.notices
    notices.toggle.setChecked(True)
    qtbot.waitUntil(notices.body.isVisible, timeout=2000)
    qtbot.wait(200)
    assert window.grab().save(str(tmp_path / "precision_zh.png"))
    texts = visible_texts(window)
    assert any("noticesView row" in where for where, _ in texts)  # the warnings were walked
    english = [(where, text, english_words(text)) for where, text in texts if english_words(text)]
    assert english == []


def test_the_check_catches_an_english_warning() -> None:
    assert english_words("1 operator was dumped several times in 2 steps") == ["operator", "was", "dumped",
                                                                              "several", "times"]
    assert english_words("1 个算子被多次 dump（2 个 step）；例如 autofuse_24_Mul_Add。") == []
