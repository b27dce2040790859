"""The per-op trend in the tensor panel: one point per (rank, step) of the selected op on a multi-rank case, the
selected row ringed, following the selection; 'no trend' on a case with one rank and one step."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.tensor_panel import TensorPanel
from autofuse_studio.ui.precision.trend_plot import trend_key
from tests.synth import generate_case
from tests.synth.spec import CaseSpec, multi_rank_spec
from tests.ui.windows import shown_result_window


@pytest.fixture(scope="module")
def ranked_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four ranks, two steps, the culprit on rank 2."""
    root = tmp_path_factory.mktemp("trend") / "ranked"
    generate_case(root, multi_rank_spec())
    return root


def _drawn(plot: pg.PlotItem) -> int:
    """Points of the per-rank lines (the ring around the selected row is a curve of its own, without a pen)."""
    return sum(len(item.xData) for item in plot.listDataItems()
               if item.xData is not None and item.opts.get("pen") is not None)


def _select(window: MainWindow, row: PrecisionRow) -> None:
    assert window.workbench.view.select_row(row)


def test_trend_has_a_point_per_rank_and_step(qtbot: QtBot, ranked_root: Path) -> None:
    window = shown_result_window(qtbot, ranked_root)
    panel = window.workbench.tensor_panel
    assert isinstance(panel, TensorPanel)
    panel.tabs.setCurrentWidget(panel.trend_page)
    result = window.session.result
    assert result is not None
    culprit = next(row for row in result.rows if row.verdict == "CULPRIT")
    _select(window, culprit)
    same = [row for row in result.rows if trend_key(row) == trend_key(culprit)]
    cells = {(row.rank, row.step) for row in same}
    assert len({rank for rank, _ in cells}) == 4 and len({step for _, step in cells}) == 2
    assert panel.trend.has_trend() and panel.trend.points() == len(cells) == 8
    with_cosine = sum(1 for row in same if row.metric("cosine") is not None)
    assert _drawn(panel.trend.cosine_plot) == with_cosine
    assert panel.trend.selected is culprit
    assert culprit.fused_op in panel.trend.note.text() and "8" in panel.trend.note.text()
    other = next(row for row in result.rows if row.fused_op != culprit.fused_op)
    _select(window, other)  # the trend follows the selection
    assert panel.trend.rows and all(row.fused_op == other.fused_op for row in panel.trend.rows)
    assert panel.trend.selected is other


def test_one_rank_one_step_has_no_trend(qtbot: QtBot, tmp_path: Path) -> None:
    generate_case(tmp_path / "single", CaseSpec(seed=5, n_fused=3, elements=64, steps=1, culprit=1))
    window = shown_result_window(qtbot, tmp_path / "single")
    panel = window.workbench.tensor_panel
    assert isinstance(panel, TensorPanel)
    result = window.session.result
    assert result is not None and result.rows
    _select(window, result.rows[0])
    assert not panel.trend.has_trend() and panel.trend.points() == 0
    assert panel.trend.note.text() == "One step, one rank: no trend."
    assert _drawn(panel.trend.cosine_plot) == 0
