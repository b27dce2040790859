"""The typed JSON path (records with raw descs) builds exactly the model the generic dict path builds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from autofuse_studio.core.errors import GraphParseError
from autofuse_studio.core.ge.build import build_model
from autofuse_studio.core.ge.fast_json import decode_typed
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from tests.conftest import SAMPLES
from tests.synth import full_coverage_spec, generate_case
from tests.synth.ge_graph import write_synthetic_graph


def _snapshot(model: Model) -> list[Any]:
    """Everything a model says, in plain values (descs parsed)."""
    shot: list[Any] = [model.warnings]
    for graph in model.graphs:
        shot.append((graph.name, graph.parent_op))
        for op in graph.ops:
            shot.append((op.name, op.type, op.graph, op.order, op.inputs, op.control_inputs, op.attrs,
                         op.subgraph_names, list(op.input_descs), list(op.output_descs),
                         [op.input_descs.any_has_attr(key) for key in ("_datadump_origin_name", "origin_shape")]
                         if hasattr(op.input_descs, "any_has_attr") else None))
    return shot


def _both(data: bytes, path: str) -> tuple[list[Any], list[Any]]:
    typed = decode_typed(data)
    assert typed is not None, "the typed schema should fit this document"
    return _snapshot(build_model(typed, path)), _snapshot(build_model(json.loads(data), path))


def _json_samples() -> list[Path]:
    folder = SAMPLES / "ge"
    return sorted(path for path in folder.glob("*.json")) if folder.is_dir() else []


@pytest.mark.parametrize("path", _json_samples(), ids=lambda path: path.name)
def test_samples_build_the_same_model(path: Path) -> None:
    data = path.read_bytes()
    if decode_typed(data) is None:
        pytest.skip(f"{path.name} does not have the usual shape; the generic path reads it")
    typed, generic = _both(data, str(path))
    assert typed == generic


def test_generated_graphs_build_the_same_model(tmp_path: Path) -> None:
    manifest = generate_case(tmp_path / "case", full_coverage_spec())
    for side in ("af_open", "af_close"):
        path = tmp_path / "case" / manifest.graphs[side]
        typed, generic = _both(path.read_bytes(), str(path))
        assert typed == generic
    synthetic = write_synthetic_graph(tmp_path / "synthetic_Build.json", 3000, fused_every=7)
    typed, generic = _both(synthetic.read_bytes(), str(synthetic))
    assert typed == generic


@pytest.mark.parametrize("document", [
    {"name": "bare_graphdef", "op": [{"name": "a", "type": "Data"}, None, {"type": "Add", "input": ["a:0", "a:-1"]}]},
    {"graph": [None, {"name": "g", "op": [{"name": "x", "type": "AscBackend", "inputDesc": [None, {"dtype": 1}],
                                          "outputDesc": [{"attr": [{"key": "_datadump_origin_name",
                                                                    "value": {"s": "y"}}]}]}]}]},
    {"graph": [{"name": "g", "op": [{"name": 3, "type": ["odd"], "id": "7", "attr": {"k": {"i": 1}},
                                    "input_desc": [], "subgraph_name": ["s", 4]}]}, {"name": "s", "op": []}]},
    # Desc lists that are not lists (one desc, as the generic path reads them), null ones (absent) and both names.
    {"graph": [{"name": "g", "op": [
        {"name": "a", "input_desc": {"dtype": 1}, "output_desc": "text"},
        {"name": "b", "input_desc": None, "inputDesc": [{"dtype": "DT_FLOAT"}], "output_desc": 0, "outputDesc": []},
        {"name": "c", "input_desc": False, "output_desc": [None, {"attr": None}, [1]],
         "outputDesc": [{"dtype": "DT_INT8"}]},
        {"name": "d", "input_desc": {"attr": [{"key": "_datadump_origin_name", "value": {"s": "y"}}]}},
        {"name": "e", "input_desc": {"dtype": 1}, "output_desc": [None, {"attr": None}, [1]]}]}]},
])
def test_odd_documents_build_the_same_model(document: dict[str, Any]) -> None:
    data = json.dumps(document).encode()
    typed, generic = _both(data, "odd.json")
    assert typed == generic


@pytest.mark.parametrize("text", [
    '{"graph": {"name": "g", "op": []}}',  # one graph as a dict
    '[{"name": "g", "op": []}]',  # a list of graphs
    '{"graph": [], "op": []}',
])
def test_other_shapes_fall_back_to_the_generic_path(text: str, tmp_path: Path) -> None:
    assert decode_typed(text.encode()) is None
    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    expected: list[Any] | str
    try:
        expected = _snapshot(build_model(json.loads(text), str(path)))
    except GraphParseError as error:
        expected = str(error)
    try:
        got: list[Any] | str = _snapshot(load_model(path))
    except GraphParseError as error:
        got = str(error)
    assert got == expected


def test_raw_descs_are_decoded_only_when_read(tmp_path: Path) -> None:
    path = write_synthetic_graph(tmp_path / "synthetic_Build.json", 50, fused_every=5)
    model = load_model(path)
    op = model.graphs[0].ops[10]
    assert isinstance(op.output_descs._items()[0], msgspec.Raw)  # type: ignore[attr-defined]
    assert op.output_descs[0].layout == "ND"
