"""Node boxes rasterised with numpy: the minimap's thumbnail and the far-zoomed-out view of a huge graph.

Painting 100k boxes one by one through QPainter takes about a second; at a few pixels per box the picture
is a coloured pixel grid anyway, so it is computed here as an RGBA array (no Qt) in a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["OVERVIEW_NODES", "THUMBNAIL_BOX", "Overview", "Thumbnail", "fill_codes", "overview", "raster_boxes",
           "raster_lines", "thumbnail"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Rgba = NDArray[np.uint8]

MAX_PIXELS = 4_000_000  # boxes covering more pixels than this in total are drawn at their top-left pixel only
LINE_SAMPLES = 300_000  # at most this many points sample the lines of one picture
OVERVIEW_NODES = 3000  # graphs with more nodes get an overview picture (and far views drawn by numpy)
OVERVIEW_PIXELS = 4_000_000  # the whole-graph picture of a big graph (16 MB), drawn scaled at far zooms
OVERVIEW_SCALE = 1 / 16  # ... at most this many pixels per scene unit
OVERVIEW_SIDE = 30_000  # ... and this many pixels along its longer side
OVERVIEW_SAMPLES = 600_000  # points sampling its edges (0.2 s on a worker; a hairball turns dotted)
THUMBNAIL_BOX = (120, 80)  # the minimap's picture takes the graph's shape inside this many pixels
THUMBNAIL_BACKGROUND = (250, 250, 250, 230)


def fill_codes(fills: list[str], count: int, missing: str = "#999999") -> tuple[IntArray, Rgba]:
    """(palette index per node, palette as opaque RGBA rows) for `count` nodes coloured `#rrggbb`."""
    palette: dict[str, int] = {}
    codes = np.fromiter((palette.setdefault(fills[node] if node < len(fills) else missing, len(palette))
                         for node in range(count)), dtype=np.int64, count=count)
    colours = np.zeros((max(len(palette), 1), 4), dtype=np.uint8)
    for fill, index in palette.items():
        colours[index] = (int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16), 255)
    return codes, colours


def raster_lines(image: Rgba, start: FloatArray, end: FloatArray, colour: tuple[int, int, int, int],
                 budget: int = LINE_SAMPLES) -> None:
    """Draw line segments (pixel coordinates, shape (N, 2)) into `image` by sampling them about once a pixel.

    Past `budget` samples in all, every segment gets proportionally fewer (a far-zoomed hairball turns
    dotted rather than slow).
    """
    height, width = image.shape[:2]
    if not len(start) or width <= 0 or height <= 0:
        return
    length = np.abs(end - start).max(axis=1)
    samples = np.maximum(np.ceil(length), 1).astype(np.int64)  # a sub-pixel segment is its first pixel
    total = int(samples.sum())
    if total > budget:
        samples = np.maximum((samples * (budget / total)).astype(np.int64), 1)
    owner = np.repeat(np.arange(len(start)), samples)
    step = np.arange(int(samples.sum())) - np.repeat(np.cumsum(samples) - samples, samples)
    t = step / samples[owner]
    xy = start[owner] + (end - start)[owner] * t[:, None]
    px, py = np.floor(xy[:, 0]).astype(np.int64), np.floor(xy[:, 1]).astype(np.int64)
    inside = (px >= 0) & (px < width) & (py >= 0) & (py < height)
    image[py[inside], px[inside]] = colour


def raster_boxes(x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray, codes: IntArray, colours: Rgba,
                 size: tuple[int, int], background: tuple[int, int, int, int],
                 under: Rgba | None = None) -> Rgba:
    """An (height, width, 4) premultiplied RGBA image of boxes given in pixel coordinates.

    Every box covers at least one pixel (a thumbnail of 100k nodes must still show each of them); where
    boxes share a pixel the later one (higher index, painted last) wins, as with a painter. `under`, when
    given, is the picture to draw on (of this size) instead of a new one filled with `background`.
    """
    width, height = size
    alpha = background[3]
    if under is not None:
        image = under
    else:
        image = np.empty((height, width, 4), dtype=np.uint8)
        image[:, :] = [round(c * alpha / 255) for c in background[:3]] + [alpha]
    if not len(x0) or width <= 0 or height <= 0:
        return image
    px0 = np.clip(np.floor(x0), 0, width - 1).astype(np.int64)
    py0 = np.clip(np.floor(y0), 0, height - 1).astype(np.int64)
    px1 = np.clip(np.maximum(np.ceil(x1), px0 + 1), 1, width).astype(np.int64)
    py1 = np.clip(np.maximum(np.ceil(y1), py0 + 1), 1, height).astype(np.int64)
    keep = (x1 >= 0) & (y1 >= 0) & (x0 <= width) & (y0 <= height)
    ids = np.flatnonzero(keep)
    px0, py0, px1, py1 = px0[ids], py0[ids], px1[ids], py1[ids]
    spans_x, spans_y = px1 - px0, py1 - py0
    area = spans_x * spans_y
    if int(area.sum()) > MAX_PIXELS:
        spans_x, spans_y, area = np.ones_like(spans_x), np.ones_like(spans_y), np.ones_like(area)
    # Every box expanded into its pixels; the highest box id per pixel is the one drawn on top.
    owner = np.repeat(ids, area)
    local = np.arange(int(area.sum())) - np.repeat(np.cumsum(area) - area, area)
    width_of = np.repeat(spans_x, area)
    pixel = (np.repeat(py0, area) + local // width_of) * width + np.repeat(px0, area) + local % width_of
    top = np.full(width * height, -1, dtype=np.int64)
    np.maximum.at(top, pixel, owner)
    drawn = np.flatnonzero(top >= 0)
    image.reshape(-1, 4)[drawn] = colours[codes[top[drawn]]]
    return image


@dataclass
class Thumbnail:
    """The node boxes inside THUMBNAIL_BOX (a border of one pixel left), `scale` pixels per scene unit: the
    minimap's picture."""

    pixels: Rgba
    scale: float


