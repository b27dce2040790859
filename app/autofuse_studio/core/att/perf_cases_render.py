"""The GUI's per-operator perf picture: every case of a group side by side, pipelines on a common scale.

Same visual language as perf_render (bottleneck red, contributions blue, sensitivity orange, selected
case blue with a star) and the same display-list items, so Qt draws it and SVG writes it identically.
Hotspots map areas of the picture back to cases and formulas for hover and click.
"""

from __future__ import annotations

from dataclasses import dataclass

from autofuse_studio.core.att.case_details import node_formula
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.perf_model import PerfCase, PerfGroup, PerfOperator
from autofuse_studio.core.att.perf_render import BOTTLENECK, CONTRIBUTION, SELECTED, SENSITIVITY
from autofuse_studio.core.messages import PERF_CANVAS, phrase
from autofuse_studio.core.render.display import DisplayItem, Group, Rect, Text

MIN_WIDTH = 900
MARGIN = 20
GAP = 14
LINE = 18
HEADER = 48
BAR_ROOM = 110  # the longest bar of a column
# The widest advance of a 12 px monospace glyph (DejaVu Sans Mono 7.2 px, Courier/Liberation 7.2, Menlo 7.2):
# label and value columns are sized from it, so no bar is ever drawn over a label or its value.
CHAR_W = 7.5
MAX_LABEL_CHARS = 24  # longer term names are cut (the hover shows the whole formula)
PIPE = "#7a8fa6"


@dataclass(frozen=True)
class ColumnLayout:
    """Where the labels, bars and values of one case column go (sized from the operator's texts)."""

    label_w: float  # from the column's left edge to where bars start
    value_w: float  # room right of the longest bar for its value
    width: float

    def room(self) -> float:
        """The longest bar."""
        return self.width - self.label_w - self.value_w


def _value_texts(op: PerfOperator) -> list[str]:
    texts = ["100.0%"]
    for group in op.groups:
        for case in group.cases:
            texts += [f"{total:.2f}" for total in pipe_totals(case).values()]
        if group.sensitivity is not None:
            texts += [f"{value:g}" for _, value in group.sensitivity.values if value is not None]
    return texts


def column_layout(op: PerfOperator) -> ColumnLayout:
    """Label column as wide as the longest pipe or term name (indented terms count 1 more), values likewise."""
    names = [len(node.pipe) for g in op.groups for c in g.cases for node in c.nodes]
    names += [min(len(item.name), MAX_LABEL_CHARS) + 1 for g in op.groups for c in g.cases for node in c.nodes
              for item in node.items]
    label_w = 8 + max([6, *names]) * CHAR_W + 8
    value_w = 4 + max(len(text) for text in _value_texts(op)) * CHAR_W + 8
    return ColumnLayout(label_w, value_w, label_w + BAR_ROOM + value_w)


def term_label(name: str) -> str:
    """A term name as drawn left of its bar: cut with '…' past MAX_LABEL_CHARS."""
    return name if len(name) <= MAX_LABEL_CHARS else name[: MAX_LABEL_CHARS - 1] + "…"


@dataclass(frozen=True)
class Hotspot:
    """An area of the picture: kind "pipe", "node" or "case", the case it belongs to and a hover text."""

    x: float
    y: float
    width: float
    height: float
    kind: str
    key: CaseKey
    text: str

    def contains(self, x: float, y: float) -> bool:
        """True when (x, y) lies inside the area."""
        return self.x <= x <= self.x + self.width and self.y <= y <= self.y + self.height


@dataclass
class OperatorPicture:
    """Display list, size and hotspots (most specific first) of one operator."""

    items: list[DisplayItem]
    width: int
    height: int
    hotspots: list[Hotspot]

    def hotspot_at(self, x: float, y: float, kind: str | None = None) -> Hotspot | None:
        """The most specific hotspot under (x, y), optionally of one kind."""
        return next((h for h in self.hotspots if h.contains(x, y) and kind in (None, h.kind)), None)


