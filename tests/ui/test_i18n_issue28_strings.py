"""The sentences added for issue 28 (runner hint, undo reset, NaN and all-zero explanations) exist in Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.tensor_view import view_files
from autofuse_studio.ui.precision.tensor_plots import TensorHistograms
from autofuse_studio.ui.precision.thresholds_editor import ThresholdsEditor
from autofuse_studio.ui.runner.form import RunForm

QM = Path(__file__).resolve().parents[2] / "resources" / "translations" / "autofuse_studio_zh_CN.qm"


def is_chinese(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)


@pytest.fixture
def chinese() -> Iterator[None]:
    translator = QTranslator()
    assert translator.load(str(QM))
    QCoreApplication.installTranslator(translator)  # widgets get a LanguageChange and retranslate
    yield
    QCoreApplication.removeTranslator(translator)


def test_new_sentences_are_chinese(qtbot: QtBot, chinese: None, tmp_path: Path) -> None:
    form = RunForm()
    qtbot.addWidget(form)
    form.retranslate()
    assert is_chinese(form.hint_label.text())
    editor = ThresholdsEditor()
    qtbot.addWidget(editor)
    editor.retranslate()
    assert is_chinese(editor.undo_reset_button.text()) and is_chinese(editor.reset_button.toolTip())
    origin = np.arange(16, dtype=np.float32)
    fused = origin.copy()
    fused[3] = np.nan
    np.save(tmp_path / "f.npy", fused)
    np.save(tmp_path / "o.npy", origin)
    plots = TensorHistograms()
    qtbot.addWidget(plots)
    plots.set_view(view_files(tmp_path / "f.npy", tmp_path / "o.npy")[1])
    assert is_chinese(plots.empty["error"]) and is_chinese(plots.empty["abs_error"])
    from autofuse_studio.ui.precision.tensor_panel import TensorPanel

    panel = TensorPanel()
    qtbot.addWidget(panel)
    try:
        panel.retranslate()
        assert is_chinese(panel.zero_note.text())
    finally:
        panel.shutdown()
