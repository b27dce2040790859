"""DisplayCanvas draws exactly the display list the CLI writes as SVG; PNG/SVG export; hover and click."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.perf_model import build_perf_model
from autofuse_studio.core.att.perf_output import perf_svg
from autofuse_studio.core.att.perf_render import perf_display_list
from autofuse_studio.core.att.scanner import scan_file
from autofuse_studio.core.render.display import Group, Line, Rect, Text, walk
from autofuse_studio.ui.widgets.display_canvas import DisplayCanvas, DrawnItem, prepare_display_list
from tests.synth.att_log import SyntheticShape
from tests.synth.att_perf_log import write_synthetic_perf_log


def _expected(item: Rect | Line | Text) -> DrawnItem:
    """What the canvas must draw for a leaf: the same kind, role, colours and text."""
    def name(colour: str | None) -> str | None:
        return None if colour in (None, "none") else QColor(colour).name()

    if isinstance(item, Text):
        return DrawnItem("text", item.role, name(item.fill), None, item.text)
    if isinstance(item, Line):
        return DrawnItem("line", item.role, None, name(item.stroke), None)
    return DrawnItem("rect", item.role, name(item.fill), name(item.stroke), None)


def _canvas(qtbot: QtBot) -> DisplayCanvas:
    canvas = DisplayCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    return canvas


def test_canvas_matches_the_cli_svg(qtbot: QtBot, tmp_path: Path) -> None:
    log = tmp_path / "perf.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=3, groups=4))
    model = build_perf_model([scan_file(log)])
    items, width, height = perf_display_list(model)
    canvas = _canvas(qtbot)
    canvas.set_display_list(items, width, height)
    leaves = [leaf for leaf, _, _ in walk(items)]
    drawn = canvas.drawn_items()
    assert drawn == [_expected(leaf) for leaf in leaves if isinstance(leaf, (Rect, Line, Text))]
    assert any(d.fill == QColor("red").name() and d.role == "bottleneck" for d in drawn)
    svg = tmp_path / "canvas.svg"
    canvas.export_svg(svg)
    assert svg.read_text() == perf_svg(model)  # byte for byte what `att perf-formula` writes


def test_png_export_is_the_whole_picture_and_not_blank(qtbot: QtBot, tmp_path: Path) -> None:
    items = [Group(10, 10, [Rect(0, 0, 50, 20, fill="#ff0000", role="r"), Text(0, 40, "hello", role="t")])]
    canvas = _canvas(qtbot)
    canvas.set_display_list(items, 200, 100)
    canvas.export_png(tmp_path / "c.png", scale=2.0)
    image = QImage(str(tmp_path / "c.png"))
    assert (image.width(), image.height()) == (400, 200)
    assert image.pixelColor(40, 40).name() == "#ff0000"  # inside the rect (group offset applied)
    assert image.pixelColor(390, 190).name() == "#ffffff"


def test_hover_provider_and_click(qtbot: QtBot) -> None:
    canvas = _canvas(qtbot)
    canvas.set_display_list([Rect(0, 0, 100, 100, fill="#eee")], 100, 100)
    canvas.hover_provider = lambda x, y: f"at {x:.0f},{y:.0f}" if x < 50 else None
    assert canvas.hover_text_at(10, 20) == "at 10,20"
    assert canvas.hover_text_at(60, 20) == ""
    canvas.show()
    qtbot.waitExposed(canvas)
    viewport_point = canvas.mapFromScene(20, 30)
    with qtbot.waitSignal(canvas.clicked, timeout=2000) as blocker:
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(viewport_point))
    x, y = blocker.args
    assert abs(x - 20) <= 1 and abs(y - 30) <= 1


def test_text_anchor_and_highlight(qtbot: QtBot) -> None:
    canvas = _canvas(qtbot)
    canvas.set_display_list([Text(100, 50, "end", anchor="end", role="t")], 200, 100)
    box = canvas.drawn_rect(0)
    assert 99 <= box.right() <= 101 and box.width() > 10  # the text ends at x
    canvas.set_highlight(box)
    canvas.set_highlight(None)
    assert len(canvas.drawn_items()) == 1


def test_culling_keeps_order_and_leaves_across_bands(qtbot: QtBot, tmp_path: Path) -> None:
    across = Rect(0, 250, 40, 20, fill="#00ff00", role="across")  # crosses the first band boundary
    far = Group(0, 5000, [Rect(10, 0, 60, 30, fill="#ff0000", role="far")])
    prepared = prepare_display_list([Rect(0, 0, 40, 20, role="top"), across, far], 200, 6000)
    assert [p.leaf.role for p in prepared.visible(0, 0, 200, 300)] == ["top", "across"]
    assert [p.leaf.role for p in prepared.visible(0, 260, 200, 600)] == ["across"]
    assert [p.leaf.role for p in prepared.visible(0, 4990, 200, 5100)] == ["far"]
    assert [p.leaf.role for p in prepared.visible(100, 4990, 200, 5100)] == []  # left of the area
    canvas = _canvas(qtbot)
    canvas.set_prepared(prepared)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.centerOn(40, 5015)  # only paints the exposed part: the far rect must be there
    point = canvas.mapFromScene(40, 5015)
    assert canvas.viewport().grab().toImage().pixelColor(point).name() == "#ff0000"


def test_leaves_stay_inside_their_culling_boxes(qtbot: QtBot, tmp_path: Path) -> None:
    log = tmp_path / "perf.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=2, groups=4))
    items, width, height = perf_display_list(build_perf_model([scan_file(log)]))
    items.append(Text(10, 10, "宽字符 🔴 mixed", font_size=16, anchor="middle"))
    canvas = _canvas(qtbot)
    canvas.set_display_list(items, width, height)
    assert any(isinstance(placed.leaf, Text) for placed in canvas.prepared.leaves)
    for number, placed in enumerate(canvas.prepared.leaves):
        left, top, right, bottom = placed.box
        drawn = canvas.drawn_rect(number)
        inside = left <= drawn.left() and drawn.right() <= right and top <= drawn.top() and drawn.bottom() <= bottom
        assert inside, (placed.leaf, drawn)


def test_tall_pictures_are_exported_smaller_and_huge_ones_refused(qtbot: QtBot, tmp_path: Path) -> None:
    import pytest

    from autofuse_studio.core.errors import UsageError
    from autofuse_studio.ui.widgets.display_canvas import MAX_PNG_SIDE

    canvas = _canvas(qtbot)
    canvas.set_display_list([Rect(0, 0, 100, 20_000, fill="#00ff00", role="tall")], 100, 20_000)
    image = canvas.export_png(tmp_path / "tall.png", scale=2.0)
    assert image.height() == MAX_PNG_SIDE and image.width() == 160  # 1.6x instead of 2x, still readable
    assert QImage(str(tmp_path / "tall.png")).pixelColor(80, 16_000).name() == "#00ff00"
    # The all-operators picture of a big log: 144,000 px tall would be a 2 GB image nobody can open.
    canvas.set_display_list([Rect(0, 0, 1800, 144_000, fill="#00ff00")], 1800, 144_000)
    with pytest.raises(UsageError, match=r"1,800 x 144,000 px.*Export it as SVG"):
        canvas.export_png(tmp_path / "huge.png")
    assert not (tmp_path / "huge.png").exists()
