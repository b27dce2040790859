"""The typed op builder (build._make_typed_op, issue 29) gives the generic path's ops and warnings on odd fields."""

from __future__ import annotations

import json
from typing import Any

import pytest

from autofuse_studio.core.ge.build import build_model
from autofuse_studio.core.ge.fast_json import decode_typed
from autofuse_studio.core.ge.model import DescList
from tests.core.test_ge_fast_json import _snapshot

_DESC = {"dtype": "DT_FLOAT16", "layout": "ND", "shape": {"dim": [2, 3]},
         "attr": [{"key": "_datadump_origin_name", "value": {"s": "orig"}},
                  {"key": "_datadump_origin_output_index", "value": {"i": 0}}]}

ODD_OPS: list[Any] = [
    None,
    {"name": "a", "type": "Data", "id": "3", "output_desc": [_DESC]},
    {"name": "b", "type": 7, "id": True, "input": "a:0", "input_desc": [], "inputDesc": [_DESC]},
    {"name": "", "type": "Add", "id": 2.0, "input": ["a:00", "a:256", "a:-1", ":0", "noport", "a:\u00b2", "x:y:1",
                                                   "", 0, 5, "a:" + "9" * 12]},
    {"type": "Mul", "id": 1 << 70, "inputDesc": [_DESC, None], "outputDesc": [_DESC]},
    {"name": 12, "id": -4, "input": ["b:1", "b:1"], "subgraph_name": "sub"},
    {"name": "c", "type": "AscBackend", "id": "0x10", "subgraphName": ["sub", 3, None], "input_desc": None,
     "output_desc": [_DESC, {"attr": None}], "attr": [{"key": "_datadump_original_op_names",
                                                       "value": {"list": {"s": ["p", "q"]}}}]},
    {"name": "d", "type": "Cast", "subgraph_name": [], "subgraphName": ["sub"], "attr": {"k": {"i": 1}}},
]


def _document(ops: list[Any]) -> bytes:
    return json.dumps({"graph": [{"name": "g", "op": ops}, {"name": "sub", "op": [{"name": "s0", "type": "Data"}]}]
                      }).encode()


@pytest.mark.parametrize("count", [1, 2, len(ODD_OPS)])
def test_odd_fields_build_the_same_model(count: int) -> None:
    for start in range(len(ODD_OPS)):
        data = _document((ODD_OPS[start:] + ODD_OPS[:start])[:count])
        typed = decode_typed(data)
        assert typed is not None
        assert _snapshot(build_model(typed, "g.json")) == _snapshot(build_model(json.loads(data), "g.json"))


def test_sources_share_the_op_names_string() -> None:
    ops = [{"name": "producer_op", "type": "Data", "id": 1, "output_desc": [_DESC]},
           {"name": "consumer_op", "type": "Relu", "id": 2, "input": ["producer_op:0"], "input_desc": [_DESC]},
           {"name": "other_op", "type": "Relu", "id": 3, "input": ["producer_op:0"], "input_desc": [_DESC]}]
    typed = decode_typed(json.dumps({"graph": [{"name": "g", "op": ops}]}).encode())
    model = build_model(typed, "g.json")
    producer, consumer, other = model.root.ops
    assert consumer.inputs[0].source is producer.name and other.inputs[0].source is producer.name
    assert consumer.type is other.type


def test_desc_cache_is_made_on_first_access() -> None:
    descs = DescList([json.dumps(_DESC)], lambda raw: build_model.__globals__["make_desc"](json.loads(raw)))
    assert descs._made is None
    assert descs[0].dtype == "DT_FLOAT16" and descs[-1] is descs[0]
    assert len(descs) == 1 and descs[:1] == [descs[0]]
