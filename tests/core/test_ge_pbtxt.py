"""The protobuf text-format reader: syntax variants, escapes, ModelDef vs bare GraphDef."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.errors import GraphParseError
from autofuse_studio.core.ge import InputRef, attr_value, load_model
from autofuse_studio.core.ge.pbtxt import parse_pbtxt

MODEL = r'''
# a comment line
name: "m"
graph {
  name: "root"
  op {
    name: "in\346\226\207"          # octal-escaped UTF-8 in a plain string field
    type: "Data"
    id: 0
    output_desc { dtype: DT_FLOAT layout: "NCHW" shape { dim: 1 dim: -1 dim: 3 }
      attr { key: "origin_shape" value { list { i: [1, -1, 3] val_type: VT_LIST_INT } } }
      attr { key: "origin_format" value { s: "NCHW" } }
    }
  }
  op <
    name: "relu"; type: "Relu", id: 1
    input: "in\346\226\207:0"
    input: "in" "\346\226\207:-1"
    attr { key: "note" value { s: "\346\226\207 \"q\"" } }
    attr { key: "eps" value { f: 1e-05 } }
    attr { key: "big" value { f: -inf } }
    attr { key: "flags" value { list { b: true b: False } } }
    attr { key: "names" value { list { s: "a\tb" s: 'c' } } }
    attr { key: "empty_range" value { list_list_int { } } }
    attr { key: "ranges" value { list_list_int { list_list_i { list_i: 1 list_i: 2 } } } }
    attr { key: "blob" value { bt: "\177ELF\000" } }
    unknown_field: 7
    unknown_field: 8
    unknown_msg { x: 1 }
  >
}
attr { key: "soc_version" value { s: "Ascend910B" } }
'''


def _write(tmp_path: Path, text: str, name: str = "ge_proto_00000001_Build.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_model_def_syntax_variants(tmp_path: Path) -> None:
    model = load_model(_write(tmp_path, MODEL))
    assert model.warnings == []
    data = model.op("in文")
    relu = model.op("relu")
    assert data is not None and relu is not None
    desc = data.output_descs[0]
    assert (desc.dtype, desc.layout, desc.shape, desc.origin_shape) == ("DT_FLOAT", "NCHW", (1, -1, 3), (1, -1, 3))
    assert relu.inputs == [InputRef("in文", 0)]
    assert relu.control_inputs == ["in文"]
    assert attr_value(relu.attrs, "note") == '文 "q"'
    assert attr_value(relu.attrs, "eps") == pytest.approx(1e-05)
    assert attr_value(relu.attrs, "big") == float("-inf")
    assert attr_value(relu.attrs, "flags") == [True, False]
    assert attr_value(relu.attrs, "names") == ["a\tb", "c"]
    assert attr_value(relu.attrs, "empty_range") is None  # like atc's JSON null
    assert attr_value(relu.attrs, "ranges") == [[1, 2]]
    assert "blob" in relu.attrs


def test_parse_keeps_singular_s_escaped_like_atc_json() -> None:
    doc = parse_pbtxt('op { name: "a\\101" attr { key: "k" value { s: "\\101" } } }', "x.txt")
    assert doc["op"][0]["name"] == "aA"
    assert doc["op"][0]["attr"][0]["value"] == {"s": "\\101"}


def test_unknown_fields_repeat_into_lists() -> None:
    doc = parse_pbtxt('op { name: "a" extra: 1 extra: 2 other: X }', "x.txt")
    assert doc["op"][0]["extra"] == [1, 2]
    assert doc["op"][0]["other"] == "X"


def test_bare_graph_def(tmp_path: Path) -> None:
    text = 'name: "FusedComputeGraph_0"\ninput: "data_1:0"\nop { name: "data_1" type: "Data" }\n' \
           'op { name: "abs" type: "Abs" input: "data_1:0" }\n'
    model = load_model(_write(tmp_path, text, "test_graph.txt"))
    assert model.root.name == "FusedComputeGraph_0"
    assert [op.name for op in model.ops_in_order()] == ["data_1", "abs"]


def test_numbers_and_words() -> None:
    doc = parse_pbtxt("op { name: 'n' id: 0x10 f: 2.5f g: nan h: +3 }", "x.txt")
    op = doc["op"][0]
    assert (op["id"], op["f"], op["h"]) == (16, 2.5, 3)
    assert op["g"] != op["g"]  # nan


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ('graph {\n  name: "g"\n  op {\n    name: "a"\n', 5, "missing"),
    ('graph {\n  name: \n}\n', 3, "expected a value"),
    ('graph {\n  name: "g"\n  op { name: "unterminated }\n}\n', 3, "unterminated string"),
    ('graph {\n  12: "x"\n}\n', 2, "field name"),
    ('graph { id: 1.2.3 }', 1, "not a number"),
    ('graph { f: - x }', 1, "number after"),
    ("a {" * 150, 1, "nested too deeply"),
])
def test_syntax_errors_name_file_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(GraphParseError) as info:
        parse_pbtxt(text, "/some/ge_proto_1.txt")
    message = str(info.value)
    assert "/some/ge_proto_1.txt" in message
    assert fragment in message
    assert info.value.line == line
