"""report.md of `att analyze` stays text in a CommonMark renderer with HTML on, whatever logs put in names and lines.

Issue 30, defect 4: a CR in a cited line, an operator name or a log file name (`x\\n\\n<img onerror>.log`)
ended a code span and let raw `<script>` / `<img onerror>` out of report.md.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from autofuse_studio.core.att.runs.markdown import cell, code, plain

markdown_it = pytest.importorskip("markdown_it")

EVIL_OP = "Op\r\r<script>alert(1)</script>"
EVIL_FILE = "x\n\n<img src=x onerror=alert(2)>.log"
EVIL_VALUE = "<img/src=x/onerror=alert(3)>"
EVIL_PIPE = "<svg/onload=alert(4)>"
EVIL_LINE_TAIL = "\r\r<iframe src=javascript:alert(5)>\x1b[K"
# The tags report.md is made of; anything else came out of a log.
ALLOWED_TAGS = {"h1", "h2", "h3", "p", "ul", "ol", "li", "code", "table", "thead", "tbody", "tr", "th", "td"}


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def render(markdown: str) -> _Html:
    """CommonMark with raw HTML on, plus GFM tables and strikethrough (what GitHub and most viewers do)."""
    html = markdown_it.MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(markdown)
    parser = _Html()
    parser.feed(html)
    parser.close()
    return parser


def _lines(op: str, pipe: str, value_name: str, perf: float, case: int, tail: str = "", value: int = 7) -> str:
    label = f"graph0_result0_g0_{case}"
    return "".join([
        f"[{op}] [PROF]The value of {value_name} is {value + case} in {label}.{tail}\n",
        f"[{op}] [PROF]The objective value of the tiling data is 10 in {label}.\n",
        f"[{op}] [PERF][{label}] N_0[T]: {pipe} = a=1 = 1\n",
        f"[{op}] [PROF]Among the templates, tiling case {case} of graph0_result0_g0 is the best choice.\n",
        f"[{op}] The value of graph0_result0 is {perf}.{tail}\n",
        f"[{op}] [PROF]Among all schedule results, graph0_result0 is the best choice.\n",
    ])


def _hostile_run_root(root: Path) -> Path:
    default, pgo = root / "default", root / "pgo"
    default.mkdir(parents=True)
    pgo.mkdir()
    # Changed (another case, slower): causes and cited lines with hostile text on both sides.
    (default / EVIL_FILE).write_bytes(
        (_lines(EVIL_OP, "AIV_MTE2", EVIL_VALUE, 100, 0, EVIL_LINE_TAIL)
         + _lines("Same|`x`", EVIL_PIPE, "v*_[x](javascript:alert(6))_", 5, 0)).encode())
    (pgo / EVIL_FILE).write_bytes(
        (_lines(EVIL_OP, "AIV_MTE3", EVIL_VALUE, 125, 1, EVIL_LINE_TAIL)
         + _lines("Same|`x`", "AIV_VEC", "v*_[x](javascript:alert(6))_", 5, 0, value=9)).encode())
    return root


def test_report_md_renders_no_html_from_names_files_or_lines(tmp_path: Path) -> None:
    root = _hostile_run_root(tmp_path / "run")
    out = tmp_path / "out"
    assert main(["analyze", "--run-root", str(root), "--output", str(out), "--lang", "en"]) == 0
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "\r" not in markdown
    html = render(markdown)
    unexpected = [(tag, attrs) for tag, attrs in html.tags if tag not in ALLOWED_TAGS or attrs]
    assert unexpected == [], unexpected
    text = "".join(html.text)
    # Everything is still there, as text: controls as visible escapes.
    assert "Op\\x0d\\x0d<script>alert(1)</script>" in text
    assert "x\\x0a\\x0a<img src=x onerror=alert(2)>.log" in text
    assert EVIL_VALUE in text and EVIL_PIPE in text
    assert "<iframe src=javascript:alert(5)>" in text
    assert "v*_[x](javascript:alert(6))_" in text  # no emphasis, no link
    assert "Same|`x`" in text  # a pipe and backticks in a table cell's code span


@pytest.mark.parametrize("hostile", [
    "a\r\r<script>x</script>", "a\n\n<img src=x onerror=y>", "```", "`", " ` ", "<!-- x", "<?php x ?>",
    "&lt;b&gt;", "*a* _b_ ~~c~~", "[a](javascript:x) ![i](x)", "<http://e.com>", "\\", "a\\", "|a|b|",
    "\u202e\u2066x\x1b[31m", "\x00\x7f\x85",
])
def test_code_cell_and_plain_keep_any_text_literal(hostile: str) -> None:
    markdown = "\n".join([
        f"- {code(hostile)}",
        f"- {plain(hostile)}",
        f"1. {plain(hostile)} {code(hostile)}",
        "",
        "| a | b |",
        "|---|---|",
        f"| {cell(code(hostile))} | {cell(plain(hostile))} |",
        "",
    ])
    html = render(markdown)
    assert [tag for tag, attrs in html.tags if tag not in ALLOWED_TAGS or attrs] == []
    assert [tag for tag, _ in html.tags].count("li") == 3
    assert [tag for tag, _ in html.tags].count("td") == 2


@pytest.mark.parametrize("start", ["# h", "- x", "+ x", "= x", "1. x", "12) x", "    code", "> q", "---", "www.e.com",
                                   "see http://e.com"])
def test_plain_text_never_starts_a_block_or_an_autolink(start: str) -> None:
    html = render(f"- {plain(start)}\n")
    assert [tag for tag, _ in html.tags] == ["ul", "li"]
    assert "".join(html.text).strip("\n") == start
