"""A precision case: which dropped path plays which role (graphs, dump folders, NPYs), and *.afcase files."""

from __future__ import annotations

import heapq
import json
import operator
import os
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import compress, repeat
from pathlib import Path
from typing import Any

from autofuse_studio.core.dumps.sniff import NANO, RAW, STATS_CSV, sniff_file
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.ge.native_find import file_contains_any
from autofuse_studio.core.precision.rank_ids import rank_list
from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds
from autofuse_studio.core.precision.thresholds import (
    STATS_KEYS,
    Limits,
    Thresholds,
    check_dtype_name,
    limit_problem_params,
    stats_limits,
)
from autofuse_studio.core.printable import escape_controls, short_repr
from autofuse_studio.core.reports.atomic import atomic_write_text
from autofuse_studio.core.run.spec import LOCAL, RunSpec, Where, mode1_spec, mode2_spec
from autofuse_studio.core.side_files import read_side_file

CASE_SUFFIX = ".afcase"
CASE_FORMAT = "autofuse-studio-case/1"
PATH_ROLES = ("af_open_graph", "af_close_graph", "af_open_data", "af_close_data", "npy_a", "npy_b")
MODE1_ROLES = PATH_ROLES[:4]
# Text that only an af-open (fused) graph holds; found by a streaming byte search, no parse needed.
_FUSED_MARKERS = (b"AscBackend", b"_datadump_origin_name")
_ASC_PREFIXES = ("AscBackend.", "FusedAscBackend.")
# Dump files as the NPU writes them: raw (or nano) dumps `{type}.{name}.{task}.{stream}.{timestamp}[.{ffts}]` with
# no extension, and statistics CSVs `{the same}.csv` (dump_data: stats). Names are matched by a regex (a folder
# may hold 100k of them); a few files per folder are then read to confirm what the names say.
# (Looser than dumps.names.parse_dump_name, and twice as fast as a pattern as strict: 30 ms per 100k names.)
_RAW_NAME = re.compile(r"[^.]+\.[^.]+\.[0-9]+\.[0-9.]*(?:FFTSPLUS\.[0-9.]*)?[0-9]")
_STATS_NAME = re.compile(r"[^.]+\.[^.]+\.[0-9]+\.[0-9.]*(?:FFTSPLUS\.[0-9.]*)?[0-9]\.csv")
_CONFIRM_FILES = 3  # files of one folder read to confirm its raw dumps (or statistics CSVs)
RAW_KINDS = frozenset({RAW, NANO})
STATS_CSV_KINDS = frozenset({STATS_CSV})
_SNIFF = 64 << 10
_MAX_ENTRIES = 200_000  # stop scanning huge trees: role detection must stay instant
_MAX_DEPTH = 12
# Bounds of a *.afcase file (the app writes a few kB): size, path and step lengths, view entries.
MAX_CASE_BYTES = 1 << 20
MAX_PATH_CHARS = 4096
MAX_STEP_CHARS = 256
MAX_VIEW_ITEMS = 64
MAX_VIEW_TEXT = 4096
MAX_SPLITTER = 100_000


