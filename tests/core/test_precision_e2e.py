"""End to end: the engine on generated cases reproduces every expected status, verdict and divergence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.engine import load_case, run_mode1
from tests.core.conftest import mode1_request

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("compare_input", [False, True])
def test_every_status_and_verdict(coverage_case: tuple[Path, dict[str, Any]], compare_input: bool) -> None:
    root, manifest = coverage_case
    result = run_mode1(mode1_request(root, manifest, compare_input=compare_input, jobs=2))
    ours = {(row.step, row.kind, row.fused_op, row.fused_index): row for row in result.rows}
    expected_rows = [row for row in manifest["rows"] if compare_input or row["kind"] == "output"]
    assert len(result.rows) == len(expected_rows)
    verdict_key = "expected_verdict_compare_input" if compare_input else "expected_verdict"
    mismatches = []
    for expected in expected_rows:
        row = ours[(expected["step"], expected["kind"], expected["fused_op"], expected["fused_index"])]
        if (row.status, row.verdict) != (expected["expected_status"], expected[verdict_key]):
            mismatches.append((row.key, row.status, row.verdict, expected["expected_status"], expected[verdict_key]))
    assert mismatches == []
    first = result.first_divergence
    assert first is not None
    assert (first.step, first.fused_op, first.fused_index, first.kind) == tuple(
        manifest["first_divergence"][key] for key in ("step", "fused_op", "fused_index", "kind"))
    statuses = {row.status.split("_")[0] for row in result.rows}
    assert {"OK", "FILE", "NPY", "FORMAT", "SHAPE", "COMPUTE", "NO", "DTYPE"} <= statuses


def test_pickled_npy_is_never_executed(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    result = run_mode1(mode1_request(root, manifest, compare_input=True, jobs=1))
    assert any(row.status == "NPY_LOAD_ERROR" and "objects" in row.message for row in result.rows)
    assert not Path(manifest["pickle_marker"]).exists()


def test_step_option_and_unknown_step(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    result = run_mode1(mode1_request(root, manifest, step="1"))
    assert {row.step for row in result.rows} == {"1"}
    with pytest.raises(InputError, match="Step 7"):
        run_mode1(mode1_request(root, manifest, step="7"))


def test_stale_duplicate_is_reported_and_newest_used(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    case = load_case(mode1_request(root, manifest))
    assert any("several" in warning for warning in case.open_index.warnings)


def test_rows_stream_to_a_sink_before_the_result(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    seen: list[str] = []
    result = run_mode1(mode1_request(root, manifest), on_rows=lambda rows: seen.extend(row.status for row in rows))
    assert len(seen) == len(result.rows)


def test_bundled_demo_case_runs() -> None:
    demo = REPO / "resources" / "demo"
    manifest = json.loads((demo / "manifest.json").read_text(encoding="utf-8"))
    result = run_mode1(mode1_request(demo, manifest, compare_input=True))
    assert result.first_divergence is not None
    assert result.first_divergence.fused_op == manifest["first_divergence"]["fused_op"]
