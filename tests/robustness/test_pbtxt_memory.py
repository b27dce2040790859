"""Protobuf text graphs: bounded memory on blank space, no quadratic rescans, errors with file, line and column."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.errors import GraphParseError
from autofuse_studio.core.ge import pbtxt_tokens
from autofuse_studio.core.ge.pbtxt import parse_pbtxt
from tests.conftest import SAMPLES
from tests.robustness.conftest import run_cli, run_python_peak

BLANK_MB = 8  # the old tokenizer needed ~1 GB for this; the file itself is 8 MB
GRAPH_HEAD = 'graph {\n  name: "g"\n  op {\n    name: "a"\n    type: "Data"\n'
GRAPH_TAIL = '\n  }\n}\n'


def _blank_graphs(tmp_path: Path) -> list[Path]:
    """The same small graph with 8 MB of blanks: one line of spaces, blank lines, comment lines."""
    size = BLANK_MB << 20
    bodies = {"spaces": " " * size, "lines": " \n" * (size // 2), "comments": "#c\n" * (size // 3)}
    paths = []
    for name, blank in bodies.items():
        path = tmp_path / f"ge_proto_{name}.txt"
        path.write_text(GRAPH_HEAD + blank + GRAPH_TAIL, encoding="utf-8")
        paths.append(path)
    return paths


def test_blank_space_costs_no_memory(tmp_path: Path) -> None:
    for path in _blank_graphs(tmp_path):
        code = (
            "from autofuse_studio.core.ge.load import load_model\n"
            f"model = load_model({str(path)!r})\n"
            "print(sum(len(graph.ops) for graph in model.graphs))\n"
        )
        done, peak = run_python_peak(code, timeout=60)
        assert done.stdout.strip() == "1", done.stdout + done.stderr
        # Interpreter + numpy + the file's bytes and text: ~60 MB. The old tokenizer: ~1 GB.
        assert peak < 140, f"{path.name}: peak {peak:.0f} MiB"


def test_trailing_blank_space_is_not_rescanned_at_every_position() -> None:
    start = time.perf_counter()
    doc = parse_pbtxt('graph { name: "g" }' + " " * 400_000, "x.txt")  # the old tokenizer: hours
    assert doc["graph"][0]["name"] == "g"
    assert time.perf_counter() - start < 2


def _parse_in_small_batches(monkeypatch: pytest.MonkeyPatch, text: str, path: str = "x.txt") -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(pbtxt_tokens, "CHUNK_CHARS", 64)
        patch.setattr(pbtxt_tokens, "LONG_LINE_CHARS", 200)
        patch.setattr(pbtxt_tokens, "BATCH_TOKENS", 5)
        return parse_pbtxt(text, path)


def _same(a: Any, b: Any) -> bool:
    """Equality that treats NaN as equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


MIXED = (
    'graph { name: "g"  # a comment with "quotes" and { braces\n'
    + "  op { name: 'a b c' type: \"Da\" \"ta\" attr { key: \"k\" value { list { i: [1, 2, 3] f: -inf } } } }\n"
    + "  op { name: \"" + "x y " * 200 + "\" input: \"a:0\" " + "id: 7; " * 300 + "}\n"
    + "  " * 500 + "\n" + "# trailing comment without newline"
    + "\n}"
)


def test_small_batches_give_the_same_document(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [MIXED]
    texts += [path.read_text(encoding="utf-8") for path in sorted((SAMPLES / "ge").glob("*.txt"))]
    for text in texts:
        assert _same(_parse_in_small_batches(monkeypatch, text), parse_pbtxt(text, "x.txt"))


@pytest.mark.parametrize(("text", "line", "column"), [
    ('graph {\n  name: "g"\n  op {\n    name: "a"\n', 5, 1),
    ('graph {\n  name: "g"\n' + "  op { id: 1 }\n" * 40 + "  op { id: 1.2.3 }\n}\n", 43, 12),
    ('graph {\n  name: "g"\n  op { name: "a" ' + "id: 2 " * 100 + '}\n  ] \n}\n', 4, 3),
    ('graph {\n  op { name: "' + "z" * 500 + '" ' + "id: 2 " * 60 + "id: ?? }\n}\n", 2, 881),
])
def test_errors_give_line_and_column_in_any_batch(monkeypatch: pytest.MonkeyPatch, text: str, line: int,
                                                  column: int) -> None:
    for parse in (lambda: parse_pbtxt(text, "/g/ge_proto_1.txt"), lambda: _parse_in_small_batches(monkeypatch, text, "/g/ge_proto_1.txt")):
        with pytest.raises(GraphParseError) as info:
            parse()
        message = str(info.value)
        assert "None" not in message
        assert f"/g/ge_proto_1.txt: cannot parse protobuf text at line {line}, column {column}: " in message
        assert info.value.line == line


def test_truncated_pbtxt_through_the_cli_names_file_line_and_column(tmp_path: Path) -> None:
    graph = tmp_path / "ge_proto_1.txt"
    graph.write_text('graph {\n  name: "g"\n  op {\n    name: "a"\n', encoding="utf-8")
    data = tmp_path / "dump"
    data.mkdir()
    run = run_cli("nwa", "--af-open-graph", graph, "--af-close-graph", graph, "--af-open-data", data,
                  "--af-close-data", data)
    assert run.returncode == 1
    assert f"{graph}: cannot parse protobuf text at line 5, column 1: unexpected end of file" in run.output