@dataclass
class CaseFiles:
    """The inputs of one case plus the user's choices; any path may still be missing (None)."""

    af_open_graph: Path | None = None
    af_close_graph: Path | None = None
    af_open_data: Path | None = None
    af_close_data: Path | None = None
    npy_a: Path | None = None
    npy_b: Path | None = None
    compare_input: bool = False
    step: str | None = None
    ranks: list[str] | None = None  # compare only these ranks (device ids); None: every rank
    thresholds: Thresholds = field(default_factory=Thresholds)
    view: dict[str, Any] = field(default_factory=dict)

    @property
    def mode(self) -> int:
        """2 when two NPY files and no mode-1 input are set, else 1."""
        has_mode1 = any(getattr(self, role) is not None for role in MODE1_ROLES)
        return 2 if not has_mode1 and (self.npy_a or self.npy_b) else 1

    def graphs_only(self) -> bool:
        """True when graphs are set but no dump folder or NPY: a case to browse, not to compare."""
        has_graph = self.af_open_graph is not None or self.af_close_graph is not None
        has_data = any(getattr(self, role) is not None for role in ("af_open_data", "af_close_data", "npy_a", "npy_b"))
        return has_graph and not has_data

    def missing_roles(self) -> list[str]:
        """The mode-1 roles (PATH_ROLES names) still unset, in case-panel order."""
        return [role for role in MODE1_ROLES if getattr(self, role) is None]

    def problems(self, data_elsewhere: bool = False) -> list[str]:
        """Sentences naming every missing or unusable input; empty when the case can be analysed.

        data_elsewhere: the dump folders are where a cluster's workers are, they need not exist here.
        """
        return [str(error) for error in self.problem_errors(data_elsewhere)]

    def problem_errors(self, data_elsewhere: bool = False) -> list[InputError]:
        """problems() as coded errors (a front end renders them in its language: core/error_messages.py)."""
        roles = MODE1_ROLES if self.mode == 1 else ("npy_a", "npy_b")
        found: list[InputError] = []
        for role in roles:
            path: Path | None = getattr(self, role)
            label = ROLE_LABELS[role]
            want_dir = role.endswith("_data")
            # os.path's tests answer False for a name too long or otherwise unusable, where Path's raise.
            if path is None:
                found.append(InputError.of("input_not_set", role=role, label=label))
            elif want_dir and not data_elsewhere and not os.path.isdir(path):
                found.append(InputError.of("input_folder_missing", role=role, label=label, path=path))
            elif not want_dir and not os.path.isfile(path):
                found.append(InputError.of("input_file_missing", role=role, label=label, path=path))
        return found

    def spec(self, jobs: int | None = None, where: Where = LOCAL) -> RunSpec:
        """The RunSpec of this case (mode 1 or 2) run `where`; raises InputError naming the first problem.

        On a host the paths are the host's and nothing is checked here; on a cluster the dump folders are where
        its workers are.
        """
        if self.mode == 2:
            problems = self.problem_errors()
            if problems:
                raise problems[0]
            assert self.npy_a is not None and self.npy_b is not None
            return mode2_spec(self.npy_a, self.npy_b, self.thresholds)
        if where.kind == "host":  # the host's paths: only whether each is given can be checked here
            problems = [InputError.of("input_not_set", role=role, label=ROLE_LABELS[role])
                        for role in self.missing_roles()]
        else:
            problems = self.problem_errors(data_elsewhere=where.kind == "cluster")
        if problems:
            raise problems[0]
        assert self.af_open_graph and self.af_close_graph and self.af_open_data and self.af_close_data
        paths = [self.af_open_graph, self.af_close_graph, self.af_open_data, self.af_close_data]
        return mode1_spec([str(path) if where.kind == "host" else path for path in paths],
                       compare_input=self.compare_input, step=self.step or None,
                       ranks=None if self.ranks is None else tuple(self.ranks),
                       jobs=None if jobs is None else max(1, jobs), thresholds=self.thresholds, where=where)


ROLE_LABELS = {
    "af_open_graph": "af-open graph", "af_close_graph": "af-close graph", "af_open_data": "af-open dump folder",
    "af_close_data": "af-close dump folder", "npy_a": "NPY file A", "npy_b": "NPY file B",
}


@dataclass
class Detection:
    """What role detection found: the roles, and notes for the user (ignored or ambiguous items)."""

    case: CaseFiles
    notes: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # given paths that set no role (kept out of Recent cases)

    def found_anything(self) -> bool:
        """Whether any role was set (a dropped picture alone sets none)."""
        return any(getattr(self.case, role) is not None for role in (*MODE1_ROLES, "npy_a", "npy_b"))


