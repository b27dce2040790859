"""Core pieces behind the ATT tab: all-cases perf model, per-operator picture, case facts, byte progress."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.att.case_details import case_details, node_formula
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.perf_cases_render import operator_picture, pipe_totals
from autofuse_studio.core.att.perf_render import BOTTLENECK, SELECTED, SENSITIVITY
from autofuse_studio.core.att.scanner import scan_logs_by_bytes
from autofuse_studio.core.att.workspace import AttWorkspace, load_workspace
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.render.display import Rect, Text, walk
from tests.synth.att_log import SyntheticShape, objective_of
from tests.synth.att_perf_log import write_synthetic_perf_log

SHAPE = SyntheticShape(operators=2, results=2, groups=2, cases=3)


@pytest.fixture
def workspace(tmp_path: Path) -> AttWorkspace:
    log = tmp_path / "perf.log"
    write_synthetic_perf_log(log, SHAPE)
    return load_workspace([log])


def test_all_cases_model_keeps_every_case_of_the_chosen_result(workspace: AttWorkspace) -> None:
    op1 = next(op for op in workspace.cases.operators if op.name == "Op1")
    assert (op1.graph, op1.result) == (0, 1)  # tests.synth.att_log: Op1's best result is result 1
    assert [len(g.cases) for g in op1.groups] == [3, 3]
    assert {(g.graph, g.result) for g in op1.groups} == {(0, 1)}
    # The CLI model (what perf_formula.svg draws) keeps only the selected case of each group.
    cli_op1 = next(op for op in workspace.perf.operators if op.name == "Op1")
    assert [[c.key.case for c in g.cases] for g in cli_op1.groups] == [[0], [0]]


def test_bottleneck_moves_between_cases_and_is_red(workspace: AttWorkspace) -> None:
    group = workspace.cases.operators[0].groups[0]
    assert [c.bottleneck_pipe for c in group.cases] == ["AIV_MTE3", "AIV_MTE2", "AIV_MTE2"]
    picture = operator_picture(workspace.cases.operators[0])
    bars = [i for i, _, _ in walk(picture.items) if isinstance(i, Rect) and i.role == "bottleneck-bar"]
    assert len(bars) == 2 * 3  # one red pipe per case
    assert {b.fill for b in bars} == {BOTTLENECK}


def test_pipes_share_one_scale_per_group(workspace: AttWorkspace) -> None:
    group = workspace.cases.operators[0].groups[0]
    picture = operator_picture(workspace.cases.operators[0])
    pipe_bars = [i for i, _, _ in walk(picture.items) if isinstance(i, Rect) and i.role in ("pipe-bar", "bottleneck-bar")]
    first_group = pipe_bars[: 3 * 3]  # 3 cases x 3 pipes (even operators have no CUBE)
    totals = [t for case in group.cases for t in pipe_totals(case).values()]
    ratios = {round(bar.width / total, 6) for bar, total in zip(first_group, totals, strict=True)}
    assert len(ratios) == 1  # width proportional to the total, same factor in every case


def test_selected_case_frame_sensitivity_and_hotspots(workspace: AttWorkspace) -> None:
    picture = operator_picture(workspace.cases.operators[0])
    leaves = [i for i, _, _ in walk(picture.items)]
    frames = [i for i in leaves if isinstance(i, Rect) and i.role == "selected-case-frame"]
    assert len(frames) == 2 and {f.stroke for f in frames} == {SELECTED}
    stars = [i.text for i in leaves if isinstance(i, Text) and i.role == "selected-case"]
    assert stars == ["case0 ★", "case0 ★"]
    orange = [i for i in leaves if isinstance(i, Rect) and i.role == "sensitivity-bar"]
    assert len(orange) == 6 and {b.fill for b in orange} == {SENSITIVITY}
    assert orange[2].width > orange[1].width > orange[0].width  # tile = 100, 160, 220
    node = next(h for h in picture.hotspots if h.kind == "node")
    assert "Load_0[Load]: AIV_MTE2 = tile=100 + head=20 = 120" in node.text
    spot = picture.hotspot_at(frames[0].x + 2, frames[0].y + frames[0].height - 2)
    assert spot is not None and spot.kind == "case" and spot.key == CaseKey(0, 0, 0, 0)
    assert picture.hotspot_at(-5, -5) is None


def test_case_details_carry_file_and_line(workspace: AttWorkspace) -> None:
    key = CaseKey(0, 1, 1, 2)
    details = case_details(workspace.scans, "Op1", key)
    log_lines = workspace.logs[0].read_text().splitlines()
    assert details.value("objective") == objective_of(1, 1, 1, 2)
    assert details.value("result-perf") == objective_of(1, 1, 0, 0)
    assert not details.selected
    kinds = {fact.kind for fact in details.facts}
    assert kinds == {"tiling", "objective", "result-perf", "perf"}
    for fact in details.facts:
        line = log_lines[fact.source.line - 1]
        assert fact.source.path == str(workspace.logs[0])
        if fact.kind == "tiling":
            assert f"The value of {fact.name} is" in line and "graph0_result1_g1_2" in line
        if fact.kind == "perf":
            assert "[graph0_result1_g1_R2]" in line and fact.name in line
    assert case_details(workspace.scans, "Op1", CaseKey(0, 1, 1, 0)).selected


def test_node_formula_lists_every_term(workspace: AttWorkspace) -> None:
    node = workspace.cases.operators[1].groups[0].cases[0].nodes[-1]
    assert node_formula(node) == "MatMul_0[MatMul]: AIC_CUBE = mac=90 = 90"


def test_byte_progress_is_monotonic_and_complete(tmp_path: Path) -> None:
    log = tmp_path / "p.log"
    write_synthetic_perf_log(log, SyntheticShape(operators=3, noise_per_case=50))
    seen: list[tuple[int, int]] = []
    scan = scan_logs_by_bytes([log], lambda done, total, message="": seen.append((done, total)))
    assert scan.files[0].operators
    dones = [d for d, _ in seen]
    assert dones == sorted(dones) and seen[-1][0] == seen[-1][1] == log.stat().st_size


def test_load_workspace_without_logs_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="No log files"):
        load_workspace([tmp_path])
