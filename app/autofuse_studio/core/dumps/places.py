"""Where a folder of dump NPYs sits in its tree: which rank (device), which run ({time} folder), which step.

The standard CANN tree is `{dump}/{time}/{device_id}/{model_name}/{model_id}/{data_index}/`; msprobe-style
trees name ranks `rank0`, `rank_0`, `device0`, `npu0`... and steps `step0` anywhere above the NPYs. Ranks and
runs come only from folders below the chosen root: the root is what the user picked, whatever its name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# msprobe and hand-made trees: one folder per rank ("rank0", "rank_0", "Rank-3", "device0", "npu_7", "card2").
_RANK_FOLDER = re.compile(r"(?:rank|device|dev|npu|card)[_-]?([0-9]{1,6})", re.IGNORECASE)
# msprobe-style step folders ("step0", "step_12"); bare numbers are steps only where the tree says so.
_STEP_FOLDER = re.compile(r"step[_-]?([0-9]{1,9})", re.IGNORECASE)
# {time} folders: YYYYMMDDHHMMSS (sometimes with milliseconds); step numbers are never this long.
_MIN_RUN_DIGITS = 12


@dataclass(frozen=True)
class Place:
    """The rank, run and step of one NPY folder (None / "" when the tree does not say)."""

    rank: str | None
    run: str | None
    step: str


def is_number(text: str) -> bool:
    """True for plain ASCII digits ('²' and other digits int() rejects are not numbers)."""
    return text.isascii() and text.isdigit()


def _is_run(text: str) -> bool:
    return is_number(text) and len(text) >= _MIN_RUN_DIGITS


def _is_small_number(text: str) -> bool:
    return is_number(text) and len(text) < _MIN_RUN_DIGITS


@dataclass(frozen=True)
class _Parts:
    """What the names of one folder's path (relative to the root) say on their own."""

    rank: str | None  # from a rank folder, else the standard tree's device folder
    run: str | None
    step: str | None  # "step0" folders and the standard tree's data_index
    bare_number: str | None  # the nearest plain number, a step when the whole tree is numbered


def _standard(parts: Sequence[str], above: str) -> tuple[str | None, str | None, str | None]:
    """(device, time, step) when the path ends like {time}/{device}/{model}/{model_id}/{step}.

    `above` is the name of the root itself: a root picked at the model_id folder still has steps.
    """
    parent = parts[-2] if len(parts) >= 2 else above
    if not parts or not _is_small_number(parts[-1]) or not is_number(parent):
        return None, None, None
    device = parts[-4] if len(parts) >= 4 and _is_small_number(parts[-4]) else None
    time = parts[-5] if device is not None and len(parts) >= 5 and _is_run(parts[-5]) else None
    return device, time, parts[-1]


def _rank_folder(parts: Sequence[str]) -> tuple[int, str] | None:
    """(position, rank) of the rank folder nearest the NPYs."""
    for number in range(len(parts) - 1, -1, -1):
        match = _RANK_FOLDER.fullmatch(parts[number])
        if match is not None:
            return number, match.group(1)
    return None


def _read_parts(parts: Sequence[str], above: str) -> _Parts:
    device, time, step = _standard(parts, above)
    folder = _rank_folder(parts)
    at, rank = (None, device) if folder is None else folder
    run = time or next((part for part in reversed(parts) if _is_run(part)), None)
    if step is None:
        # "step007" and "7" name the same iteration.
        step = next((str(int(match.group(1))) for part in reversed(parts)
                     if (match := _STEP_FOLDER.fullmatch(part))), None)
    bare = None
    if step is None:
        numbers = [number for number in range(len(parts)) if _is_small_number(parts[number])]
        bare = parts[numbers[-1]] if numbers else None
        if at is not None and numbers and abs(numbers[-1] - at) == 1:
            step, bare = bare, None  # rank0/0 or 0/rank0: the number beside a rank folder is its step
    return _Parts(rank=None if rank is None else str(int(rank)), run=run, step=step, bare_number=bare)


def place_folders(root: Path, folders: Sequence[Path]) -> dict[Path, Place]:
    """The Place of every NPY folder under root (only the paths are read, never the disk)."""
    read = {folder: _read_parts(folder.relative_to(root).parts, root.name) for folder in folders}
    # Pragmatic rule kept from the first index: several NPY folders that all sit under plain numbers
    # are steps (data_index) even when the tree above them is not the standard one.
    below = [parts for folder, parts in read.items() if folder != root]
    numbered = len(below) > 1 and all(parts.step is not None or parts.bare_number is not None for parts in below)
    places = {}
    for folder, parts in read.items():
        step = parts.step if parts.step is not None or not numbered else parts.bare_number
        places[folder] = Place(parts.rank, parts.run, step or "")
    return places
