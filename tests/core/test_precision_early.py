"""Comparing before the af-close graph is read: results are reused only for identical pairs, never change a row."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.errors import Cancelled, GraphParseError
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.precision import compare_process, plan
from autofuse_studio.core.precision import scheduler as scheduler_module
from autofuse_studio.core.precision.engine import LoadedCase, load_case, run_mode1
from autofuse_studio.core.precision.pair import PairResult, PairSide
from autofuse_studio.core.precision.plan import PlannedRow
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.core.precision.scheduler import PairScheduler
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, no_progress
from tests.core.conftest import mode1_request


def _row_facts(row: PrecisionRow) -> str:
    return repr(row)  # every field, NaN metrics included (repr shows them as nan)


@pytest.mark.parametrize("compare_input", [False, True])
def test_early_comparing_gives_the_same_rows_as_comparing_after_loading(
        coverage_case: tuple[Path, dict[str, Any]], compare_input: bool) -> None:
    # The coverage case has padded 5HD, NZ, bf16 and dtype casts: origin descs that differ from the
    # fused ones, so some early guesses are wrong and must be compared again.
    root, manifest = coverage_case
    request = mode1_request(root, manifest, compare_input=compare_input, jobs=2)
    early = run_mode1(request)
    late = run_mode1(request, case=load_case(request))
    assert [_row_facts(row) for row in early.rows] == [_row_facts(row) for row in late.rows]
    assert early.first_divergence is not None and late.first_divergence is not None
    assert early.first_divergence.key == late.first_divergence.key


def test_on_case_receives_the_loaded_case_once(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    cases: list[LoadedCase] = []
    result = run_mode1(mode1_request(root, manifest), on_case=cases.append)
    assert len(cases) == 1
    assert cases[0].open_index.files_indexed > 0
    assert {row.fused_op for row in result.rows} <= {fused.op.name for fused in cases[0].mapping.fused_ops}


@pytest.mark.parametrize("preloaded", [False, True])
def test_the_case_comes_once_before_the_compared_rows(coverage_case: tuple[Path, dict[str, Any]],
                                                      preloaded: bool) -> None:
    root, manifest = coverage_case
    request = mode1_request(root, manifest, jobs=2)
    given = load_case(request) if preloaded else None
    events: list[tuple[str, object]] = []
    result = run_mode1(request, case=given, on_case=lambda case: events.append(("case", case)),
                       on_rows=lambda rows: events.append(("rows", len(rows))))
    cases = [payload for kind, payload in events if kind == "case"]
    assert cases == ([] if preloaded else [cases[0]])
    # Only the first batch (the rows nothing is compared for) comes first; every compared row after it.
    rows = [payload for kind, payload in events if kind == "rows"]
    assert len(rows) >= 2 and sum(rows) == len(result.rows)  # type: ignore[arg-type]
    if not preloaded:
        assert events[0][0] == "case"


def test_cancel_while_comparing_early_stops_the_run(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    token = CancelToken()

    def progress(done: int, total: int, message: str = "") -> None:
        if "fusion-disabled" in message:  # early comparing has just started
            token.cancel()

    with pytest.raises(Cancelled):
        run_mode1(mode1_request(root, manifest, jobs=2), progress=progress, cancel=token)


def test_broken_af_close_graph_is_reported_after_early_comparing(coverage_case: tuple[Path, dict[str, Any]],
                                                                 tmp_path: Path, automatic_gc: None) -> None:
    root, manifest = coverage_case
    broken = tmp_path / "af_close.json"
    broken.write_text('{"graph": [{"name": "g", "op": [', encoding="utf-8")
    request = replace(mode1_request(root, manifest, jobs=2), af_close_graph=broken)
    with pytest.raises(GraphParseError, match="truncated"):
        run_mode1(request)
    assert gc.isenabled()


def _planned(fused: PairSide, origin: PairSide, name: str) -> PlannedRow:
    row = PrecisionRow(OUTPUT, name, 0, name, 0, status="NO_MAPPING")
    return PlannedRow(row, fused, origin, 10)


def test_scheduler_reuses_identical_pairs_and_recompares_changed_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[str, str]] = []

    def fake_compare(fused: PairSide, origin: PairSide, executor: object = None) -> PairResult:
        compared.append((fused.label, origin.label))
        return PairResult("OK", message=f"{fused.label}/{origin.label}/{origin.graph_dtype}")

    monkeypatch.setattr(scheduler_module, "compare_pair", fake_compare)
    monkeypatch.setenv(compare_process.ENV, "0")  # compared in this process, where the fake is
    plain = LayoutInfo("ND", "ND", (2, 3))
    sides = {name: (PairSide(tmp_path / f"{name}.npy", plain, f"{name}-f", "DT_FLOAT16"),
                    PairSide(tmp_path / f"{name}o.npy", plain, f"{name}-o", "DT_FLOAT16")) for name in "abc"}
    provisional = [_planned(*sides[name], name) for name in "abc"]
    # The real af-close graph says op b's output is float32: that pair differs and is compared again.
    changed = replace(sides["b"][1], graph_dtype="DT_FLOAT")
    final = [_planned(*sides["a"], "a"), _planned(sides["b"][0], changed, "b"), _planned(*sides["c"], "c")]
    delivered: list[int] = []
    with PairScheduler(2, NEVER_CANCELLED) as scheduler:
        scheduler.start_early(provisional)
        outcomes = scheduler.compare(final, no_progress,
                                     lambda group: delivered.extend(number for number, _, _ in group))
    assert sorted(compared) == [("a-f", "a-o"), ("b-f", "b-o"), ("b-f", "b-o"), ("c-f", "c-o")]
    assert outcomes[1].message == "b-f/b-o/DT_FLOAT"
    assert outcomes[0].message == "a-f/a-o/DT_FLOAT16"
    assert sorted(delivered) == [0, 1, 2]


def test_big_pairs_path_gives_the_same_rows(coverage_case: tuple[Path, dict[str, Any]],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Pairs are routed by the size their graph descs announce (no stat per file); both routes agree.
    from autofuse_studio.core.precision import scheduler

    root, manifest = coverage_case
    request = mode1_request(root, manifest, compare_input=True, jobs=2)
    small = run_mode1(request)
    monkeypatch.setattr(scheduler, "LARGE_PAIR_BYTES", -1)  # every pair takes the block-parallel route
    large = run_mode1(request)
    assert [_row_facts(row) for row in small.rows] == [_row_facts(row) for row in large.rows]


def test_producer_index_is_worked_out_once_per_model_and_equal_to_a_fresh_one(
        coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    first, second = (load_model(root / manifest["graphs"]["af_open"]) for _ in range(2))
    index = plan.producer_index(first)
    assert plan.producer_index(first) is index  # the verdicts and the window share it
    assert plan.producer_index(second) is not index and plan.producer_index(second) == index
    assert index == plan._producer_index(first)
    watched = weakref.ref(first)
    del first, index
    gc.collect()
    assert watched() is None  # the cache does not keep a dropped model alive


def test_only_tiny_pairs_go_to_the_helper_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[str] = []

    def fake_compare(fused: PairSide, origin: PairSide, executor: object = None) -> PairResult:
        compared.append(fused.label)
        return PairResult("OK")

    monkeypatch.setattr(scheduler_module, "compare_pair", fake_compare)
    monkeypatch.setenv(compare_process.ENV, "1")
    # The routing alone: the run's own thread would otherwise race the helper for the tiny frame once planning is
    # done (compare_queued, tested in test_compare_process.py).
    monkeypatch.setattr(compare_process.CompareHelper, "compare_queued", lambda self, compare: 0)
    plain = LayoutInfo("ND", "ND", (2, 3))
    tiny = _planned(PairSide(tmp_path / "t.npy", plain, "t-f"), PairSide(tmp_path / "to.npy", plain, "t-o"), "t")
    big = _planned(PairSide(tmp_path / "b.npy", plain, "b-f"), PairSide(tmp_path / "bo.npy", plain, "b-o"), "b")
    big.size_bytes = compare_process.TINY_PAIR_BYTES + 1
    with PairScheduler(2, NEVER_CANCELLED) as scheduler:
        outcomes = scheduler.compare([tiny, big], no_progress)
    # The big pair is compared on the threads (the fake); the tiny one by the helper, which reads the missing file.
    assert compared == ["b-f"]
    assert outcomes[0].status == "NPY_LOAD_ERROR" and str(tmp_path / "t.npy") in outcomes[0].message
