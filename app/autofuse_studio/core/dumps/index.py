"""DumpIndex: one recursive scan of a dump folder tree, then O(1) lookups of NPYs by op, kind, index, step."""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.dumps.names import parse_npy_name, sanitize_op_name
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

MAPPING_FILE = "mapping.csv"
_MAX_NAMES_IN_WARNING = 6

_Key = tuple[str, str, str, int]  # step, sanitised op name, kind, index
_Fields = tuple[str, str, int, int]  # op name, kind, index, timestamp
# The usual modern name, {type}.{name}.{task}.{stream}.{timestamp}.{kind}.{index}.npy, matched in one go;
# everything else goes through parse_npy_name (same fields, several times slower).
_COMMON_NAME = re.compile(r"[^.]+\.([^.]+)\.[0-9]+\.[0-9]+\.([0-9]+)\.(input|output)\.([0-9]+)\.npy")


@dataclass
class Lookup:
    """The NPY chosen for one tensor (newest timestamp) and the older duplicates, newest first."""

    path: Path | None
    others: list[Path] = field(default_factory=list)


def _natural_key(text: str) -> list[tuple[int, int | str]]:
    """Sort key that orders '2' before '10'."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part]


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _read_mapping(path: Path, warnings: list[str]) -> dict[str, str]:
    """`new,old` lines of a mapping.csv (renamed long file names) as {new: old file name}."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        warnings.append(f"Cannot read {path}: {exc.strerror or exc}; long file names there stay unresolved.")
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


def _resolve_name(name: str, mapping: dict[str, str]) -> str:
    """The real file name of a renamed (digits / uuid) file, or the name itself."""
    old = mapping.get(name)
    if old is None and name.endswith(".npy"):
        old = mapping.get(name[: -len(".npy")])
    if old is None:
        return name
    return old if old.endswith(".npy") or not name.endswith(".npy") else old + ".npy"


def _walk(
    root: Path, progress: Progress, cancel: CancelToken, warnings: list[str]
) -> Iterator[tuple[Path, list[str]]]:
    """Yield (folder, file names) for every readable folder under root, each folder once."""
    stack, seen, done = [root], set(), 0
    while stack:
        cancel.check()
        folder = stack.pop()
        try:
            stat = folder.stat()
            if (stat.st_dev, stat.st_ino) in seen:  # a symlink loop or a linked twin
                continue
            seen.add((stat.st_dev, stat.st_ino))
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError as exc:
            warnings.append(f"Cannot read folder {folder}: {exc.strerror or exc}; it was skipped.")
            continue
        files, subfolders = [], []
        for entry in entries:
            try:
                if entry.is_dir():
                    subfolders.append(Path(entry.path))
                elif entry.is_file():
                    files.append(entry.name)
            except OSError:
                continue  # vanished or unreadable entry: nothing to index
        stack.extend(sorted(subfolders, reverse=True))
        done += 1
        progress(done, done + len(stack), f"Indexing {folder}")
        yield folder, files


def _step_names(root: Path, folders: list[Path]) -> dict[Path, str]:
    """Step key for every folder holding NPYs ('' when the folder is not a step folder)."""
    below = [folder for folder in folders if folder != root]
    # Pragmatic rule: several NPY folders with numeric names are steps (data_index) even when the
    # tree above them is not the standard {time}/{device}/{model}/{model_id}/{step} one.
    several_numeric = len(below) > 1 and all(_is_number(folder.name) for folder in below)
    steps = {}
    for folder in folders:
        numeric = folder != root and _is_number(folder.name)
        standard = numeric and _is_number(folder.parent.name)  # {model_id}/{step}
        steps[folder] = folder.name if numeric and (standard or several_numeric) else ""
    return steps


