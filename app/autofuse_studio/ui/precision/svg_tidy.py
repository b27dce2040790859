"""Tidy Qt's SVG of pyqtgraph plots: curves in document coordinates, cut to their plot's rectangle.

QSvgGenerator writes SVG Tiny 1.2, which has no clipping: a zoomed or panned plot's curves ran past
its axes in the file (only the screen clips them). It also writes each curve under its data-to-page
matrix (e.g. matrix(130.9,0,0,-1.5,…)) with `vector-effect="non-scaling-stroke"`, which viewers
without that SVG 2 feature (librsvg, so many office suites and converters) draw as strokes 100× too
wide. This rewrites those groups' points through their matrix and clips them to the plot they
belong to, which the exporter knows by the matrix of each plot's data.
"""

from __future__ import annotations

import base64
import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QImage

SVG_NS, XLINK_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
_MATRIX = re.compile(r"matrix\(([^)]*)\)")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_PATH_OK = re.compile(r"[MLZ0-9eE.,\s+-]*")  # straight segments only: what the curves are made of
Matrix = tuple[float, float, float, float, float, float]
Point = tuple[float, float]


@dataclass(frozen=True)
class DataClip:
    """A plot's data matrix (SVG order a, b, c, d, e, f) and its rectangle (left, top, right, bottom)."""

    matrix: Matrix
    rect: tuple[float, float, float, float]

    def matches(self, other: Matrix) -> bool:
        """True when `other` is this matrix (relative tolerance: Qt writes 6 significant digits)."""
        return all(abs(x - y) <= 1e-4 * max(1.0, abs(x)) for x, y in zip(self.matrix, other, strict=True))


def _matrix(text: str | None) -> Matrix | None:
    found = _MATRIX.search(text or "")
    if not found:
        return None
    values = [float(value) for value in found.group(1).split(",")]
    return (values[0], values[1], values[2], values[3], values[4], values[5]) if len(values) == 6 else None


def _apply(m: Matrix, point: Point) -> Point:
    return (m[0] * point[0] + m[2] * point[1] + m[4], m[1] * point[0] + m[3] * point[1] + m[5])


def _clip_segment(p: Point, q: Point, rect: tuple[float, float, float, float]) -> tuple[Point, Point] | None:
    """Liang–Barsky: the part of segment p→q inside rect, or None."""
    left, top, right, bottom = rect
    dx, dy = q[0] - p[0], q[1] - p[1]
    low, high = 0.0, 1.0
    for step, distance in ((-dx, p[0] - left), (dx, right - p[0]), (-dy, p[1] - top), (dy, bottom - p[1])):
        if step == 0:
            if distance < 0:
                return None
            continue
        t = distance / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return None
    return (p[0] + low * dx, p[1] + low * dy), (p[0] + high * dx, p[1] + high * dy)


def clip_polyline(points: Sequence[Point], rect: tuple[float, float, float, float] | None) -> list[list[Point]]:
    """The pieces of a polyline inside rect (the whole polyline when rect is None)."""
    if rect is None or len(points) < 2:
        return [list(points)] if points else []
    pieces: list[list[Point]] = []
    current: list[Point] = []
    for p, q in itertools.pairwise(points):
        part = _clip_segment(p, q, rect)
        if part is None:
            current = []
            continue
        start, end = part
        if not current or current[-1] != start:
            current = [start]
            pieces.append(current)
        current.append(end)
    return pieces


def _format(points: Iterable[Point]) -> str:
    return " ".join(f"{x:.6g},{y:.6g}" for x, y in points) + " "


def _polylines(element: ET.Element) -> list[list[Point]] | None:
    """A polyline's points, or a straight-segment path's subpaths; None for anything else."""
    tag = element.tag.rsplit("}", 1)[-1]
    if tag == "polyline":
        values = [float(v) for v in _NUMBER.findall(element.get("points", ""))]
        return [list(zip(values[0::2], values[1::2], strict=False))]
    if tag == "path" and _PATH_OK.fullmatch(element.get("d", "")):
        lines = []
        for part in re.split(r"(?=M)", element.get("d", "")):
            values = [float(v) for v in _NUMBER.findall(part)]
            if len(values) >= 4:
                lines.append(list(zip(values[0::2], values[1::2], strict=False)))
        return lines
    return None


def _flattenable(group: ET.Element, matrix: Matrix) -> bool:
    """Only groups of straight lines whose stroke width does not depend on the matrix are rewritten."""
    if matrix[1] or matrix[2] or not matrix[0] or not matrix[3] or not len(group):
        return False
    for child in group:
        if _polylines(child) is None:
            return False
        stroked = group.get("stroke", "none") != "none" and child.get("stroke", "") != "none"
        if stroked and child.get("vector-effect") != "non-scaling-stroke" and (matrix[0], matrix[3]) != (1, 1):
            return False
    return True


