"""Shared raw descs (build._shared_descs, issue 29): ops with equal desc texts share one DescList, the model
no longer pins the graph file's bytes, and every model still equals the generic path's, desc for desc."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec
import pytest

from autofuse_studio.core.ge.build import build_model
from autofuse_studio.core.ge.fast_json import decode_typed
from autofuse_studio.core.ge.load import load_model, release_document
from autofuse_studio.core.ge.model import Model
from tests.conftest import REPO_ROOT
from tests.core.test_ge_fast_json import _snapshot
from tests.synth import CaseSpec, generate_case
from tests.synth.big_model import GraphShape, write_shape

DEMO = REPO_ROOT / "resources" / "demo"
_DESC = {"dtype": "DT_FLOAT16", "layout": "ND", "shape": {"dim": [2, 4]}}
_OTHER = {"dtype": "DT_FLOAT", "layout": "ND", "shape": {"dim": [8]}}


def _graph(ops: list[dict[str, object]]) -> bytes:
    return json.dumps({"graph": [{"name": "g", "op": ops}]}).encode()


def _generic(path: Path) -> Model:
    return build_model(json.loads(path.read_bytes()), str(path))


@pytest.mark.parametrize("side", ["af_open/ge_proto_00000094_graph_1_Build.json",
                                  "af_close/ge_proto_00000093_graph_1_Build.json"])
def test_demo_graphs_load_the_generic_model(side: str) -> None:
    path = DEMO / side
    assert _snapshot(load_model(path)) == _snapshot(_generic(path))


@pytest.fixture(scope="module")
def big_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A small case of the big-model generator (its graphs are rewritten in each field shape)."""
    root = tmp_path_factory.mktemp("big") / "case"
    spec = CaseSpec(seed=5, n_fused=60, elements=8, dtype="float16", steps=1, chains=10, culprit=30,
                    description="shared descs")
    return root, generate_case(root, spec).graphs


@pytest.mark.parametrize("shape", [GraphShape("compact", attrs="lean"), GraphShape("indented"),
                                   GraphShape("compact", attrs="heavy", outputs=3),
                                   GraphShape("compact", pad_ops=200)], ids=repr)
def test_big_model_shapes_load_the_generic_model(big_case: tuple[Path, dict[str, str]], shape: GraphShape) -> None:
    root, graphs = big_case
    write_shape(root, graphs, shape)
    for relative in graphs.values():
        model = load_model(root / relative)
        assert _snapshot(model) == _snapshot(_generic(root / relative))
        # Parsed once through a shared list, the descs still answer per op.
        fused = [op for op in model.ops_in_order() if op.output_descs.any_has_attr("_datadump_origin_name")]
        assert all(op.output_descs[0].attrs for op in fused)


def test_equal_desc_texts_share_one_list() -> None:
    ops = [{"name": "a", "type": "Data", "id": 1, "output_desc": [_DESC]},
           {"name": "b", "type": "Relu", "id": 2, "input": ["a:0"], "input_desc": [_DESC], "output_desc": [_DESC]},
           {"name": "c", "type": "Cast", "id": 3, "input": ["b:0"], "input_desc": [_DESC], "output_desc": [_OTHER]},
           {"name": "d", "type": "Const", "id": 4}]
    model = build_model(decode_typed(_graph(ops)), "g.json")
    a, b, c, d = model.root.ops
    assert a.output_descs is b.output_descs is b.input_descs is c.input_descs
    assert c.output_descs is not a.output_descs and c.output_descs[0].dtype == "DT_FLOAT"
    assert b.output_descs[0] is a.output_descs[0] and b.output_descs[0].shape == (2, 4)
    assert len(d.input_descs) == 0 and d.input_descs is d.output_descs


def test_model_does_not_pin_the_file_bytes() -> None:
    data = _graph([{"name": f"op{i}", "type": "Relu", "id": i, "input_desc": [_DESC], "output_desc": [_DESC]}
                   for i in range(50)])
    alone = sys.getrefcount(data)
    document = decode_typed(data)
    assert isinstance(document["graph"][0].op[0].input_desc, msgspec.Raw)
    assert sys.getrefcount(data) > alone  # the decoded records' raw descs are slices of `data`
    model = build_model(document, "g.json", consume=True)
    release_document(document)
    del document
    assert sys.getrefcount(data) == alone
    assert model.root.ops[49].input_descs[0].shape == (2, 4)
