"""DumpIndex: one recursive scan of a dump folder tree, then O(1) lookups of tensors by rank, step, op, kind and index.

A tree may hold NPYs (msaccucmp convert or any script's names), raw dump files as the NPU writes them (one per
executed op, several tensors each), and statistics CSVs. The scan reads names only; a raw file's tensors are
looked up by the names their NPYs would have (dumps.tensors), so pairing, ranks, steps, occurrences and every
later stage are one code path for all of them.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from autofuse_studio.core.dumps.names import (
    ffts_slice,
    loose_npy_fields,
    parse_dump_name,
    parse_npy_name,
    sanitize_op_name,
)
from autofuse_studio.core.dumps.places import Place, place_folders
from autofuse_studio.core.dumps.runs import RunChoice, choose_runs
from autofuse_studio.core.dumps.sniff import header_op_name
from autofuse_studio.core.dumps.tensors import read_raw_dump, tensor_path
from autofuse_studio.core.dumps.walk import WalkReport, walk_contained, walk_notices
from autofuse_studio.core.errors import InputError, NpyLoadError
from autofuse_studio.core.notices import Notice, examples, plural, shorten
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.core.release import empty_in_chunks
from autofuse_studio.core.sorting import NaturalKey, natural_key

MAPPING_FILE = "mapping.csv"
_MAX_NAMES_IN_WARNING = 6
# Entry kinds besides input/output: a raw (or nano) dump file of one op, a statistics CSV of one op dump.
RAW = "raw"
STATS = "stats"
OUTPUT_KIND = "output"
_STATS_SUFFIX = ".csv"

Rank = str | None
_Key = tuple[Rank, str, str, str, int]  # rank, step, sanitised op name, kind, index
_OpKey = tuple[Rank, str, str]  # rank, step, sanitised op name
_Fields = tuple[str, str, int, int]  # op name, kind, index, timestamp
_T = TypeVar("_T")
# The usual modern name, {type}.{name}.{task}.{stream}.{timestamp}.{kind}.{index}.npy, matched in one go;
# everything else goes through parse_npy_name (same fields, several times slower).
_COMMON_NAME = re.compile(r"[^.]+\.([^.]+)\.[0-9]+\.[0-9]+\.([0-9]+)\.(input|output)\.([0-9]+)\.npy")
# The usual raw dump name, {type}.{name}.{task}.{stream}.{timestamp}, likewise (parse_dump_name does the rest).
_COMMON_RAW_NAME = re.compile(r"[^.]+\.([^.]+)\.[0-9]{1,10}\.[0-9]{1,10}\.([0-9]{11,20})")
# Its statistics CSV (a `dump_data: stats` run: one per op dump), likewise.
_COMMON_STATS_NAME = re.compile(_COMMON_RAW_NAME.pattern + r"\.csv")


class _FirstRank:
    """Default of the `rank` arguments: the index's first rank (the only one in single-device trees)."""


FIRST_RANK = _FirstRank()


@dataclass
class Lookup:
    """The NPY chosen for one tensor (newest timestamp) and the older duplicates, newest first."""

    path: Path | None
    others: list[Path] = field(default_factory=list)


