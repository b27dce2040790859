"""svg_tidy: polylines clipped to a rectangle, scaled groups rewritten in page coordinates."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.ui.precision.svg_tidy import DataClip, clip_polyline, tidy_svg
from tests.ui.svg_bounds import read_svg

RECT = (0.0, 0.0, 10.0, 10.0)


@pytest.mark.parametrize(("points", "pieces"), [
    ([(1, 1), (5, 5)], [[(1, 1), (5, 5)]]),  # inside
    ([(-5, 5), (15, 5)], [[(0, 5), (10, 5)]]),  # through, cut at both sides
    ([(1, 1), (1, 20), (5, 20), (5, 1)], [[(1, 1), (1, 10)], [(5, 10), (5, 1)]]),  # leaves and comes back
    ([(20, 20), (30, 30)], []),  # outside
])
def test_clip_polyline(points: list[tuple[float, float]], pieces: list[list[tuple[float, float]]]) -> None:
    assert clip_polyline(points, RECT) == pieces


SVG = b"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<svg viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny">
<g fill="none" stroke="#ff0000" stroke-width="1.5" transform="matrix(10,0,0,-10,50,50)">
<polyline fill="none" vector-effect="non-scaling-stroke" points="-9,0 0,0 0,9 " />
</g>
<g fill="none" stroke="#00ff00" transform="matrix(10,0,0,10,0,0)">
<polyline fill="none" vector-effect="none" points="0,0 1,1 " />
</g>
<g fill="#000000" stroke="none" transform="matrix(2,0,0,2,0,0)"><text x="1" y="2">label</text></g>
</svg>"""


def test_tidy_rewrites_scaled_lines_and_clips_them_to_their_plot(tmp_path: Path) -> None:
    clip = DataClip((10, 0, 0, -10, 50, 50), (20.0, 20.0, 80.0, 80.0))
    tidy = tidy_svg(SVG, [clip])
    assert b"matrix(10,0,0,-10,50,50)" not in tidy
    (tmp_path / "t.svg").write_bytes(tidy)
    shapes = read_svg(tmp_path / "t.svg")
    red = shapes.union("#ff0000")
    assert red is not None and (red.left, red.top, red.right, red.bottom) == pytest.approx((20, 20, 50, 50))
    assert b"matrix(10,0,0,10,0,0)" in tidy  # a scaling stroke keeps its matrix: its width depends on it
    assert [text for text, _x, _y in shapes.texts] == ["label"]
