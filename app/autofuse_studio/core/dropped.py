"""Dropped or given paths sorted into what they are: ATT logs, graphs and dump folders, NPY pairs.

Sorting reads file heads, whole graph files (is this the fusion-enabled one?) and walks dump trees of
100k+ files: it runs in the background, and the GUI applies the outcome when it is done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autofuse_studio.core.att.sniff import split_att_logs
from autofuse_studio.core.case import Detection, detect_roles
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress


@dataclass
class Dropped:
    """What a drop held: ATT logs (and log folders), the other paths, and their roles (None without any)."""

    att_logs: list[str]
    paths: list[str]
    detection: Detection | None


def sort_dropped(paths: Sequence[str], *, progress: Progress = no_progress,
                 cancel: CancelToken = NEVER_CANCELLED) -> Dropped:
    """Split off the ATT logs, then detect the roles of the rest (graphs by content, dump trees by file names).

    Dump trees hold NPYs, raw dump files or statistics CSVs (as the NPU writes them); none is an ATT log folder.
    """
    progress(0, 2, "looking at the dropped items")
    att_logs, rest = split_att_logs(paths)
    cancel.check()
    progress(1, 2, "looking at the dropped items")
    return Dropped(att_logs, rest, detect_roles(rest) if rest else None)
