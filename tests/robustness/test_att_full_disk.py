"""att summary / compare writing xlsx to a full disk: one error sentence, no "Exception ignored in ZipFile.__del__"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import samples_dir
from tests.robustness.conftest import run_cli


@pytest.mark.parametrize("command", ["summary", "compare"])
def test_a_full_disk_under_an_att_xlsx_is_one_error(tmp_path: Path, command: str) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    log = samples_dir("att", "upstream-tests") / "test_complete.log"
    csv = tmp_path / "summary.csv"
    assert run_cli("att", "summary", log, "-f", "csv", "-o", csv).returncode == 0
    out = tmp_path / "out.xlsx"
    out.symlink_to("/dev/full")  # a device is written through, and every write fails with ENOSPC
    args = ["att", "summary", str(log), "-f", "excel", "-o", str(out)] if command == "summary" else \
        ["att", "compare", str(csv), str(csv), "-f", "excel", "-o", str(out)]
    run = run_cli(*args)
    assert run.returncode != 0, run.output
    assert "no space left" in run.output.lower()
    assert "Exception ignored" not in run.output and "ZipFile" not in run.output
