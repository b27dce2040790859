"""SVG writer for display lists: rects, lines, polylines and <text> elements inside translated groups."""

from __future__ import annotations

import math
import re
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

from autofuse_studio.core.render.display import DisplayItem, Group, Line, Polyline, Rect, Text

# What XML 1.0 forbids (C0 controls but TAB, LF and CR; lone surrogates; U+FFFE, U+FFFF): an op name or log
# tag holding one made the whole SVG unreadable. Shown as `\x1b` / `\ud800` escapes, like the console does.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def xml_safe(text: str) -> str:
    """`text` with the characters XML 1.0 forbids replaced by visible escapes (everything else unchanged)."""
    return _NOT_XML.sub(_visible, text)


def escape(text: str) -> str:
    """Text content for the SVG: XML-escaped, forbidden characters as visible escapes, CR kept as `&#13;`."""
    return _escape(xml_safe(text), {"\r": "&#13;"})


def quoteattr(text: str) -> str:
    """An attribute value in quotes: XML-escaped, forbidden characters as visible escapes."""
    return _quoteattr(xml_safe(text))


def _num(value: float) -> str:
    """Integers without a decimal point, other numbers with at most 2 decimals."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _role(role: str) -> str:
    return f" class={quoteattr(role)}" if role else ""


def _rect(item: Rect) -> str:
    parts = [f'<rect x="{_num(item.x)}" y="{_num(item.y)}" width="{_num(item.width)}" '
             f'height="{_num(item.height)}" fill={quoteattr(item.fill)}']
    if item.stroke:
        parts.append(f" stroke={quoteattr(item.stroke)}")
        if item.stroke_width is not None:
            parts.append(f' stroke-width="{_num(item.stroke_width)}"')
    if item.opacity is not None:
        parts.append(f' opacity="{item.opacity}"')
    if item.corner_radius is not None:
        parts.append(f' rx="{_num(item.corner_radius)}"')
    if item.title:
        return "".join(parts) + _role(item.role) + f"><title>{escape(item.title)}</title></rect>"
    return "".join(parts) + _role(item.role) + "/>"


def _line(item: Line) -> str:
    return (f'<line x1="{_num(item.x1)}" y1="{_num(item.y1)}" x2="{_num(item.x2)}" y2="{_num(item.y2)}" '
            f"stroke={quoteattr(item.stroke)}{_role(item.role)}/>")


ARROW_LENGTH = 7.0
ARROW_HALF_WIDTH = 3.5


def arrow_head(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    """The three corners of an arrow head at the last point, pointing along the last segment."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * ARROW_LENGTH, y2 - uy * ARROW_LENGTH
    return ((x2, y2), (bx - uy * ARROW_HALF_WIDTH, by + ux * ARROW_HALF_WIDTH),
            (bx + uy * ARROW_HALF_WIDTH, by - ux * ARROW_HALF_WIDTH))


def _points(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _polyline(item: Polyline) -> str:
    dash = ' stroke-dasharray="4 3"' if item.dashed else ""
    width = f' stroke-width="{_num(item.width)}"' if item.width != 1 else ""
    parts = [f"<g{_role(item.role)}>"]
    if item.title:
        parts.append(f"<title>{escape(item.title)}</title>")
    stroke = quoteattr(item.stroke)
    parts.append(f'<polyline points="{_points(item.points)}" fill="none" stroke={stroke}{width}{dash}/>')
    if item.arrow and len(item.points) >= 2:
        parts.append(f'<polygon points="{_points(arrow_head(item.points))}" fill={quoteattr(item.stroke)}/>')
    parts.append("</g>")
    return "".join(parts)


def _text(item: Text) -> str:
    return (f'<text x="{_num(item.x)}" y="{_num(item.y)}" font-size="{_num(item.font_size)}" '
            f"fill={quoteattr(item.fill)} text-anchor={quoteattr(item.anchor)} "
            f"font-family={quoteattr(item.font_family)}{_role(item.role)}>{escape(item.text)}</text>")


def _emit(item: DisplayItem, out: list[str]) -> None:
    if isinstance(item, Group):
        out.append(f'<g transform="translate({_num(item.x)},{_num(item.y)})"{_role(item.role)}>')
        for child in item.items:
            _emit(child, out)
        out.append("</g>")
    elif isinstance(item, Rect):
        out.append(_rect(item))
    elif isinstance(item, Line):
        out.append(_line(item))
    elif isinstance(item, Polyline):
        out.append(_polyline(item))
    else:
        out.append(_text(item))


def display_list_to_svg(items: list[DisplayItem], width: float, height: float) -> str:
    """A standalone SVG document drawing `items` on a `width` x `height` canvas."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}">']
    for item in items:
        _emit(item, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"
