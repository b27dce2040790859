"""autofuse_studio.api: compare_case, compare_npys and summarize_att match the CLI and export to pandas/JSON."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio import api
from autofuse_studio.cli import main as cli_main
from autofuse_studio.core.reports.precision_files import TABLE_COLUMNS
from tests.synth import generate_case
from tests.synth.att_log import SyntheticShape, write_synthetic_log
from tests.synth.spec import multi_rank_spec


@pytest.fixture(scope="module")
def demo() -> api.CaseComparison:
    """The shipped demo case, compared once for the module."""
    return api.compare_case(*api.demo_case(), jobs=2)


@pytest.fixture
def npys(tmp_path: Path) -> tuple[Path, Path, Path]:
    """a.npy, a slightly perturbed b.npy, and c.npy with a different shape."""
    values = np.linspace(-1, 1, 600, dtype=np.float32).reshape(20, 30)
    paths = tmp_path / "a.npy", tmp_path / "b.npy", tmp_path / "c.npy"
    np.save(paths[0], values)
    np.save(paths[1], values + np.float32(1e-3))
    np.save(paths[2], values.reshape(30, 20)[:10])
    return paths


def test_compare_case_finds_the_demo_culprit(demo: api.CaseComparison) -> None:
    manifest = json.loads((api.demo_case().af_open_graph.parents[1] / "manifest.json").read_text())
    first = demo.first_divergence
    assert first is not None
    assert (first.fused_op, first.kind, first.fused_index) == tuple(
        manifest["first_divergence"][key] for key in ("fused_op", "kind", "fused_index"))
    assert first in demo.culprits
    assert demo.counts()["CULPRIT"] == len(demo.culprits)
    assert "first divergence: autofuse_3_Mul_Add output 0" in repr(demo)


def test_case_dataframe_has_one_row_per_result_row(demo: api.CaseComparison) -> None:
    frame = demo.to_dataframe()
    assert list(frame.columns) == list(TABLE_COLUMNS)  # rank, step and occurrence always included
    assert len(frame) == len(demo.rows)
    assert list(frame["fused_op"]) == [row.fused_op for row in demo.rows]
    culprits = frame[frame["verdict"] == "CULPRIT"]
    assert list(culprits["fused_op"]) == [row.fused_op for row in demo.culprits]
    compared = [row for row in demo.rows if row.metrics is not None]
    assert frame["elements"].notna().sum() == len(compared)
    assert str(frame["elements"].dtype) == "Int64"
    nan_rows = [row for row in compared if math.isnan(row.metrics.cosine)]  # type: ignore[union-attr]
    assert nan_rows, "the demo's nan_inf feature should give NaN metrics"
    assert frame["cosine"].isna().sum() == len(demo.rows) - len(compared) + len(nan_rows)  # NaN kept, not None
    first_compared = frame[frame["elements"].notna()].iloc[0]
    assert isinstance(first_compared["fused_shape"], tuple)


def test_case_json_is_the_nwa_output_document(demo: api.CaseComparison, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    case = api.demo_case()
    target = tmp_path / "nwa.json"
    assert cli_main(["nwa", "--af-open-graph", str(case.af_open_graph), "--af-close-graph", str(case.af_close_graph),
                     "--af-open-data", str(case.af_open_data), "--af-close-data", str(case.af_close_data),
                     "--output", str(target)]) == 0
    capsys.readouterr()
    assert json.loads(demo.to_json()) == json.loads(target.read_text(encoding="utf-8"))
    saved = demo.save(tmp_path / "rows.csv")
    with saved.open(encoding="utf-8-sig") as handle:
        assert len(list(csv.DictReader(handle))) == len(demo.rows)


def test_thresholds_change_the_verdicts(demo: api.CaseComparison, tmp_path: Path) -> None:
    strict = api.compare_case(*api.demo_case(), cosine=0.999999, jobs=2)
    assert sum(strict.counts().get(name, 0) for name in ("CULPRIT", "PROPAGATED")) > \
        sum(demo.counts().get(name, 0) for name in ("CULPRIT", "PROPAGATED"))
    toml = tmp_path / "limits.toml"
    toml.write_text("[default]\ncosine = 0.999999\n", encoding="utf-8")
    assert api.compare_case(*api.demo_case(), thresholds_file=toml, jobs=2).counts() == strict.counts()
    loose = api.make_thresholds(dtype_thresholds={"float16": {"cosine": 0.5}})
    assert loose.limits_for("float16").cosine == 0.5 and loose.limits_for("float32").cosine == 0.99


@pytest.mark.parametrize(("options", "message"), [
    ({"cosine": 2.0}, "cosine"),
    ({"max_abs": -1.0}, "max_abs"),
    ({"dtype_thresholds": {"float16": {"cosin": 0.9}}}, "unknown limit 'cosin'"),
])
def test_bad_limits_are_input_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(api.InputError, match=message):
        api.compare_case(*api.demo_case(), **options)  # type: ignore[arg-type]


def test_missing_inputs_are_input_errors(tmp_path: Path) -> None:
    case = api.demo_case()
    with pytest.raises(api.InputError, match="does not exist"):
        api.compare_case(tmp_path / "nope.json", case.af_close_graph, case.af_open_data, case.af_close_data)
    with pytest.raises(api.InputError, match="folder"):
        api.compare_case(case.af_open_graph, case.af_close_graph, tmp_path / "nope", case.af_close_data)


def test_compare_case_filters_ranks(tmp_path: Path) -> None:
    generate_case(tmp_path, multi_rank_spec(ranks=2, culprit_rank=1, steps=1))
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    paths = [tmp_path / manifest[group][side] for group, side in
             (("graphs", "af_open"), ("graphs", "af_close"), ("data", "af_open"), ("data", "af_close"))]
    everything = api.compare_case(*paths).to_dataframe()
    assert set(everything["rank"]) == {"0", "1"}
    assert set(everything[everything["verdict"] == "CULPRIT"]["rank"]) == {"1"}
    only = api.compare_case(*paths, ranks=[1])
    assert {row.rank for row in only.rows} == {"1"}


def test_compare_npys_passes_and_fails_by_the_limits(npys: tuple[Path, Path, Path]) -> None:
    a, b, _ = npys
    same = api.compare_npys(a, a)
    assert (same.status, same.passed, same.violations) == ("OK", True, [])
    assert same.metrics is not None and same.metrics["max_abs_err"] == 0
    close = api.compare_npys(a, b, max_abs=1e-4)
    assert close.passed is False and close.violations[0].startswith("max_abs_err")
    assert close.row.verdict == "CULPRIT"
    assert api.compare_npys(a, b, max_abs=1e-2).passed is True
    frame = close.to_dataframe()
    assert len(frame) == 1 and math.isclose(frame["max_abs_err"][0], 1e-3, rel_tol=1e-3)
    assert "passed=False" in repr(close)


def test_compare_npys_json_is_the_nwa_mode2_document(npys: tuple[Path, Path, Path], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    a, b, _ = npys
    target = tmp_path / "mode2.json"
    assert cli_main(["nwa", "--mode", "2", "--npy-a", str(a), "--npy-b", str(b), "--output", str(target)]) == 0
    capsys.readouterr()
    assert json.loads(api.compare_npys(str(a), str(b)).to_json()) == json.loads(target.read_text())


def test_compare_npys_reports_what_it_could_not_compare(npys: tuple[Path, Path, Path], tmp_path: Path) -> None:
    a, _, c = npys
    mismatch = api.compare_npys(a, c)
    assert mismatch.status == "SHAPE_MISMATCH" and mismatch.passed is None and mismatch.metrics is None
    assert math.isnan(mismatch.to_dataframe()["cosine"][0])
    with pytest.raises(api.InputError, match="does not exist"):
        api.compare_npys(a, tmp_path / "missing.npy")
    with pytest.raises(api.InputError, match="is a directory, not an NPY file"):
        api.compare_npys(a, tmp_path)


def test_summarize_att_matches_att_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "logs" / "run.log"
    log.parent.mkdir()
    write_synthetic_log(log, SyntheticShape(operators=3, results=2, groups=2, cases=2))
    summary = api.summarize_att(log.parent)
    exported = tmp_path / "summary.csv"
    assert cli_main(["att", "summary", str(log.parent), "-f", "csv", "-o", str(exported)]) == 0
    capsys.readouterr()
    with exported.open(encoding="utf-8-sig") as handle:
        reference = list(csv.DictReader(handle))
    frame = summary.to_dataframe()
    assert len(frame) == len(reference) == len(summary.rows) == 6
    assert list(frame["operator"]) == [row["Operator"] for row in reference]
    assert list(frame["objective"]) == [float(row["Objective Value"]) for row in reference]
    assert list(frame.columns[:9]) == ["operator", "graph", "result", "group", "case", "AIV_MTE2", "AIV_MTE3",
                                       "objective", "result_perf"]
    assert list(frame["s0t_size"]) == [float(row["s0t_size"]) for row in reference]
    document = json.loads(summary.to_json())
    assert document["logs"] == [str(log)] and len(document["rows"]) == 6
    assert document["rows"][0]["source"].startswith(f"{log}:")
    assert "6 rows, 3 operator(s), 1 log(s)" in repr(summary)


def test_summarize_att_all_results_and_several_inputs(tmp_path: Path) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    for path in logs:
        write_synthetic_log(path, SyntheticShape(operators=1, results=2, groups=1, cases=1))
    best = api.summarize_att(logs)
    assert len(best.logs) == 2 and len(best) == 2
    assert len(api.summarize_att(logs, all_results=True)) == 4


def test_summarize_att_without_logs_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(api.InputError, match="No log files"):
        api.summarize_att(tmp_path)


def test_importing_the_api_loads_neither_qt_nor_pandas() -> None:
    script = ("import sys\nimport autofuse_studio.api\n"
              "print(sorted({m.split('.')[0] for m in sys.modules} & {'PySide6', 'pyqtgraph', 'pandas', 'openpyxl'}))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