def read_mapping(path: Path, notices: list[Notice]) -> dict[str, str]:
    """`new,old` lines of a mapping.csv (renamed long file names) as {new: old file name}."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        notices.append(Notice("unreadable_mapping", f"Cannot read {path}: {exc.strerror or exc}; long file names "
                              "there stay unresolved.", items=[{"path": str(path)}],
                              params={"path": str(path), "reason": str(exc.strerror or exc)}))
        return {}
    mapping: dict[str, str] = {}
    for line in text.splitlines():
        new, sep, old = line.strip().partition(",")
        if sep and new.strip() and old.strip():
            # Keep only the base name: some tools write the old name with its folder.
            mapping[new.strip()] = old.strip().replace("\\", "/").rsplit("/", 1)[-1]
    return mapping


def _name_fields(name: str) -> _Fields | None:
    """(op name, kind, index, timestamp) of a dump NPY name, or None when it is not one."""
    match = _COMMON_NAME.fullmatch(name)
    if match is not None:
        op_name, timestamp, kind, index = match.groups()
        return op_name, kind, int(index), int(timestamp)
    parsed = parse_npy_name(name)
    return None if parsed is None else (parsed.op_name, parsed.kind, parsed.index, parsed.timestamp)


_FftsGroups = dict[tuple[str, ...], list[tuple[int, int, str, str]]]  # group -> (thread, timestamp, op, file name)


def _dump_fields(name: str, ffts: _FftsGroups | None = None, file_name: str = "") -> _Fields | None:
    """(op name, raw or stats, 0, timestamp) of a raw dump or statistics CSV name, or None.

    The thread files of an FFTS+ op go to `ffts` instead (None returned): they are one dump, indexed once.
    """
    kind = RAW
    if name.endswith(_STATS_SUFFIX):
        name, kind = name[: -len(_STATS_SUFFIX)], STATS
    parsed = parse_dump_name(name)
    if parsed is None:
        return None
    sliced = ffts_slice(parsed) if kind == RAW and ffts is not None else None
    if sliced is not None and ffts is not None:
        ffts.setdefault(sliced.group, []).append((sliced.thread, parsed.timestamp, sliced.op_name, file_name or name))
        return None
    return parsed.op_name, kind, 0, parsed.timestamp


def _ffts_entries(groups: _FftsGroups) -> list[tuple[_Fields, str]]:
    """One entry per FFTS+ op dump: its first thread's file (dumps.tensors merges the threads when reading)."""
    entries = []
    for files in groups.values():
        files.sort()
        _thread, _stamp, op_name, name = files[0]
        entries.append(((op_name, RAW, 0, max(stamp for _, stamp, _, _ in files)), name))
    return entries


def _resolve_name(name: str, mapping: dict[str, str]) -> str:
    """The real file name of a renamed (digits / uuid) file, or the name itself."""
    old = mapping.get(name)
    if old is None and name.endswith(".npy"):
        old = mapping.get(name[: -len(".npy")])
    if old is None:
        return name
    return old if old.endswith(".npy") or not name.endswith(".npy") else old + ".npy"


_Found = dict[Path, list[tuple[_Fields, str]]]


@dataclass
class TreeScan:
    """What one walk of a dump tree found, before any rank, step or run is decided (file names only).

    A cluster builds it where the files are and sends it to the client, which merges the scans of its
    workers and builds the index from them exactly as a local build would (DumpIndex.from_scan).
    """

    found: _Found
    report: WalkReport = field(default_factory=WalkReport)
    ignored: list[str] = field(default_factory=list)  # paths of .npy files not named like dump NPYs
    notices: list[Notice] = field(default_factory=list)  # what reading mapping.csv files said
    loose: list[str] = field(default_factory=list)  # paths of NPYs named only `*.{op}.*.{kind}.{i}.npy`


def _classify(folder: Path, name: str, real: str, scan: TreeScan, entries: list[tuple[_Fields, str]],
              ffts: _FftsGroups) -> None:
    """Add the index entries of one file (`real`: its name after mapping.csv) to `entries`."""
    if real.endswith(".npy"):
        fields = _name_fields(real)
        if fields is not None:
            entries.append((fields, name))
            return
        loose = loose_npy_fields(real)
        if loose is None:
            scan.ignored.append(os.path.join(folder, name))
            return
        ops, kind, index, stamp = loose
        entries.extend(((op, kind, index, stamp), name) for op in ops)
        scan.loose.append(os.path.join(folder, name))
        return
    fields = _dump_fields(real, ffts, name)
    if fields is None and real.isascii() and real.isdigit():
        # A long name written as its hash with no mapping.csv line: the header still has the op's name.
        op_name = header_op_name(folder / name)
        fields = None if op_name is None else (sanitize_op_name(op_name), RAW, 0, 0)
    if fields is not None:
        entries.append((fields, name))


