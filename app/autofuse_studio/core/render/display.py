"""Display lists: positioned shapes and text with colours and a semantic role, drawn by SVG or Qt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias


@dataclass(frozen=True)
class Rect:
    """A filled rectangle; `role` names what it shows (e.g. "contribution-bar")."""

    x: float
    y: float
    width: float
    height: float
    fill: str = "none"
    stroke: str | None = None
    opacity: float | None = None
    corner_radius: float | None = None
    role: str = ""
    title: str = ""  # hover text (an SVG <title> child; a tooltip in Qt)
    stroke_width: float | None = None  # None: 1


@dataclass(frozen=True)
class Line:
    """A straight line segment."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000"
    role: str = ""


@dataclass(frozen=True)
class Polyline:
    """An open polyline (graph edges), optionally dashed and ending in an arrow head."""

    points: tuple[tuple[float, float], ...]
    stroke: str = "#000"
    width: float = 1
    arrow: bool = False
    dashed: bool = False
    role: str = ""
    title: str = ""  # hover text


@dataclass(frozen=True)
class Text:
    """Text whose baseline starts at (x, y); kept as text (searchable, selectable) in every backend."""

    x: float
    y: float
    text: str
    font_size: float = 12
    fill: str = "#000"
    anchor: str = "start"
    font_family: str = "monospace"
    role: str = ""


@dataclass
class Group:
    """Items translated by (x, y); `role` tags the whole group (e.g. "operator-section")."""

    x: float = 0
    y: float = 0
    items: list[DisplayItem] = field(default_factory=list)
    role: str = ""


DisplayItem: TypeAlias = Rect | Line | Polyline | Text | Group


def walk(items: list[DisplayItem], dx: float = 0, dy: float = 0) -> list[tuple[DisplayItem, float, float]]:
    """Every leaf item with the absolute offset of its parent groups (for hit tests and tests)."""
    leaves: list[tuple[DisplayItem, float, float]] = []
    for item in items:
        if isinstance(item, Group):
            leaves += walk(item.items, dx + item.x, dy + item.y)
        else:
            leaves.append((item, dx, dy))
    return leaves
