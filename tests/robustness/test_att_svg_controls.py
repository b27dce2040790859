"""Control characters in op names and log tags never make an SVG invalid XML.

Issue 30, item 13: raw control characters in op names or log tags made perf_formula.svg (and the graph
pictures written by the same writer, core/render/svg.py) invalid XML. Characters XML 1.0 forbids are now
written as visible `\\x1b`-style escapes; everything else keeps its text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from autofuse_studio.cli.att import main
from autofuse_studio.core.render.display import Group, Polyline, Rect, Text
from autofuse_studio.core.render.svg import display_list_to_svg

FORBIDDEN = "".join(chr(code) for code in range(0x20) if chr(code) not in "\t\n\r") + "\ud800\udfff\ufffe\uffff"
SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # raises on invalid XML
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def test_the_writer_escapes_what_xml_forbids_in_text_titles_and_attributes() -> None:
    name = f"op{FORBIDDEN}<&>\"'\r\tend"
    items = [Group(0, 0, (Text(1, 2, name, fill="#000"), Rect(0, 0, 5, 5, title=name, role=name),
                          Polyline(((0, 0), (5, 5)), title=name, arrow=True)))]
    svg = display_list_to_svg(items, 10, 10)
    svg.encode("utf-8")  # lone surrogates could not even be written to the file
    texts = _texts(svg)
    assert texts == ["op\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\x0b\\x0c\\x0e\\x0f\\x10\\x11\\x12\\x13\\x14"
                     "\\x15\\x16\\x17\\x18\\x19\\x1a\\x1b\\x1c\\x1d\\x1e\\x1f\\ud800\\udfff\\ufffe\\uffff<&>\"'\r\tend"]
    titles = ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}title")]
    assert titles == [texts[0], texts[0]]


def test_perf_formula_svg_with_control_characters_in_names_is_valid_xml(tmp_path: Path) -> None:
    op, pipe, node = "Op\x1b\x01\x7f\u202eX", "AIV\x01MTE2", "Load\x00_0"  # a tag holds no brackets
    log = tmp_path / "p.log"
    log.write_text("".join([
        f"[{op}] [PROF]Among all schedule results, graph0_result0 is the best choice.\n",
        f"[{op}] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.\n",
        f"[{op}] [PERF][graph0_result0_g0_0] {node}[Lo\x02ad]: {pipe} = (a\x03=1 + b=2) = 3\n",
        f"[{op}] [PERF][graph0_result0_g0_1] {node}[Load]: {pipe} = (a=3 + b=2) = 5\n",
    ]), encoding="utf-8")
    source = tmp_path / "src"
    source.mkdir()
    out = tmp_path / "out"
    assert main(["perf-formula", str(source), str(log), "-o", str(out), "--case", "c=0,1"]) == 0
    texts = _texts((out / "perf_formula.svg").read_text(encoding="utf-8"))
    assert "Op\\x1b\\x01\x7f\u202eX" in texts  # DEL and bidi controls are valid XML: kept
    assert any(text.startswith("AIV\\x01MTE2 = ") for text in texts)