def _rewrite(group: ET.Element, matrix: Matrix, rect: tuple[float, float, float, float] | None) -> None:
    for child in list(group):
        lines = _polylines(child) or []
        index = list(group).index(child)
        group.remove(child)
        pieces = [piece for line in lines for piece in clip_polyline([_apply(matrix, p) for p in line], rect)]
        for offset, piece in enumerate(piece for piece in pieces if len(piece) >= 2):
            line = ET.Element(f"{{{SVG_NS}}}polyline", {"fill": "none", "points": _format(piece)})
            if child.get("vector-effect"):
                line.set("vector-effect", child.get("vector-effect", ""))
            group.insert(index + offset, line)
    group.set("transform", "matrix(1,0,0,1,0,0)")


MAX_IMAGE_PIXELS = 16_000_000  # an embedded image enlarged past this keeps its size (and its renderer's scaling)
PIXELATED = "image-rendering:pixelated"
_PNG_HREF = "data:image/png;base64,"


def _scaled_png(href: str, width: int, height: int) -> str | None:
    """The embedded PNG enlarged by pixel repetition to width x height (None: not a PNG or not readable)."""
    image = QImage.fromData(base64.b64decode(href[len(_PNG_HREF):]))  # format: read from the signature
    if image.isNull():
        return None
    big = image.scaled(width, height, Qt.AspectRatioMode.IgnoreAspectRatio,
                       Qt.TransformationMode.FastTransformation)  # nearest neighbour: cells stay cells
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    big.save(buffer, "PNG")  # type: ignore[call-overload]
    return _PNG_HREF + base64.b64encode(bytes(data.data())).decode("ascii")


def _crisp_image(image: ET.Element, scale: tuple[float, float]) -> None:
    """Embed a scaled-up image (a heatmap) at the size it is drawn, so no viewer smooths its cells.

    Qt writes image-rendering="optimizeSpeed", which librsvg (and so many converters) ignores: a 64 x 8
    heatmap drawn 400 px wide came out as a blur. The CSS property is added too, for viewers that honour it.
    """
    image.set("image-rendering", "pixelated")
    style = image.get("style", "")
    if PIXELATED not in style:
        image.set("style", f"{style};{PIXELATED}".lstrip(";"))
    key = f"{{{XLINK_NS}}}href"
    href = image.get(key) or image.get("href") or ""
    width, height = float(image.get("width", "0")), float(image.get("height", "0"))
    shown = round(width * abs(scale[0])), round(height * abs(scale[1]))
    if not href.startswith(_PNG_HREF) or shown[0] * shown[1] > MAX_IMAGE_PIXELS:
        return
    if shown[0] <= width and shown[1] <= height:
        return  # drawn at its size or smaller: nothing to enlarge
    enlarged = _scaled_png(href, max(shown[0], 1), max(shown[1], 1))
    if enlarged is not None:
        image.set(key if image.get(key) is not None else "href", enlarged)


def _crisp_images(element: ET.Element, scale: tuple[float, float] = (1.0, 1.0)) -> None:
    """_crisp_image for every <image>, with the page scale of its groups (axis-aligned matrices only)."""
    for child in element:
        matrix = _matrix(child.get("transform"))
        if matrix is not None and (matrix[1] or matrix[2]):
            continue  # rotated or skewed: left to the viewer
        inner = scale if matrix is None else (scale[0] * matrix[0], scale[1] * matrix[3])
        if child.tag == f"{{{SVG_NS}}}image":
            _crisp_image(child, inner)
        else:
            _crisp_images(child, inner)


def tidy_svg(data: bytes, clips: Sequence[DataClip] = ()) -> bytes:
    """Rewrite the straight-line groups of an SVG in page coordinates, clipped to the matching plot."""
    # Unprefixed SVG and the usual xlink prefix (ET's prefix registry is global; these are the standard ones).
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    root = ET.fromstring(data)
    for group in root.iter(f"{{{SVG_NS}}}g"):
        matrix = _matrix(group.get("transform"))
        if matrix is None or matrix == (1, 0, 0, 1, 0, 0) or not _flattenable(group, matrix):
            continue
        clip = next((clip for clip in clips if clip.matches(matrix)), None)
        _rewrite(group, matrix, clip.rect if clip is not None else None)
    _crisp_images(root)
    body: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=False)
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body
