"""`nwa` and `report` on a four-rank dump: tables per rank, a summary line per rank, short warnings, rank columns."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio.cli import main
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec

HEADER = "类型 | 融合算子名"


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    """Four ranks, two runs, rank 3 missing on af-close, the culprit on rank 2 only."""
    root = tmp_path_factory.mktemp("ranks") / "case"
    return root, generate_case(root, multi_rank_spec(runs=2, missing_ranks=(("af_close", 3),)))


def _args(root: Path, manifest: CaseManifest, *extra: str) -> list[str]:
    return ["--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), *extra]


def test_console_groups_tables_by_rank_and_step(case: tuple[Path, CaseManifest],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    assert main(["nwa", *_args(root, manifest)]) == 0
    out = capsys.readouterr().out
    headings = [line for line in out.splitlines() if line.startswith("== ")]
    assert headings == [f"== rank {rank}, step {step} ==" for rank in "0123" for step in "01"]
    assert out.count(HEADER) == len(headings)
    for line in out.splitlines():
        if line.startswith("输出 |"):
            assert len(line.split(" | ")) == 9  # the reference's nine columns, unchanged
    assert "First divergence: autofuse_3_Mul_Add output 0 (origin model/blocks.3/mlp/Add output 0, rank 2, step 0)" \
        in out
    assert "  rank 2: first divergence autofuse_3_Mul_Add output 0 step 0\n  ranks 0, 1, 3: none\n" in out


def test_warnings_are_few_and_short(case: tuple[Path, CaseManifest], capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    main(["nwa", *_args(root, manifest)])
    warnings = [line for line in capsys.readouterr().out.splitlines() if line.startswith("WARNING:")]
    assert 2 <= len(warnings) <= 4
    assert all(len(line) <= 200 for line in warnings), warnings
    assert any("Rank 3" in line and "af-close" in line for line in warnings)
    assert any("dump runs" in line for line in warnings)


def test_rank_option(case: tuple[Path, CaseManifest], capsys: pytest.CaptureFixture[str]) -> None:
    root, manifest = case
    assert main(["nwa", *_args(root, manifest, "--rank", "1,2", "--fail-on-divergence")]) == 3
    out = capsys.readouterr().out
    assert "== rank 0" not in out and "== rank 1, step 0 ==" in out
    assert main(["nwa", *_args(root, manifest, "--rank", "0", "--fail-on-divergence")]) == 0
    capsys.readouterr()
    assert main(["nwa", *_args(root, manifest, "--rank", "x")]) == 2
    captured = capsys.readouterr()
    assert "ERROR: --rank takes device ids" in captured.out + captured.err
    assert main(["nwa", *_args(root, manifest, "--rank", "7")]) == 1
    captured = capsys.readouterr()
    assert "ERROR: Rank 7 is not in the dump folders" in captured.out + captured.err


def test_output_files_gain_the_rank(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    from openpyxl import load_workbook

    root, manifest = case
    for suffix in (".json", ".csv", ".xlsx"):
        assert main(["nwa", *_args(root, manifest, "--output", str(tmp_path / f"out{suffix}"))]) == 0
    document = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert document["ranks"] == ["0", "1", "2", "3"]
    assert document["first_divergence"]["rank"] == "2"
    assert document["first_divergence_by_rank"]["0"] is None
    assert document["first_divergence_by_rank"]["2"]["fused_op"] == "autofuse_3_Mul_Add"
    assert {warning["kind"] for warning in document["warnings"]} >= {"older_runs_ignored", "rank_on_one_side"}
    with (tmp_path / "out.csv").open(encoding="utf-8-sig") as handle:
        records = list(csv.DictReader(handle))
    assert list(records[0])[:2] == ["rank", "step"]
    assert {record["rank"] for record in records} == {"0", "1", "2", "3"}
    book = load_workbook(tmp_path / "out.xlsx", read_only=True)
    ranks = list(book["ranks"].iter_rows(values_only=True))
    book.close()
    assert ranks[0][:4] == ("rank", "step", "rows", "culprits")
    cells = {(row[0], row[1]): row for row in ranks[1:]}
    assert len(cells) == 8
    assert cells[(2, 0)][3] == 1 and cells[(2, 0)][7] == "CULPRIT"  # rank and step folder numbers are numbers
    assert "autofuse_3_Mul_Add" in cells[(2, 0)][8]
    assert cells[(0, 0)][7] == "OK" and cells[(3, 0)][7] == "UNKNOWN"


def test_report_draws_the_first_divergence_of_its_rank(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    from openpyxl import load_workbook

    root, manifest = case
    env = {key: value for key, value in os.environ.items() if key not in ("QT_QPA_PLATFORM", "DISPLAY")}
    done = subprocess.run([sys.executable, "-m", "autofuse_studio", "report", *_args(root, manifest),
                           "-o", str(tmp_path / "out")], capture_output=True, text=True, env=env, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "rank 2, step 0" in done.stdout
    book = load_workbook(tmp_path / "out" / "report.xlsx", read_only=True)
    assert "ranks" in book.sheetnames
    summary = {row[0]: row[1] for row in book["summary"].iter_rows(values_only=True)}
    book.close()
    assert summary["first divergence rank"] == 2
    svg = (tmp_path / "out" / "graph_first_divergence.svg").read_text(encoding="utf-8")
    assert "autofuse_3_Mul_Add" in svg and "#" in svg
    assert (tmp_path / "out" / "tensor.png").stat().st_size > 1000
