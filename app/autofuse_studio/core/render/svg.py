"""SVG writer for display lists: rects, lines and <text> elements inside translated groups."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from autofuse_studio.core.render.display import DisplayItem, Group, Line, Rect, Text


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
    if item.opacity is not None:
        parts.append(f' opacity="{item.opacity}"')
    if item.corner_radius is not None:
        parts.append(f' rx="{_num(item.corner_radius)}"')
    return "".join(parts) + _role(item.role) + "/>"


def _line(item: Line) -> str:
    return (f'<line x1="{_num(item.x1)}" y1="{_num(item.y1)}" x2="{_num(item.x2)}" y2="{_num(item.y2)}" '
            f"stroke={quoteattr(item.stroke)}{_role(item.role)}/>")


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
    else:
        out.append(_text(item))


def display_list_to_svg(items: list[DisplayItem], width: float, height: float) -> str:
    """A standalone SVG document drawing `items` on a `width` x `height` canvas."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}">']
    for item in items:
        _emit(item, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"
