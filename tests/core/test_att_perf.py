"""perf-formula: bottleneck, sensitivity paired with the right cases, layout and SVG."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autofuse_studio.core.att.case_filter import parse_case_filter
from autofuse_studio.core.att.perf_model import build_perf_model
from autofuse_studio.core.att.perf_output import perf_svg, write_perf_outputs
from autofuse_studio.core.att.perf_render import perf_display_list, text_width
from autofuse_studio.core.att.scanner import scan_file
from autofuse_studio.core.render.display import Line, Rect, Text, walk
from tests.conftest import samples_dir


def _perf_line(group: int, case: int, node: str, pipe: str, terms: str) -> str:
    return f"[Op] [PERF][graph0_result0_g{group}_R{case}] {node}[X]: {pipe} = {terms}"


def test_sensitivity_bars_pair_with_their_cases(tmp_path: Path) -> None:
    log = tmp_path / "p.log"
    lines = [
        _perf_line(0, 0, "Load", "AIV_MTE2", "(k=10 + c=1) = 11"),
        _perf_line(0, 1, "Store", "AIV_MTE3", "(c=1) = 1"),  # case 1 has no Load.k at all
        _perf_line(0, 1, "Load", "AIV_MTE2", "(k=30 + c=1) = 31"),
        _perf_line(0, 2, "Load", "AIV_MTE2", "(k=20 + c=1) = 21"),
        "[Op] [PROF]Among the templates, tiling case 1 of graph0_result0_g0 is the best choice.",
    ]
    log.write_text("\n".join(lines) + "\n")
    model = build_perf_model([scan_file(log)], parse_case_filter("g=0"))
    group = model.operators[0].groups[0]
    assert [c.key.case for c in group.cases] == [0, 1, 2]
    assert group.cases[1].bottleneck_pipe == "AIV_MTE2"
    assert group.sensitivity is not None and group.sensitivity.parameter == "k"
    assert [(k.case, v) for k, v in group.sensitivity.values] == [(0, 10.0), (1, 30.0), (2, 20.0)]
    items, _, _ = perf_display_list(model)
    bars = [i for i, _, _ in walk(items) if isinstance(i, Rect) and i.role == "sensitivity-bar"]
    widths = [b.width for b in bars]
    assert widths[1] > widths[2] > widths[0]
    starred = [i.text for i, _, _ in walk(items) if isinstance(i, Text) and i.role == "selected-case"]
    assert starred == ["[case1★]"]


def test_groups_never_overlap(tmp_path: Path) -> None:
    log = tmp_path / "p.log"
    log.write_text("\n".join(_perf_line(g, 0, "N", "V", f"(a={g + 1}) = {g + 1}") for g in range(5)) + "\n")
    model = build_perf_model([scan_file(log)])
    items, _, height = perf_display_list(model)
    labels = [(x, y, i) for i, x, y in walk(items) if isinstance(i, Text) and i.role == "group-label"]
    positions = {(i.x + x, i.y + y) for x, y, i in labels}
    assert len(positions) == 5  # two columns, three rows: every group has its own place
    assert max(y for _, y in positions) < height


def test_all_zero_values_and_json(tmp_path: Path) -> None:
    log = tmp_path / "p.log"
    log.write_text("\n".join([_perf_line(0, 0, "N", "V", "(a=0) = 0"), _perf_line(0, 1, "N", "V", "(a=0) = 0")]))
    model = build_perf_model([scan_file(log)])
    assert model.operators[0].groups[0].sensitivity is None
    svg_path, json_path = write_perf_outputs(model, tmp_path / "out")
    assert svg_path.read_text().startswith("<svg")
    assert json.loads(json_path.read_text())["operators"][0]["name"] == "Op"


_TEXT = re.compile(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')
_BAR = re.compile(r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="14" fill="#4a90d9"')


@pytest.mark.samples
@pytest.mark.parametrize(("case", "reference"), [(None, "perf"), ("g=0", "perf_case_filter")])
def test_svg_matches_reference_geometry(case: str | None, reference: str) -> None:
    log = samples_dir("att", "synthetic", "perf_multi_case.log")
    expected = samples_dir("att", "reference-outputs", "perf_multi_case", reference, "perf_formula.svg")
    model = build_perf_model([scan_file(log)], parse_case_filter(case))
    ours, theirs = perf_svg(model), expected.read_text()
    # Differences on purpose (README, compatibility): every group's own template selection is starred,
    # "Selected: …" sits above the separator, the 🔴 emoji is a drawn dot, bars start right of the
    # percentages. Everything else — every text and where it is, the bars' proportions — is the same.
    def texts(svg: str) -> list[tuple[str, str, str]]:
        return [(x, "33" if text.startswith("Selected:") else y, text.replace(" 🔴", "").replace("★", ""))
                for x, y, text in _TEXT.findall(svg)]

    assert texts(ours) == texts(theirs)
    assert ours.count('class="bottleneck-marker"') == theirs.count("🔴") > 0
    ours_bars, their_bars = [float(w) for w in _BAR.findall(ours)], [float(w) for w in _BAR.findall(theirs)]
    assert len(ours_bars) == len(their_bars) > 0
    ratio = ours_bars[0] / their_bars[0]
    assert all(abs(a - b * ratio) <= 1.5 for a, b in zip(ours_bars, their_bars, strict=True))


def test_bars_never_cover_labels_and_the_separator_runs_under_selected(tmp_path: Path) -> None:
    log = tmp_path / "p.log"
    log.write_text("\n".join([_perf_line(0, 0, "Load", "AIV_MTE2", "(base_cycles=86 + a_very_long_term_name=14) = 100"),
                              "[Op] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice."]))
    items, _, _ = perf_display_list(build_perf_model([scan_file(log)]))
    leaves = [(leaf, x, y) for leaf, x, y in walk(items)]
    labels = [(leaf.x + x, leaf.y + y, leaf.text) for leaf, x, y in leaves
              if isinstance(leaf, Text) and leaf.role == "contribution-label"]
    bars = [(leaf.x + x, leaf.y + y) for leaf, x, y in leaves if isinstance(leaf, Rect) and leaf.role == "contribution-bar"]
    assert len(labels) == len(bars) == 2
    for (label_x, _, text), (bar_x, _) in zip(labels, bars, strict=True):
        assert label_x + text_width(text) <= bar_x  # the percentage ends before its bar starts
    marker = next(leaf for leaf, _, _ in leaves if isinstance(leaf, Rect) and leaf.role == "bottleneck-marker")
    title = next(leaf for leaf, _, _ in leaves if isinstance(leaf, Text) and leaf.role == "bottleneck")
    assert "🔴" not in title.text and marker.x >= title.x + text_width(title.text)
    selected = next(leaf for leaf, _, _ in leaves if isinstance(leaf, Text) and leaf.role == "selected-label")
    separator = next(leaf for leaf, _, _ in leaves if isinstance(leaf, Line) and leaf.role == "separator")
    assert selected.y + 3 < separator.y1  # descenders above the line
