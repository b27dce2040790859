"""Which (rank, step) of the af-open dump is compared with which of the af-close dump.

Ranks pair by id (rank r with rank r); a side with one rank pairs with the other side's one rank whatever
their ids (one card per run). Rows carry a rank only when a side has several ranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autofuse_studio.core.dumps.index import RAW, STATS, DumpIndex, Rank
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.notices import Notice, join_names
from autofuse_studio.core.sorting import natural_key

OPEN_SIDE, CLOSE_SIDE = "af-open", "af-close"


@dataclass(frozen=True)
class DumpPair:
    """One (rank, step) to compare: the rows' labels and where each side's NPYs are in its index."""

    rank: str | None  # the rows' rank: None when neither side has several ranks
    step: str  # the rows' step (the af-open step name, "" when the tree has none)
    open_rank: Rank
    close_rank: Rank
    open_step: str | None
    close_step: str | None
    missing_side: str | None = None  # OPEN_SIDE / CLOSE_SIDE when that side has no dump of this rank


def rank_label(rank: str | None) -> str:
    """How a rank is written in messages and headings ('-' for files outside any rank folder)."""
    return "-" if rank is None else rank


def _rank_param(where: str) -> dict[str, str]:
    """The rank named by a ' on rank R' suffix, as a notice parameter (none for a single-rank case)."""
    prefix = " on rank "
    return {"rank": where[len(prefix):]} if where.startswith(prefix) else {}


def pair_steps(open_steps: Sequence[str], close_steps: Sequence[str], step: str | None,
               notices: list[Notice], where: str = "") -> list[tuple[str | None, str | None]]:
    """The (af-open step, af-close step) pairs to compare: --step, else every step on both sides."""
    if step is not None:
        if step not in open_steps or step not in close_steps:
            raise InputError.of("step_not_in_both", step=step, where=where, **_rank_param(where),
                                open_steps=str(list(open_steps) or 'none'),
                                close_steps=str(list(close_steps) or 'none'))
        return [(step, step)]
    common = [name for name in open_steps if name in close_steps]
    if common:
        only_one_side = sorted(set(open_steps) ^ set(close_steps), key=natural_key)
        if only_one_side:
            notices.append(Notice("step_on_one_side", f"Steps present on one side only are not compared{where}: "
                                  f"{join_names(only_one_side)}", len(only_one_side),
                                  [{"step": name} for name in only_one_side],
                                  params={"steps_list": join_names(only_one_side), **_rank_param(where)}))
        return [(name, name) for name in common]
    if len(open_steps) <= 1 and len(close_steps) <= 1:
        if open_steps and close_steps:
            text = f"Comparing af-open step {open_steps[0]} with af-close step {close_steps[0]}{where}."
            notices.append(Notice("steps_paired_by_position", text, params={
                "open_step": open_steps[0], "close_step": close_steps[0], **_rank_param(where)}))
        return [(open_steps[0] if open_steps else None, close_steps[0] if close_steps else None)]
    raise InputError.of("no_common_step", where=where, **_rank_param(where), open_steps=", ".join(open_steps),
                        close_steps=", ".join(close_steps))


def _selected(ranks: list[Rank], wanted: Sequence[str] | None, open_ranks: list[Rank],
              close_ranks: list[Rank]) -> list[Rank]:
    if wanted is None:
        return ranks
    unknown = [rank for rank in wanted if rank not in ranks]
    if unknown:
        raise InputError.of("rank_not_in_dumps", unknown=", ".join(unknown), open_ranks=_rank_list(open_ranks),
                            close_ranks=_rank_list(close_ranks))
    return [rank for rank in ranks if rank in wanted]


def _rank_list(ranks: list[Rank]) -> str:
    named = [rank for rank in ranks if rank is not None]
    return f"ranks {join_names(named)}" if named else "no rank folders"


def _single(open_index: DumpIndex, close_index: DumpIndex, step: str | None, wanted: Sequence[str] | None,
            notices: list[Notice]) -> list[DumpPair]:
    """One rank (or none) on each side: compare them, saying so when their ids differ."""
    open_rank = open_index.ranks[0] if open_index.ranks else None
    close_rank = close_index.ranks[0] if close_index.ranks else None
    if wanted is not None:
        _selected(list(dict.fromkeys([open_rank, close_rank])), wanted, open_index.ranks, close_index.ranks)
    if open_rank is not None and close_rank is not None and open_rank != close_rank:
        notices.append(Notice("ranks_paired_by_position", f"Comparing af-open rank {open_rank} with af-close rank "
                              f"{close_rank} (each side has one rank).", items=[{"af_open_rank": open_rank,
                                                                                  "af_close_rank": close_rank}],
                              params={"open_rank": open_rank, "close_rank": close_rank}))
    steps = pair_steps(open_index.steps_of(open_rank), close_index.steps_of(close_rank), step, notices)
    return [DumpPair(None, open_step or "", open_rank, close_rank, open_step, close_step)
            for open_step, close_step in steps]


def pair_dumps(open_index: DumpIndex, close_index: DumpIndex, step: str | None = None,
               ranks: Sequence[str] | None = None, notices: list[Notice] | None = None) -> list[DumpPair]:
    """Every (rank, step) to compare, in rank then step order; one notice per thing chosen or left out."""
    notices = [] if notices is None else notices
    if len(open_index.ranks) <= 1 and len(close_index.ranks) <= 1:
        return _single(open_index, close_index, step, ranks, notices)
    every = sorted(set(open_index.ranks) | set(close_index.ranks), key=natural_key)
    pairs: list[DumpPair] = []
    missing: dict[str, list[Rank]] = {OPEN_SIDE: [], CLOSE_SIDE: []}
    errors: list[InputError] = []
    for rank in _selected(every, ranks, open_index.ranks, close_index.ranks):
        if rank not in close_index.ranks or rank not in open_index.ranks:
            side, index = (CLOSE_SIDE, open_index) if rank not in close_index.ranks else (OPEN_SIDE, close_index)
            missing[side].append(rank)
            pairs += [DumpPair(rank, name, rank, rank, name, name, side) for name in index.steps_of(rank)
                      if step is None or name == step]
            continue
        try:
            steps = pair_steps(open_index.steps_of(rank), close_index.steps_of(rank), step, notices,
                               f" on rank {rank_label(rank)}")
        except InputError as error:
            errors.append(error)
            notices.append(Notice("rank_not_compared", str(error), items=[{"rank": rank}],
                                  params={"rank": rank_label(rank), "detail": str(error)}))
            continue
        pairs += [DumpPair(rank, open_step or "", rank, rank, open_step, close_step) for open_step, close_step in steps]
    if errors and not any(pair.missing_side is None for pair in pairs):
        raise errors[0]
    notices.extend(_missing_notices(missing))
    return pairs


def _missing_notices(missing: dict[str, list[Rank]]) -> list[Notice]:
    notices = []
    for absent_side, ranks in missing.items():
        if not ranks:
            continue
        present = OPEN_SIDE if absent_side == CLOSE_SIDE else CLOSE_SIDE
        labels = [rank_label(rank) for rank in ranks]
        notices.append(Notice(
            "rank_on_one_side",
            f"{'Rank' if len(ranks) == 1 else 'Ranks'} {join_names(labels)} "
            f"{'is' if len(ranks) == 1 else 'are'} in the {present} dump only (no {absent_side} dump): "
            f"{'its' if len(ranks) == 1 else 'their'} rows are not compared (RANK_NOT_FOUND).",
            len(ranks), [{"rank": rank, "side": present, "missing_side": absent_side} for rank in ranks],
            params={"ranks_list": join_names(labels), "present": present, "absent": absent_side}))
    return notices


@dataclass(frozen=True)
class SideFacts:
    """What one dump folder holds, as facts a front end words in its own language (DumpIndex.describe in English)."""

    ranks: tuple[str, ...]  # the named ranks (none for a single-device tree)
    steps: tuple[str, ...]  # the named steps (none for a flat folder)
    npys: int
    raw_files: int
    stats_csvs: int
    statistics_only: bool  # statistics CSVs and no tensor: the side is compared by its statistics


def side_facts(index: DumpIndex) -> SideFacts:
    """The SideFacts of an index."""
    return SideFacts(tuple(rank for rank in index.ranks if rank is not None),
                     tuple(step for step in index.steps if step), index.counts.get("npy", 0),
                     index.counts.get(RAW, 0), index.counts.get(STATS, 0), index.statistics_only)


@dataclass(frozen=True)
class SidesSummary:
    """What each dump folder holds (for the case dock) and, in one sentence, how the two differ.

    `af_open` / `af_close` are DumpIndex.describe() sentences; the facts, when known (not from an older host's
    record stream), let the GUI say the same in its language.
    """

    files: int
    af_open: str
    af_close: str
    difference: str | None
    open_facts: SideFacts | None = None
    close_facts: SideFacts | None = None


def _named(values: Sequence[str | None]) -> str:
    named = [value for value in values if value]
    return join_names(named) if named else "none"


def summarise_sides(open_index: DumpIndex, close_index: DumpIndex) -> SidesSummary:
    """Ranks, steps and NPY counts of both sides; a sentence when their ranks or steps differ."""
    differences = []
    if set(open_index.ranks) != set(close_index.ranks) and (len(open_index.ranks) > 1 or len(close_index.ranks) > 1):
        differences.append(f"af-open has ranks {_named(open_index.ranks)}, af-close has ranks "
                           f"{_named(close_index.ranks)}")
    if set(open_index.steps) != set(close_index.steps):
        differences.append(f"af-open has steps {_named(open_index.steps)}, af-close has steps "
                           f"{_named(close_index.steps)}")
    difference = ("The dump folders differ: " + "; ".join(differences) + ".") if differences else None
    return SidesSummary(open_index.files_found + close_index.files_found, open_index.describe(),
                        close_index.describe(), difference, side_facts(open_index), side_facts(close_index))
