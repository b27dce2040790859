"""Every real GE dump graph sample loads; JSON and pbtxt versions of a graph give the same Model."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.ge import attr_value, build_fusion_mapping, load_model
from autofuse_studio.core.ge.model import Model, TensorDesc
from tests.conftest import samples_dir

pytestmark = pytest.mark.samples

GE_SAMPLES = [
    "ascgraph_graphdef_test_graph.txt",
    "atc_nms_model.json",
    "atc_tdnn_test.om.json",
    "hicann-oam-tools__ge_proto_00000000_Build.json",
    "hicann-oam-tools__ge_proto_00000001_Build.json",
    "hicann-oam-tools__ge_proto_00000062_Build.json",
    "hicann-oam-tools__ge_proto_00056_Build.json",
    "mirror-cann-graph-autofusion__test_graph.json",
    "resnet50_ge_proto_00000062_Build.txt",
    "tf_small_ge_proto_00000000_Build.txt",
    "tf_subgraphs_ge_proto_00000001_Build.txt",
    "tf_train_ge_proto_00056_Build.txt",
]
SAME_GRAPH = [
    ("resnet50_ge_proto_00000062_Build.txt", "hicann-oam-tools__ge_proto_00000062_Build.json"),
    ("tf_small_ge_proto_00000000_Build.txt", "hicann-oam-tools__ge_proto_00000000_Build.json"),
    ("tf_subgraphs_ge_proto_00000001_Build.txt", "hicann-oam-tools__ge_proto_00000001_Build.json"),
    ("tf_train_ge_proto_00056_Build.txt", "hicann-oam-tools__ge_proto_00056_Build.json"),
    ("ascgraph_graphdef_test_graph.txt", "mirror-cann-graph-autofusion__test_graph.json"),
]
SUB = "ge_default_20230713074125_sub_"


def _ge(name: str) -> Path:
    return samples_dir("ge", name)


def test_every_ge_sample_is_listed() -> None:
    assert sorted(p.name for p in samples_dir("ge").iterdir()) == sorted(GE_SAMPLES)


@pytest.mark.parametrize("name", GE_SAMPLES)
def test_sample_loads_with_consistent_order(name: str) -> None:
    model = load_model(_ge(name))
    ops = model.ops_in_order()
    assert ops
    assert [op.order for op in ops] == list(range(len(ops)))
    assert model.warnings == []
    for op in ops:
        assert op.name and model.op(op.name, op.graph) is op
        assert len(op.inputs) <= max(len(op.input_descs), len(op.inputs))
    build_fusion_mapping(model)


def test_resnet50_pbtxt_has_170_ops_and_53_fused_outputs() -> None:
    model = load_model(_ge("resnet50_ge_proto_00000062_Build.txt"))
    assert [g.name for g in model.graphs] == ["ResNet-50_0"]
    assert len(model.root.ops) == 170
    mapping = build_fusion_mapping(model)
    mapped = [o for f in mapping.fused_ops for o in f.outputs if o.origin_op is not None]
    assert len(mapped) == 53
    conv = mapping.get("conv1conv1_relu")
    assert conv is not None
    assert conv.original_op_names == ["conv1", "bn_conv1", "scale_conv1", "conv1_relu"]
    out = conv.outputs[0]
    assert (out.origin_op, out.origin_index) == ("conv1_relu", 0)
    assert out.desc.layout == "NC1HWC0"
    assert out.desc.shape == (1, 4, 112, 112, 16)
    assert out.desc.origin_shape == (1, 64, 112, 112)
    assert out.desc.origin_format == "NCHW"
    assert [i.source_type for i in conv.inputs][:1] == ["TransData"]
    assert mapping.output_origin("conv1conv1_relu", 0) == ("conv1_relu", 0)


def test_tf_subgraphs_order_parents_and_producers() -> None:
    model = load_model(_ge("tf_subgraphs_ge_proto_00000001_Build.txt"))
    assert len(model.graphs) == 5
    assert model.graphs[1].parent_op == f"{SUB}0_input_PartitionedCall_0"
    names = [op.name for op in model.ops_in_order()]
    assert names[:4] == [f"{SUB}0_input_PartitionedCall_0", "GatherV2/axis", "GatherV2/indices",
                         f"{SUB}0_input_Node_Output"]
    assert names[-1] == "Node_Output"
    gather = model.op("GatherV2")
    assert gather is not None
    # Data_0 (_parent_node_index 0) -> PartitionedCall_2 input 0 = PartitionedCall_0:1 -> NetOutput tag 1.
    assert _named(model.producer(gather, 1)) == ("GatherV2/indices", 0)
    assert _named(model.producer(gather, 2)) == ("GatherV2/axis", 0)
    unique = model.op("Unique")
    assert unique is not None
    assert _named(model.producer(unique, 0)) == ("Variable", 0)
    root_out = model.op("Node_Output")
    assert root_out is not None
    assert _named(model.producer(root_out, 0)) == ("GatherV2", 0)
    assert root_out.control_inputs == [f"{SUB}3_unknow_PartitionedCall_3"]
    # consumers() lists direct edges only (no boundary crossing).
    assert [(op.name, i) for op, i in model.consumers("GatherV2/indices")] == [(f"{SUB}0_input_Node_Output", 1)]


def _named(found: object) -> tuple[str, int] | None:
    if found is None:
        return None
    op, port = found  # type: ignore[misc]
    return op.name, port


def _desc_key(desc: TensorDesc) -> tuple[object, ...]:
    plain = {k: attr_value(desc.attrs, k) for k in desc.attrs}
    return (desc.dtype, desc.layout, desc.shape, desc.origin_format, desc.origin_shape,
            {k: v for k, v in plain.items() if not isinstance(v, dict)})


def _model_key(model: Model) -> list[tuple[object, ...]]:
    rows = []
    for op in model.ops_in_order():
        attrs = {k: attr_value(op.attrs, k) for k in op.attrs}
        rows.append((op.name, op.type, op.graph, op.order, op.inputs, op.control_inputs, op.subgraph_names,
                     {k: v for k, v in attrs.items() if not isinstance(v, dict)},
                     [_desc_key(d) for d in op.input_descs], [_desc_key(d) for d in op.output_descs]))
    return rows


@pytest.mark.parametrize(("pbtxt", "json_name"), SAME_GRAPH)
def test_pbtxt_and_json_give_the_same_model(pbtxt: str, json_name: str) -> None:
    from_text, from_json = load_model(_ge(pbtxt)), load_model(_ge(json_name))
    assert [(g.name, g.parent_op) for g in from_text.graphs] == [(g.name, g.parent_op) for g in from_json.graphs]
    assert _model_key(from_text) == _model_key(from_json)


def test_escaped_s_attr_is_decoded_the_same_in_both_dialects() -> None:
    text = load_model(_ge("tf_train_ge_proto_00056_Build.txt"))
    values = [attr_value(op.attrs, k) for op in text.ops_in_order() for k in op.attrs]
    assert any(isinstance(v, str) and "\n\x08GatherV2" in v for v in values)


@pytest.mark.parametrize(("name", "controls"), [
    ("af_open_graph.json", ["barrier"]),
    ("af_open_graph_no_bad5d.json", ["barrier"]),
    ("af_open_graph_primary_safe.json", []),
])
def test_nwa_small_open_graphs(name: str, controls: list[str]) -> None:
    model = load_model(samples_dir("nwa-small", name))
    mapping = build_fusion_mapping(model)
    assert len(mapping.fused_ops) >= 13
    first = mapping.get("scope/autofuse_1_Add_Mul")
    assert first is not None
    assert [(i.source_type, i.origin_op, i.origin_index) for i in first.inputs] == [
        ("Data", "input_x", 0), ("Constant", "const_1", 0), ("", None, None)]
    assert model.op("scope/autofuse_1_Add_Mul").control_inputs == controls  # type: ignore[union-attr]
    square = mapping.get("autofuse_2_Square")
    assert square is not None
    assert (square.inputs[0].source_type, square.inputs[0].origin_op) == ("Fused", "Mul_1")
    assert square.outputs[1].origin_op is None
    assert any("autofuse_2_Square" in w and "output 1" in w for w in mapping.warnings)
    assert any("noport" in w for w in model.warnings)


def test_nwa_small_close_graph() -> None:
    model = load_model(samples_dir("nwa-small", "af_close_graph.json"))
    assert model.op("Mul_1") is not None
    assert build_fusion_mapping(model).fused_ops == []
