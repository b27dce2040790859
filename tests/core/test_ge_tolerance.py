"""Hand-made GE graphs exercising every tolerance of the readers (both dialects)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.ge import InputRef, Model, attr_value, load_model
from autofuse_studio.core.ge.attrs import c_unescape, convert_attr


def _write(tmp_path: Path, text: str | bytes, name: str = "graph.json") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def _load_json(tmp_path: Path, doc: Any, name: str = "graph.json") -> Model:
    return load_model(_write(tmp_path, json.dumps(doc), name))


def _one_graph(ops: list[Any], name: str = "g") -> dict[str, Any]:
    return {"graph": [{"name": name, "op": ops}]}


def test_attrs_as_dict_camel_case_and_int64_strings(tmp_path: Path) -> None:
    doc = _one_graph([{
        "name": "a", "type": "Data", "id": "3",
        "attr": {"_parent_node_index": {"i": "2"}, "eps": {"f": "1e-05"}, "flag": {"b": True}},
        "outputDesc": [{"dtype": "DT_BFLOAT16", "layout": "ND", "shape": {"dim": ["2", "3"]},
                        "attr": {"origin_shape": {"list": {"i": ["2", "3"], "valType": "VT_LIST_INT"}},
                                 "origin_format": {"s": "ND"}}}],
        "subgraphName": [],
    }])
    op = _load_json(tmp_path, doc).op("a")
    assert op is not None
    assert attr_value(op.attrs, "_parent_node_index") == 2
    assert attr_value(op.attrs, "eps") == pytest.approx(1e-05)
    assert attr_value(op.attrs, "flag") is True
    desc = op.output_descs[0]
    assert (desc.dtype, desc.shape, desc.origin_shape, desc.origin_format) == ("DT_BFLOAT16", (2, 3), (2, 3), "ND")


def test_attr_values_of_every_kind() -> None:
    assert convert_attr({"s": "\\346\\226\\207\\t"}) == "文\t"
    assert convert_attr({"i": 0}) == 0
    assert convert_attr({"f": 0.5}) == 0.5
    assert convert_attr({"f": "inf"}) == float("inf")
    assert convert_attr({"b": False}) is False
    assert convert_attr({"list": {"s": ["a", "b"], "val_type": "VT_LIST_STRING"}}) == ["a", "b"]
    assert convert_attr({"list": {"i": [1, "2"]}}) == [1, 2]
    assert convert_attr({"list": {"f": [0.5, "1e-05"]}}) == [0.5, 1e-05]
    assert convert_attr({"list": {"b": [True]}}) == [True]
    assert convert_attr({"list": {"val_type": "VT_LIST_INT"}}) == []
    assert convert_attr({"list_list_int": {"list_list_i": [{"list_i": [1, 2]}, {}]}}) == [[1, 2], []]
    assert convert_attr({"listListInt": {"listListI": [{"listI": ["3"]}]}}) == [[3]]
    assert convert_attr({"dt": "DT_FLOAT"}) == "DT_FLOAT"
    assert convert_attr(None) is None
    assert attr_value({"k": None}, "k", "dflt") == "dflt"
    assert attr_value({}, "missing") is None


def test_c_unescape_variants() -> None:
    assert c_unescape("plain") == "plain"
    assert c_unescape("a\\\"b\\\\c\\n") == 'a"b\\c\n'
    assert c_unescape("\\x41\\101") == "AA"
    assert c_unescape("\\377") == "\ufffd"  # not UTF-8: replaced, never an exception


def test_nulls_and_missing_keys_are_tolerated(tmp_path: Path) -> None:
    doc = {"attr": None, "graph": [None, {"name": "g", "input": None, "op": [
        None,
        {"name": "a"},
        {"type": "Relu", "input": ["a:0"], "attr": None, "input_desc": [None], "output_desc": None},
        {"name": "b", "type": "Add", "input": None, "attr": [None, {"key": "x", "value": None}, {"value": {}}],
         "input_desc": [{"shape": None, "attr": None, "dtype": "DT_FLOAT"}]},
    ]}]}
    model = _load_json(tmp_path, doc)
    assert [op.name for op in model.root.ops] == ["a", "g/op_2", "b"]
    unnamed = model.op("g/op_2")
    assert unnamed is not None and unnamed.inputs == [InputRef("a", 0)]
    a = model.op("a")
    assert a is not None and (a.type, a.inputs, a.output_descs) == ("", [], [])
    b = model.op("b")
    assert b is not None and b.attrs == {"x": None}
    assert b.input_descs[0].shape == ()  # dtype present, shape omitted: a scalar as atc writes it
    assert any("null" in w for w in model.warnings)


def test_input_strings(tmp_path: Path) -> None:
    doc = _one_graph([
        {"name": "scope/a.b[0]:x", "type": "Data"},
        {"name": "c", "type": "Conv2D",
         "input": ["scope/a.b[0]:x:3", "", "weird:port", "noport", "ctrl:-1", "scope/a.b[0]:x:-1"],
         "input_desc": [{"layout": "NCHW"}, {"layout": "FORMAT_RESERVED"}, {}, {}]},
    ])
    model = _load_json(tmp_path, doc)
    op = model.op("c")
    assert op is not None
    assert op.inputs == [InputRef("scope/a.b[0]:x", 3), None, None, None]
    assert op.control_inputs == ["ctrl", "scope/a.b[0]:x"]
    assert op.input_descs[1].layout == "FORMAT_RESERVED" and op.input_descs[1].shape is None
    assert sum("no integer port" in w for w in model.warnings) == 2
    assert model.producer(op, 0) is not None
    assert [model.producer(op, i) for i in (1, 2, 3, 9)] == [None, None, None, None]
    assert [(o.name, i) for o, i in model.consumers("scope/a.b[0]:x")] == [("c", 0)]


def test_ids_order_ops_and_missing_id_is_zero(tmp_path: Path) -> None:
    doc = _one_graph([
        {"name": "late", "type": "Relu", "id": 2},
        {"name": "first", "type": "Data"},
        {"name": "mid", "type": "Relu", "id": "1"},
    ])
    model = _load_json(tmp_path, doc)
    assert [op.name for op in model.ops_in_order()] == ["first", "mid", "late"]
    assert [op.name for op in model.root.ops] == ["first", "mid", "late"]


def test_file_order_without_ids_and_subgraphs_at_parent_position(tmp_path: Path) -> None:
    doc = {"graph": [
        {"name": "root", "op": [{"name": "r0", "type": "Data"},
                                {"name": "call", "type": "PartitionedCall", "input": ["r0:0"],
                                 "subgraph_name": ["body", "absent"]},
                                {"name": "r2", "type": "Relu", "input": ["call:0"]}]},
        {"name": "orphan", "op": [{"name": "o0", "type": "Relu"}]},
        {"name": "body", "op": [
            {"name": "d", "type": "Data", "attr": [{"key": "_parent_node_index", "value": {"i": 0}}]},
            {"name": "inner", "type": "Abs", "input": ["d:0"]},
            {"name": "out", "type": "NetOutput", "input": ["inner:0"]}]},
    ]}
    model = _load_json(tmp_path, doc)
    assert [op.name for op in model.ops_in_order()] == ["r0", "call", "d", "inner", "out", "r2", "o0"]
    assert model.graph("body").parent_op == "call"  # type: ignore[union-attr]
    assert model.graph("orphan").parent_op is None  # type: ignore[union-attr]
    assert any("'absent'" in w for w in model.warnings)
    assert any("'orphan'" in w for w in model.warnings)
    inner, r2 = model.op("inner"), model.op("r2")
    assert inner is not None and r2 is not None
    found_in = model.producer(inner, 0)
    found_out = model.producer(r2, 0)
    assert found_in is not None and (found_in[0].name, found_in[1]) == ("r0", 0)
    # NetOutput without _parent_node_index tags: parent output k is NetOutput input k.
    assert found_out is not None and (found_out[0].name, found_out[1]) == ("inner", 0)


def test_lookup_per_graph_then_global(tmp_path: Path) -> None:
    doc = {"graph": [{"name": "a", "op": [{"name": "x", "type": "A"}, {"name": "y", "type": "Y"}]},
                     {"name": "b", "op": [{"name": "x", "type": "B"}]}]}
    model = _load_json(tmp_path, doc)
    assert model.op("x").type == "A"  # type: ignore[union-attr]
    assert model.op("x", "b").type == "B"  # type: ignore[union-attr]
    assert model.op("y", "b").type == "Y"  # type: ignore[union-attr]
    assert model.op("nope") is None
    assert any("'x' occurs several times" in w for w in model.warnings)


def test_bare_graphdef_json_and_int_dtype(tmp_path: Path) -> None:
    model = _load_json(tmp_path, {"name": "solo", "op": [
        {"name": "a", "type": "Data", "output_desc": [{"dtype": 2, "shape": {"dim": [4]}}]}]})
    assert model.root.name == "solo"
    assert model.op("a").output_descs[0].dtype == "DT_FLOAT16"  # type: ignore[union-attr]


def test_dialect_is_detected_by_content_not_extension(tmp_path: Path) -> None:
    as_txt = _write(tmp_path, json.dumps(_one_graph([{"name": "j", "type": "Data"}])), "graph.txt")
    as_json = _write(tmp_path, 'graph { name: "g" op { name: "p" type: "Data" } }', "graph.json")
    assert load_model(as_txt).op("j") is not None
    assert load_model(as_json).op("p") is not None


def test_bad_shape_dims_do_not_crash(tmp_path: Path) -> None:
    model = _load_json(tmp_path, _one_graph([{"name": "a", "type": "Data", "output_desc": [
        {"dtype": "DT_FLOAT", "shape": {"dim": [1, "x"]},
         "attr": [{"key": "origin_shape", "value": {"list": {"i": ["a"]}}}]}]}]))
    desc = model.op("a").output_descs[0]  # type: ignore[union-attr]
    assert (desc.shape, desc.origin_shape) == (None, None)


def test_ub_fusion_origin_format_fallback(tmp_path: Path) -> None:
    model = _load_json(tmp_path, _one_graph([{"name": "a", "type": "Conv2D", "output_desc": [
        {"attr": [{"key": "_datadump_origin_format", "value": {"s": "NCHW"}}]}]}]))
    assert model.op("a").output_descs[0].origin_format == "NCHW"  # type: ignore[union-attr]
