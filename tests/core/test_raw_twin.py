"""Every generated case compared twice, from NPYs and from their raw twin: the same rows, statuses, verdicts, metrics."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.run.spec import RunSpec
from tests.synth import generate_case
from tests.synth.raw_twin import descs_from_models, raw_twin
from tests.synth.spec import ALL_FEATURES, CaseSpec, full_coverage_spec, multi_rank_spec

# The knobs field dumps vary: every status and verdict, ranks, runs, loops, folder layouts, dtypes, nano files.
CASES: dict[str, tuple[CaseSpec, int]] = {
    "full_coverage": (full_coverage_spec(), 0),
    "full_coverage_every_third_nano": (full_coverage_spec(), 3),
    "fp16_layouts_and_bf16": (CaseSpec(seed=3, n_fused=6, elements=300, dtype="float16", culprit=2,
                              features=frozenset({"nc1hwc0", "fractal_nz", "bf16", "multi_output", "long_name"})), 0),
    "fp32_all_features": (CaseSpec(seed=5, n_fused=5, elements=257, dtype="float32", culprit=1, steps=2,
                                   features=ALL_FEATURES), 2),
    "four_ranks_two_runs": (multi_rank_spec(culprit_rank=1, runs=2), 0),
    "msprobe_step_first_loops": (multi_rank_spec(culprit_rank=0, ranks=2, layout="step_first",
                                                 step_folder="step{step}", rank_folder="rank_{rank}",
                                                 loop_occurrences=3), 5),
}


def _twin(root: Path, manifest: dict[str, Any], nano_every: int) -> dict[str, Path]:
    graphs = [load_model(root / manifest["graphs"][side]) for side in ("af_open", "af_close")]
    descs = descs_from_models(graphs)
    sides = {}
    for side in ("af_open", "af_close"):
        out = root.parent / f"{root.name}_raw" / side
        shutil.rmtree(out, ignore_errors=True)
        report = raw_twin(root / manifest["data"][side], out, descs, nano_every=nano_every)
        assert report.files > 0
        sides[side] = out
    return sides


@pytest.fixture(scope="module", params=sorted(CASES))
def twins(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> tuple[Path, dict[str, Any], dict[str, Path]]:
    spec, nano_every = CASES[request.param]
    root = tmp_path_factory.mktemp(request.param)
    generate_case(root, spec)
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    return root, manifest, _twin(root, manifest, nano_every)


def _run(root: Path, manifest: dict[str, Any], data: dict[str, Path] | None, compare_input: bool) -> PrecisionResult:
    graphs = [root / manifest["graphs"][side] for side in ("af_open", "af_close")]
    folders = [data[side] if data else root / manifest["data"][side] for side in ("af_open", "af_close")]
    return run_mode1(RunSpec(*graphs, *folders, compare_input=compare_input, jobs=2))


def _same_number(left: float | None, right: float | None) -> bool:
    if left is None or right is None:
        return left is right
    return (math.isnan(left) and math.isnan(right)) or left == right


@pytest.mark.parametrize("compare_input", [False, True])
def test_raw_twin_gives_the_npy_rows(twins: tuple[Path, dict[str, Any], dict[str, Path]], compare_input: bool) -> None:
    root, manifest, raw = twins
    npy_result, raw_result = _run(root, manifest, None, compare_input), _run(root, manifest, raw, compare_input)
    assert len(npy_result.rows) == len(raw_result.rows)
    raw_rows = {row.key: row for row in raw_result.rows}
    differences = []
    for row in npy_result.rows:
        twin = raw_rows[row.key]
        same = (row.status, row.verdict, row.fused_dtype, row.origin_dtype) == (
            twin.status, twin.verdict, twin.fused_dtype, twin.origin_dtype)
        if row.metrics is not None and twin.metrics is not None:
            same = same and all(_same_number(getattr(row.metrics, name), getattr(twin.metrics, name))
                                for name in ("cosine", "max_abs_err", "max_rel_err", "mean_abs_err"))
        elif (row.metrics is None) != (twin.metrics is None):
            same = False
        if not same:
            differences.append((row.key, row.status, twin.status, twin.message[:160]))
    assert differences == []
    first, twin_first = npy_result.first_divergence, raw_result.first_divergence
    assert (first is None) == (twin_first is None)
    if first is not None and twin_first is not None:
        assert first.key == twin_first.key


def test_raw_files_are_counted_and_described(twins: tuple[Path, dict[str, Any], dict[str, Path]]) -> None:
    _root, _manifest, raw = twins
    index = DumpIndex.build(raw["af_open"])
    assert index.files_indexed == 0 and index.counts["raw"] > 0
    assert f"{index.counts['raw']:,} raw dump file" in index.describe()
    assert index.describe().endswith("0 NPYs")


def test_metrics_keys_exist() -> None:
    """The metric names compared above are fields of Metrics (a rename must not make the test vacuous)."""
    from autofuse_studio.core.precision.metrics import Metrics

    assert {"cosine", "max_abs_err", "max_rel_err", "mean_abs_err"} <= set(Metrics.__dataclass_fields__)


def _strip_origin_attrs(document: Any) -> int:
    """Remove every output desc's _datadump_origin_name/_index attribute from a graph JSON; returns how many."""
    removed = 0
    if isinstance(document, dict):
        attrs = document.get("attr")
        if isinstance(attrs, list):
            kept = [item for item in attrs if not (isinstance(item, dict) and item.get("key") in (
                "_datadump_origin_name", "_datadump_origin_output_index"))]
            removed += len(attrs) - len(kept)
            document["attr"] = kept
        for value in document.values():
            removed += _strip_origin_attrs(value)
    elif isinstance(document, list):
        for value in document:
            removed += _strip_origin_attrs(value)
    return removed


def test_raw_headers_pair_what_the_graph_lost(tmp_path: Path) -> None:
    """A graph without origin attributes: NO_MAPPING from NPYs, paired by original_op from raw dumps."""
    root = tmp_path / "case"
    generate_case(root, full_coverage_spec())
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    raw = _twin(root, manifest, 0)
    graph = json.loads((root / manifest["graphs"]["af_open"]).read_text(encoding="utf-8"))
    assert _strip_origin_attrs(graph) > 10
    stripped = tmp_path / "af_open_without_origins.json"
    stripped.write_text(json.dumps(graph), encoding="utf-8")
    close_graph = root / manifest["graphs"]["af_close"]
    folders = [raw["af_open"], raw["af_close"]]
    full = run_mode1(RunSpec(root / manifest["graphs"]["af_open"], close_graph, *folders))
    recovered = run_mode1(RunSpec(stripped, close_graph, *folders))
    lost = run_mode1(RunSpec(stripped, close_graph, root / manifest["data"]["af_open"],
                                  root / manifest["data"]["af_close"]))
    # An output the dump lacks has no header to name its origin: those stay unmapped.
    outputs = [row for row in full.rows if row.kind == "output" and row.status != "FILE_NOT_FOUND"]
    assert sum(row.status == "NO_MAPPING" for row in lost.rows) > sum(row.status == "NO_MAPPING" for row in outputs)
    by_key = {row.key: row for row in recovered.rows}
    assert [(row.key, row.origin_op, row.status, row.verdict) for row in outputs] == [
        (row.key, by_key[row.key].origin_op, by_key[row.key].status, by_key[row.key].verdict) for row in outputs]
    kinds = {notice.kind for notice in recovered.notices}
    assert "origin_from_dump_header" in kinds
