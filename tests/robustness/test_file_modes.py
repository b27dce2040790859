"""Every file `report` writes gets the mode a plain open() would give under the user's umask."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.robustness.conftest import run_cli
from tests.synth import CaseSpec, generate_case


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_report_files_all_follow_the_umask(tmp_path: Path, umask: int) -> None:
    generate_case(tmp_path / "case", CaseSpec(seed=1, n_fused=4, culprit=2))
    case = tmp_path / "case"
    manifest = json.loads((case / "manifest.json").read_text(encoding="utf-8"))
    out = tmp_path / "out"
    old = os.umask(umask)
    try:
        run = run_cli("report", "--af-open-graph", case / manifest["graphs"]["af_open"],
                      "--af-close-graph", case / manifest["graphs"]["af_close"],
                      "--af-open-data", case / manifest["data"]["af_open"],
                      "--af-close-data", case / manifest["data"]["af_close"], "-o", out, timeout=120)
    finally:
        os.umask(old)
    assert run.returncode == 0, run.output
    modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in out.iterdir()}
    assert {"report.xlsx", "tensor.png", "tensor.svg", "table.png"} <= modes.keys()
    assert modes == dict.fromkeys(modes, 0o666 & ~umask)