def _side_hint(path: Path) -> str | None:
    """'open' or 'close' from the nearest path component naming a side, else None."""
    for part in reversed(path.parts):
        tokens = re.split(r"[^a-z]+", part.lower())
        if any("close" in token or token in ("disable", "disabled", "nofuse", "unfused") for token in tokens):
            return "close"
        if any("open" in token or token in ("enable", "enabled", "fused") for token in tokens):
            return "open"
    return None


def is_graph_file(path: Path) -> bool:
    """True for files that look like GE dump graphs (atc JSON or protobuf text)."""
    name = path.name.lower()
    if name.endswith(".json"):
        head = _head(path)
        return b'"graph"' in head or (b'"op"' in head and b'"name"' in head)
    if name.endswith((".txt", ".pbtxt")):
        return name.startswith("ge_proto") or b"op {" in _head(path)
    return False


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(_SNIFF)
    except OSError:
        return b""


def graph_has_fused_ops(path: Path) -> bool:
    """Cheap af-open test: the file text names AscBackend/FusedAscBackend ops or origin attributes."""
    return file_contains_any(path, _FUSED_MARKERS)


@dataclass
class _Tree:
    """A summary of one folder's subtree: dump file counts and whether graph files sit anywhere inside.

    Dump files are NPYs, raw (or nano) dump files and statistics CSVs; `asc_dumps` are those of fused ops.
    """

    path: Path
    dumps: int = 0
    asc_dumps: int = 0
    graphs: list[Path] = field(default_factory=list)
    children: list[_Tree] = field(default_factory=list)


def _scan(path: Path, depth: int, budget: list[int]) -> _Tree:
    tree = _Tree(path)
    try:
        with os.scandir(path) as entries:
            listed = list(entries)
    except OSError:
        return tree
    raw_ok = csv_ok = False  # the cut-short path's dump files, confirmed once per folder
    if len(listed) <= budget[0]:
        listed = _dumps_counted(tree, listed, budget)
    else:  # the budget ends in this folder: which entries count must not hang on the file system's order
        listed.sort(key=_entry_name)
        seen = listed[: max(budget[0], 0)]
        raw_ok = _confirmed([entry for entry in seen if _RAW_NAME.fullmatch(entry.name)], RAW_KINDS)
        csv_ok = _confirmed([entry for entry in seen if _STATS_NAME.fullmatch(entry.name)], STATS_CSV_KINDS)
    for entry in listed:
        budget[0] -= 1
        if budget[0] < 0:
            break
        try:
            if entry.is_dir() and depth < _MAX_DEPTH:
                child = _scan(Path(entry.path), depth + 1, budget)
                tree.children.append(child)
                tree.dumps += child.dumps
                tree.asc_dumps += child.asc_dumps
                tree.graphs += child.graphs
            elif entry.name.endswith(".npy") or _is_dump_name(entry.name, raw_ok, csv_ok):
                tree.dumps += 1
                tree.asc_dumps += entry.name.startswith(_ASC_PREFIXES)
            elif entry.is_file() and is_graph_file(Path(entry.path)):
                tree.graphs.append(Path(entry.path))
        except OSError:
            continue
    return tree


_NAME = operator.attrgetter("name")


def _entry_name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _is_dump_name(name: str, raw_ok: bool, csv_ok: bool) -> bool:
    """A raw dump or statistics CSV by name, in a folder whose files of that kind were confirmed by content."""
    return bool((raw_ok and _RAW_NAME.fullmatch(name)) or (csv_ok and _STATS_NAME.fullmatch(name)))


def _confirmed(candidates: list[os.DirEntry[str]], kinds: frozenset[str]) -> bool:
    """True when one of the first few candidates (by name) is a file of one of `kinds` by its first bytes."""
    if not candidates:
        return False
    first = heapq.nsmallest(_CONFIRM_FILES, candidates, key=_entry_name)
    return any(sniff_file(entry.path) in kinds for entry in first)


