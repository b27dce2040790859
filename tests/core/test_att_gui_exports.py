"""GUI exports: evidence never overwrites an archive, folder copies are numbered, runs compare from logs or CSVs."""

from __future__ import annotations

import json
from pathlib import Path

from autofuse_studio.core.att.compare import compare_csv_files
from autofuse_studio.core.att.compare_inputs import compare_runs, load_run
from autofuse_studio.core.att.evidence import EVIDENCE_FILE, MANIFEST_FILE
from autofuse_studio.core.att.evidence_archive import claim_folder, copy_tree, export_evidence
from autofuse_studio.core.att.scanner import scan_file
from autofuse_studio.core.att.summary import build_summary
from autofuse_studio.core.att.summary_output import write_summary_csv
from tests.synth.att_log import SyntheticShape, write_synthetic_log


def _log(tmp_path: Path, name: str = "run.log", operators: int = 2) -> Path:
    path = tmp_path / name
    write_synthetic_log(path, SyntheticShape(operators=operators))
    return path


def test_claim_folder_numbers_taken_names(tmp_path: Path) -> None:
    target = tmp_path / "evidence"
    assert claim_folder(target) == target  # new
    assert claim_folder(target) == target  # still empty: reused
    (target / "x").write_text("taken")
    assert claim_folder(target) == tmp_path / "evidence-2"
    (tmp_path / "evidence-2" / "y").write_text("taken")
    assert claim_folder(target) == tmp_path / "evidence-3"


def test_evidence_export_never_overwrites(tmp_path: Path) -> None:
    log = _log(tmp_path)
    scans = [scan_file(log)]
    target = tmp_path / "out"
    first, count = export_evidence(scans, [log], target, ["att", "evidence"])
    before = (first / EVIDENCE_FILE).read_bytes(), (first / MANIFEST_FILE).read_bytes()
    second, count2 = export_evidence(scans, [log], target, ["att", "evidence"])
    assert first == target and second == tmp_path / "out-2" and count == count2 > 0
    assert ((first / EVIDENCE_FILE).read_bytes(), (first / MANIFEST_FILE).read_bytes()) == before
    manifest = json.loads((second / MANIFEST_FILE).read_text())
    assert manifest["record_count"] == count and manifest["inputs"][0]["path"] == str(log.resolve())


def test_copy_tree_goes_to_a_fresh_folder(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "a" / "b").mkdir(parents=True)
    (source / "a" / "b" / "case0.log").write_text("line\n")
    first = copy_tree(source, tmp_path / "split")
    second = copy_tree(source, tmp_path / "split")
    assert (first / "a" / "b" / "case0.log").read_text() == "line\n"
    assert second == tmp_path / "split-2" and (second / "a" / "b" / "case0.log").exists()


def test_a_log_compares_like_its_summary_csv(tmp_path: Path) -> None:
    base, other = _log(tmp_path, "base.log", 2), _log(tmp_path, "other.log", 3)
    csv1, csv2 = tmp_path / "base.csv", tmp_path / "other.csv"
    write_summary_csv(build_summary([scan_file(base)]), csv1)
    write_summary_csv(build_summary([scan_file(other)]), csv2)
    from_csv = compare_csv_files(csv1, csv2)
    from_logs = compare_runs(base, other)
    assert from_logs.table1.path == str(base)
    assert (from_logs.common_keys, from_logs.only_keys2, from_logs.field_diffs) == (
        from_csv.common_keys, from_csv.only_keys2, from_csv.field_diffs)
    assert from_logs.only_keys2 and all(k.startswith("Op2|") for k in from_logs.only_keys2)
    assert load_run(csv1).rows == from_csv.table1.rows
