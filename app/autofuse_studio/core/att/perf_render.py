"""Lays out the perf-formula model as a display list in the reference's visual language.

One section per operator (title, selected case), groups in up to 3 columns (2 from 4 groups on),
each row placed below the tallest group of the previous row so nothing overlaps. Unlike the reference,
bars start right of their label and percentage (the reference drew them over the percentages), the
bottleneck is a drawn red dot (its 🔴 emoji is an empty box without a colour-emoji font), and the
header's separator runs under "Selected: …" instead of through it.
"""

from __future__ import annotations

from autofuse_studio.core.att.perf_model import PerfFormulaModel, PerfGroup, PerfOperator
from autofuse_studio.core.render.display import DisplayItem, Group, Line, Rect, Text

WIDTH = 900
MARGIN = 20
GAP = 16
HEADER_HEIGHT = 40
SELECTED_Y = 33  # baseline of "Selected: …": its descenders end above the separator
SEPARATOR_Y = 38
# The widest advance of a 12 px monospace glyph in common fonts (7.2 px): text extents are estimated with it.
CHAR_W = 7.5
NAME_CHARS = 16  # the reference's name column; longer names widen the group's label column
MARKER = 9  # diameter of the bottleneck dot
ROW_GAP = 16
LINE = 20
BOTTLENECK = "red"
CONTRIBUTION = "#4a90d9"
SENSITIVITY = "#e07b39"
SELECTED = "#1a6fb5"


def column_count(groups: int) -> int:
    """1-3 groups side by side; from 4 groups on, two columns."""
    return groups if groups <= 3 else 2


def _case_tabs(group: PerfGroup, x: int, y: int) -> list[DisplayItem]:
    items: list[DisplayItem] = []
    for case in group.cases:
        label = f"[case{case.key.case}{'★' if case.selected else ''}]"
        items.append(Text(x, y, label, fill=SELECTED if case.selected else "#888",
                          role="selected-case" if case.selected else "case-tab"))
        x += len(label) * 7 + 4
    return items


def text_width(text: str) -> float:
    """A generous estimate of a 12 px monospace text's width (no font metrics in core)."""
    return len(text) * CHAR_W


def _bottleneck_marker(x: float, baseline: float) -> Rect:
    """A red dot (a fully rounded square: SVG and Qt draw it the same, no emoji font needed)."""
    return Rect(x, baseline - MARKER - 1, MARKER, MARKER, fill=BOTTLENECK, corner_radius=MARKER / 2,
                role="bottleneck-marker")


def _nodes(group: PerfGroup, x: int, y: int, col_w: int) -> tuple[list[DisplayItem], int]:
    items: list[DisplayItem] = []
    case = group.shown_case
    shown_items = [[item for item in node.items if item.value != 0] for node in case.nodes]
    name_chars = max([NAME_CHARS, *(len(item.name) for shown in shown_items for item in shown)])
    label_chars = name_chars + 1 + len("100.0%")
    bar_x = x + 4 + round(label_chars * CHAR_W) + 8  # right of the percentage, never over it
    bar_room = max(col_w - (bar_x - x) - 4, 10)
    height = 0
    for index, node in enumerate(case.nodes):
        top = y + height + 12
        hot = index == case.bottleneck_index
        title = f"{node.pipe} = {node.total:.2f}"
        items.append(Text(x + 4, top, title, fill=BOTTLENECK if hot else "#333", role="bottleneck" if hot else "node"))
        if hot:
            items.append(_bottleneck_marker(x + 4 + text_width(title) + 6, top))
        for row, item in enumerate(shown_items[index], start=1):
            line_y = top + row * LINE
            items.append(Text(x + 4, line_y, f"{item.name:<{name_chars}} {item.contribution * 100:.1f}%",
                              fill="#222", role="contribution-label"))
            items.append(Rect(bar_x, line_y - 12, max(1, int(item.contribution * bar_room)), 14,
                              fill=CONTRIBUTION, opacity=0.7, role="contribution-bar"))
        height += LINE + LINE * len(shown_items[index]) + 4 + 4
    return items, height