def _dumps_counted(tree: _Tree, listed: list[os.DirEntry[str]], budget: list[int]) -> list[os.DirEntry[str]]:
    """Count the dump files among `listed` into `tree`; the other entries, by name, for the caller to look at.

    Sorting a dump folder's 100k entries by name held the GIL for 30-50 ms (a frozen window right
    after a drop); only folders and graph files need an order, and they are few. Raw dumps and statistics
    CSVs count when their names say so and one of the folder's first few of them (by name) is one by content.
    NPYs, nearly all of a big dump folder, are counted by C-level passes over the names (a loop per entry
    took 70 ms of the big model's 150k files, on the path from the drop to the analysis).
    """
    names = list(map(_NAME, listed))
    is_npy = list(map(str.endswith, names, repeat(".npy")))
    npys = list(compress(listed, is_npy))
    others = list(compress(listed, map(operator.not_, is_npy)))
    try:
        npy_folders = any(map(os.DirEntry.is_dir, npys))
    except OSError:
        npy_folders = True
    if npy_folders:  # a folder named *.npy, or an entry that cannot be looked at: each is sorted out below
        others += npys
    else:
        tree.dumps += len(npys)
        tree.asc_dumps += sum(map(str.startswith, compress(names, is_npy), repeat(_ASC_PREFIXES)))
    rest: list[os.DirEntry[str]] = []
    raws: list[os.DirEntry[str]] = []
    csvs: list[os.DirEntry[str]] = []
    for entry in others:
        name = entry.name
        try:
            if entry.is_dir():
                rest.append(entry)
                continue
        except OSError:
            rest.append(entry)  # the caller's loop tells what it is, or skips it
            continue
        if name.endswith(".npy"):
            tree.dumps += 1
            tree.asc_dumps += name.startswith(_ASC_PREFIXES)
        elif _RAW_NAME.fullmatch(name):
            raws.append(entry)
        elif name.endswith(".csv") and _STATS_NAME.fullmatch(name):
            csvs.append(entry)
        else:
            rest.append(entry)
    for candidates, kinds in ((raws, RAW_KINDS), (csvs, STATS_CSV_KINDS)):
        if candidates and _confirmed(candidates, kinds):
            tree.dumps += len(candidates)
            tree.asc_dumps += sum(entry.name.startswith(_ASC_PREFIXES) for entry in candidates)
        else:
            rest += candidates
    budget[0] -= len(listed) - len(rest)
    rest.sort(key=_entry_name)
    return rest


def _dump_roots(tree: _Tree) -> list[_Tree]:
    """The largest graph-free subtrees holding dump files; a folder mixing both sides is split."""
    if tree.dumps == 0:
        return []
    with_dumps = [child for child in tree.children if child.dumps]
    sides = {child.asc_dumps > 0 for child in with_dumps} | {_side_hint(child.path) for child in with_dumps}
    mixed = len(with_dumps) >= 2 and ({True, False} <= sides or {"open", "close"} <= sides)
    direct = tree.dumps - sum(child.dumps for child in tree.children)
    if tree.graphs or (mixed and not direct):
        return [root for child in tree.children for root in _dump_roots(child)]
    return [tree]


def _pick(candidates: list[Path], fused: list[bool], what: str, notes: list[str]) -> tuple[Path | None, Path | None]:
    """Assign (open, close) from content first, then path names, then order; note what was guessed."""
    opens = [path for path, flag in zip(candidates, fused, strict=True) if flag]
    closes = [path for path, flag in zip(candidates, fused, strict=True) if not flag]
    if len(opens) > 1 or len(closes) > 1 or not opens or not closes:
        by_hint = {"open": [p for p in candidates if _side_hint(p) == "open"],
                   "close": [p for p in candidates if _side_hint(p) == "close"]}
        if len(candidates) >= 2 and len(by_hint["open"]) == 1 and len(by_hint["close"]) == 1:
            opens, closes = by_hint["open"], by_hint["close"]
        elif len(candidates) >= 2 and (not opens or not closes):
            opens, closes = candidates[:1], candidates[1:2]
            notes.append(f"Could not tell the two {what}s apart; check their roles (or swap them).")
    chosen = opens[:1] + closes[:1]
    for extra in candidates:
        if extra not in chosen:
            notes.append(f"Ignored the extra {what} {extra}.")
    return (opens[0] if opens else None), (closes[0] if closes else None)


