"""The minimap's thumbnail: a big graph's is drawn on the pane's worker with its overview, a small one's here."""

from __future__ import annotations

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

import autofuse_studio.ui.graph.minimap as minimap_module
from autofuse_studio.core.graphview.raster import OVERVIEW_NODES, THUMBNAIL_BOX, Thumbnail, overview, thumbnail
from autofuse_studio.ui.graph.item import GraphItem
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.core.test_graphview_layout import random_model
from tests.ui.test_graph_view import showing_alone


def _expected(item: GraphItem) -> Thumbnail:
    """The thumbnail of the item's boxes in its colours, drawn here."""
    lay = item.layout
    return thumbnail(lay.x - lay.width / 2, lay.y - lay.height / 2, lay.x + lay.width / 2, lay.y + lay.height / 2,
                     *item.style.palette(), lay.size)


def _shown(qtbot: QtBot, nodes: int) -> GraphWorkbench:
    return showing_alone(qtbot, random_model(nodes), fused_side=False)


def test_a_big_graphs_thumbnail_comes_from_the_worker(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    def not_here(*_args: object) -> None:
        raise AssertionError("a big graph's thumbnail was drawn on the GUI thread")

    monkeypatch.setattr(minimap_module, "thumbnail", not_here)
    pane = _shown(qtbot, OVERVIEW_NODES + 500).close_pane
    item = pane.view.item
    assert item is not None
    found, expected = item.thumbnail(), _expected(item)
    assert found is not None and found.scale == expected.scale
    assert np.array_equal(found.pixels, expected.pixels)
    picture = pane.minimap.picture()
    assert picture is not None and (picture.height(), picture.width()) == found.pixels.shape[:2]
    assert picture.width() <= THUMBNAIL_BOX[0] and picture.height() <= THUMBNAIL_BOX[1]


def test_a_small_graphs_thumbnail_is_drawn_here(qtbot: QtBot) -> None:
    pane = _shown(qtbot, 200).close_pane
    item = pane.view.item
    assert item is not None and item.thumbnail() is None  # no overview for a small graph
    picture, expected = pane.minimap.picture(), _expected(item)
    assert picture is not None
    assert (picture.height(), picture.width()) == expected.pixels.shape[:2]


def test_the_overviews_thumbnail_is_the_boxes_alone() -> None:
    """Made with the overview, the thumbnail is what thumbnail() draws of the same boxes (no edges)."""
    rng = np.random.default_rng(3)
    x0, y0 = rng.random(5000) * 4000, rng.random(5000) * 900
    codes = rng.integers(0, 3, 5000)
    colours = np.array([[200, 0, 0, 255], [0, 200, 0, 255], [0, 0, 200, 255]], dtype=np.uint8)
    lines = (np.array([[0.0, 0.0]]), np.array([[4000.0, 900.0]]))
    made = overview(x0, y0, x0 + 60, y0 + 20, codes, colours, lines, (4060.0, 920.0), (1, 2, 3, 255))
    alone = thumbnail(x0, y0, x0 + 60, y0 + 20, codes, colours, (4060.0, 920.0))
    assert made.thumbnail is not None and made.thumbnail.scale == alone.scale
    assert np.array_equal(made.thumbnail.pixels, alone.pixels)
    assert alone.pixels.shape[1] <= THUMBNAIL_BOX[0] - 2 and alone.pixels.shape[0] <= THUMBNAIL_BOX[1] - 2
