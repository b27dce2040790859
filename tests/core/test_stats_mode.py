"""Statistics-mode runs end to end: stats twins of generated cases, verdicts against a reference from the tensors."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.errors import NpyLoadError
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds
from autofuse_studio.core.precision.thresholds import Thresholds, load_thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.core.run.spec import RunSpec
from tests.synth import generate_case
from tests.synth.raw_twin import descs_from_models
from tests.synth.spec import CaseSpec, full_coverage_spec, multi_rank_spec
from tests.synth.stats_twin import stats_twin

CASES = {
    "full_coverage": full_coverage_spec(),
    "two_ranks_fp32": multi_rank_spec(culprit_rank=1, ranks=2, steps=1),
    "fp16_culprit_late": CaseSpec(seed=9, n_fused=7, elements=500, culprit=5, culprit_cosine=0.5),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp(request.param)
    generate_case(root, CASES[request.param])
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    graphs = [root / manifest["graphs"][side] for side in ("af_open", "af_close")]
    descs = descs_from_models([load_model(path) for path in graphs])
    data = {side: root / manifest["data"][side] for side in ("af_open", "af_close")}
    stats = {}
    for side in ("af_open", "af_close"):
        stats[side] = root.parent / f"{root.name}_stats" / side
        shutil.rmtree(stats[side], ignore_errors=True)
        assert stats_twin(data[side], stats[side], descs).files > 0
    return {"graphs": graphs, "data": data, "stats": stats}


def _run(case: dict[str, Any], open_kind: str, close_kind: str, thresholds: Thresholds | None = None
         ) -> PrecisionResult:
    request = RunSpec(*case["graphs"], case[open_kind]["af_open"], case[close_kind]["af_close"], jobs=2,
                           **({"thresholds": thresholds} if thresholds else {}))
    return run_mode1(request)


def _reference_stats(path: str) -> tuple[int, float, float, float, int, int, int]:
    """Count, max, min, avg of the finite values and the NaN/-Inf/+Inf counts, straight from the NPY file."""
    from autofuse_studio.core.dumps.tensors import open_dump_tensor

    tensor, _ = open_dump_tensor(path)
    values = tensor.materialize().astype(np.float64).reshape(-1)
    finite = values[np.isfinite(values)]
    nan = math.nan
    high, low, mean = (float(finite.max()), float(finite.min()), float(finite.mean())) if finite.size else (nan,) * 3
    return (values.size, high, low, mean, int(np.isnan(values).sum()), int(np.isneginf(values).sum()),
            int(np.isposinf(values).sum()))


def _reference_fails(fused: tuple[Any, ...], origin: tuple[Any, ...], limits: StatsLimits) -> bool | None:
    """The documented rule, written out independently of core.precision.stats."""
    if fused[0] != origin[0]:
        return None
    for a, b in zip(fused[1:4], origin[1:4], strict=True):
        diff = abs(a - b)
        if diff > limits.abs_floor and diff / max(abs(a), abs(b), 1e-300) > limits.max_rel:
            return True
    return any(abs(a - b) > limits.max_nonfinite_diff for a, b in zip(fused[4:], origin[4:], strict=True))


def _npy_of(stats_path: str, case: dict[str, Any], side: str) -> str:
    """The NPY a stats row's tensor came from: the same relative path with the tensor suffix."""
    relative = Path(stats_path).relative_to(case["stats"][side])  # {dir}/{op dump}.csv/{kind}.{i}.npy
    name = f"{relative.parent.name.removesuffix('.csv')}.{relative.name}"
    return str(case["data"][side] / relative.parent.parent / name)