def detect_roles(paths: Iterable[str | Path]) -> Detection:
    """Sort dropped paths into roles: graphs by content, dump trees by their file names, NPY pairs (mode 2).

    A dump tree holds NPYs, raw dump files as the NPU writes them, or statistics CSVs; its side (af-open)
    is the one whose files belong to fused ops (AscBackend / FusedAscBackend), as for NPYs.
    """
    graphs: list[Path] = []
    dumps: list[_Tree] = []
    npys: list[Path] = []
    notes: list[str] = []
    ignored: list[str] = []
    budget = [_MAX_ENTRIES]
    with ThreadPoolExecutor(1, thread_name_prefix="autofuse-roles") as reader:
        fused = _detect_into(paths, graphs, dumps, npys, notes, ignored, budget, reader)
        graphs = list(dict.fromkeys(graphs))
        opens = [fused[graph].result() if graph in fused else graph_has_fused_ops(graph) for graph in graphs]
    if budget[0] < 0:
        notes.append(f"Stopped scanning after {_MAX_ENTRIES} entries; set the roles by hand if some are missing.")
    case = CaseFiles()
    case.af_open_graph, case.af_close_graph = _pick(graphs, opens, "graph", notes)
    case.af_open_data, case.af_close_data = _pick([tree.path for tree in dumps], [tree.asc_dumps > 0 for tree in dumps],
                                                  "dump folder", notes)
    if npys:
        case.npy_a = npys[0]
        case.npy_b = npys[1] if len(npys) > 1 else None
        notes += [f"Ignored the extra NPY file {extra}." for extra in npys[2:]]
    return Detection(case, notes, ignored)


def _detect_into(paths: Iterable[str | Path], graphs: list[Path], dumps: list[_Tree], npys: list[Path],
                 notes: list[str], ignored: list[str], budget: list[int],
                 reader: ThreadPoolExecutor) -> dict[Path, Future[bool]]:
    """Sort each dropped path into graphs, dump trees or NPYs (noting what is ignored); a dropped graph file is
    searched for fused ops on `reader` meanwhile (a whole af-close graph is read for that: 0.1 s at 180 MB, mostly
    I/O, while the folders' listings are Python). Returns those searches by graph path.
    """
    fused: dict[Path, Future[bool]] = {}
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            tree = _scan(path, 0, budget)
            graphs += tree.graphs
            dumps += _dump_roots(tree)
            if not tree.graphs and not tree.dumps:
                notes.append(f"Found no graphs or dump files in {path}.")
                ignored.append(str(raw))
        elif path.suffix.lower() == ".npy":
            npys.append(path)
        elif path.is_file() and is_graph_file(path):
            graphs.append(path)
            fused.setdefault(path, reader.submit(graph_has_fused_ops, path))
        elif path.suffix.lower() == CASE_SUFFIX:
            notes.append(f"{path} is a case file: open it with File > Open case.")
            ignored.append(str(raw))
        elif not path.exists():
            notes.append(f"{path.name} does not exist (any more); it was ignored.")
            ignored.append(str(raw))
        else:
            notes.append(f"{path.name or path} is neither a graph, a dump folder, an NPY file nor an ATT log; "
                         "it was ignored.")
            ignored.append(str(raw))
    return fused


def recent_entry_usable(paths: Sequence[str]) -> bool:
    """Whether a Recent cases entry can still be opened: every path exists, and no folder in it is empty."""
    if not paths:
        return False
    for raw in paths:
        path = Path(raw)
        try:
            if path.is_dir():
                with os.scandir(path) as entries:
                    if next(entries, None) is None:
                        return False
            elif not path.is_file():
                return False
        except OSError:
            return False
    return True


