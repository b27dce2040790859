"""Archives of a run: the raw logs under evidence-archive/<name>/, the report under report-archive/<name>/.

A name is claimed with os.mkdir in both places (`name`, `name-2`, `name-3`, …): mkdir either creates the
folder or fails, so two analyses at the same moment never share one, and nothing already archived is
ever written again. Each archive ends with archive-manifest.json (sha256 and size of every file in it).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.outputs import check_not_in_run_root
from autofuse_studio.core.att.safe_paths import contained, safe_name
from autofuse_studio.core.errors import OutputError
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.core.reports.atomic import atomic_open, atomic_write_bytes, make_folder

EVIDENCE_ARCHIVE, REPORT_ARCHIVE = "evidence-archive", "report-archive"
MANIFEST = "archive-manifest.json"
MAX_NUMBER = 9999
CHUNK = 1 << 20


@dataclass
class ArchiveResult:
    """The name used and the two archive folders written."""

    name: str
    evidence: Path
    report: Path
    files: int  # files archived, manifests not counted


def _mkdir(path: Path) -> bool:
    """Create `path`; False when it exists already (someone else's archive)."""
    try:
        os.mkdir(path)
    except FileExistsError:
        return False
    except OSError as exc:
        raise OutputError(f"Cannot create the archive folder '{path}': {(exc.strerror or str(exc)).lower()}.",
                          path) from None
    return True


def claim_name(archive_root: Path, name: str) -> tuple[str, Path, Path]:
    """The first free `name`, `name-2`, … in both archives, each folder created (claimed) here."""
    evidence_root = make_folder(archive_root / EVIDENCE_ARCHIVE)
    report_root = make_folder(archive_root / REPORT_ARCHIVE)
    for number in range(1, MAX_NUMBER + 1):
        candidate = name if number == 1 else f"{name}-{number}"
        if not _mkdir(evidence_root / candidate):
            continue
        if _mkdir(report_root / candidate):
            return candidate, evidence_root / candidate, report_root / candidate
        # Only the report name was taken (an older archive): give back our empty folder, try the next number.
        os.rmdir(evidence_root / candidate)
    raise OutputError(f"No free archive name for '{name}' in '{archive_root}' (tried {MAX_NUMBER}).", archive_root)


def _copy(source: Path, target: Path, cancel: CancelToken) -> dict[str, object]:
    """Copy a file byte for byte (atomically) and hash it on the way: one read."""
    digest = hashlib.sha256()
    size = 0
    target.parent.mkdir(parents=True, exist_ok=True)
    with source.open("rb") as reader, atomic_open(target, "wb") as writer:
        for block in iter(lambda: reader.read(CHUNK), b""):
            cancel.check()
            digest.update(block)
            writer.write(block)
            size += len(block)
    return {"sha256": digest.hexdigest(), "bytes": size}


def _manifest(folder: Path, name: str, command: list[str], source_root: Path,
              files: list[dict[str, object]]) -> None:
    manifest = {
        "run_name": name, "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": command, "source_root": str(source_root),
        "files": sorted(files, key=lambda f: str(f["path"])),
    }
    atomic_write_bytes(folder / MANIFEST, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())


def archive_run(analysis: RunAnalysis, report_files: dict[str, bytes], archive_root: str | Path,
                name: str | None, command: list[str], progress: Progress = no_progress,
                cancel: CancelToken = NEVER_CANCELLED) -> ArchiveResult:
    """Copy the ATT logs (paths kept, relative to the run root) and the report files into fresh archives."""
    root = Path(archive_root)
    check_not_in_run_root(root, analysis.sides.run_root, "archive folder")
    used, evidence, report = claim_name(root, safe_name(name or analysis.name))
    logs = [log.file for scan in analysis.scans.values() for log in scan.logs]
    total = sum(f.size for f in logs) or 1
    done, entries = 0, []
    for found in logs:
        progress(done, total, f"Archiving {found.relpath}")
        entry = _copy(found.path, contained(evidence, Path(found.relpath)), cancel)
        entries.append({"path": found.relpath, **entry})
        done += found.size
    _manifest(evidence, used, command, analysis.sides.run_root, entries)
    report_entries = []
    for file_name, data in report_files.items():
        atomic_write_bytes(report / file_name, data)
        report_entries.append({"path": file_name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)})
    _manifest(report, used, command, analysis.sides.run_root, report_entries)
    progress(total, total, "Archived")
    return ArchiveResult(used, evidence, report, len(entries) + len(report_entries))