def test_statistics_rows_follow_the_rule_on_the_tensors(case: dict[str, Any]) -> None:
    result = _run(case, "stats", "stats")
    limits = StatsLimits()
    checked = 0
    for row in result.rows:
        if row.stats is None or row.fused_file is None or row.origin_file is None:
            continue
        try:
            fused = _reference_stats(_npy_of(row.fused_file, case, "af_open"))
            origin = _reference_stats(_npy_of(row.origin_file, case, "af_close"))
        except NpyLoadError:  # a broken NPY: its CSV row is a failure row, never judged
            assert result.thresholds.stats.fails(row.stats) is None, row.key
            continue
        expected = _reference_fails(fused, origin, limits)
        if any(math.isnan(value) for value in (*fused[1:4], *origin[1:4])):
            continue
        assert result.thresholds.stats.fails(row.stats) == expected, row.key
        checked += 1
    assert checked >= 5


def _culprits(result: PrecisionResult) -> set[tuple[Any, ...]]:
    return {row.key for row in result.rows if row.verdict == VERDICT_CULPRIT}


def test_statistics_name_the_tensor_runs_culprit(case: dict[str, Any]) -> None:
    tensors = _run(case, "data", "data")
    first = tensors.first_divergence
    assert first is not None
    for open_kind, close_kind in (("stats", "stats"), ("stats", "data"), ("data", "stats")):
        result = _run(case, open_kind, close_kind)
        assert result.first_divergence is not None, (open_kind, close_kind)
        assert result.first_divergence.key == first.key, (open_kind, close_kind)
        assert _culprits(result) <= _culprits(tensors) | {first.key}


def test_statistics_rows_in_json(case: dict[str, Any]) -> None:
    result = _run(case, "stats", "stats")
    row = next(row for row in result.rows if row.stats is not None and row.stats.comparable)
    record = row.to_dict()
    assert record["statistics"]["items"]["avg"]["fused"] == row.stats.item("avg").fused  # type: ignore[union-attr]
    json.dumps(result.to_dict(), allow_nan=False)
    assert "stats" in result.thresholds.as_dict()


def test_statistics_thresholds_decide_verdicts(case: dict[str, Any]) -> None:
    result = _run(case, "stats", "stats")
    loose = Thresholds(stats=StatsThresholds(StatsLimits(max_rel=10.0, abs_floor=1e9, max_nonfinite_diff=10 ** 9)))
    assign_verdicts(result.rows, loose, {})
    assert not _culprits(result)


def test_stats_side_index_is_statistics_only(case: dict[str, Any]) -> None:
    index = DumpIndex.build(case["stats"]["af_open"])
    assert index.statistics_only
    assert "statistics CSV" in index.describe()


def test_thresholds_toml_stats_table(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[default]\ncosine = 0.995\n[stats]\nmax_rel = 0.05\n[stats.dtype.float16]\nabs_floor = 0.01\n")
    thresholds = load_thresholds(path)
    assert thresholds.stats.default.max_rel == 0.05
    assert thresholds.stats.limits_for("DT_FLOAT16") == StatsLimits(max_rel=0.05, abs_floor=0.01)
    path.write_text("[stats]\nmax_rel = -1\n")
    with pytest.raises(Exception, match="max_rel"):
        load_thresholds(path)


def test_rows_without_statistics_are_not_judged() -> None:
    row = PrecisionRow("output", "op", 0, "origin", 0, "FILE_NOT_FOUND")
    assert not row.compared


def test_statistics_rows_survive_the_record_stream(case: dict[str, Any]) -> None:
    """Host runs stream rows as JSON records: a statistics row comes back equal, thresholds too."""
    from autofuse_studio.core.precision.row_stream import (
        decode_record,
        encode_record,
        row_from_record,
        row_to_record,
        thresholds_from_record,
        thresholds_to_record,
    )

    result = _run(case, "stats", "stats")
    rows = [row for row in result.rows if row.stats is not None]
    assert rows
    for row in rows:
        record = decode_record(encode_record({"type": "row", **row_to_record(row)}))
        assert row_from_record(record) == row
    thresholds = Thresholds(stats=StatsThresholds(StatsLimits(0.2, 0.5, 3), {"float16": StatsLimits(0.1)}))
    assert thresholds_from_record(thresholds_to_record(thresholds)) == thresholds
