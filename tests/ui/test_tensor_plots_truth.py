"""The tensor histograms say what is true: NaN errors are not "identical", equal errors get readable ticks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.tensor_view import TensorView, view_files
from autofuse_studio.ui.precision.tensor_plots import TensorHistograms


def _view(tmp_path: Path, fused: np.ndarray, origin: np.ndarray) -> TensorView:
    np.save(tmp_path / "fused.npy", fused)
    np.save(tmp_path / "origin.npy", origin)
    return view_files(tmp_path / "fused.npy", tmp_path / "origin.npy")[1]


def _plots(qtbot: QtBot, view: TensorView) -> TensorHistograms:
    plots = TensorHistograms()
    qtbot.addWidget(plots)
    plots.resize(900, 600)
    plots.show()
    plots.set_view(view)
    return plots


def test_a_nan_culprit_is_not_called_identical(qtbot: QtBot, tmp_path: Path) -> None:
    origin = np.arange(100, dtype=np.float32).reshape(10, 10)
    fused = origin.copy()
    fused[3, 4] = np.nan
    fused[5, 5] = np.inf
    plots = _plots(qtbot, _view(tmp_path, fused, origin))
    said = plots.empty["error"]
    assert "identical" not in said
    assert "98 finite errors are exactly 0" in said and "2 errors are NaN or Inf" in said and "fused 2" in said
    assert "NaN or Inf" in plots.empty["abs_error"]


def test_identical_tensors_still_say_identical(qtbot: QtBot, tmp_path: Path) -> None:
    origin = np.arange(12, dtype=np.float32)
    assert "identical" in _plots(qtbot, _view(tmp_path, origin.copy(), origin)).empty["error"]


def test_equal_errors_get_readable_log_ticks(qtbot: QtBot, tmp_path: Path) -> None:
    origin = np.random.default_rng(0).standard_normal((4, 50)).astype(np.float32)
    plots = _plots(qtbot, _view(tmp_path, origin + np.float32(0.1), origin))  # |error| 0.1 give or take an ulp
    axis = plots.abs_plot.getAxis("bottom")
    low, high = plots.abs_plot.viewRange()[0]
    assert high - low >= 1.0
    labels = [text for spacing, values in axis.tickValues(low, high, 800)[:2]
              for text in axis.tickStrings(values, 1.0, spacing)]
    assert labels and all(len(text.lstrip("-").split(".")[-1]) <= 2 for text in labels), labels
    assert low < -1.0 < high  # log10(0.1) is on screen


def test_all_zero_tensors_say_why_cosine_is_zero(qtbot: QtBot, tmp_path: Path) -> None:
    from autofuse_studio.ui.precision.tensor_panel import TensorPanel

    panel = TensorPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    try:
        zeros = np.zeros((8, 8), np.float32)
        np.save(tmp_path / "zf.npy", zeros)
        np.save(tmp_path / "zo.npy", zeros)
        with qtbot.waitSignal(panel.viewReady, timeout=20_000):
            panel.show_pair(tmp_path / "zf.npy", tmp_path / "zo.npy", title="zeros")
        assert panel.zero_note.isVisible() and "all zeros" in panel.zero_note.text()
        assert "cosine is 0" in panel.zero_note.text()
        np.save(tmp_path / "of.npy", zeros + 1)
        with qtbot.waitSignal(panel.viewReady, timeout=20_000):
            panel.show_pair(tmp_path / "of.npy", tmp_path / "zo.npy", title="ones")
        assert not panel.zero_note.isVisible()  # one side is not all zeros: the cosine 0 is real
        panel.clear()
        assert not panel.zero_note.isVisible()
    finally:
        panel.shutdown()


def _drawn(curve: object) -> np.ndarray:
    """The y values a curve draws (empty when it draws nothing)."""
    y = curve.yData  # type: ignore[attr-defined]
    return np.asarray([] if y is None or not curve.isVisible() else y)  # type: ignore[attr-defined]


def test_pairs_reuse_the_curves_and_never_show_the_last_pairs_data(qtbot: QtBot, tmp_path: Path) -> None:
    origin = np.random.default_rng(1).standard_normal((8, 32)).astype(np.float32)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    differing = _view(tmp_path / "a", origin + np.float32(1e-3), origin)
    identical = _view(tmp_path / "b", origin.copy(), origin)
    all_nan = _view(tmp_path / "c", np.full(6, np.nan, np.float32), np.full(6, np.nan, np.float32))
    plots = _plots(qtbot, differing)
    items = {name: list(plot.listDataItems()) for name, plot in plots.plots().items()}
    plots.set_view(identical)  # values drawn, both error plots say why they are empty
    assert np.array_equal(_drawn(plots.fused_curve), identical.fused_histogram.counts)
    assert _drawn(plots.error_curve).size == 0 and _drawn(plots.abs_curve).size == 0
    assert plots.empty_labels["error"].isVisible() and "identical" in plots.empty_labels["error"].toPlainText()
    assert not plots.error_plot.getAxis("left").isVisible()
    plots.set_view(all_nan)  # nothing drawn anywhere, no legend for curves that are not there
    assert all(_drawn(curve).size == 0 for curve in (plots.fused_curve, plots.origin_curve))
    assert not plots.values_plot.legend.isVisible() and plots.empty_labels["values"].isVisible()
    plots.set_view(differing)  # back: the same items, this pair's data, no sentence left over
    assert {name: list(plot.listDataItems()) for name, plot in plots.plots().items()} == items
    assert np.array_equal(_drawn(plots.error_curve), differing.error_histogram.counts)
    assert np.array_equal(_drawn(plots.origin_curve), differing.origin_histogram.counts)
    assert not any(label.isVisible() for label in plots.empty_labels.values())
    assert plots.values_plot.legend.isVisible() and plots.error_plot.getAxis("left").isVisible()
