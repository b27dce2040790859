"""`autofuse-studio report` end to end on a generated case: xlsx sheets, pictures, exit codes, no overwrite."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.synth import CaseManifest, full_coverage_spec, generate_case


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CaseManifest]:
    """The full-coverage generated case (every status and verdict)."""
    root = tmp_path_factory.mktemp("report") / "case"
    return root, generate_case(root, full_coverage_spec())


def _args(root: Path, manifest: CaseManifest, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "autofuse_studio", "report",
            "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), "-o", str(out), *extra]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("QT_QPA_PLATFORM", "DISPLAY")}
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, check=False)


def test_report_end_to_end(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    from openpyxl import load_workbook
    from PySide6.QtGui import QImage

    root, manifest = case
    out = tmp_path / "out"
    done = _run(_args(root, manifest, out, "--compare-input"))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    book = load_workbook(out / "report.xlsx", read_only=True)
    header = [cell.value for cell in next(book["precision"].iter_rows(max_row=1))]
    for column in ("kind", "fused_op", "fused_index", "origin_op", "origin_index", "status", "cosine",
                   "max_abs_err", "max_rel_err", "rmse", "verdict"):
        assert column in header
    assert book["precision"].max_row == len(manifest.rows) + 1
    summary = {row[0]: row[1] for row in book["summary"].iter_rows(values_only=True)}
    assert manifest.first_divergence is not None
    assert str(manifest.first_divergence["fused_op"]) in str(summary["first divergence"])
    book.close()
    for name in ("table", "tensor", "graph_first_divergence"):
        image = QImage(str(out / f"{name}.png"))
        assert image.width() > 300 and image.height() > 100
        assert len({image.pixel(x, y) for x in range(0, image.width(), 11) for y in range(0, image.height(), 11)}) > 5
        assert ET.parse(out / f"{name}.svg").getroot().tag.endswith("svg")
    # The graph picture maps the culprit to the original ops it replaced: both panels, linked.
    roles = {element.get("class") for element in ET.parse(out / "graph_first_divergence.svg").getroot().iter()}
    assert {"panel-fused", "panel-original", "fusion-mapping"} <= roles
    assert sorted(path.name for path in out.iterdir()) == [
        "graph_first_divergence.png", "graph_first_divergence.svg", "report.xlsx", "table.png", "table.svg",
        "tensor.png", "tensor.svg"]


def test_report_refuses_to_overwrite_without_force(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    root, manifest = case
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.xlsx").write_bytes(b"keep me")
    refused = _run(_args(root, manifest, out))
    assert refused.returncode == 1
    assert "--force" in refused.stderr and "Traceback" not in refused.stderr
    assert (out / "report.xlsx").read_bytes() == b"keep me"
    assert _run(_args(root, manifest, out, "--force")).returncode == 0
    assert (out / "report.xlsx").read_bytes() != b"keep me"


def test_report_input_and_usage_errors(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    from autofuse_studio.cli.report import main

    root, manifest = case
    argv = _args(root, manifest, tmp_path / "out")[4:]
    missing = list(argv)
    missing[missing.index("--af-open-data") + 1] = str(tmp_path / "nowhere")
    assert main(missing) == 1
    assert not (tmp_path / "out").exists()
    with pytest.raises(SystemExit) as exited:
        main(argv[:-2])  # no -o
    assert exited.value.code == 2
    assert main([*argv, "--mode", "2"]) == 2
