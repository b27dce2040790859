"""The tensor panel's fused-vs-origin scatter: every point of a small pair, a capped deterministic sample of a big
one, wrong elements told apart from rounding, the selected row's data only, empty with a reason without a pair."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.pair import FILE_NOT_FOUND
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.core.precision.scatter_points import MAX_POINTS, scatter_points, stride_for
from autofuse_studio.core.precision.tensor_view import ViewOptions, open_pair
from autofuse_studio.ui.precision.tensor_panel import TensorPanel

TIMEOUT_MS = 20_000


def _pair(tmp_path: Path, name: str, size: int, wrong: int, seed: int) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    origin = rng.standard_normal(size).astype(np.float32)
    fused = origin.copy()
    fused[:wrong] += 5.0  # the first `wrong` elements are far off; the rest identical
    paths = tmp_path / f"{name}_fused.npy", tmp_path / f"{name}_origin.npy"
    np.save(paths[0], fused)
    np.save(paths[1], origin)
    return paths


def _row(op: str, paths: tuple[Path, Path] | None) -> PrecisionRow:
    if paths is None:
        return PrecisionRow(OUTPUT, op, 0, "Origin", 0, FILE_NOT_FOUND, message="no af-open dump")
    return PrecisionRow(OUTPUT, op, 0, "Origin", 0, "OK", fused_file=str(paths[0]), origin_file=str(paths[1]),
                        fused_dtype="float32", origin_dtype="float32")


@pytest.fixture
def panel(qtbot: QtBot) -> Iterator[TensorPanel]:
    widget = TensorPanel(options=ViewOptions(top_k=10, max_cells=64))
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    widget.tabs.setCurrentWidget(widget.scatter_page)
    yield widget
    widget.shutdown()


def _shown(qtbot: QtBot, panel: TensorPanel, row: PrecisionRow) -> int:
    with qtbot.waitSignal(panel.scatterReady, timeout=TIMEOUT_MS) as blocker:
        panel.show_row(row)
    assert blocker.args[0].count == panel.scatter.drawn_count()
    return panel.scatter.drawn_count()


def test_scatter_follows_the_row_and_is_empty_without_a_pair(qtbot: QtBot, panel: TensorPanel,
                                                           tmp_path: Path) -> None:
    small = _pair(tmp_path, "small", 500, 7, 1)
    assert _shown(qtbot, panel, _row("small_op", small)) == 500  # every element
    assert panel.scatter.points is not None and panel.scatter.points.wrong_count == 7
    assert "500" in panel.scatter.note.text()
    other = _pair(tmp_path, "other", 300, 2, 2)
    assert _shown(qtbot, panel, _row("other_op", other)) == 300  # the new row's, not the previous one's
    assert panel.scatter.points.wrong_count == 2
    panel.show_row(_row("missing_op", None))  # FILE_NOT_FOUND: nothing drawn, and why
    assert panel.scatter.drawn_count() == 0 and panel.scatter.points is None
    assert "has no file pair" in panel.scatter.reason
    panel.clear()
    assert panel.scatter.drawn_count() == 0


def test_big_pairs_are_sampled_to_the_cap_plus_the_worst(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    big = _pair(tmp_path, "big", 1_000_003, 3, 3)
    count = _shown(qtbot, panel, _row("big_op", big))
    stride = stride_for(1_000_003)
    assert panel.view is not None
    extra = sum(1 for element in panel.view.top if element.flat_index % stride)
    assert count == len(range(0, 1_000_003, stride)) + extra <= MAX_POINTS + 10  # every 51st, plus the worst
    assert panel.scatter.points is not None and panel.scatter.points.wrong_count == 3  # the 3 wrong ones, found
    again = scatter_points(open_pair(*big))
    strided = len(range(0, 1_000_003, stride))
    assert again.count == strided  # without the worst elements: the strided sample alone, the same points again
    assert np.array_equal(again.origin, panel.scatter.points.origin[:strided])


def test_scatter_is_computed_when_its_tab_is_shown(qtbot: QtBot, panel: TensorPanel, tmp_path: Path) -> None:
    panel.tabs.setCurrentWidget(panel.histograms)
    pair = _pair(tmp_path, "late", 400, 1, 4)
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS):
        panel.show_row(_row("late_op", pair))
    assert panel.scatter.drawn_count() == 0  # not sampled while another tab is shown
    with qtbot.waitSignal(panel.scatterReady, timeout=TIMEOUT_MS):
        panel.tabs.setCurrentWidget(panel.scatter_page)
    assert panel.scatter.drawn_count() == 400


def test_the_plots_are_made_when_their_tab_is_first_shown(qtbot: QtBot) -> None:
    widget = TensorPanel()
    qtbot.addWidget(widget)
    assert widget.scatter_page.made is None and widget.trend_page.made is None  # no scene until looked at
    widget.tabs.setCurrentWidget(widget.trend_page)
    assert widget.trend_page.made is widget.trend and widget.trend.note.text() == "No row selected: no trend."
    widget.tabs.setCurrentWidget(widget.scatter_page)
    assert widget.scatter.reason == "Select a row to see its tensors here." and widget.scatter.drawn_count() == 0
    widget.shutdown()