def merge(base: CaseFiles, found: CaseFiles) -> CaseFiles:
    """`base` with every role that `found` sets replaced (a new drop completes or corrects a case)."""
    updates = {role: getattr(found, role) for role in PATH_ROLES if getattr(found, role) is not None}
    if any(role in updates for role in MODE1_ROLES):
        updates.update(npy_a=None, npy_b=None)  # mode-1 inputs win over a stale NPY pair
    elif "npy_a" in updates:
        updates.update(dict.fromkeys(MODE1_ROLES))
    return replace(base, **updates)


def _what(value: Any) -> str:
    """A short quote of a JSON value for a message (long ints by their digit count, controls escaped)."""
    return escape_controls(short_repr(value, 40))


def _limits_from_dict(table: Any, base: Limits, where: str) -> Limits:
    if table is None:
        return base
    if not isinstance(table, dict):
        raise InputError.of("case_limits_not_object", field=where, value=_what(table))
    values: dict[str, float | None] = {}
    for key in ("cosine", "max_abs", "max_rel"):
        if key in table:
            value = table[key]
            problem = None if value is None else limit_problem_params(key, value)
            if problem:
                raise InputError.of("case_threshold_unusable", key=key, field=where, **problem)
            values[key] = None if value is None else float(value)
    return replace(base, **values)


def _per_dtype_items(data: Any, where: str) -> list[tuple[str, Any]]:
    """The (dtype name, table) items of a per_dtype object, names checked; [] for null or absent."""
    if data is None:
        return []
    if not isinstance(data, dict):
        raise InputError.of("case_per_dtype_not_object", field=where, value=_what(data))
    return [(check_dtype_name(name, f"'{where}'"), table) for name, table in data.items()]


def thresholds_from_dict(data: Any, where: str = "thresholds") -> Thresholds:
    """The inverse of Thresholds.as_dict(); unknown keys are ignored, wrong types and bad values raise InputError."""
    if data is None:
        return Thresholds()
    if not isinstance(data, dict):
        raise InputError.of("case_thresholds_not_object", field=where, value=_what(data))
    default = _limits_from_dict(data.get("default"), Limits(), f"{where}.default")
    per_dtype = {name: _limits_from_dict(table, default, f"{where}.per_dtype.{name}")
                 for name, table in _per_dtype_items(data.get("per_dtype"), f"{where}.per_dtype")}
    return Thresholds(default, per_dtype, _stats_thresholds_from_dict(data.get("stats"), f"{where}.stats"))


def _stats_thresholds_from_dict(data: Any, where: str) -> StatsThresholds:
    """The inverse of StatsThresholds.as_dict(); unknown keys are ignored, bad values raise InputError."""
    if data is None:
        return StatsThresholds()
    if not isinstance(data, dict):
        raise InputError.of("case_stats_not_object", field=where, value=_what(data))

    def limits(table: Any, base: StatsLimits, label: str) -> StatsLimits:
        if table is None:
            return base
        if not isinstance(table, dict):
            raise InputError.of("case_stats_limits_not_object", field=label, keys=", ".join(STATS_KEYS),
                                 value=_what(table))
        return stats_limits(base, {key: table[key] for key in STATS_KEYS if key in table}, f"'{label}'")

    default = limits(data.get("default"), StatsLimits(), f"{where}.default")
    per_dtype = {name: limits(table, default, f"{where}.per_dtype.{name}")
                 for name, table in _per_dtype_items(data.get("per_dtype"), f"{where}.per_dtype")}
    return StatsThresholds(default, per_dtype)


def _relative(path: Path, base: Path) -> str:
    """`path` relative to the case file's folder when possible (cases travel with their data)."""
    try:
        return os.path.relpath(path.resolve(), base.resolve())
    except ValueError:  # another drive on Windows
        return str(path.resolve())


def case_to_dict(case: CaseFiles, case_path: Path) -> dict[str, Any]:
    """The JSON document of a case file; paths relative to the file's folder."""
    base = Path(case_path).parent
    document: dict[str, Any] = {"format": CASE_FORMAT}
    for role in PATH_ROLES:
        value: Path | None = getattr(case, role)
        document[role] = None if value is None else _relative(value, base)
    document.update(compare_input=case.compare_input, step=case.step, ranks=case.ranks,
                    thresholds=case.thresholds.as_dict(), view=case.view)
    return document


