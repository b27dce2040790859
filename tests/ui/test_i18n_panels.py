"""Live zh_CN switch of the tensor panel, graph view, ATT workbench and runner panel: texts, data, screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from autofuse_studio.core.graphview.style import BY_VERDICT
from autofuse_studio.ui.graph.toolbar import MODE_OVERLAY, MODE_SIDE_BY_SIDE
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.tensor_panel import TensorPanel

TIMEOUT_MS = 20000
HORIZONTAL = Qt.Orientation.Horizontal


def is_chinese(text: str) -> bool:
    """True when the text holds at least one CJK ideograph."""
    return any("\u4e00" <= char <= "\u9fff" for char in text)


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    """A shown main window; English again afterwards whatever the test did."""
    widget = MainWindow()
    qtbot.addWidget(widget)
    widget.resize(780, 580)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.set_language("en")


def tensor_panel(window: MainWindow) -> TensorPanel:
    panel = window.workbench.tensor_panel
    assert isinstance(panel, TensorPanel)
    return panel


def show_pair(qtbot: QtBot, panel: TensorPanel, folder: Path) -> None:
    """A small pair so that the plots, axis labels and tables have content."""
    rng = np.random.default_rng(3)
    origin = rng.standard_normal((4, 8, 6)).astype(np.float32)
    fused = origin + np.float32(1e-3)
    np.save(folder / "fused.npy", fused)
    np.save(folder / "origin.npy", origin)
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS):
        panel.show_pair(folder / "fused.npy", folder / "origin.npy")


def switch(qtbot: QtBot, window: MainWindow, code: str, expected_tab: str) -> None:
    """Switch the language and wait until LanguageChange reached the panels."""
    window.set_language(code)
    qtbot.waitUntil(lambda: window.att.tabs.tabText(0) == expected_tab, timeout=2000)


def panel_texts(window: MainWindow) -> dict[str, str]:
    """Representative texts of the four panels."""
    tensor, graph, att, runner = tensor_panel(window), window.graph, window.att, window.runner_panel
    return {
        "tensor tab": tensor.tabs.tabText(0),
        "tensor stats header": str(tensor.stats_model.headerData(0, HORIZONTAL)),
        "tensor top header": str(tensor.top_model.headerData(4, HORIZONTAL)),
        "tensor log counts": tensor.histograms.log_counts.text(),
        "tensor heatmap title": tensor.heatmaps.plots[0].titleLabel.text,
        "graph mode": graph.toolbar.mode.itemText(0),
        "graph trace": graph.toolbar.trace_up.text(),
        "graph pane": graph.open_pane.title.text(),
        "att tab": att.tabs.tabText(0),
        "att perf header": str(att.perf.operators.headerData(0, HORIZONTAL)),
        "att compare button": att.compare.compare_button.text(),
        "att summary status": att.summary.status_label.text(),
        "runner run": runner.run_button.text(),
        "runner card": runner.card.title(),
        "runner history header": str(runner.history.headerData(0, HORIZONTAL)),
        "runner preset": runner.form.params_combo.itemText(0),
    }


def test_panels_switch_to_chinese_and_back(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    show_pair(qtbot, tensor_panel(window), tmp_path)
    english = panel_texts(window)
    assert english["tensor tab"] == "Histograms" and english["runner run"] == "Run"
    assert english["graph mode"] == "Side by side" and english["att perf header"] == "Operator"
    switch(qtbot, window, "zh_CN", "性能公式")
    chinese = panel_texts(window)
    assert not [key for key, text in chinese.items() if not is_chinese(text)], chinese
    assert chinese["tensor tab"] == "直方图" and chinese["tensor heatmap title"] == "融合侧（均值）"
    assert chinese["graph mode"] == "并排" and chinese["runner run"] == "运行"
    assert chinese["att perf header"] == "算子" and chinese["runner history header"] == "时间"
    # Identifiers behind the display texts stay as they are.
    toolbar = window.graph.toolbar
    assert [toolbar.mode.itemData(i) for i in range(2)] == [MODE_SIDE_BY_SIDE, MODE_OVERLAY]
    assert toolbar.colour.itemData(0) == BY_VERDICT and toolbar.colour.itemText(1) == toolbar.colour.itemData(1)
    form = window.runner_panel.form
    form.params_combo.setCurrentIndex(1)
    assert "--preset" in (args := form.arguments("/out", None)) and args[args.index("--preset") + 1] == "B"
    assert form.params_combo.findData("json") == 2 and not form.uses_json()
    switch(qtbot, window, "en", "Perf formula")
    assert panel_texts(window) == english


def _non_blank(image: QImage, step: int = 5) -> bool:
    colours = {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}
    return image.width() > 100 and image.height() > 100 and len(colours) > 5


def test_screenshots_in_chinese(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    show_pair(qtbot, tensor_panel(window), tmp_path)
    switch(qtbot, window, "zh_CN", "性能公式")
    panels: list[tuple[str, int, QWidget]] = [("tensor", 0, tensor_panel(window)), ("graph", 1, window.graph),
                                             ("att", 2, window.att), ("runner", 3, window.runner_panel)]
    for name, tab, panel in panels:
        window.tabs.setCurrentIndex(tab)
        if name == "tensor":
            window.workbench.splitter.setSizes([120, 400])  # room for the plots
        qtbot.waitUntil(panel.isVisible, timeout=2000)
        image = panel.grab().toImage()
        path = tmp_path / f"{name}_zh_CN.png"
        assert image.save(str(path)) and path.stat().st_size > 0
        assert _non_blank(image), name
