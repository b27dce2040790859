"""Fusion mapping on small hand-made graphs: outputs, inputs, original ops, subgraph boundaries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.ge import FUSED_TYPES, FusionMapping, InputRef, Model, build_fusion_mapping, load_model


def _attr(key: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "value": value}


def _out(name: str | None = None, index: Any = None, layout: str = "ND") -> dict[str, Any]:
    attrs = []
    if name is not None:
        attrs.append(_attr("_datadump_origin_name", {"s": name}))
    if index is not None:
        attrs.append(_attr("_datadump_origin_output_index", {"i": index}))
    return {"dtype": "DT_FLOAT16", "layout": layout, "shape": {"dim": [2, 2]}, "attr": attrs}


def _load(tmp_path: Path, graphs: list[dict[str, Any]]) -> tuple[Model, FusionMapping]:
    path = tmp_path / "af_open.json"
    path.write_text(json.dumps({"graph": graphs}), encoding="utf-8")
    model = load_model(path)
    return model, build_fusion_mapping(model)


ROOT_OPS = [
    {"name": "x", "type": "Data", "output_desc": [_out()]},
    {"name": "w", "type": "Const", "output_desc": [_out()]},
    {"name": "af_1", "type": "AscBackend", "id": 1, "input": ["x:0", "w:0", "x:-1"],
     "input_desc": [{"layout": "NCHW"}, {"layout": "ND"}],
     "attr": [_attr("_datadump_original_op_names", {"list": {"s": ["Add_1", "Mul_2"]}}),
              _attr("_datadump_original_op_types", {"list": {"s": ["Add", "Mul"]}})],
     "output_desc": [_out("Mul_2", 0), _out("Add_1", "1"), _out()]},
    {"name": "af_2", "type": "FusedAscBackend", "id": 2, "input": ["af_1:0", "af_1:2", "ghost:4", ""],
     "output_desc": [_out("Exp_3")]},
    {"name": "ub", "type": "Conv2D", "id": 3, "input": ["af_2:0"],
     "output_desc": [_out("conv_a"), _out("conv_b", 0)]},
    {"name": "plain", "type": "Relu", "id": 4, "input": ["ub:1"], "output_desc": [_out()]},
]


def test_fused_ops_and_output_mappings(tmp_path: Path) -> None:
    _, mapping = _load(tmp_path, [{"name": "g", "op": ROOT_OPS}])
    assert [f.op.name for f in mapping.fused_ops] == ["af_1", "af_2", "ub"]
    af_1 = mapping.get("af_1")
    assert af_1 is not None
    assert [(o.index, o.origin_op, o.origin_index) for o in af_1.outputs] == [
        (0, "Mul_2", 0), (1, "Add_1", 1), (2, None, None)]
    assert af_1.outputs[0].desc.shape == (2, 2)
    assert (af_1.original_op_names, af_1.original_op_types) == (["Add_1", "Mul_2"], ["Add", "Mul"])
    # AscBackend without an index: no guessing.
    assert mapping.output_origin("af_2", 0) is None
    # Old UB fusion without an index: msaccucmp's fallback to the desc position.
    assert mapping.output_origin("ub", 0) == ("conv_a", 0)
    assert mapping.output_origin("ub", 1) == ("conv_b", 0)
    assert mapping.output_origin("plain", 0) is None
    assert mapping.output_origin("af_1", 7) is None
    assert any("'af_1' output 2" in w for w in mapping.warnings)
    assert any("'af_2' output 0" in w for w in mapping.warnings)
    assert "AscBackend" in FUSED_TYPES


def test_input_mappings(tmp_path: Path) -> None:
    _, mapping = _load(tmp_path, [{"name": "g", "op": ROOT_OPS}])
    af_1, af_2, ub = mapping.get("af_1"), mapping.get("af_2"), mapping.get("ub")
    assert af_1 is not None and af_2 is not None and ub is not None
    # The control edge x:-1 is not a data input.
    assert [(i.index, i.source, i.source_type, i.origin_op, i.origin_index) for i in af_1.inputs] == [
        (0, InputRef("x", 0), "Data", "x", 0), (1, InputRef("w", 0), "Const", "w", 0)]
    assert af_1.inputs[0].desc.layout == "NCHW"
    assert [(i.source_type, i.origin_op, i.origin_index) for i in af_2.inputs] == [
        ("Fused", "Mul_2", 0),             # mapped output of a fused producer
        ("AscBackend", "af_1", 2),         # unmapped output of a fused producer: raw reference
        ("", "ghost", 4),                  # unknown producer: raw reference
        ("", None, None),                  # "" optional input
    ]
    assert af_2.inputs[3].source is None and af_2.inputs[3].desc.layout is None
    # af_2 output 0 has no index, so it is not mapped: ub sees the fused op itself.
    assert [(i.source_type, i.origin_op, i.origin_index) for i in ub.inputs] == [("FusedAscBackend", "af_2", 0)]


def test_fused_inputs_resolve_across_subgraph_boundaries(tmp_path: Path) -> None:
    graphs = [
        {"name": "root", "op": [
            {"name": "x", "type": "Data"},
            {"name": "af_src", "type": "AscBackend", "input": ["x:0"], "output_desc": [_out("Sqrt_9", 0)]},
            {"name": "call", "type": "PartitionedCall", "input": ["x:0", "af_src:0"],
             "subgraph_name": ["body"]},
            {"name": "af_after", "type": "AscBackend", "input": ["call:1", "call:0"],
             "output_desc": [_out("Neg_1", 0)]},
        ]},
        {"name": "body", "op": [
            {"name": "d0", "type": "Data", "attr": [_attr("_parent_node_index", {"i": 0})]},
            {"name": "d1", "type": "Data", "attr": [_attr("_parent_node_index", {"i": 1})]},
            {"name": "inner_af", "type": "AscBackend", "input": ["d1:0", "d0:0"],
             "output_desc": [_out("Abs_4", 0)]},
            {"name": "relu", "type": "Relu", "input": ["d0:0"]},
            {"name": "out", "type": "NetOutput", "input": ["inner_af:0", "relu:0"],
             "input_desc": [{"attr": [_attr("_parent_node_index", {"i": 1})]},
                            {"attr": [_attr("_parent_node_index", {"i": 0})]}]},
        ]},
    ]
    model, mapping = _load(tmp_path, graphs)
    assert [f.op.name for f in mapping.fused_ops] == ["af_src", "inner_af", "af_after"]
    inner = mapping.get("inner_af")
    after = mapping.get("af_after")
    assert inner is not None and after is not None
    assert [(i.source_type, i.origin_op, i.origin_index) for i in inner.inputs] == [
        ("Fused", "Sqrt_9", 0), ("Data", "x", 0)]
    # call output 1 = NetOutput input tagged 1 = inner_af:0; call output 0 = relu:0.
    assert [(i.source_type, i.origin_op, i.origin_index) for i in after.inputs] == [
        ("Fused", "Abs_4", 0), ("Relu", "relu", 0)]
    assert model.op("inner_af").order < model.op("af_after").order  # type: ignore[union-attr]


def test_no_fused_ops(tmp_path: Path) -> None:
    _, mapping = _load(tmp_path, [{"name": "g", "op": [{"name": "a", "type": "Relu"}]}])
    assert (mapping.fused_ops, mapping.warnings, mapping.get("a")) == ([], [], None)


@pytest.mark.parametrize("index", ["zero", 1.5, True, None])
def test_unusable_origin_index_is_a_warning_not_a_crash(tmp_path: Path, index: Any) -> None:
    op = {"name": "af", "type": "AscBackend", "output_desc": [_out("Orig", index)]}
    _, mapping = _load(tmp_path, [{"name": "g", "op": [op]}])
    assert mapping.output_origin("af", 0) is None
    assert len(mapping.warnings) == 1


def test_old_ub_fusion_found_with_attrs_as_a_dict(tmp_path: Path) -> None:
    # json_format writes the attr map as a dict; the fused-op check reads the raw descs in both shapes.
    ub_desc = {"dtype": "DT_FLOAT", "layout": "NCHW", "attr": {"_datadump_origin_name": {"s": "conv1"}}}
    plain_desc = {"dtype": "DT_FLOAT", "layout": "NCHW", "attr": {"origin_format": {"s": "NCHW"}}}
    ops = [{"name": "ub", "type": "Conv2D", "output_desc": [plain_desc, ub_desc]},
           {"name": "relu", "type": "Relu", "input": ["ub:1"], "output_desc": [plain_desc]},
           {"name": "none", "type": "Relu", "input": ["relu:0"], "output_desc": [None, {"attr": None}]}]
    _, mapping = _load(tmp_path, [{"name": "g", "op": ops}])
    assert [fused.op.name for fused in mapping.fused_ops] == ["ub"]
    assert mapping.output_origin("ub", 1) == ("conv1", 1)
