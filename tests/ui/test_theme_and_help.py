"""Issue 28 items 12-13: the all-zero cosine explained, View > Theme (dark palette), Help > shortcuts and docs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTranslator, QUrl
from PySide6.QtGui import QColor, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.explain import CasePaths
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.ui.help_actions import documentation_url
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.columns import COLUMN_KEYS
from autofuse_studio.ui.precision.notices_panel import NoticesPanel
from autofuse_studio.ui.precision.stats_view import StatsComparisonView
from autofuse_studio.ui.precision.table_model import PrecisionTableModel
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from autofuse_studio.ui.settings import AppSettings
from autofuse_studio.ui.theme import apply_saved_theme, apply_theme, contrast_ratio

QM = Path(__file__).resolve().parents[2] / "resources" / "translations" / "autofuse_studio_zh_CN.qm"
ROLE = QPalette.ColorRole


def is_chinese(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)


@pytest.fixture(autouse=True)
def _system_theme_after() -> Iterator[None]:
    """Every test leaves the application on the desktop's palette, whatever it switched to."""
    yield
    apply_theme("system")


@pytest.fixture
def chinese() -> Iterator[None]:
    translator = QTranslator()
    assert translator.load(str(QM))
    QCoreApplication.installTranslator(translator)
    yield
    QCoreApplication.removeTranslator(translator)


def _row(cosine: float, max_abs: float, name: str) -> PrecisionRow:
    metrics = Metrics(cosine, max_abs, max_abs, max_abs, max_abs, 0.0 if max_abs == 0 else 1.0,
                      1.0, 1.0, 64, 0, 0, 0, 0)
    return PrecisionRow(OUTPUT, name, 0, "origin", 0, "OK", metrics=metrics)


def _cosine_tooltip(model: PrecisionTableModel, row: int) -> str:
    return str(model.data(model.index(row, COLUMN_KEYS.index("cosine")), Qt.ItemDataRole.ToolTipRole) or "")


def test_an_all_zero_row_says_why_its_cosine_is_zero(qtbot: QtBot) -> None:
    rows = [_row(0.0, 0.0, "zeros"), _row(0.0, 1.5, "one_side_zero"), _row(0.999, 0.0, "fine")]
    assign_verdicts(rows, Thresholds(), {})
    assert [row.verdict for row in rows] == ["OK", "CULPRIT", "OK"]  # the green row the issue names
    model = PrecisionTableModel()
    model.set_rows(rows)
    assert _cosine_tooltip(model, 0).startswith("Both tensors are all zeros: their cosine")
    assert "identical" in _cosine_tooltip(model, 0)
    assert "all zeros" not in _cosine_tooltip(model, 1)  # a real cosine of 0: the tensors differ
    assert "all zeros" not in _cosine_tooltip(model, 2)
    other_cell = model.data(model.index(0, COLUMN_KEYS.index("max_abs_err")), Qt.ItemDataRole.ToolTipRole)
    assert not other_cell or "all zeros" not in other_cell


def test_the_all_zero_sentence_is_translated(qtbot: QtBot, chinese: None) -> None:
    model = PrecisionTableModel()
    model.set_rows([_row(0.0, 0.0, "zeros")])
    assert is_chinese(_cosine_tooltip(model, 0))


NOTICES = [Notice("graph", "The af-close graph has a bad attribute.", side="af-close"),
           Notice("dump", "Some NPYs are unreadable: 3 files were skipped.", 3)]
PATHS = CasePaths({}, {"af-open": "/case/af-open/dump", "af-close": "/case/af-close/dump"})


def test_the_warnings_panel_reads_in_the_dark_theme(qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    light_window = app.palette().color(ROLE.Window)
    panel = NoticesPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 260)
    panel.show()
    panel.set_notices(NOTICES, PATHS, expanded=True)
    assert apply_theme("dark") == "dark"
    assert app.palette().color(ROLE.Window).lightnessF() < 0.3
    # A pixel of the frame away from any text: the background the header's texts are drawn on.
    qtbot.waitUntil(lambda: panel.grab().toImage().pixelColor(panel.width() - 3, 3).lightnessF() < 0.35)
    background = panel.grab().toImage().pixelColor(panel.width() - 3, 3)
    for label in (panel.summary, panel.details, panel.toggle):
        text = label.palette().color(label.foregroundRole())
        assert contrast_ratio(text, background) >= 4.5, (label.objectName(), text.name(), background.name())
    view = panel.view.viewport()
    image = view.grab().toImage()
    base = image.pixelColor(image.width() - 3, image.height() - 3)  # below the rows: the list's own background
    assert contrast_ratio(panel.view.palette().color(ROLE.Text), base) >= 4.5
    apply_theme("system")
    qtbot.waitUntil(lambda: panel.grab().toImage().pixelColor(panel.width() - 3, 3).lightnessF() > 0.7)
    assert app.palette().color(ROLE.Window) == light_window


