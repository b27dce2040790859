"""Archives of a run: the raw logs under evidence-archive/<name>/, the report under report-archive/<name>/.

A name is claimed with os.mkdir in both places (`name`, `name-2`, `name-3`, …): mkdir either creates the
folder or fails, so two analyses at the same moment never share one, and nothing already archived is
ever written again. Each archive ends with archive-manifest.json (sha256 and size of every file in it).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.outputs import check_not_in_run_root, inside
from autofuse_studio.core.att.safe_open import Pin, not_read, open_regular, os_reason
from autofuse_studio.core.att.safe_paths import contained, safe_name
from autofuse_studio.core.errors import InputError, OutputError
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
        raise OutputError.of("att_archive_create", path=path, reason=(exc.strerror or str(exc)).lower()) from None
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
    raise OutputError.of("att_no_free_archive", name=name, path=archive_root, tried=MAX_NUMBER)


def _copy(source: Path, pin: Pin | None, target: Path, cancel: CancelToken) -> dict[str, object]:
    """Copy a file byte for byte (atomically) and hash it on the way: one descriptor, one read.

    The file is opened as the file that was scanned (`pin`, see safe_open): a log swapped for a link to a
    secret, a pipe or another file meanwhile is refused (InputError), never copied into the archive.
    """
    digest = hashlib.sha256()
    size = 0
    with open_regular(source, pin) as reader:
        target.parent.mkdir(parents=True, exist_ok=True)
        with atomic_open(target, "wb") as writer:
            while True:
                try:
                    block = reader.read(CHUNK)
                except OSError as exc:
                    raise not_read(source, os_reason(exc)) from None
                if not block:
                    break
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


def archive_name(name: str | None, default: str) -> str:
    """The run name used in the archives: `name` made safe for a folder (safe_name), or `default` when
    `name` is missing or empty (`--name ""`: the warning and the folder name agree)."""
    return safe_name(name) if name else safe_name(default)


def check_archive_root(archive_root: str | Path, run_root: Path) -> None:
    """InputError when the archive root, or the evidence-archive/ or report-archive/ folder in it (through a
    link too), is or would be inside the run root: an archive must never be written into what it archives.

    `--run-root A/evidence-archive --archive A` and `A/evidence-archive -> run-root/x` are refused like
    `--archive` inside the run root."""
    root = Path(archive_root)
    check_not_in_run_root(root, run_root, "archive folder")
    for sub in (EVIDENCE_ARCHIVE, REPORT_ARCHIVE):
        folder = (root / sub).resolve()  # follows a link that is already there
        if inside(folder, run_root):
            raise InputError.of("att_archive_in_run_root", path=root / sub, root=run_root, folder=folder, sub=sub)


def _check_claimed(folder: Path, run_root: Path) -> None:
    """After a name is claimed: its folder (reached through links swapped in meanwhile) is not in the run root."""
    if inside(folder.resolve(), run_root):
        with contextlib.suppress(OSError):
            os.rmdir(folder)
        raise InputError.of("att_archive_became_inside", path=folder, root=run_root)


def archive_run(analysis: RunAnalysis, report_files: dict[str, bytes], archive_root: str | Path,
                name: str | None, command: list[str], progress: Progress = no_progress,
                cancel: CancelToken = NEVER_CANCELLED) -> ArchiveResult:
    """Copy the ATT logs (paths kept, relative to the run root) and the report files into fresh archives."""
    root = Path(archive_root)
    run_root = analysis.sides.run_root
    check_archive_root(root, run_root)
    used, evidence, report = claim_name(root, archive_name(name, analysis.name))
    _check_claimed(evidence, run_root)
    _check_claimed(report, run_root)
    logs = [log for scan in analysis.scans.values() for log in scan.logs]
    total = sum(log.file.size for log in logs) or 1
    done, entries = 0, []
    for log in logs:
        found = log.file
        progress(done, total, f"Archiving {found.relpath}")
        target = contained(evidence, Path(found.relpath))
        if inside(target, run_root):  # a folder of the archive swapped for a link into the run root
            raise InputError.of("att_write_in_run_root", path=target, root=run_root)
        entry = _copy(found.path, log.scan.pin or found.pin, target, cancel)
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
