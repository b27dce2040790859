"""Several dump runs ({time} folders) on one side: the newest run of each rank is used, never a mix of runs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.dumps.places import Place
from autofuse_studio.core.notices import Notice, examples, plural, shorten


@dataclass(frozen=True)
class RunChoice:
    """The run used for one rank (None: the tree has no {time} folder) and the older runs set aside."""

    used: str | None
    ignored: tuple[str | None, ...] = ()
    ignored_files: int = 0

    def keeps(self, place: Place) -> bool:
        """True when a folder at `place` belongs to the run in use."""
        return place.run == self.used


@dataclass
class _RankRuns:
    files: dict[str | None, int] = field(default_factory=lambda: defaultdict(int))


def _run_order(run: str | None) -> tuple[int, int, str]:
    # Folders without a {time} name are older than any named run; longer digit strings are later times.
    return (0, 0, "") if run is None else (1, len(run), run)


def choose_runs(root: Path, folders: Mapping[Path, tuple[Place, int]],
                notices: list[Notice]) -> dict[str | None, RunChoice]:
    """The run to use for every rank of the tree, with one notice when some runs are set aside."""
    by_rank: dict[str | None, _RankRuns] = defaultdict(_RankRuns)
    for place, files in folders.values():
        by_rank[place.rank].files[place.run] += files
    choices: dict[str | None, RunChoice] = {}
    for rank, runs in by_rank.items():
        ordered = sorted(runs.files, key=_run_order)
        used, older = ordered[-1], tuple(ordered[:-1])
        choices[rank] = RunChoice(used, older, sum(runs.files[run] for run in older))
    notice = _runs_notice(root, choices)
    if notice is not None:
        notices.append(notice)
    return choices


def _runs_notice(root: Path, choices: dict[str | None, RunChoice]) -> Notice | None:
    """'…/dump: 4 ranks have several dump runs; the newest of each is used (e.g. 20250106142301); 208 NPYs …'."""
    set_aside = {rank: choice for rank, choice in choices.items() if choice.ignored}
    if not set_aside:
        return None
    used = examples((str(choice.used) for choice in set_aside.values()), 1)
    files = sum(choice.ignored_files for choice in set_aside.values())
    ranks = [rank for rank in set_aside if rank is not None]
    who = f"{plural(len(ranks), 'rank')} {'has' if len(ranks) == 1 else 'have'}" if ranks else "the tree has"
    message = (f"{shorten(str(root), 40)}: {who} several dump runs ({{time}} folders); the newest of each is used "
               f"(e.g. {used}), {plural(files, 'NPY')} of older runs are ignored.")
    items = [{"rank": rank, "used": choice.used, "ignored": list(choice.ignored), "ignored_files": choice.ignored_files}
             for rank, choice in set_aside.items()]
    params = {"root": shorten(str(root), 40), "used": used, "files": files, "ranks": ranks}
    return Notice("older_runs_ignored", message, len(set_aside), items, params=params)
