"""GUI evidence export: the archive goes into a fresh folder, never over an existing archive."""

from __future__ import annotations

import shutil
from pathlib import Path

from autofuse_studio.core.att.evidence import write_evidence
from autofuse_studio.core.att.model import FileScan
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

MAX_NUMBER = 9999


def _reusable(folder: Path) -> bool:
    """A folder may receive an archive when it does not exist yet or is an empty directory."""
    if not folder.exists():
        return True
    return folder.is_dir() and not any(folder.iterdir())


def claim_folder(target: Path) -> Path:
    """Create and return `target`, or `target-2`, `target-3`, … when it exists and is not empty.

    mkdir without exist_ok claims the name, so two exports at the same moment get different folders.
    """
    for number in range(1, MAX_NUMBER + 1):
        candidate = target if number == 1 else target.with_name(f"{target.name}-{number}")
        if not _reusable(candidate):
            continue
        try:
            candidate.mkdir(parents=True, exist_ok=candidate.is_dir())
        except FileExistsError:
            continue  # someone else claimed it between the check and mkdir
        return candidate
    raise InputError.of("att_no_free_folder", path=target, tried=MAX_NUMBER)


def export_evidence(scans: list[FileScan], logs: list[Path], target: Path, command: list[str],
                    progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> tuple[Path, int]:
    """Write att-evidence.jsonl + tool-manifest.json into a claimed folder; returns (folder, records)."""
    cancel.check()
    progress(0, 1, "Writing evidence")
    folder = claim_folder(target)
    count = write_evidence(scans, logs, folder, command)
    progress(1, 1, "Evidence written")
    return folder, count


def copy_tree(source: Path, target: Path, progress: Progress = no_progress,
              cancel: CancelToken = NEVER_CANCELLED) -> Path:
    """Copy a folder (e.g. the split-slog output) into a claimed folder; returns the folder used."""
    files = [p for p in sorted(source.rglob("*")) if p.is_file()]
    folder = claim_folder(target)
    for index, path in enumerate(files):
        cancel.check()
        progress(index, len(files), f"Copying {path.name}")
        destination = folder / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, destination)
    progress(len(files), len(files), "Copied")
    return folder