def test_the_theme_is_remembered_and_applied(qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    desktop = app.palette().color(ROLE.Window)
    window = MainWindow()
    qtbot.addWidget(window)
    menu = window.theme_menu
    assert menu.menuAction() in window.view_menu.actions()
    assert [action.text().replace("&", "") for action in menu.actions()] == [
        "System (follow the desktop)", "Light", "Dark"]
    assert menu.theme_actions["system"].isChecked()
    menu.theme_actions["dark"].trigger()
    assert AppSettings().theme() == "dark"
    assert app.palette().color(ROLE.Window) == QColor("#353535")
    assert contrast_ratio(app.palette().color(ROLE.WindowText), app.palette().color(ROLE.Window)) >= 4.5
    assert contrast_ratio(app.palette().color(ROLE.Text), app.palette().color(ROLE.Base)) >= 4.5
    apply_theme("system")
    assert app.palette().color(ROLE.Window) == desktop
    # The next start: the saved theme comes back before the first window, and the menu shows it.
    assert apply_saved_theme() == "dark"
    assert app.palette().color(ROLE.Window) == QColor("#353535")
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.theme_menu.theme_actions["dark"].isChecked()
    again.theme_menu.theme_actions["light"].trigger()
    assert AppSettings().theme() == "light"
    assert app.palette().color(ROLE.Window).lightnessF() > 0.8
    again.theme_menu.theme_actions["system"].trigger()
    assert AppSettings().theme() == "system"
    assert app.palette().color(ROLE.Window) == desktop


def test_an_unknown_saved_theme_follows_the_desktop() -> None:
    AppSettings().set_theme("sepia")
    assert apply_saved_theme() == "system"


def test_the_shortcuts_dialog_lists_the_windows_actions(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    help_texts = [action.text().replace("&", "") for action in window.help_menu.actions() if not action.isSeparator()]
    assert help_texts[:2] == ["Documentation", "Keyboard shortcuts…"]
    assert help_texts[-1].startswith("About")
    window.help_actions.shortcuts_action.trigger()
    dialog = window.help_actions.dialog
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert dialog.isVisible()
    assert dialog.shortcut_of("Analyse") == "F5"
    assert dialog.shortcut_of("Go to first divergence") == "Ctrl+D"
    assert dialog.shortcut_of("Open files") == QKeySequence(QKeySequence.StandardKey.Open).toString(
        QKeySequence.SequenceFormat.NativeText)
    assert dialog.shortcut_of("Documentation") == "F1"
    assert dialog.shortcut_of("About") is None  # no shortcut, not listed
    where = {dialog.table.item(row, 1).text(): dialog.table.item(row, 0).text()
             for row in range(dialog.table.rowCount())}
    assert where["Analyse"] == "Analysis"


def test_help_texts_are_translated(qtbot: QtBot, chinese: None) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.help_actions.shortcuts_action.trigger()
    dialog = window.help_actions.dialog
    assert dialog is not None
    qtbot.addWidget(dialog)
    headers = [dialog.table.horizontalHeaderItem(column).text() for column in range(3)]
    assert all(is_chinese(text) for text in (dialog.windowTitle(), *headers))
    names = [dialog.table.item(row, 1).text() for row in range(dialog.table.rowCount())]
    assert "分析" in names and dialog.shortcut_of("分析") == "F5"  # the mnemonic "(&A)" is not shown
    assert not any("(" in dialog.table.item(row, 0).text() for row in range(dialog.table.rowCount()))
    for action in (window.help_actions.shortcuts_action, window.help_actions.documentation_action,
                   window.theme_menu.menuAction(), *window.theme_menu.actions()):
        assert is_chinese(action.text()), action.text()


def test_documentation_opens_the_docs_else_the_readme(tmp_path: Path) -> None:
    assert documentation_url(tmp_path).isEmpty()
    (tmp_path / "README.md").write_text("# readme\n", encoding="utf-8")
    assert documentation_url(tmp_path) == QUrl.fromLocalFile(str(tmp_path / "README.md"))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "precision-workbench.md").write_text("# manual\n", encoding="utf-8")
    assert documentation_url(tmp_path) == QUrl.fromLocalFile(str(tmp_path / "docs" / "precision-workbench.md"))
    checkout = Path(__file__).resolve().parents[2]
    assert documentation_url().toLocalFile() == str(checkout / "docs" / "precision-workbench.md")


def _text_contrast(widget: QWidget) -> float:
    widget.ensurePolished()  # a style sheet's colour reaches the palette on polish
    palette = widget.palette()
    return contrast_ratio(palette.color(widget.foregroundRole()), palette.color(ROLE.Window))


def test_the_tensor_panels_hints_read_in_the_dark_theme(qtbot: QtBot) -> None:
    apply_theme("dark")
    panel = TensorPanel()
    qtbot.addWidget(panel)
    assert _text_contrast(panel.cover) >= 4.5  # "Select a row to see its tensors here."
    view = StatsComparisonView()
    qtbot.addWidget(view)
    assert _text_contrast(view.details) >= 4.5
    stale = QLabel("fixed grey")  # what the cover was: a colour that ignores the palette
    qtbot.addWidget(stale)
    stale.setStyleSheet("color: #555555;")
    assert _text_contrast(stale) < 4.5