def pipe_totals(case: PerfCase) -> dict[str, float]:
    """Per pipe the summed node totals of the case (a pipe can carry several nodes)."""
    totals: dict[str, float] = {}
    for node in case.nodes:
        totals[node.pipe] = totals.get(node.pipe, 0.0) + node.total
    return totals


def group_pipes(group: PerfGroup) -> list[str]:
    """The pipes of every case of the group, in first-seen order (one bar row each)."""
    return list(dict.fromkeys(node.pipe for case in group.cases for node in case.nodes))


class _Painter:
    """Accumulates items and hotspots while the layout walks the model."""

    def __init__(self, layout: ColumnLayout, language: str) -> None:
        self.layout, self.language = layout, language
        self.items: list[DisplayItem] = []
        self.hot: list[Hotspot] = []
        self.frames: list[Hotspot] = []  # case frames last: least specific

    def text(self, key: str, **params: object) -> str:
        """A canvas caption in the painter's language (core/messages.py PERF_CANVAS)."""
        return (phrase(PERF_CANVAS, key, self.language) or key).format(**params)

    def bar(self, x: float, y: float, width: float, fill: str, role: str) -> None:
        self.items.append(Rect(x, y - 11, max(1.0, width), 13, fill=fill, opacity=0.8, role=role))


def _pipe_rows(p: _Painter, group: PerfGroup, case: PerfCase, x: float, y: float, scale: float) -> float:
    layout = p.layout
    totals = pipe_totals(case)
    for pipe in group_pipes(group):
        y += LINE
        p.items.append(Text(x + 8, y, pipe, fill="#333", role="pipe-label"))
        if pipe not in totals:
            p.items.append(Text(x + layout.label_w, y, "—", fill="#888", role="pipe-value"))
            continue
        hot = pipe == case.bottleneck_pipe
        width = totals[pipe] / scale * layout.room() if scale > 0 else 0.0
        p.bar(x + layout.label_w, y, width, BOTTLENECK if hot else PIPE, "bottleneck-bar" if hot else "pipe-bar")
        p.items.append(Text(x + layout.label_w + max(1.0, width) + 4, y, f"{totals[pipe]:.2f}",
                            fill=BOTTLENECK if hot else "#222", role="pipe-value"))
        formulas = "\n".join(node_formula(n) for n in case.nodes if n.pipe == pipe)
        p.hot.append(Hotspot(x + 4, y - 13, layout.width - 8, LINE, "pipe", case.key,
                             f"{case.key.label}  {pipe} = {totals[pipe]:g}\n{formulas}"))
    return y


def _node_rows(p: _Painter, case: PerfCase, x: float, y: float) -> float:
    layout = p.layout
    for index, node in enumerate(case.nodes):
        y += LINE + 4
        hot = index == case.bottleneck_index
        p.items.append(Text(x + 8, y, f"{node.node}: {node.pipe} {node.total:.2f}",
                            fill=BOTTLENECK if hot else "#333", role="bottleneck" if hot else "node"))
        top = y - 13
        for item in node.items:
            if item.value == 0:
                continue  # like the reference: a zero term has no bar
            y += LINE
            p.items.append(Text(x + 16, y, term_label(item.name), fill="#222", role="contribution-label"))
            width = item.contribution * layout.room()
            p.bar(x + layout.label_w, y, width, CONTRIBUTION, "contribution-bar")
            p.items.append(Text(x + layout.label_w + max(1.0, width) + 4, y, f"{item.contribution * 100:.1f}%",
                                fill="#222", role="contribution-value"))
        p.hot.append(Hotspot(x + 4, top, layout.width - 8, y - top + 4, "node", case.key,
                             f"{case.key.label}\n{node_formula(node)}"))
    return y


