"""Path maps: where each worker sees the client's dump folders (`WORKER:CLIENT_PREFIX=LOCAL_PREFIX`)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from autofuse_studio.core.errors import InputError, UsageError
from autofuse_studio.core.side_files import read_side_file

ANY_WORKER = "*"
_WORKER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}|\*")
_FORM = "WORKER:CLIENT_PREFIX=LOCAL_PREFIX (e.g. node2:/data/dumps=/mnt/ssd/dumps)"


@dataclass(frozen=True)
class WorkerId:
    """How a path map entry can name a worker: its `dask worker --name`, its host, or its address."""

    address: str
    name: str
    host: str

    def matches(self, selector: str) -> bool:
        """True when the selector names this worker ('*' names every worker)."""
        return selector in (ANY_WORKER, self.name, self.host, self.address)


@dataclass(frozen=True)
class PathMapEntry:
    """One worker's local prefix for one client prefix."""

    worker: str
    client_prefix: str
    local_prefix: str


def _normal(prefix: str) -> str:
    return posixpath.normpath(prefix) if prefix != "/" else prefix


def _under(path: str, prefix: str) -> str | None:
    """The rest of `path` below `prefix` ('' for the prefix itself), or None when it is not below it."""
    if path == prefix:
        return ""
    base = prefix.rstrip("/") + "/"
    return path[len(base):] if path.startswith(base) else None


def _join(prefix: str, rest: str) -> str:
    return posixpath.join(prefix, rest) if rest else prefix


@dataclass(frozen=True)
class PathMap:
    """Every entry; a worker translates with the entries that name it, the longest prefix first."""

    entries: tuple[PathMapEntry, ...] = field(default_factory=tuple)

    def _mine(self, worker: WorkerId) -> list[PathMapEntry]:
        return [entry for entry in self.entries if worker.matches(entry.worker)]

    def for_worker(self, worker: WorkerId) -> PathMap:
        """Only the entries that name this worker (the same translations, fewer entries to try)."""
        return PathMap(tuple(self._mine(worker)))

    def to_local(self, path: str, worker: WorkerId) -> str:
        """The client's path as this worker sees it (unchanged when no entry applies)."""
        for entry in sorted(self._mine(worker), key=lambda entry: -len(entry.client_prefix)):
            rest = _under(path, entry.client_prefix)
            if rest is not None:
                return _join(entry.local_prefix, rest)
        return path

    def to_client(self, path: str, worker: WorkerId) -> str:
        """A worker-local path written as the client names it (unchanged when no entry applies)."""
        for entry in sorted(self._mine(worker), key=lambda entry: -len(entry.local_prefix)):
            rest = _under(path, entry.local_prefix)
            if rest is not None:
                return _join(entry.client_prefix, rest)
        return path

    def local_texts(self, worker: WorkerId) -> list[tuple[str, str]]:
        """(local prefix, client prefix) of this worker, longest local first: to rewrite paths inside messages."""
        return [(entry.local_prefix, entry.client_prefix)
                for entry in sorted(self._mine(worker), key=lambda entry: -len(entry.local_prefix))]


def parse_entry(text: str, where: str = "--path-map") -> PathMapEntry:
    """'node2:/data/dumps=/mnt/ssd/dumps' -> PathMapEntry; a UsageError sentence for anything else."""
    worker, colon, paths = text.strip().partition(":")
    client, equals, local = paths.partition("=")
    if not colon or not equals or _WORKER.fullmatch(worker) is None:
        raise UsageError.of("path_map_syntax", option=where, form=_FORM, value=repr(text[:120]))
    for prefix in (client, local):
        if not prefix.startswith("/") or "\x00" in prefix or any(ord(char) < 32 for char in prefix):
            raise UsageError.of("path_map_not_absolute", option=where, prefix=repr(prefix[:120]),
                                value=repr(text[:120]), form=_FORM)
    return PathMapEntry(worker, _normal(client), _normal(local))


PATH_MAP_CAP = 1 << 20


def load_path_map(options: list[str], file: str | None = None) -> PathMap:
    """The --path-map options plus the lines of a --path-map-file (same form, '#' comments)."""
    entries = [parse_entry(text) for text in options]
    if file:
        # A regular file, at most PATH_MAP_CAP bytes: a FIFO would hang the run, /dev/zero fill the memory.
        data = read_side_file(file, PATH_MAP_CAP, "The path map file")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError.of("path_map_not_utf8", path=file) from None
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if line and not line.startswith("#"):  # a whole-line comment: paths may hold '#'
                entries.append(parse_entry(line, f"{file} line {number}"))
    return PathMap(tuple(entries))
