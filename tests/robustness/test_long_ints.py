"""Integers beyond Python's 4300-digit limit in graphs and logs: a warning with file and line, the rest goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autofuse_studio.core.ge.attrs import to_int
from autofuse_studio.core.ge.load import load_model
from tests.robustness.conftest import run_cli

HUGE = "9" * 5001
LABEL = "graph0_result0_g0_"


def _json_graph(path: Path, op_id: str, dims: str, inputs: str) -> Path:
    path.write_text(
        '{"graph": [{"name": "g", "op": [\n'
        '  {"name": "a", "type": "Data", "id": 1, "output_desc": [{"shape": {"dim": [2, 3]}}]},\n'
        f'  {{"name": "b", "type": "Relu", "id": {op_id}, "input": [{inputs}],\n'
        f'   "output_desc": [{{"shape": {{"dim": [{dims}]}}}}]}}\n'
        "]}]}\n", encoding="utf-8")
    return path


def test_json_graph_with_a_5001_digit_integer_loads_with_a_warning(tmp_path: Path) -> None:
    path = _json_graph(tmp_path / "g.json", HUGE, f'2, {HUGE}, "0x{"f" * 5000}"', f'"a:{HUGE}", "a:0"')
    model = load_model(path)
    op = model.op("b")
    assert op is not None
    assert op.output_descs[0].shape is None  # like any other non-integer dim
    assert model.warnings[0] == (f"{path}: line 3: an integer of 5001 digits (and 1 more) is out of range for "
                                 "any field; it was ignored.")
    assert all(len(warning) < 400 for warning in model.warnings)
    assert [ref.source if ref else None for ref in op.inputs] == [None, "a"]


def test_pbtxt_graph_with_a_5001_digit_integer_loads_with_warnings(tmp_path: Path) -> None:
    path = tmp_path / "ge_proto_1.txt"
    path.write_text(
        'graph {\n  name: "g"\n  op {\n    name: "a"\n    type: "Data"\n  }\n'
        f'  op {{\n    name: "b"\n    type: "Relu"\n    id: {HUGE}\n    input: "a:{HUGE}"\n'
        f"    output_desc {{ shape {{ dim: 2 dim: -{HUGE} dim: 0x{'f' * 5000} }} }}\n  }}\n}}\n", encoding="utf-8")
    model = load_model(path)
    op = model.op("b")
    assert op is not None
    assert op.output_descs[0].shape is None  # like any other non-integer dim
    assert model.warnings[:2] == [
        f"{path}: line 10, column 9: an integer of 5001 digits is out of range for any field; it was ignored.",
        f"{path}: line 12, column 39: an integer of 5001 digits is out of range for any field; it was ignored.",
    ]
    assert all(len(warning) < 400 for warning in model.warnings)


@pytest.mark.parametrize(("value", "expected"), [
    (HUGE, None), (f"-{HUGE}", None), (int("9" * 30), None), (1 << 64, None), ((1 << 64) - 1, (1 << 64) - 1),
    (-(1 << 63), -(1 << 63)), ("0x" + "f" * 5000, None), (" 12 ", 12), ("0x1f", 31), (1e300, None), (7.0, 7),
])
def test_to_int_keeps_only_64_bit_values(value: object, expected: int | None) -> None:
    assert to_int(value) == expected


def _att_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.log").write_text(
        f"[Add] [PROF]The value of s is 1 in {LABEL}0.\n"
        f"[Add] [PROF]The value of s is 2 in {LABEL}{HUGE}.\n"
        f"[Add] [PROF]Among the templates, tiling case {HUGE} of graph0_result0_g0 is the best choice.\n"
        f"[Add] [PROF]Among all schedule results, graph{HUGE}_result0 is the best choice.\n"
        f"[DFX]Begin to gen model info for asc graph {HUGE}, schedule result 0, schedule group 0, graph name Add.\n"
        f"[Add] [PERF][{LABEL}{HUGE}] Load_0[Load]: AIV_MTE2 = (a=1 + b=2) = 3\n", encoding="utf-8")
    (folder / "b.log").write_text(f"[Mul] [PROF]The value of s is 3 in {LABEL}0.\n", encoding="utf-8")
    return folder


def test_att_summary_warns_and_goes_on_past_a_5001_digit_case_id(tmp_path: Path) -> None:
    folder = _att_folder(tmp_path)
    out = tmp_path / "out.csv"
    run = run_cli("att", "summary", folder, "-f", "csv", "-o", out)
    assert run.returncode == 0, run.output
    for line in range(2, 7):
        assert f"Warning: {folder / 'a.log'}:{line}: an id of 5001 digits is too long (at most 19); the line is " \
               "skipped." in run.stderr
    rows = out.read_text(encoding="utf-8-sig").splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["Add", "Mul"]
    assert len(run.output) < 5000


@pytest.mark.parametrize("command", ["split-slog", "evidence", "perf-formula"])
def test_other_att_commands_go_on_past_a_5001_digit_case_id(tmp_path: Path, command: str) -> None:
    folder = _att_folder(tmp_path)
    (folder / "c.log").write_text(f"[Mul] [PERF][{LABEL}0] Load_0[Load]: AIV_MTE2 = (a=1 + b=2) = 3\n",
                                  encoding="utf-8")
    args = {"split-slog": ["-o", tmp_path / "out"], "evidence": ["-o", tmp_path / "out"],
            "perf-formula": ["-o", tmp_path / "out"]}[command]
    source = [folder] if command == "perf-formula" else []
    run = run_cli("att", command, *source, folder, *args)
    assert run.returncode == 0, run.output
    assert "an id of 5001 digits is too long" in run.stderr
    if command == "evidence":
        records = [json.loads(line) for line in (tmp_path / "out" / "att-evidence.jsonl").read_text().splitlines()]
        assert {record.get("operator") for record in records} >= {"Add", "Mul"}


def test_dims_beyond_int64_make_the_shape_unknown(tmp_path: Path) -> None:
    path = _json_graph(tmp_path / "g.json", "2", f"2, {'9' * 4000}", '"a:0"')
    model = load_model(path)
    op = model.op("b")
    assert op is not None and op.output_descs[0].shape is None