def _sensitivity_row(p: _Painter, group: PerfGroup, y: float) -> float:
    sens = group.sensitivity
    if sens is None:
        return y
    y += LINE + 6
    p.items.append(Text(MARGIN, y, p.text("sensitive", parameter=sens.parameter),
                        fill="#b85c00", role="sensitivity-title"))
    y += LINE
    largest = max((abs(v) for _, v in sens.values if v is not None), default=0.0) or 1.0
    layout = p.layout
    for index, (key, value) in enumerate(sens.values):
        x = MARGIN + index * (layout.width + GAP)
        if value is None:
            p.items.append(Text(x + 8, y, f"case{key.case}: {p.text('not_available')}", fill="#888",
                                role="sensitivity-value"))
            continue
        width = abs(value) / largest * (layout.width - layout.value_w - 8)
        p.bar(x + 8, y, width, SENSITIVITY, "sensitivity-bar")
        p.items.append(Text(x + 12 + max(1.0, width), y, f"{value:g}", fill="#222", role="sensitivity-value"))
        p.hot.append(Hotspot(x + 4, y - 13, layout.width - 8, LINE, "sensitivity", key,
                             f"{key.label}  {sens.node}.{sens.item} = {value:g}"))
    return y


def _group_block(p: _Painter, group: PerfGroup, y: float) -> float:
    chosen = (p.text("chosen_none") if group.selected_case is None
              else p.text("chosen_case", case=group.selected_case))
    label = f"graph{group.graph}_result{group.result}_g{group.group}"
    p.items.append(Text(MARGIN, y + 16, p.text("group", label=label, count=len(group.cases), chosen=chosen),
                        font_size=13, fill="#222", role="group-label"))
    top = y + 26
    scale = max((t for case in group.cases for t in pipe_totals(case).values()), default=0.0)
    bottom = top
    frames: list[tuple[int, PerfCase, int]] = []
    column = p.layout.width
    for index, case in enumerate(group.cases):
        x = MARGIN + index * (column + GAP)
        frame_at = len(p.items)
        title_y = top + 16
        p.items.append(Text(x + 8, title_y, f"case{case.key.case}{' ★' if case.selected else ''}",
                            fill=SELECTED if case.selected else "#333",
                            role="selected-case" if case.selected else "case-title"))
        end = _node_rows(p, case, x, _pipe_rows(p, group, case, x, title_y, scale))
        bottom = max(bottom, end + 8)
        frames.append((index, case, frame_at))
    for offset, (index, case, frame_at) in enumerate(frames):
        x = MARGIN + index * (column + GAP)
        frame = Rect(x, top, column, bottom - top, fill="#fbfcfd", stroke=SELECTED if case.selected else "#d0d7de",
                     corner_radius=4, role="selected-case-frame" if case.selected else "case-frame")
        p.items.insert(frame_at + offset, frame)  # behind the column's own items
        p.frames.append(Hotspot(x, top, column, bottom - top, "case", case.key,
                                p.text("click_for_details", label=case.key.label)))
    return _sensitivity_row(p, group, bottom) + 16


def operator_picture(op: PerfOperator, language: str = "en") -> OperatorPicture:
    """Lay out one operator: header, then per group the case columns and the sensitivity row, captions in `language`."""
    columns = max((len(g.cases) for g in op.groups), default=1)
    layout = column_layout(op)
    width = max(MIN_WIDTH, 2 * MARGIN + columns * layout.width + (columns - 1) * GAP)
    p = _Painter(layout, language)
    p.items += [Rect(0, 0, width, HEADER - 8, fill="#f0f4f8", corner_radius=4, role="section-header"),
                Text(MARGIN, 18, op.name, font_size=16, fill="#1a1a1a", role="operator-name")]
    if op.selected is not None:
        s = op.selected
        label = f"graph{s.graph}_result{s.result}_g{s.group}_case{s.case}"
        p.items.append(Text(MARGIN, 34, p.text("selected", label=label),
                            fill="#555", role="selected-label"))
    p.items.append(Text(width - MARGIN, 18, p.text("legend"),
                        fill="#666", anchor="end", font_size=11, role="legend"))
    y: float = HEADER
    for group in op.groups:
        y = _group_block(p, group, y)
    items: list[DisplayItem] = [Group(0, 0, p.items, role="operator-cases")]
    return OperatorPicture(items, int(width), int(y + MARGIN), p.hot + p.frames)
