"""`att evidence`: att-evidence.jsonl (schema att-evidence/v1) and tool-manifest.json (att-tool/v1)."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from autofuse_studio.core.att.model import CaseKey, FileScan, FinalTiling, FinalTilingSummary, OperatorLog
from autofuse_studio.core.att.safe_open import FileId, Pin, not_read, open_regular, os_reason
from autofuse_studio.core.att.summary import (
    CANDIDATE,
    INFERRED_GRAPH_RESULT,
    MISSING_GROUP_CASE,
    OK,
    with_result_perf_status,
)
from autofuse_studio.core.reports.atomic import atomic_write_text

SCHEMA_VERSION = "att-evidence/v1"
MANIFEST_VERSION = "att-tool/v1"
EVIDENCE_FILE = "att-evidence.jsonl"
MANIFEST_FILE = "tool-manifest.json"
TOOL_NAME = "att_analyze"


def _case_status(op: OperatorLog, key: CaseKey) -> str:
    """Selected case → ok / inferred_graph_result (+ missing result perf); others → candidate / missing_group_case.

    As in att.py, a selected case is `ok` only when the best-result line names its own schedule result:
    the winning case of any other result is `inferred_graph_result`.
    """
    selection = op.selections.get((key.graph, key.result, key.group))
    if selection is None:
        return MISSING_GROUP_CASE
    if selection.key.case != key.case:
        return CANDIDATE
    best = op.best_result
    status = OK if best is not None and (best.graph, best.result) == (key.graph, key.result) else INFERRED_GRAPH_RESULT
    return with_result_perf_status(status, op, key.graph, key.result)


def legacy_records(scan: FileScan) -> list[dict[str, Any]]:
    """One record per (operator, graph, result, group, case) named by value/objective/template lines."""
    records = []
    path = str(Path(scan.path).resolve())
    for op in scan.operators.values():
        keys = set(op.values) | set(op.objectives) | {s.key for s in op.selections.values()}
        for key in keys:
            values = op.values.get(key, {})
            objective = op.objectives.get(key)
            lines = {name: v.source.line for name, v in values.items()}
            if objective is not None:
                lines["objective"] = objective.source.line
            selection = op.selections.get((key.graph, key.result, key.group))
            if selection is not None and selection.key == key:
                lines["template_selection"] = selection.source.line
            record: dict[str, Any] = {
                "schema_version": SCHEMA_VERSION, "operator": op.name, "graph_id": key.graph,
                "result_id": key.result, "group_id": key.group, "case_id": key.case,
                "tiling_values": {name: v.value for name, v in values.items()},
                "objective": objective.value if objective else None,
                "source_path": path, "source_line": op.first_mentions.get(key, min(lines.values())),
                "parse_status": _case_status(op, key), "source_lines": lines,
            }
            perf = op.result_perfs.get((key.graph, key.result))
            if perf is not None:
                record["result_performance"] = perf.value
            records.append(record)
    return records


def final_record(record: FinalTiling, path: str) -> dict[str, Any]:
    """The evidence form of one FINAL_TILING record."""
    return {
        "schema_version": SCHEMA_VERSION, "operator": record.operator, "graph_id": record.graph,
        "result_id": record.result, "group_id": record.group, "case_id": record.case_id,
        "source": record.source, "selection_mode": record.selection_mode, "tiling_key": record.tiling_key,
        "score": record.score, "sub_case_tag": record.sub_case_tag, "template_name": record.template,
        "pipe_est": dict(record.pipe_estimates), "tiling_repr": record.tiling_repr,
        "repr_kind": record.repr_kind, "repr_hash": record.repr_hash, "parse_status": record.status,
        "source_path": path, "source_line": record.origin.line,
    }


def summary_record(record: FinalTilingSummary, path: str) -> dict[str, Any]:
    """The evidence form of one FINAL_TILING_SUMMARY record."""
    return {
        "schema_version": SCHEMA_VERSION, "record_type": "final_tiling_summary",
        "operator": record.operator, "graph_id": record.graph, "result_id": record.result,
        "source": record.source, "selection_mode": record.selection_mode, "groups": record.groups,
        "parse_status": record.status, "source_path": path, "source_line": record.origin.line,
    }


def file_records(scan: FileScan) -> list[dict[str, Any]]:
    """FINAL_TILING records when the file has them, else the legacy [PROF] records."""
    path = str(Path(scan.path).resolve())
    if scan.final_records:
        return [final_record(r, path) for r in scan.final_records]
    records = legacy_records(scan)
    if not records:
        records = [summary_record(r, path) for r in scan.final_summaries]
    return records


def _sort_key(record: dict[str, Any]) -> tuple[Any, ...]:
    ids = [record.get(k) for k in ("graph_id", "result_id", "group_id", "case_id")]
    return (record["source_path"], record["operator"], *[(-1 if i is None else i) for i in ids],
            record["source_line"])


def evidence_records(scans: list[FileScan]) -> list[dict[str, Any]]:
    """Every record, sorted by (source_path, operator, graph, result, group, case)."""
    return sorted((r for scan in scans for r in file_records(scan)), key=_sort_key)


def _sha256(path: Path, pin: Pin | None = None) -> str:
    """sha256 of a regular file, read from one descriptor (see safe_open)."""
    digest = hashlib.sha256()
    with open_regular(path, pin) as handle:
        try:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        except OSError as exc:  # e.g. /proc/self/mem: a sentence naming the file, not a bare "Input/output error."
            raise not_read(path, os_reason(exc)) from None
    return digest.hexdigest()


def artifacts(out_dir: Path, notes: list[str] | None = None) -> list[dict[str, str]]:
    """Every regular file under `out_dir` with its sha256, in att.py's order (walk, sorted), manifests left out.

    Files already in the folder are listed too: archive consumers find the CSVs and SVGs stored next to
    the evidence through the manifest. Links are not followed (a link to /etc/passwd would put what it
    points to into the manifest) and FIFOs and devices are skipped (hashing them would block or never
    end); each is a sentence in `notes`. A file swapped for a link or pipe after the listing is refused.
    """
    entries = []
    for root, dirs, files in os.walk(out_dir):  # linked folders are listed in `dirs` but never entered
        dirs.sort()
        for name in sorted([*files, *(d for d in dirs if os.path.islink(os.path.join(root, d)))]):
            path = Path(root) / name
            if name == MANIFEST_FILE:
                continue
            try:
                info = path.lstat()
            except OSError:
                continue  # gone since the listing
            if stat.S_ISLNK(info.st_mode):
                if notes is not None:
                    notes.append(f"'{path}' is a symbolic link; it is not followed and not listed in {MANIFEST_FILE}.")
            elif stat.S_ISREG(info.st_mode):
                sha = _sha256(path, Pin(FileId.of(info)))
                entries.append({"path": str(path.relative_to(out_dir)), "sha256": sha})
            elif not stat.S_ISDIR(info.st_mode) and notes is not None:
                notes.append(f"'{path}' is not a regular file (a pipe, socket or device); not listed in "
                             f"{MANIFEST_FILE}.")
    return entries


def _input_entry(path: Path, scan: FileScan | None) -> dict[str, str]:
    """An input of the manifest: hashed by its scan (the very bytes scanned) when the scan did, else now."""
    sha = scan.sha256 if scan is not None and scan.sha256 is not None else \
        _sha256(path, scan.pin if scan is not None else None)
    return {"path": str(path.resolve()), "sha256": sha}


def write_evidence(scans: list[FileScan], inputs: list[Path], out_dir: Path, command: list[str],
                   notes: list[str] | None = None) -> int:
    """Write the JSONL and the manifest into `out_dir`; returns the record count (`notes`: see artifacts)."""
    records = evidence_records(scans)
    text = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records)
    evidence_path = out_dir / EVIDENCE_FILE
    atomic_write_text(evidence_path, text)
    by_path = {scan.path: scan for scan in scans}
    manifest = {
        "manifest_version": MANIFEST_VERSION, "schema_version": SCHEMA_VERSION, "tool": TOOL_NAME,
        "generated_at_utc": datetime.datetime.now(datetime.UTC).isoformat(),
        "command": command,
        "inputs": [_input_entry(p, by_path.get(str(p))) for p in inputs],
        "record_count": len(records),
        "artifacts": artifacts(out_dir, notes),
    }
    atomic_write_text(out_dir / MANIFEST_FILE, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return len(records)
