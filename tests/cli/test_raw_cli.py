"""The command line on dumps as the NPU writes them: nwa and report on raw and statistics twins, mode 2 --tensor."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.cli import main
from tests.synth import full_coverage_spec, generate_case
from tests.synth.case import load_manifest
from tests.synth.raw_twin import twin_case
from tests.synth.raw_writer import RawDumpSpec, RawTensorSpec, write_raw_dump


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path] | list[Path]]:
    root = tmp_path_factory.mktemp("raw_cli") / "case"
    generate_case(root, full_coverage_spec())
    manifest = load_manifest(root)
    return {"graphs": [root / manifest["graphs"][side] for side in ("af_open", "af_close")],
            "npy": {side: root / manifest["data"][side] for side in ("af_open", "af_close")},
            "raw": twin_case(root, root.parent / "raw", "raw", nano_every=4),
            "stats": twin_case(root, root.parent / "stats", "stats")}


def _args(case: dict[str, dict[str, Path] | list[Path]], open_kind: str, close_kind: str, *extra: str) -> list[str]:
    graphs = case["graphs"]
    assert isinstance(graphs, list)
    opened, closed = case[open_kind], case[close_kind]
    assert isinstance(opened, dict) and isinstance(closed, dict)
    return ["nwa", "--af-open-graph", str(graphs[0]), "--af-close-graph", str(graphs[1]),
            "--af-open-data", str(opened["af_open"]), "--af-close-data", str(closed["af_close"]), *extra]


def _table(stdout: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split(" | ")] for line in stdout.splitlines()
            if line.count(" | ") == 8 and line.split(" | ")[0].strip() in ("输出", "输入")]


def test_nwa_on_raw_dumps_prints_the_npy_table(case: dict[str, dict[str, Path] | list[Path]],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_args(case, "npy", "npy", "--compare-input")) == 0
    npy_out = capsys.readouterr().out
    assert main(_args(case, "raw", "raw", "--compare-input")) == 0
    raw_out = capsys.readouterr().out
    assert _table(npy_out) == _table(raw_out)
    assert len(_table(raw_out)) > 100
    assert npy_out.split("First divergence:")[1].splitlines()[0] == raw_out.split("First divergence:")[1].splitlines()[0]


def test_nwa_on_statistics_dumps(case: dict[str, dict[str, Path] | list[Path]], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "stats.json"
    assert main(_args(case, "stats", "stats", "--output", str(output), "--fail-on-divergence")) == 3
    out = capsys.readouterr().out
    assert "statistics:" in out.split("First divergence:")[1].splitlines()[0]
    document = json.loads(output.read_text(encoding="utf-8"))
    compared = [row for row in document["rows"] if row["statistics"] is not None]
    assert compared and all(row["cosine"] is None for row in compared)
    assert document["thresholds"]["stats"]["default"]["max_rel"] == 0.01
    # Limits loose enough for anything: no divergence is left.
    assert main(_args(case, "stats", "stats", "--stats-max-rel", "100", "--stats-abs-floor", "1e30",
                      "--stats-nonfinite-diff", "1000000", "--fail-on-divergence")) == 0
    assert "First divergence: none" in capsys.readouterr().out


def test_stats_options_are_checked(case: dict[str, dict[str, Path] | list[Path]],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_args(case, "stats", "stats", "--stats-max-rel", "-1")) != 0
    assert "max_rel" in capsys.readouterr().out


def test_mode2_raw_dump_with_tensor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(1)
    fused = rng.standard_normal((8, 16)).astype(np.float16)
    origin = (fused.astype(np.float32) * 1.001).astype(np.float16)
    raw = tmp_path / "AscBackend.fused.1.2.1736172181000000"
    write_raw_dump(raw, RawDumpSpec("fused", [RawTensorSpec.of(origin)], [RawTensorSpec.of(fused)]))
    np.save(tmp_path / "a.npy", fused)
    np.save(tmp_path / "b.npy", origin)
    assert main(["nwa", "--mode", "2", "--npy-a", str(tmp_path / "a.npy"), "--npy-b", str(tmp_path / "b.npy")]) == 0
    npy_text = capsys.readouterr().out
    assert main(["nwa", "--mode", "2", "--npy-a", str(raw), "--tensor", "output:0", "--npy-b", str(raw),
                 "--tensor-b", "input:0"]) == 0
    raw_text = capsys.readouterr().out
    cosine = [line for line in npy_text.splitlines() if "余弦" in line or "osine" in line]
    assert cosine and cosine == [line for line in raw_text.splitlines() if "余弦" in line or "osine" in line]
    assert main(["nwa", "--mode", "2", "--npy-a", str(raw), "--npy-b", str(tmp_path / "b.npy")]) != 0
    assert "choose one with --tensor" in capsys.readouterr().out


def test_report_on_raw_dumps(case: dict[str, dict[str, Path] | list[Path]], tmp_path: Path) -> None:
    args = _args(case, "raw", "raw")
    report = ["report", *args[1:], "-o", str(tmp_path / "report")]
    env = {key: value for key, value in os.environ.items() if key not in ("QT_QPA_PLATFORM", "DISPLAY")}
    done = subprocess.run([sys.executable, "-m", "autofuse_studio", *report], capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    from openpyxl import load_workbook

    book = load_workbook(tmp_path / "report" / "report.xlsx", read_only=True)
    try:
        cells = [str(cell) for row in book.worksheets[0].iter_rows(values_only=True) for cell in row]
    finally:
        book.close()
    assert any(cell.endswith(f"{os.sep}output.0.npy") for cell in cells)