def thumbnail(x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray, codes: IntArray, colours: Rgba,
              size: tuple[float, float]) -> Thumbnail:
    """Node boxes (scene coordinates, palette codes) of a scene of `size` at the scale that fits THUMBNAIL_BOX."""
    width, height = size
    scale = min((THUMBNAIL_BOX[0] - 2) / max(width, 1.0), (THUMBNAIL_BOX[1] - 2) / max(height, 1.0))
    shape = (max(int(width * scale), 1), max(int(height * scale), 1))
    pixels = raster_boxes(x0 * scale, y0 * scale, x1 * scale, y1 * scale, codes, colours, shape, THUMBNAIL_BACKGROUND)
    return Thumbnail(pixels, scale)


@dataclass
class Overview:
    """The whole graph as one picture, `scale` pixels per scene unit: what a far zoom draws, scaled; with the
    minimap's thumbnail of the same colours (made with it on the worker: 10-20 ms of numpy at 100k nodes)."""

    pixels: Rgba
    scale: float
    thumbnail: Thumbnail | None = None


def overview(x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray, codes: IntArray, colours: Rgba,
             lines: tuple[FloatArray, FloatArray], size: tuple[float, float],
             edge: tuple[int, int, int, int]) -> Overview:
    """Nodes (scene boxes, palette codes) over edges (scene segments) at up to OVERVIEW_PIXELS pixels."""
    width, height = max(size[0], 1.0), max(size[1], 1.0)
    scale = min(OVERVIEW_SCALE, (OVERVIEW_PIXELS / (width * height)) ** 0.5, OVERVIEW_SIDE / max(width, height))
    shape = (max(int(width * scale), 1), max(int(height * scale), 1))
    pixels = np.zeros((shape[1], shape[0], 4), dtype=np.uint8)
    raster_lines(pixels, lines[0] * scale, lines[1] * scale, edge, OVERVIEW_SAMPLES)
    raster_boxes(x0 * scale, y0 * scale, x1 * scale, y1 * scale, codes, colours, shape, (0, 0, 0, 0), under=pixels)
    return Overview(pixels, scale, thumbnail(x0, y0, x1, y1, codes, colours, size))
