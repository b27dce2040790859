"""Line grammars: every [PROF] kind, prefixes, number syntax, [PERF] formulas, [DFX] markers."""

from __future__ import annotations

import pytest

from autofuse_studio.core.att.lines import find_case_label, parse_dfx, parse_perf, parse_prof
from autofuse_studio.core.att.model import (
    BestResult,
    CaseKey,
    Objective,
    ResultPerf,
    SourceRef,
    TemplateSelection,
    TilingValue,
)

SRC = SourceRef("x.log", 7)


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("[Add] [PROF]The value of s0t_size is 128 in graph0_result0_g0_0.", 128.0),
        ("[Add] [PROF]The value of s0t_size is -1.5e3 in graph0_result0_g0_0.", -1500.0),
        ("[Add] [PROF]The value of s0t_size is +.5 in graph0_result0_g0_0.", 0.5),
        ("[INFO] [Add] [PROF]The value of s0t_size is 2 in graph0_result0_g0_0.", 2.0),
        ("[INFO] GE(1,python): TilingSummary:[Add][PROF]The value of s0t_size is 2 in graph0_result0_g0_0.", 2.0),
        ("[Add] [PROF]The value of s0t_size is 2 in graph0_result0_g0_0.\r", 2.0),
    ],
)
def test_tiling_value_forms(line: str, value: float) -> None:
    record = parse_prof(line, SRC)
    assert isinstance(record, TilingValue)
    assert (record.operator, record.name, record.value, record.key) == ("Add", "s0t_size", value,
                                                                        CaseKey(0, 0, 0, 0))
    assert record.source == SRC


def test_sub_case_notation_and_negative_group() -> None:
    record = parse_prof("[Op] [PROF]The value of a is 1 in graph2_result1_g-1_R3", SRC)
    assert isinstance(record, TilingValue)
    assert record.key == CaseKey(2, 1, -1, 3)


def test_objective_template_best_and_result_perf() -> None:
    objective = parse_prof("[Add] [PROF]The objective value of the tiling data is 1.5e3 in graph0_result1_g2_3.", SRC)
    assert isinstance(objective, Objective)
    assert (objective.value, objective.key) == (1500.0, CaseKey(0, 1, 2, 3))
    template = parse_prof("[Add] [PROF]Among the templates, tiling case 4 of graph1_result2_g3 is the best choice.", SRC)
    assert isinstance(template, TemplateSelection)
    assert template.key == CaseKey(1, 2, 3, 4)
    best = parse_prof("[Add] [PROF]Among all schedule results, graph0_result2 is the best choice.", SRC)
    assert isinstance(best, BestResult)
    assert (best.graph, best.result) == (0, 2)


@pytest.mark.parametrize(
    "line",
    [
        "[Add] The value of graph0_result0 is 194103.049583.",
        "[INFO] [Add] [PROF]The value of graph0_result0 is 194103.049583.",
        "TilingSummary:[Add]The value of graph0_result0 is 194103.049583",
    ],
)
def test_result_perf_forms(line: str) -> None:
    record = parse_prof(line, SRC)
    assert isinstance(record, ResultPerf)
    assert (record.operator, record.graph, record.result, record.value) == ("Add", 0, 0, 194103.049583)


def test_score_map_line_is_not_a_selection() -> None:
    line = "[Add] [PROF]The score_map[0] has been processed, tiling case 0 of graph0_result0_g0 is the best choice."
    assert parse_prof(line, SRC) is None
    assert parse_prof("[Add] Start GetTiling.", SRC) is None


def test_perf_formula_with_total_and_contributions() -> None:
    node = parse_perf("[FA] [PERF][graph1_result1_g0_R2] Load_0[Load]: AIV_MTE2 = "
                      "(base_cycles=172.2 + head_cost=27.01) = 199.21", SRC)
    assert node is not None
    assert (node.operator, node.key, node.node, node.node_type, node.pipe) == (
        "FA", CaseKey(1, 1, 0, 2), "Load_0", "Load", "AIV_MTE2")
    assert node.total == 199.21
    assert [i.name for i in node.items] == ["base_cycles", "head_cost"]
    assert node.items[0].contribution == pytest.approx(172.2 / 199.21)


def test_perf_without_tag_or_total() -> None:
    node = parse_perf("[Op] [PERF] Add_0[Add]: AIV_VEC = (a=1 + b=-2e0 + c=3)", SRC)
    assert node is not None
    assert node.key == CaseKey(0, 0, 0, 0)
    assert node.total == 2.0  # the sum of the terms when no explicit total is printed
    zero = parse_perf("[Op] [PERF] Add_0[Add]: AIV_VEC = base_cost=0", SRC)
    assert zero is not None
    assert zero.total == 0 and zero.items[0].contribution == 0.0


def test_dfx_markers_and_case_label() -> None:
    begin = parse_dfx("[DFX]Begin to gen model info for asc graph 0, schedule result 1, schedule group 2, "
                      "tiling_case size 2, graph name FlashAttentionScore.", SRC)
    assert begin is not None
    assert (begin.kind, begin.graph, begin.result, begin.group, begin.graph_name) == (
        "outer_begin", 0, 1, 2, "FlashAttentionScore")
    end = parse_dfx("[DFX]End to gen model info for graph0_result1_g2 tiling_case size 2, graph name X.", SRC)
    assert end is not None and end.kind == "outer_end" and end.group == 2
    inner = parse_dfx("[DFX]Begin to generate model info for graph FA of tiling case id 3", SRC)
    assert inner is not None and (inner.kind, inner.graph_name, inner.case) == ("inner_begin", "FA", 3)
    assert find_case_label("xx graph3_result2_g1_R4 yy") == CaseKey(3, 2, 1, 4)
    assert find_case_label("graph0_result0_g0 is the best") is None
