"""Multi-rank dump trees: per rank its own data, folder, {time} runs and timestamps, arranged as traps.

The traps make any rank-blind or timestamp-only pick wrong: af-open's newest files are on the highest
rank and af-close's on rank 0, every rank's {time} folder has its own name, and the files of an older
run carry *newer* timestamps than the run that replaced it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from tests.synth.dumps import MODEL_ID, TIME_DIR
from tests.synth.spec import CaseSpec
from tests.synth.storage import OPEN

_TIME_FORMAT = "%Y%m%d%H%M%S"
_RANK_STAMP_US = 1_000_000  # one second between ranks (steps are a minute apart)
_OLD_RUN_STAMP_US = 10 * 60_000_000 * 60  # older runs' files look ten hours newer (clock skew)
_RUN_SEED = 7_919
_RANK_SEED = 104_729


def rank_seed(spec: CaseSpec, rank: int, run: int) -> int:
    """The data seed of one rank and run: rank 0 of the newest run keeps the spec's seed."""
    older = spec.runs - 1 - run
    return spec.seed + _RANK_SEED * rank + _RUN_SEED * older


def stamp_offset(spec: CaseSpec, side: str, rank: int, run: int) -> int:
    """µs added to every timestamp of (side, rank, run)."""
    sign = 1 if side == OPEN else -1
    older = spec.runs - 1 - run
    return sign * rank * _RANK_STAMP_US + (_OLD_RUN_STAMP_US if older else 0)


def time_folder(side: str, rank: int, run: int, runs: int) -> str:
    """The {time} folder of one rank and run: the side's time, an hour earlier per older run, + rank seconds."""
    start = datetime.strptime(TIME_DIR[side], _TIME_FORMAT)
    return (start - timedelta(hours=runs - 1 - run) + timedelta(seconds=rank)).strftime(_TIME_FORMAT)


def step_folder(spec: CaseSpec, side: str, root_name: str, rank: int, run: int, step: int) -> Path:
    """Where one (rank, run, step) of `side` keeps its NPYs, relative to the side's dump root."""
    if spec.layout == "standard":
        return Path(time_folder(side, rank, run, spec.runs), str(rank), root_name, MODEL_ID, str(step))
    rank_name = spec.rank_folder.format(rank=rank)
    step_name = spec.step_folder.format(step=step)
    parts = [rank_name, step_name] if spec.layout == "rank_first" else [step_name, rank_name]
    if spec.runs > 1:
        parts.insert(0, time_folder(side, rank, run, spec.runs))
    return Path(*parts)


def rank_label(spec: CaseSpec, rank: int) -> str | None:
    """The rank a comparison reports for rows of `rank`: None when each side dumps one rank only."""
    sides = [[r for r in range(spec.ranks) if spec.writes(side, r)] for side in ("af_open", "af_close")]
    return str(rank) if any(len(ranks) > 1 for ranks in sides) else None