def scan_tree(root: Path, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> TreeScan:
    """Every dump NPY, raw dump and statistics CSV under root by folder: (name fields, file name)."""
    scan = TreeScan({})
    for folder, names in walk_contained(root, progress, cancel, scan.report):
        mapping = read_mapping(folder / MAPPING_FILE, scan.notices) if MAPPING_FILE in names else {}
        entries: list[tuple[_Fields, str]] = []
        ffts: _FftsGroups = {}
        for name in names:
            match = _COMMON_NAME.fullmatch(name)
            if match is not None and not mapping:  # the usual NPY name, the fast path of big trees
                op_name, timestamp, kind, index = match.groups()
                entries.append(((op_name, kind, int(index), int(timestamp)), name))
            elif not mapping and (raw := _COMMON_RAW_NAME.fullmatch(name)) is not None:
                entries.append(((raw.group(1), RAW, 0, int(raw.group(2))), name))
            elif not mapping and (stats_name := _COMMON_STATS_NAME.fullmatch(name)) is not None:
                entries.append(((stats_name.group(1), STATS, 0, int(stats_name.group(2))), name))
            elif name != MAPPING_FILE:
                _classify(folder, name, _resolve_name(name, mapping) if mapping else name, scan, entries, ffts)
        entries += _ffts_entries(ffts)
        if entries:
            scan.found[folder] = entries
    return scan


def _walk_notices(root: Path, report: WalkReport, ignored: list[str]) -> list[Notice]:
    notices = walk_notices(root, report)
    if ignored:
        notices.append(Notice(
            "not_a_dump_npy",
            f"{len(ignored)} .npy file(s) under {shorten(str(root), 40)} are not named like dump NPYs and were ignored "
            f"(e.g. {', '.join(sorted(ignored)[:3])}).", len(ignored), [{"name": name} for name in ignored],
            params={"root": shorten(str(root), 40), "names": sorted(ignored)[:3]}))
    return notices


# The files of one key, newest first: one file (most keys) as a bare str, several as a tuple. Under a
# (rank, step) that DumpTables.folders names, each file is only its name in that folder (saves the folder
# text per file: 150k files in a big model's tree); under any other, its path.
_Files = str | tuple[str, ...]


@dataclass(frozen=True)
class DumpTables:
    """The files of a tree by key, newest first: NPYs per tensor, raw dumps and statistics CSVs per op."""

    npys: dict[_Key, _Files] = field(default_factory=dict)
    raws: dict[_OpKey, _Files] = field(default_factory=dict)
    stats: dict[_OpKey, _Files] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # files by kind: "npy", RAW, STATS
    folders: dict[tuple[Rank, str], str] = field(default_factory=dict)  # (rank, step) -> its one folder + sep


class DumpIndex:
    """All dumped tensors under a folder, indexed once by (rank, step, op name, kind, index)."""

    def __init__(self, root: Path, table: dict[_Key, _Files], notices: list[Notice], files: int,
                 runs: dict[Rank, RunChoice] | None = None, tables: DumpTables | None = None) -> None:
        self.root = root
        self.notices = notices
        self.files_indexed = files
        self.runs = runs or {}
        self._table = table
        tables = tables or DumpTables(table, counts={"npy": files})
        self._raws = tables.raws
        self._stats = tables.stats
        self._folders = tables.folders
        self.counts = dict(tables.counts)
        self._ops = {(rank, step, op) for rank, step, op, _, _ in table} | set(self._raws)
        if not self._ops:  # a statistics-only side: its ops are those of its CSVs
            self._ops = set(self._stats)
        rank_steps: dict[Rank, set[str]] = defaultdict(set)
        for rank, step, _ in self._ops:
            rank_steps[rank].add(step)
        self.ranks: list[Rank] = sorted(rank_steps, key=natural_key)
        self._steps = {rank: sorted(steps, key=natural_key) for rank, steps in rank_steps.items()}
        self.steps: list[str] = sorted(set().union(*rank_steps.values()), key=natural_key)

    @classmethod
    def build(
        cls, root: str | Path, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> DumpIndex:
        """Scan `root` recursively once and index every dump file in it."""
        root = Path(root)
        if not root.exists():
            raise InputError.of("dump_folder_missing", path=root)
        if not root.is_dir():
            raise InputError.of("dump_folder_not_folder", path=root)
        scan = scan_tree(root, progress, cancel)
        index = cls.from_scan(root, scan)
        # Two tuples per file (290k objects in a big model's tree), freed with the call, were one ~10 ms cascade
        # holding the GIL while the GUI waited; the index keeps only their strings: freed a chunk at a time.
        empty_in_chunks(*scan.found.values())
        return index

    @classmethod
    def from_scan(cls, root: Path, scan: TreeScan) -> DumpIndex:
        """The index of a scanned tree: ranks, steps and runs decided, older runs set aside."""
        found = scan.found
        ignored = [os.path.basename(path) for path in scan.ignored]
        notices = [*scan.notices, *_walk_notices(root, scan.report, ignored)]
        places = place_folders(root, sorted(found))
        runs = choose_runs(root, {folder: (place, len(found[folder])) for folder, place in places.items()}, notices)
        kept = {folder: entries for folder, entries in found.items() if runs[places[folder].rank].keeps(places[folder])}
        tables = _group(kept, places)
        notices += _content_notices(root, tables, scan.loose)
        return cls(root, tables.npys, notices, tables.counts.get("npy", 0), runs, tables)

    @property
    def statistics_only(self) -> bool:
        """True when the tree holds statistics CSVs and no tensor at all (a `dump_data: stats` run)."""
        return bool(self._stats) and not self._table and not self._raws

    @property
    def warnings(self) -> list[str]:
        """Every notice as a sentence, then one sentence per op dumped several times (API and tests)."""
        return [notice.message for notice in self.notices] + self._duplicate_lines()

    def _duplicate_lines(self) -> list[str]:
        groups: dict[tuple[Rank, str, str], list[list[str]]] = defaultdict(list)
        for (rank, step, op, _, _), files in self._table.items():
            if type(files) is tuple:
                groups[(rank, step, op)].append(self._paths(rank, step, files))
        for (rank, step, op), files in self._raws.items():
            if type(files) is tuple and (rank, step, op) not in groups:
                groups[(rank, step, op)].append(self._paths(rank, step, files))
        return [_duplicate_warning(self.root, rank, step, op, paths)
                for (rank, step, op), paths in sorted(groups.items(), key=lambda item: _sort_key(item[0]))]

    def _rank(self, rank: Rank | _FirstRank) -> Rank:
        if isinstance(rank, _FirstRank):
            return self.ranks[0] if self.ranks else None
        return rank

    def steps_of(self, rank: Rank | _FirstRank = FIRST_RANK) -> list[str]:
        """The steps dumped for one rank, in natural order."""
        return list(self._steps.get(self._rank(rank), []))

    def _step(self, step: str | None, rank: Rank) -> str:
        if step is not None:
            return step
        steps = self._steps.get(rank)
        return steps[0] if steps else ""

    def occurrences(self, op_name: str, kind: str, index: int, step: str | None = None,
                    rank: Rank | _FirstRank = FIRST_RANK) -> list[Path]:
        """Every dump of one tensor in one step, oldest first (several for loop bodies and re-runs)."""
        rank = self._rank(rank)
        return [Path(path) for path in reversed(self.paths(op_name, kind, index, step, rank))]

    def paths(self, op_name: str, kind: str, index: int, step: str | None, rank: Rank) -> list[str]:
        """Every dump of one tensor as path strings, newest first (the planner's fast path: no Path objects).

        An NPY wins over a raw dump of the same op (it was converted from it); a raw dump's tensor is named
        by the path its NPY would have, which dumps.tensors resolves.
        """
        step = self._step(step, rank)
        op_key = (rank, step, sanitize_op_name(op_name))
        found = self._table.get((*op_key, kind, index))
        if found:
            return self._paths(rank, step, found)
        raws = self._raws.get(op_key)
        if raws:
            return [tensor_path(raw, kind, index) for raw in self._paths(rank, step, raws)]
        if self.statistics_only:  # a statistics CSV's tensors are named like a raw dump's
            stats = self._stats.get(op_key)
            return [tensor_path(csv, kind, index) for csv in self._paths(rank, step, stats)] if stats else []
        return []

    def _paths(self, rank: Rank, step: str, files: _Files) -> list[str]:
        """The paths of a key's files (as stored: a name or a path, one or a tuple)."""
        folder = self._folders.get((rank, step))
        if isinstance(files, str):
            return [files if folder is None else folder + files]
        return list(files) if folder is None else [folder + name for name in files]

    @property
    def files_found(self) -> int:
        """Every dump file indexed: NPYs, raw dump files and statistics CSVs."""
        return self.files_indexed + self.counts.get(RAW, 0) + self.counts.get(STATS, 0)

    def origin_from_header(self, op_name: str, index: int, step: str | None, rank: Rank) -> tuple[str, int] | None:
        """The origin (pre-fusion) op and output of a fused op's output, from its newest raw dump's header.

        CANN writes `original_op` for every fused output GE described; it pairs a fused output with its origin
        when the graph lost the `_datadump_origin_name` attributes. None when no raw dump says it.
        """
        step = self._step(step, rank)
        raws = self._raws.get((rank, step, sanitize_op_name(op_name)))
        if not raws:
            return None
        try:
            tensor = read_raw_dump(self._paths(rank, step, raws)[0]).tensor(OUTPUT_KIND, index)
        except NpyLoadError:
            return None
        if tensor is None or tensor.origin_op is None or tensor.origin_index is None:
            return None
        return tensor.origin_op, tensor.origin_index

    def stats_paths(self, op_name: str, step: str | None, rank: Rank) -> list[str]:
        """The statistics CSVs of one op dump in one step, newest first."""
        step = self._step(step, rank)
        stats = self._stats.get((rank, step, sanitize_op_name(op_name)))
        return self._paths(rank, step, stats) if stats else []

    def lookup(self, op_name: str, kind: str, index: int, step: str | None = None,
               rank: Rank | _FirstRank = FIRST_RANK) -> Lookup:
        """The file of one tensor of a graph op (name sanitised here); step None -> the rank's first step."""
        paths = self.paths(op_name, kind, index, step, self._rank(rank))
        if not paths:
            return Lookup(None, [])
        return Lookup(Path(paths[0]), [Path(path) for path in paths[1:]])

    def has_op(self, op_name: str, step: str | None = None, rank: Rank | _FirstRank = FIRST_RANK) -> bool:
        """True when any tensor of the op was dumped in the step."""
        rank = self._rank(rank)
        return (rank, self._step(step, rank), sanitize_op_name(op_name)) in self._ops

    def describe(self) -> str:
        """'4 ranks (0, 1, 2, 3), 2 steps (0, 1), 18,344 raw dump files, 0 NPY' for the case dock."""
        named = [rank for rank in self.ranks if rank is not None]
        ranks = f"{plural(len(named), 'rank')} ({', '.join(named[:8])}{', …' if len(named) > 8 else ''}), " \
            if len(named) > 1 else ""
        steps = [step for step in self.steps if step]
        step_text = f"{plural(len(steps), 'step')} ({examples(steps, 6)}), " if steps else ""
        files = [plural(self.files_indexed, 'NPY')]
        if self.counts.get(RAW):
            files.insert(0, plural(self.counts[RAW], "raw dump file"))
        if self.counts.get(STATS):
            files.append(plural(self.counts[STATS], "statistics CSV"))
        return f"{ranks}{step_text}{', '.join(files)}"


def _sort_key(key: tuple[Rank, str, str]) -> tuple[NaturalKey, NaturalKey, str]:
    return natural_key(key[0]), natural_key(key[1]), key[2]


def _newest_first(hits: dict[_T, list[tuple[int, str]]]) -> dict[_T, _Files]:
    # Paths stay strings until looked up: a run reads a fraction of the files it indexes. One file is kept
    # bare (most keys have one: a list each was 88 bytes more, 150k times in a big model's tree).
    table: dict[_T, _Files] = {}
    for key, items in hits.items():
        if len(items) > 1:
            items.sort(reverse=True)
            table[key] = tuple([path for _, path in items])
        else:
            table[key] = items[0][1]
    return table


def _group(found: _Found, places: dict[Path, Place]) -> DumpTables:
    """Group the files by key, newest timestamp first."""
    hits: dict[_Key, list[tuple[int, str]]] = defaultdict(list)
    per_op: dict[str, dict[_OpKey, list[tuple[int, str]]]] = {RAW: defaultdict(list), STATS: defaultdict(list)}
    counts: dict[str, int] = defaultdict(int)
    # One str per distinct op name and kind: an op's inputs and outputs are several files (and keys) each.
    sanitized: dict[str, str] = {}
    kinds: dict[str, str] = {}
    # A (rank, step) whose files are all in one folder stores bare file names (DumpIndex._paths joins them).
    by_place: dict[tuple[Rank, str], list[Path]] = defaultdict(list)
    for folder in found:
        by_place[(places[folder].rank, places[folder].step)].append(folder)
    folders = {where: os.path.join(only[0], "") for where, only in by_place.items() if len(only) == 1}
    for folder, entries in found.items():
        place = places[folder]
        prefix = "" if (place.rank, place.step) in folders else os.path.join(folder, "")
        seen: set[str] = set()
        for (op_name, kind, index, timestamp), name in entries:
            op = sanitized.get(op_name)
            if op is None:
                op = sanitized[op_name] = sanitize_op_name(op_name)
            kind = kinds.setdefault(kind, kind)
            file = prefix + name if prefix else name
            if kind in per_op:
                per_op[kind][(place.rank, place.step, op)].append((timestamp, file))
                counts[kind] += 1
                continue
            hits[(place.rank, place.step, op, kind, index)].append((timestamp, file))
            seen.add(name)
        counts["npy"] += len(seen)
    tables = DumpTables(_newest_first(hits), _newest_first(per_op[RAW]), _newest_first(per_op[STATS]), dict(counts),
                        folders)
    # The tables share the keys and strings; the per-file lists and tuples (150k objects in a big model's tree)
    # freed with the frame were one 10-14 ms cascade holding the GIL: a chunk at a time instead.
    empty_in_chunks(hits, *per_op.values())
    return tables


def _content_notices(root: Path, tables: DumpTables, loose: list[str]) -> list[Notice]:
    """Say once what the scan could only partly tell: loosely named NPYs, CSVs left out of a tensor run."""
    notices = []
    if loose:
        notices.append(Notice(
            "loose_npy_names",
            f"{plural(len(loose), 'NPY')} under {shorten(str(root), 40)} are named only like "
            f"'*.{{op}}.*.{{input|output}}.{{i}}.npy' (no task, stream or timestamp): found by op, kind and index "
            f"as the reference tool finds them (e.g. {examples(os.path.basename(path) for path in loose)}).",
            len(loose), [{"path": path} for path in loose],
            params={"root": shorten(str(root), 40), "names": [os.path.basename(path) for path in loose]}))
    if tables.stats and (tables.npys or tables.raws):
        count = tables.counts.get(STATS, 0)
        notices.append(Notice(
            "stats_csv_ignored",
            f"{plural(count, 'statistics CSV')} under {shorten(str(root), 40)} lie among tensor dumps and were "
            "ignored: tensors are compared.", count, [], params={"root": shorten(str(root), 40)}))
    return notices


def _duplicate_warning(root: Path, rank: Rank, step: str, op: str, groups: list[list[str]]) -> str:
    """One sentence naming the files of an op dumped several times."""

    def rel(path: str) -> str:
        return os.path.relpath(path, root) if Path(path).is_relative_to(root) else path

    newest = [rel(paths[0]) for paths in groups]
    older = [rel(path) for paths in groups for path in paths[1:]]
    shown = older[:_MAX_NAMES_IN_WARNING] + (["..."] if len(older) > _MAX_NAMES_IN_WARNING else [])
    where = f" in step {step}" if step else ""
    where += f" on rank {rank}" if rank is not None else ""
    return (
        f"Operator {op}{where} was dumped several times (several timestamps): using the newest "
        f"{', '.join(newest)}; ignoring {', '.join(shown)}."
    )
