"""Read a Qt-written SVG back: boxes of strokes by colour, images, and the plot rectangles their axes span."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
MATRIX = re.compile(r"matrix\(([^)]*)\)")
TOLERANCE = 1.5  # px: line caps and anti-aliasing


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in SVG user units."""

    left: float
    top: float
    right: float
    bottom: float

    def inside(self, other: Box, tolerance: float = TOLERANCE) -> bool:
        """True when this box lies within `other` (give or take `tolerance`)."""
        return (self.left >= other.left - tolerance and self.right <= other.right + tolerance
                and self.top >= other.top - tolerance and self.bottom <= other.bottom + tolerance)

    def clipped(self, clip: Box | None) -> Box | None:
        """The part of this box inside `clip` (None when nothing is left)."""
        if clip is None:
            return self
        left, top = max(self.left, clip.left), max(self.top, clip.top)
        right, bottom = min(self.right, clip.right), min(self.bottom, clip.bottom)
        return Box(left, top, right, bottom) if left <= right and top <= bottom else None

    @property
    def width(self) -> float:
        """Horizontal extent."""
        return self.right - self.left

    @property
    def height(self) -> float:
        """Vertical extent."""
        return self.bottom - self.top


def _box(points: list[tuple[float, float]]) -> Box:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Box(min(xs), min(ys), max(xs), max(ys))


@dataclass
class SvgShapes:
    """Strokes (by colour, full opacity only) and images of an SVG, in document coordinates."""

    strokes: dict[str, list[Box]]
    images: list[Box]
    texts: list[tuple[str, float, float]]  # text, x, y (its anchor point)

    def boxes(self, colour: str) -> list[Box]:
        """Every stroke of one colour (e.g. '#1f77b4')."""
        return self.strokes.get(colour.lower(), [])

    def union(self, colour: str) -> Box | None:
        """The box around every stroke of one colour."""
        boxes = self.boxes(colour)
        if not boxes:
            return None
        return Box(min(b.left for b in boxes), min(b.top for b in boxes),
                   max(b.right for b in boxes), max(b.bottom for b in boxes))

    def axis_rects(self, colour: str, minimum: float = 40.0) -> list[Box]:
        """Rectangles spanned by a vertical and a horizontal axis line of `colour` meeting at a corner."""
        lines = [b for b in self.boxes(colour) if max(b.width, b.height) >= minimum]
        vertical = [b for b in lines if b.width < 1 and b.height >= minimum]
        horizontal = [b for b in lines if b.height < 1 and b.width >= minimum]
        rects = []
        for v in vertical:
            for h in horizontal:
                touches_x = abs(v.left - h.left) <= 3 or abs(v.left - h.right) <= 3
                touches_y = abs(h.top - v.bottom) <= 3 or abs(h.top - v.top) <= 3
                if touches_x and touches_y:
                    rects.append(Box(h.left, v.top, h.right, v.bottom))
        return rects


def numbers_right_of(shapes: SvgShapes, box: Box, reach: float = 80.0) -> list[float]:
    """The numeric labels of an axis just right of `box` (a colour bar's ticks), level with it.

    A right-hand axis writes its labels left-aligned at one x; the first such column right of the box is
    the bar's (a neighbouring plot's left axis, further right, aligns its labels on the other side).
    """
    numbers: list[tuple[float, float]] = []
    for text, x, y in shapes.texts:
        if box.right - 1 <= x <= box.right + reach and box.top - 10 <= y <= box.bottom + 10:
            try:
                numbers.append((x, float(text.replace("−", "-"))))
            except ValueError:
                continue
    if not numbers:
        return []
    column = min(x for x, _ in numbers)
    return [value for x, value in numbers if abs(x - column) <= 1.0]


def _matrix(text: str | None) -> tuple[float, ...]:
    found = MATRIX.search(text or "")
    if not found:
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    return tuple(float(value) for value in found.group(1).split(","))


def _compose(outer: tuple[float, ...], inner: tuple[float, ...]) -> tuple[float, ...]:
    a, b, c, d, e, f = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def _apply(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _points(element: ET.Element) -> list[tuple[float, float]]:
    tag = element.tag.rsplit("}", 1)[-1]
    if tag == "polyline" or tag == "polygon":
        values = [float(v) for v in NUMBER.findall(element.get("points", ""))]
    elif tag == "path":
        values = [float(v) for v in NUMBER.findall(element.get("d", ""))]
    elif tag in ("rect", "image"):
        x, y = float(element.get("x", 0)), float(element.get("y", 0))
        w, h = float(element.get("width", 0)), float(element.get("height", 0))
        values = [x, y, x + w, y + h]
    else:
        return []
    return list(zip(values[0::2], values[1::2], strict=False))


def _clip_paths(root: ET.Element) -> dict[str, Box]:
    """Clip path id -> its box (Qt writes rectangles in document coordinates)."""
    paths = {}
    for element in root.iter():
        if element.tag.rsplit("}", 1)[-1] == "clipPath":
            points = [point for child in element for point in _points(child)]
            if points:
                paths[element.get("id", "")] = _box(points)
    return paths


def read_svg(path: str | Path) -> SvgShapes:
    """Parse `path` (fails on malformed XML) and collect what is drawn: strokes, images and texts.

    Shapes are cut to their clip paths and to the document's viewBox, as a viewer shows them.
    """
    root = ET.parse(path).getroot()
    clips = _clip_paths(root)
    view = [float(v) for v in NUMBER.findall(root.get("viewBox", ""))]
    page = Box(view[0], view[1], view[0] + view[2], view[1] + view[3]) if len(view) == 4 else None
    strokes: dict[str, list[Box]] = {}
    images: list[Box] = []
    texts: list[tuple[str, float, float]] = []

    def walk(element: ET.Element, matrix: tuple[float, ...], stroke: str, opacity: float, clip: Box | None) -> None:
        tag = element.tag.rsplit("}", 1)[-1]
        if tag in ("defs", "clipPath"):
            return
        reference = element.get("clip-path", "")
        if reference.startswith("url(#") and reference[5:-1] in clips:
            clip_box = _box([_apply(matrix, x, y) for x, y in _corners(clips[reference[5:-1]])])
            clip = clip_box.clipped(clip) if clip is not None else clip_box
            if clip is None:
                return  # clipped away entirely
        if tag == "g":
            matrix = _compose(matrix, _matrix(element.get("transform")))
            stroke = element.get("stroke", stroke)
            opacity = float(element.get("stroke-opacity", opacity))
        if tag == "text":
            x, y = _apply(matrix, float(element.get("x", 0)), float(element.get("y", 0)))
            if clip is None or (clip.left <= x <= clip.right and clip.top <= y <= clip.bottom):
                texts.append(("".join(element.itertext()).strip(), x, y))
        points = [_apply(matrix, x, y) for x, y in _points(element)]
        box = _box(points).clipped(clip) if points else None
        if box is not None:
            if tag == "image":
                images.append(box)
            elif element.get("stroke", stroke) not in ("none", "") and opacity >= 0.99:
                strokes.setdefault(element.get("stroke", stroke).lower(), []).append(box)
        for child in element:
            walk(child, matrix, stroke, opacity, clip)

    walk(root, _matrix(None), "none", 1.0, page)
    return SvgShapes(strokes, images, texts)


def _corners(box: Box) -> list[tuple[float, float]]:
    return [(box.left, box.top), (box.right, box.top), (box.left, box.bottom), (box.right, box.bottom)]