def _sensitivity(group: PerfGroup, x: int, y: int, col_w: int) -> tuple[list[DisplayItem], int]:
    sens = group.sensitivity
    if sens is None:
        return [], 0
    items: list[DisplayItem] = [Text(x, y + 12, f"敏感参数: {sens.parameter}（跨 case 方差最大）",
                                     fill="#b85c00", role="sensitivity-title")]
    largest = max((abs(v) for _, v in sens.values if v is not None), default=0.0) or 1.0
    for row, (key, value) in enumerate(sens.values, start=1):
        line_y = y + 12 + row * LINE
        items.append(Text(x, line_y, f"case{key.case}", fill="#222", role="sensitivity-label"))
        if value is None:
            items.append(Text(x + 55, line_y, "n/a", fill="#888", role="sensitivity-value"))
            continue
        width = int(abs(value) / largest * (col_w - 80))
        items.append(Rect(x + 50, line_y - 12, width, 14, fill=SENSITIVITY, opacity=0.7,
                          role="sensitivity-bar"))
        items.append(Text(x + 55 + width, line_y, f"{value:.2f}", fill="#222", role="sensitivity-value"))
    return items, LINE + LINE * len(sens.values)


def group_block(group: PerfGroup, label: str, x: int, y: int, col_w: int) -> tuple[list[DisplayItem], int]:
    """The items of one group and its height: label, case tabs, nodes, sensitivity bars."""
    items: list[DisplayItem] = [Text(x, y + 12, label, font_size=13, fill="#222", role="group-label")]
    items += _case_tabs(group, x, y + 36)
    height = 52
    node_items, node_height = _nodes(group, x, y + height, col_w)
    items += node_items
    height += node_height
    sens_items, sens_height = _sensitivity(group, x, y + height, col_w)
    return items + sens_items, height + sens_height


def operator_section(op: PerfOperator) -> tuple[list[DisplayItem], int]:
    """The items of one operator section and its height."""
    items: list[DisplayItem] = [
        Rect(0, 0, WIDTH, HEADER_HEIGHT, fill="#f0f4f8", corner_radius=4, role="section-header"),
        Text(MARGIN, 18, op.name, font_size=16, fill="#1a1a1a", role="operator-name"),
    ]
    if op.selected is not None:
        s = op.selected
        items.append(Text(MARGIN, SELECTED_Y, f"Selected: graph{s.graph}_result{s.result}_g{s.group}_case{s.case}",
                          fill="#555", role="selected-label"))
    items.append(Line(MARGIN, SEPARATOR_Y, WIDTH - MARGIN, SEPARATOR_Y, stroke="#ccc", role="separator"))
    columns = column_count(len(op.groups))
    col_w = (WIDTH - 2 * MARGIN - GAP * (columns - 1)) // columns
    several_results = len({(g.graph, g.result) for g in op.groups}) > 1
    row_y, row_height = HEADER_HEIGHT, 0
    for index, group in enumerate(op.groups):
        if index and index % columns == 0:
            row_y, row_height = row_y + row_height + ROW_GAP, 0
        x = MARGIN + (index % columns) * (col_w + GAP)
        label = (f"graph{group.graph}_result{group.result}_g{group.group}" if several_results
                 else f"group{group.group}")
        block, height = group_block(group, label, x, row_y, col_w)
        items += block
        row_height = max(row_height, height)
    return items, row_y + row_height + 40


def perf_display_list(model: PerfFormulaModel) -> tuple[list[DisplayItem], int, int]:
    """The whole picture: (items, width, height); sections stacked vertically."""
    items: list[DisplayItem] = []
    y = 0
    for op in model.operators:
        section, height = operator_section(op)
        items.append(Group(0, y, [Group(items=section, role="operator-section")]))
        y += height
    return items, WIDTH, y