def save_case(case: CaseFiles, path: str | Path) -> Path:
    """Write `case` as a *.afcase JSON file (atomically) and return its path."""
    target = Path(path)
    if target.suffix != CASE_SUFFIX:
        target = target.with_name(target.name + CASE_SUFFIX)
    atomic_write_text(target, json.dumps(case_to_dict(case, target), indent=2, ensure_ascii=False) + "\n")
    return target


def load_case_file(path: str | Path) -> CaseFiles:
    """Read a *.afcase file; relative paths are resolved against its folder.

    The file must be a regular file of at most MAX_CASE_BYTES (a FIFO or device is refused unread) holding
    the documented JSON object; anything else is one InputError sentence naming the file (and the key).
    """
    source = Path(path)
    contents = read_side_file(source, MAX_CASE_BYTES, "The case file")
    try:
        document = json.loads(contents.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError.of("case_not_utf8", path=source) from None
    except json.JSONDecodeError as error:
        raise InputError.of("case_not_json", path=source, line=error.lineno) from None
    except (ValueError, RecursionError):  # 5000-digit integers, 100k nested arrays
        raise InputError.of("case_json_too_deep", path=source) from None
    if not isinstance(document, dict) or document.get("format") != CASE_FORMAT:
        raise InputError.of("not_a_case_file", path=source, format=CASE_FORMAT)
    try:
        return _case_from_document(document, source)
    except InputError as error:
        raise InputError.of("case_refused", path=source, reason=str(error), cause_code=error.code,
                             cause_params=error.params) from None
    except (TypeError, ValueError, AttributeError, OverflowError, RecursionError) as error:
        # A safety net: every key is checked above; whatever slipped through is still one sentence.
        raise InputError.of("case_refused_other", path=source, reason=escape_controls(str(error))[:200]) from None


def _case_path(document: dict[str, Any], role: str, base: Path) -> Path | None:
    value = document.get(role)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InputError.of("case_path_not_text", field=role, value=_what(value))
    if "\0" in value:
        raise InputError.of("case_path_nul", field=role)
    if len(value) > MAX_PATH_CHARS:
        raise InputError.of("case_path_too_long", field=role, count=len(value), limit=MAX_PATH_CHARS)
    return Path(value) if os.path.isabs(value) else (base / value).resolve()


def _case_from_document(document: dict[str, Any], source: Path) -> CaseFiles:
    case = CaseFiles()
    for role in PATH_ROLES:
        setattr(case, role, _case_path(document, role, source.parent))
    compare_input = document.get("compare_input", False)
    if not isinstance(compare_input, bool) and compare_input is not None:
        raise InputError.of("case_not_bool", field="compare_input", value=_what(compare_input))
    case.compare_input = bool(compare_input)
    step = document.get("step")
    if step is not None and (isinstance(step, bool) or not isinstance(step, (str, int))
                             or len(str(step)) > MAX_STEP_CHARS or "\0" in str(step)):
        raise InputError.of("case_step_invalid", value=_what(step))
    case.step = str(step) if step not in (None, "") else None
    case.ranks = _ranks(document.get("ranks"))
    case.thresholds = thresholds_from_dict(document.get("thresholds"))
    case.view = view_from_dict(document.get("view"))
    return case


def _ranks(value: Any) -> list[str] | None:
    """The case file's ranks: null (every rank), a list of device ids, or their text ("0,2")."""
    if value is None:
        return None
    if isinstance(value, list) and len(value) > MAX_VIEW_ITEMS * 64:
        raise InputError.of("case_too_many_ranks", count=len(value), limit=MAX_VIEW_ITEMS * 64)
    if isinstance(value, str) and len(value) > MAX_VIEW_TEXT:
        raise InputError.of("case_text_too_long", field="ranks", count=len(value), limit=MAX_VIEW_TEXT)
    if not isinstance(value, (list, str)):
        raise InputError.of("case_ranks_invalid", value=_what(value))
    return rank_list(value, "'ranks'")


def _text_list(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_VIEW_ITEMS or \
            not all(isinstance(item, str) and len(item) <= MAX_VIEW_TEXT for item in value):
        raise InputError.of("case_names_invalid", field=f"view.{key}", value=_what(value))
    return list(value)


def _selected_key(value: Any) -> list[Any] | None:
    if value is None:
        return None
    scalar = (str, int, type(None))
    if not isinstance(value, list) or len(value) > MAX_VIEW_ITEMS or \
            not all(isinstance(item, scalar) and not isinstance(item, bool) for item in value) or \
            any(isinstance(item, str) and len(item) > MAX_VIEW_TEXT for item in value):
        raise InputError.of("case_selected_invalid", value=_what(value))
    return list(value)


def _splitter(value: Any) -> list[int]:
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(size, int) and not isinstance(size, bool) and 0 <= size <= MAX_SPLITTER for size in value):
        raise InputError.of("case_splitter_invalid", limit=MAX_SPLITTER, value=_what(value))
    return list(value)


def _optional_text(value: Any, key: str) -> str | None:
    if value is not None and (not isinstance(value, str) or len(value) > MAX_VIEW_TEXT):
        raise InputError.of("case_view_text_invalid", field=f"view.{key}", limit=MAX_VIEW_TEXT, value=_what(value))
    return value


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise InputError.of("case_not_bool", field=f"view.{key}", value=_what(value))
    return value


def _filter(value: Any) -> dict[str, str]:
    """The filter bar's state (ui/precision/filter_bar.py checks its keys again): a few short texts by name."""
    if not isinstance(value, dict) or len(value) > MAX_VIEW_ITEMS or not all(
            isinstance(key, str) and isinstance(item, str) and len(item) <= MAX_VIEW_TEXT
            for key, item in value.items()):
        raise InputError.of("case_filter_invalid", value=_what(value))
    return dict(value)


# The view keys a case file may hold (see Workbench.view_state) and how each is checked; unknown keys are dropped.
_VIEW_KEYS: dict[str, Callable[[Any], Any]] = {
    "sort_column": lambda value: _optional_text(value, "sort_column"),
    "sort_descending": lambda value: _flag(value, "sort_descending"),
    "status": lambda value: _text_list(value, "status"),
    "verdict": lambda value: _text_list(value, "verdict"),
    "text": lambda value: _optional_text(value, "text") or "",
    "selected": _selected_key,
    "splitter": _splitter,
    "filter": _filter,
}


def view_from_dict(data: Any) -> dict[str, Any]:
    """A case file's view state with every known key checked (InputError naming it), unknown keys dropped."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InputError.of("case_view_not_object", value=_what(data))
    return {key: check(data[key]) for key, check in _VIEW_KEYS.items() if key in data}


def case_roles(case: CaseFiles) -> dict[str, Path | None]:
    """Role name -> path for every path role."""
    return {role: getattr(case, role) for role in PATH_ROLES}


def case_title(case: CaseFiles) -> str:
    """A short name of the case for the window title: the folder holding all its inputs, or the two NPY names;
    '' when nothing is set."""
    if case.mode == 2:
        names = [path.name for path in (case.npy_a, case.npy_b) if path is not None]
        return " vs ".join(names)
    paths = [str(path) for role, path in case_roles(case).items() if path is not None and role in MODE1_ROLES]
    if not paths:
        return ""
    try:
        common = Path(os.path.commonpath(paths))
    except ValueError:  # paths on different drives
        return Path(paths[0]).name
    return common.name or str(common)


def describe(case: CaseFiles) -> Sequence[str]:
    """One line per set role, for logs and tooltips."""
    return [f"{ROLE_LABELS[role]}: {path}" for role, path in case_roles(case).items() if path is not None]
