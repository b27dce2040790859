"""Multi-rank dumps end to end: generated data-parallel cases whose traps catch any rank-blind or run-mixing pick."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from tests.core.conftest import mode1_request
from tests.synth import generate_case
from tests.synth.spec import CaseSpec, multi_rank_spec

# Each case varies the knobs a field dump varies: rank count and naming, layout, runs, missing ranks, loops.
CASES = {
    "four_ranks_culprit_on_rank_2": {},
    "eight_ranks_three_runs_device_folders": {"ranks": 8, "culprit_rank": 5, "runs": 3, "layout": "rank_first",
                                              "rank_folder": "device{rank}"},
    "two_runs_standard": {"runs": 2},
    "rank_missing_on_af_close": {"missing_ranks": (("af_close", 3),)},
    "rank_missing_on_af_open": {"missing_ranks": (("af_open", 0),)},
    "loop_equal_counts": {"loop_occurrences": 3},
    "loop_unequal_counts": {"loop_occurrences": 2, "loop_extra_dump": True},
    "msprobe_step_first": {"layout": "step_first", "step_folder": "step{step}", "rank_folder": "rank_{rank}"},
    "npu_folders_one_step": {"layout": "rank_first", "rank_folder": "npu{rank}", "steps": 1, "ranks": 3,
                             "culprit_rank": 1},
    "culprit_on_two_ranks_with_features": {"ranks": 3, "culprit_ranks": (0, 2), "runs": 2,
                                           "features": frozenset({"stale_duplicate", "multi_output", "subgraph",
                                                                  "missing_npy", "nc1hwc0", "long_name"})},
}


def _spec(knobs: dict[str, Any]) -> CaseSpec:
    knobs = dict(knobs)
    culprit_rank = knobs.pop("culprit_rank", 2)
    return multi_rank_spec(culprit_rank=culprit_rank, **knobs)


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp(request.param)
    generate_case(root, _spec(CASES[request.param]))
    return root, json.loads((root / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def results(case: tuple[Path, dict[str, Any]]) -> dict[bool, PrecisionResult]:
    root, manifest = case
    return {compare_input: run_mode1(mode1_request(root, manifest, compare_input=compare_input, jobs=2))
            for compare_input in (False, True)}


def _key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["rank"], row["step"], row["occurrence"], row["kind"], row["fused_op"], row["fused_index"])


@pytest.mark.parametrize("compare_input", [False, True])
def test_every_row_pairs_rank_with_rank(case: tuple[Path, dict[str, Any]], results: dict[bool, PrecisionResult],
                                        compare_input: bool) -> None:
    _, manifest = case
    result = results[compare_input]
    expected = {_key(row): row for row in manifest["rows"] if compare_input or row["kind"] == "output"}
    ours = {row.key: row for row in result.rows}
    assert set(ours) == set(expected)
    verdict = "expected_verdict_compare_input" if compare_input else "expected_verdict"
    wrong = [(key, row.status, row.verdict, expected[key]["expected_status"], expected[key][verdict])
             for key, row in ours.items()
             if (row.status, row.verdict) != (expected[key]["expected_status"], expected[key][verdict])]
    assert wrong == []
    for key, row in ours.items():
        if expected[key]["cosine"] is not None and row.metrics is not None:
            assert row.metrics.cosine == pytest.approx(expected[key]["cosine"], abs=2e-3)


def test_first_divergence_overall_and_by_rank(case: tuple[Path, dict[str, Any]],
                                              results: dict[bool, PrecisionResult]) -> None:
    _, manifest = case
    result = results[False]
    first = result.first_divergence
    assert first is not None
    want = manifest["first_divergence"]
    assert (first.rank, first.step, first.fused_op, first.fused_index) == (
        want.get("rank"), want["step"], want["fused_op"], want["fused_index"])
    by_rank = {rank: None if row is None else (row.step, row.fused_op, row.fused_index)
               for rank, row in result.first_divergence_by_rank.items()}
    assert by_rank == {rank: None if row is None else (row["step"], row["fused_op"], row["fused_index"])
                       for rank, row in manifest["first_divergence_by_rank"].items()}
    document = result.to_dict()
    assert document["first_divergence"]["rank"] == want.get("rank")
    assert set(document["first_divergence_by_rank"]) == set(manifest["first_divergence_by_rank"])


def test_warnings_are_one_short_sentence_per_kind(results: dict[bool, PrecisionResult]) -> None:
    for result in results.values():
        kinds = [(notice.kind, notice.side) for notice in result.notices if notice.kind != "graph"]
        assert len(kinds) == len(set(kinds)), kinds
        for notice in result.notices:
            assert len(notice.message) < 400, notice.message
            assert notice.count >= 1
            document = notice.to_dict()
            assert document["kind"] == notice.kind and isinstance(document["items"], list)
        json.dumps(result.to_dict(), allow_nan=False)


def test_rows_carry_the_rank_next_to_the_step(results: dict[bool, PrecisionResult]) -> None:
    rows = results[True].to_dict()["rows"]
    assert all(isinstance(row["rank"], str) for row in rows)
    assert list(rows[0])[:4] == ["kind", "rank", "step", "occurrence"]


def _generated(tmp_path: Path, **knobs: Any) -> tuple[Path, dict[str, Any]]:
    generate_case(tmp_path, _spec(knobs))
    return tmp_path, json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))


def test_rank_option_selects_ranks(tmp_path: Path) -> None:
    root, manifest = _generated(tmp_path)
    result = run_mode1(mode1_request(root, manifest, ranks=["1", "2"]))
    assert {row.rank for row in result.rows} == {"1", "2"}
    assert result.ranks == ["1", "2"]
    assert result.first_divergence is not None and result.first_divergence.rank == "2"
    quiet = run_mode1(mode1_request(root, manifest, ranks=["0", "3"]))
    assert quiet.first_divergence is None
    assert set(quiet.first_divergence_by_rank) == {"0", "3"}
    with pytest.raises(InputError, match="Rank 9 is not in the dump folders"):
        run_mode1(mode1_request(root, manifest, ranks=["9"]))


def test_step_option_on_every_rank(tmp_path: Path) -> None:
    root, manifest = _generated(tmp_path)
    result = run_mode1(mode1_request(root, manifest, step="1"))
    assert {(row.rank, row.step) for row in result.rows} == {(rank, "1") for rank in "0123"}


def test_missing_rank_is_said_once_naming_rank_and_side(tmp_path: Path) -> None:
    root, manifest = _generated(tmp_path, missing_ranks=(("af_close", 1), ("af_close", 3)))
    result = run_mode1(mode1_request(root, manifest))
    rank_notices = [notice for notice in result.notices if notice.kind == "rank_on_one_side"]
    assert len(rank_notices) == 1
    assert "Ranks 1, 3" in rank_notices[0].message and "af-close" in rank_notices[0].message
    assert {row.status for row in result.rows if row.rank in ("1", "3")} <= {"RANK_NOT_FOUND", "NO_MAPPING"}
    assert result.first_divergence is not None and result.first_divergence.rank == "2"


def test_one_rank_on_each_side_with_other_ids_is_compared_and_said(tmp_path: Path) -> None:
    root, manifest = _generated(tmp_path, ranks=2, culprit_rank=1, missing_ranks=(("af_open", 0), ("af_close", 1)))
    result = run_mode1(mode1_request(root, manifest))
    assert {row.rank for row in result.rows} == {None}
    assert any(notice.kind == "ranks_paired_by_position" for notice in result.notices)
    # Different data on the two ranks: every compared row fails, the tool says which ranks it paired.
    assert "rank 1" in " ".join(result.warnings) and "rank 0" in " ".join(result.warnings)


def test_single_rank_case_has_no_rank_anywhere(tmp_path: Path) -> None:
    root, manifest = _generated(tmp_path, ranks=1, culprit_rank=0)
    result = run_mode1(mode1_request(root, manifest))
    assert {row.rank for row in result.rows} == {None}
    assert result.ranks == [] and result.first_divergence_by_rank == {}
    assert result.to_dict()["first_divergence"]["rank"] is None
