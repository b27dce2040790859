"""Archives: names claimed with mkdir (twice, concurrently), manifests that match the files, never overwritten."""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autofuse_studio.core.att.runs.analysis import RunAnalysis, analyze_run
from autofuse_studio.core.att.runs.archive import EVIDENCE_ARCHIVE, MANIFEST, REPORT_ARCHIVE, archive_run, claim_name
from autofuse_studio.core.att.runs.outputs import render_reports
from autofuse_studio.core.errors import InputError
from tests.core.runroots import standard_run_root

COMMAND = ["autofuse-studio", "att", "analyze"]


@pytest.fixture(scope="module")
def analysis(tmp_path_factory: pytest.TempPathFactory) -> RunAnalysis:
    return analyze_run(standard_run_root(tmp_path_factory.mktemp("runs") / "field-run"))


def _check_manifest(folder: Path) -> dict[str, object]:
    manifest = json.loads((folder / MANIFEST).read_text())
    on_disk = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST)
    assert [f["path"] for f in manifest["files"]] == on_disk
    for entry in manifest["files"]:
        data = (folder / entry["path"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["bytes"] == len(data)
    return manifest


def test_archive_twice_gets_a_second_name_and_leaves_the_first_alone(analysis: RunAnalysis, tmp_path: Path) -> None:
    files = render_reports(analysis, "en", COMMAND)
    first = archive_run(analysis, files, tmp_path, None, COMMAND)
    assert first.name == "field-run" and first.evidence == tmp_path / EVIDENCE_ARCHIVE / "field-run"
    snapshot = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    second = archive_run(analysis, files, tmp_path, None, COMMAND)
    assert second.name == "field-run-2" and second.report == tmp_path / REPORT_ARCHIVE / "field-run-2"
    assert {p: p.read_bytes() for p in snapshot} == snapshot
    manifest = _check_manifest(second.evidence)
    assert manifest["run_name"] == "field-run-2" and manifest["command"] == COMMAND
    assert manifest["source_root"] == str(analysis.sides.run_root)
    paths = [f["path"] for f in manifest["files"]]  # type: ignore[index]
    assert "pgo/att.log.gz" in paths and "default/logs/device1/plog/plog-1_2024.log" in paths
    assert (second.evidence / "pgo" / "att.log.gz").read_bytes() == (
        analysis.sides.run_root / "pgo" / "att.log.gz").read_bytes()
    report = _check_manifest(second.report)
    assert sorted(f["path"] for f in report["files"]) == sorted(files)  # type: ignore[union-attr]


def test_concurrent_claims_never_share_a_folder(tmp_path: Path) -> None:
    with ThreadPoolExecutor(8) as pool:
        names = list(pool.map(lambda _: claim_name(tmp_path, "run")[0], range(24)))
    assert sorted(names) == sorted(["run", *(f"run-{n}" for n in range(2, 25))])


def test_a_name_taken_in_one_archive_only_is_skipped(tmp_path: Path) -> None:
    (tmp_path / REPORT_ARCHIVE / "run").mkdir(parents=True)
    name, evidence, report = claim_name(tmp_path, "run")
    assert name == "run-2" and evidence.is_dir() and report.is_dir()
    assert not (tmp_path / EVIDENCE_ARCHIVE / "run").exists()  # our empty claim was given back


def test_run_names_are_made_safe_and_archives_stay_out_of_the_run_root(analysis: RunAnalysis,
                                                                       tmp_path: Path) -> None:
    files = render_reports(analysis, "en", COMMAND)
    result = archive_run(analysis, files, tmp_path, "../../etc", COMMAND)
    assert result.evidence.parent == tmp_path / EVIDENCE_ARCHIVE and result.name == "_.._etc"
    with pytest.raises(InputError, match="is inside the run root"):
        archive_run(analysis, files, analysis.sides.run_root / "archive", None, COMMAND)
