"""Links out of the chosen folder are not followed by `att summary DIR` and `att evidence -o OUT`.

Issue 30, defect 11: `att summary DIR` read `DIR/link.log` pointing outside, `att evidence -o OUT` hashed what
links inside OUT point to (/etc/passwd landed in tool-manifest.json), and a link to /proc/self/mem gave
"Input/output error." naming no file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from tests.robustness.conftest import run_cli

LOG = "[Add] [PROF]The value of x is 1 in graph0_result0_g0_0.\n"
SECRET = "[Leak] [PROF]The value of secret is 42 in graph0_result0_g0_0.\n"


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.log").write_text(LOG)
    (folder / "sub" / "real.log").write_text(LOG.replace("Add", "Mul"))
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.log").write_text(SECRET)
    (folder / "leak.log").symlink_to(outside / "secret.log")
    (folder / "mem.log").symlink_to("/proc/self/mem")
    (folder / "inside.log").symlink_to(folder / "sub" / "real.log")  # a link within the folder is read
    (folder / "outdir").symlink_to(outside, target_is_directory=True)  # never entered
    return folder


def test_summary_reads_no_link_out_of_the_folder(logs: Path, tmp_path: Path) -> None:
    out = tmp_path / "s.csv"
    run = run_cli("att", "summary", logs, "-f", "csv", "-o", out)
    assert run.returncode == 0, run.output
    text = out.read_text(encoding="utf-8-sig")
    assert "Leak" not in text and "Add" in text and text.count("Mul") == 2  # sub/real.log and inside.log
    assert f"'{logs / 'leak.log'}' is a symbolic link to '{logs.parent / 'outside' / 'secret.log'}', outside " \
           f"'{logs}'; links out of the folder are not followed" in run.stderr
    assert f"'{logs / 'mem.log'}' is a symbolic link to '/proc/self/mem'" in run.stderr
    assert "Input/output error" not in run.output
    assert "outdir" not in run.stdout


def test_a_log_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    run = run_cli("att", "summary", "/proc/self/mem")
    assert run.returncode == 1
    assert "Cannot read log '/proc/self/mem': input/output error." in run.stdout


def test_evidence_manifest_lists_no_link_target(logs: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    out = tmp_path / "out"
    (out / "keep").mkdir(parents=True)
    (out / "keep" / "table.csv").write_text("a,b\n")
    (out / "passwd").symlink_to(secret)
    (out / "mem").symlink_to("/proc/self/mem")
    (out / "linked-dir").symlink_to(tmp_path / "outside", target_is_directory=True)
    assert main(["evidence", str(logs / "a.log"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    manifest = json.loads((out / "tool-manifest.json").read_text())
    paths = [entry["path"] for entry in manifest["artifacts"]]
    assert paths == ["att-evidence.jsonl", "keep/table.csv"]
    assert hashlib.sha256(secret.read_bytes()).hexdigest() not in json.dumps(manifest)
    for name in ("passwd", "mem", "linked-dir"):
        assert f"'{out / name}' is a symbolic link; it is not followed and not listed in tool-manifest.json." in err
