"""The tensor panel draws a new pair's two plot tabs in two event-loop steps, and no tab shows the old pair."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.tensor_view import ViewOptions
from autofuse_studio.ui.precision import tensor_panel
from autofuse_studio.ui.precision.tensor_panel import TensorPanel

TIMEOUT_MS = 20000


def _pair(folder: Path, scale: float) -> tuple[Path, Path]:
    origin = np.random.default_rng(3).standard_normal((8, 64)).astype(np.float32) * scale
    fused = origin + np.float32(0.01 * scale)
    folder.mkdir()
    paths = folder / "fused.npy", folder / "origin.npy"
    np.save(paths[0], fused)
    np.save(paths[1], origin)
    return paths


class _HeldSteps:
    """Stands in for QTimer in the panel's module: the next steps wait until the test runs them."""

    held: ClassVar[list[Callable[[], None]]] = []

    @classmethod
    def singleShot(cls, _ms: int, _context: object, step: Callable[[], None]) -> None:  # Qt's name
        cls.held.append(step)

    @classmethod
    def run_held(cls) -> None:
        steps, cls.held[:] = list(cls.held), []
        for step in steps:
            step()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> type[_HeldSteps]:
    _HeldSteps.held.clear()
    monkeypatch.setattr(tensor_panel, "QTimer", _HeldSteps)
    return _HeldSteps


@pytest.fixture
def panel(qtbot: QtBot) -> Iterator[TensorPanel]:
    widget = TensorPanel(options=ViewOptions(top_k=5, max_cells=64))
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    yield widget
    widget.shutdown()


def _shown(qtbot: QtBot, panel: TensorPanel, held: type[_HeldSteps], paths: tuple[Path, Path]) -> None:
    """Show a pair, every step of it."""
    _finished_first_step(qtbot, panel, paths)
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS):
        held.run_held()


def _finished_first_step(qtbot: QtBot, panel: TensorPanel, paths: tuple[Path, Path]) -> None:
    """Start showing a pair and wait until its view arrived (the first step ran, the next one is held)."""
    panel.show_pair(*paths)
    qtbot.waitUntil(lambda: panel.view is not None, timeout=TIMEOUT_MS)


@pytest.mark.parametrize("front", ["histograms", "heatmaps"])
def test_the_tab_in_front_first_the_other_in_the_next_step(qtbot: QtBot, panel: TensorPanel, tmp_path: Path,
                                                           held: type[_HeldSteps], front: str) -> None:
    panel.tabs.setCurrentWidget(getattr(panel, front))
    _shown(qtbot, panel, held, _pair(tmp_path / "old", 1.0))
    old = panel.view
    assert old is not None
    _finished_first_step(qtbot, panel, _pair(tmp_path / "new", 100.0))
    new = panel.view
    assert new is not old
    if front == "histograms":
        assert panel.histograms.view is new and panel.heatmaps.heatmap is old.heatmap  # type: ignore[union-attr]
    else:
        assert panel.heatmaps.heatmap is new.heatmap and panel.histograms.view is old  # type: ignore[union-attr]
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS) as ready:
        held.run_held()
    assert ready.args[0] is new
    assert panel.histograms.view is new and panel.heatmaps.heatmap is new.heatmap  # type: ignore[union-attr]


def test_bringing_the_other_tab_to_front_draws_it_first(qtbot: QtBot, panel: TensorPanel, tmp_path: Path,
                                                        held: type[_HeldSteps]) -> None:
    _shown(qtbot, panel, held, _pair(tmp_path / "old", 1.0))
    _finished_first_step(qtbot, panel, _pair(tmp_path / "new", 100.0))
    new = panel.view
    assert new is not None
    panel.tabs.setCurrentWidget(panel.heatmaps)  # before the next step: it must not show the old heatmap
    assert panel.heatmaps.heatmap is new.heatmap
    assert panel.shown_plots() is panel.heatmaps


def test_a_pair_replaced_before_the_next_step_leaves_no_late_plots(qtbot: QtBot, panel: TensorPanel,
                                                                   tmp_path: Path, held: type[_HeldSteps]) -> None:
    _finished_first_step(qtbot, panel, _pair(tmp_path / "first", 1.0))
    first = panel.view
    _finished_first_step(qtbot, panel, _pair(tmp_path / "second", 100.0))
    second = panel.view
    with qtbot.waitSignal(panel.viewReady, timeout=TIMEOUT_MS) as ready:
        held.run_held()  # the first pair's late step draws nothing, the second's draws the second
    assert ready.args[0] is second
    assert second is not first and panel.view is second
    assert panel.histograms.view is second and panel.heatmaps.heatmap is second.heatmap