class DumpIndex:
    """All dump NPYs under a folder, indexed once by (step, op name, kind, index)."""

    def __init__(self, root: Path, table: dict[_Key, list[str]], warnings: list[str], files: int) -> None:
        self.root = root
        self.warnings = warnings
        self.files_indexed = files
        self._table = table
        self._ops = {(step, op) for step, op, _, _ in table}
        self.steps: list[str] = sorted({step for step, _ in self._ops}, key=_natural_key)

    @classmethod
    def build(
        cls, root: str | Path, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> DumpIndex:
        """Scan `root` recursively once and index every dump NPY in it."""
        root = Path(root)
        if not root.exists():
            raise InputError(f"Dump folder {root} does not exist.", root)
        if not root.is_dir():
            raise InputError(f"Dump folder {root} is not a folder.", root)
        warnings: list[str] = []
        found: dict[Path, list[tuple[_Fields, str]]] = {}
        ignored: list[str] = []
        for folder, names in _walk(root, progress, cancel, warnings):
            mapping = _read_mapping(folder / MAPPING_FILE, warnings) if MAPPING_FILE in names else {}
            entries = found.setdefault(folder, [])
            for name in names:
                fields = _name_fields(_resolve_name(name, mapping) if mapping else name)
                if fields is not None:
                    entries.append((fields, name))
                elif name.endswith(".npy"):
                    ignored.append(name)
        if ignored:
            warnings.append(
                f"{len(ignored)} .npy file(s) under {root} are not named like dump NPYs and were ignored "
                f"(e.g. {', '.join(sorted(ignored)[:3])})."
            )
        table, files = cls._group(root, {folder: entries for folder, entries in found.items() if entries}, warnings)
        return cls(root, table, warnings, files)

    @staticmethod
    def _group(
        root: Path, found: dict[Path, list[tuple[_Fields, str]]], warnings: list[str]
    ) -> tuple[dict[_Key, list[str]], int]:
        """Group the NPYs by key, newest timestamp first, and warn once per op with duplicates."""
        steps = _step_names(root, sorted(found))
        hits: dict[_Key, list[tuple[int, str]]] = defaultdict(list)
        files = 0
        for folder, entries in found.items():
            step, prefix = steps[folder], os.path.join(folder, "")
            for (op_name, kind, index, timestamp), name in entries:
                hits[(step, sanitize_op_name(op_name), kind, index)].append((timestamp, prefix + name))
            files += len(entries)
        # Paths stay strings until looked up: a run reads a fraction of the files it indexes.
        table: dict[_Key, list[str]] = {}
        duplicated: dict[tuple[str, str], list[list[Path]]] = defaultdict(list)
        for key, items in hits.items():
            if len(items) > 1:
                items.sort(reverse=True)
                duplicated[key[:2]].append([Path(path) for _, path in items])
            table[key] = [path for _, path in items]
        for (step, op), groups in sorted(duplicated.items()):
            warnings.append(_duplicate_warning(root, step, op, groups))
        return table, files

    def _step(self, step: str | None) -> str:
        if step is not None:
            return step
        return self.steps[0] if self.steps else ""

    def lookup(self, op_name: str, kind: str, index: int, step: str | None = None) -> Lookup:
        """The NPY of one tensor of a graph op (name sanitised here); step None -> the first step."""
        paths = self._table.get((self._step(step), sanitize_op_name(op_name), kind, index))
        if not paths:
            return Lookup(None, [])
        return Lookup(Path(paths[0]), [Path(path) for path in paths[1:]])

    def has_op(self, op_name: str, step: str | None = None) -> bool:
        """True when any tensor of the op was dumped in the step."""
        return (self._step(step), sanitize_op_name(op_name)) in self._ops


def _duplicate_warning(root: Path, step: str, op: str, groups: list[list[Path]]) -> str:
    """One sentence naming the files of an op dumped several times."""

    def rel(path: Path) -> str:
        return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)

    newest = [rel(paths[0]) for paths in groups]
    older = [rel(path) for paths in groups for path in paths[1:]]
    shown = older[:_MAX_NAMES_IN_WARNING] + (["..."] if len(older) > _MAX_NAMES_IN_WARNING else [])
    where = f" in step {step}" if step else ""
    return (
        f"Operator {op}{where} was dumped several times (several timestamps): using the newest "
        f"{', '.join(newest)}; ignoring {', '.join(shown)}."
    )
