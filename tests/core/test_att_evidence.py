"""Evidence JSONL and manifest: the reference's schema and values, deterministic output."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from autofuse_studio.core.att.evidence import evidence_records, write_evidence
from autofuse_studio.core.att.scanner import find_logs, scan_logs
from tests.conftest import samples_dir


def _reference_logs() -> list[Path]:
    root = samples_dir("att")
    return sorted((root / "upstream-tests").glob("*.log")) + sorted((root / "synthetic").glob("*.log"))


@pytest.mark.samples
def test_records_match_reference() -> None:
    root = samples_dir("att")
    for log in _reference_logs():
        records = evidence_records(scan_logs(find_logs(log)).files)
        ours = json.loads(json.dumps(records).replace(str(root), "<samples>/att"))
        reference_file = root / "reference-outputs" / log.stem / "evidence" / "att-evidence.jsonl"
        reference = [json.loads(line) for line in reference_file.read_text().splitlines()]
        if log.stem == "prefixed_tilingsummary":
            # Known flaw: the reference evidence ignored the exponent in `1.5e3`; summary and evidence
            # now share one number grammar.
            assert ours[0]["objective"] == 1500.0 and ours[0]["source_lines"]["objective"] == 2
            for record in (ours[0], reference[0]):
                record.pop("objective")
                record["source_lines"].pop("objective", None)
        assert ours == reference, log.stem


def test_files_are_written_with_manifest(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("[Add] [PROF]The value of x is 1 in graph0_result0_g0_0.\n"
                   "[Add] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.\n")
    out = tmp_path / "out"
    count = write_evidence(scan_logs([log]).files, [log], out, ["autofuse-studio", "att", "evidence"])
    assert count == 1
    lines = (out / "att-evidence.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    assert record["parse_status"] == "inferred_graph_result;missing_result_performance"
    assert list(record) == sorted(record)
    manifest_text = (out / "tool-manifest.json").read_text()
    manifest = json.loads(manifest_text)
    assert manifest_text.endswith("}\n")
    assert manifest["manifest_version"] == "att-tool/v1" and manifest["record_count"] == 1
    assert manifest["inputs"][0]["sha256"] == hashlib.sha256(log.read_bytes()).hexdigest()
    assert manifest["artifacts"] == [{"path": "att-evidence.jsonl", "sha256": hashlib.sha256(
        (out / "att-evidence.jsonl").read_bytes()).hexdigest()}]
    first = (out / "att-evidence.jsonl").read_bytes()
    write_evidence(scan_logs([log]).files, [log], out, [])
    assert (out / "att-evidence.jsonl").read_bytes() == first


def test_winning_case_of_a_non_best_result_is_inferred(tmp_path: Path) -> None:
    log = tmp_path / "two_results.log"
    log.write_text("[Add] [PROF]The value of x is 1 in graph0_result0_g0_0.\n"
                   "[Add] [PROF]The value of x is 2 in graph0_result1_g0_1.\n"
                   "[Add] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.\n"
                   "[Add] [PROF]Among the templates, tiling case 1 of graph0_result1_g0 is the best choice.\n"
                   "[Add] [PROF]Among all schedule results, graph0_result0 is the best choice.\n"
                   "[Add] The value of graph0_result0 is 10.\n"
                   "[Add] The value of graph0_result1 is 12.\n")
    status = {r["result_id"]: r["parse_status"] for r in evidence_records(scan_logs([log]).files)}
    # att.py: `ok` needs a best-result line for the record's own (graph, result).
    assert status == {0: "ok", 1: "inferred_graph_result"}
