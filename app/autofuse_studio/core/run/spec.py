"""RunSpec: one frozen description of a precision run, and where it runs (here, on a host, on a Dask cluster).

Every front end builds one — the `nwa` and `report` parsers, the API, `.afcase` files, the case dock — and a
Runner (core.run.runners) runs it. It travels as JSON (spec_to_record / spec_from_record): a `--host` run sends
the spec to the host in one word instead of re-assembling command-line flags.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.thresholds import Thresholds

DEFAULT_REMOTE_COMMAND = "autofuse-studio"
DEFAULT_CONNECT_TIMEOUT = 10
SPEC_FORMAT = "autofuse-studio-run/1"
MAX_TEXT_CHARS = 4096  # a path, a step, a scheduler address: what a spec field may hold
MAX_LIST_ITEMS = 4096  # ranks, path map entries
PathText = str | Path


def default_jobs() -> int:
    """Parallel comparisons when the spec does not say: the cores of the machine that compares (at most 8)."""
    return min(os.cpu_count() or 1, 8)


@dataclass(frozen=True)
class Local:
    """Compare on this machine."""

    kind = "local"


@dataclass(frozen=True)
class OnHost:
    """Compare on a saved host profile over ssh; paths are the host's."""

    host: str
    remote_command: str = DEFAULT_REMOTE_COMMAND
    connect_timeout: int = DEFAULT_CONNECT_TIMEOUT
    kind = "host"


@dataclass(frozen=True)
class OnCluster:
    """Compare on the workers of a Dask scheduler; paths are this machine's, mapped to each worker's view."""

    scheduler: str
    path_map: tuple[str, ...] = ()  # WORKER:CLIENT_PREFIX=LOCAL_PREFIX entries
    path_map_file: str | None = None
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    kind = "cluster"


Where = Local | OnHost | OnCluster
LOCAL = Local()


@dataclass(frozen=True)
class RunSpec:
    """A precision run: mode 1 (two graphs, two dump roots) or mode 2 (two tensors), its options, where it runs.

    Paths are kept as given (text): on a host they are the host's paths. `jobs` None means the comparing
    machine's own default.
    """

    af_open_graph: PathText = ""
    af_close_graph: PathText = ""
    af_open_data: PathText = ""
    af_close_data: PathText = ""
    compare_input: bool = False
    step: str | None = None
    ranks: Sequence[str] | None = None  # compare only these ranks, kept as a tuple (None: every rank)
    jobs: int | None = None
    thresholds: Thresholds = field(default_factory=Thresholds)
    mode: int = 1
    npy_a: PathText = ""
    npy_b: PathText = ""
    tensor: str | None = None  # mode 2: which tensor of a raw dump file ('output:0'); for npy_b too
    tensor_b: str | None = None
    where: Where = LOCAL

    def __post_init__(self) -> None:
        if self.ranks is not None and not isinstance(self.ranks, tuple):
            object.__setattr__(self, "ranks", tuple(self.ranks))

    @property
    def workers(self) -> int:
        """Parallel comparisons on the machine that compares."""
        return max(1, self.jobs) if self.jobs is not None else default_jobs()

    def with_where(self, where: Where) -> RunSpec:
        """The same run, elsewhere."""
        return replace(self, where=where)

    def paths(self) -> dict[str, str]:
        """The spec's path roles as text (mode 1: graphs and dump roots; mode 2: the two tensors)."""
        roles = ("npy_a", "npy_b") if self.mode == 2 else ("af_open_graph", "af_close_graph", "af_open_data",
                                                            "af_close_data")
        return {role: os.fspath(getattr(self, role)) for role in roles}


def mode1_spec(paths: Sequence[PathText], **options: Any) -> RunSpec:
    """A mode-1 RunSpec of the four paths in the reference's order (af-open graph, af-close graph, af-open dump
    root, af-close dump root) and RunSpec's keyword options."""
    open_graph, close_graph, open_data, close_data = paths
    return RunSpec(open_graph, close_graph, open_data, close_data, **options)


def mode2_spec(npy_a: PathText, npy_b: PathText, thresholds: Thresholds | None = None, tensor: str | None = None,
               tensor_b: str | None = None) -> RunSpec:
    """A mode-2 run of two tensor files (always local)."""
    return RunSpec(mode=2, npy_a=npy_a, npy_b=npy_b, thresholds=thresholds or Thresholds(), tensor=tensor,
                   tensor_b=tensor_b)


def as_path(value: PathText) -> Path:
    """A spec path as a local Path (for the runners that read it here)."""
    return Path(value)


# --- the JSON form --------------------------------------------------------------------------------------------


def spec_to_record(spec: RunSpec) -> dict[str, Any]:
    """The spec as JSON-ready builtins (thresholds exact)."""
    from autofuse_studio.core.precision.row_stream import thresholds_to_record

    record: dict[str, Any] = {"format": SPEC_FORMAT, "mode": spec.mode, **spec.paths(),
                              "compare_input": spec.compare_input, "step": spec.step,
                              "ranks": None if spec.ranks is None else list(spec.ranks), "jobs": spec.jobs,
                              "thresholds": thresholds_to_record(spec.thresholds),
                              "where": _where_record(spec.where)}
    if spec.mode == 2:
        record.update(tensor=spec.tensor, tensor_b=spec.tensor_b)
    return record


def _where_record(where: Where) -> dict[str, Any]:
    if isinstance(where, OnHost):
        return {"kind": "host", "host": where.host, "remote_command": where.remote_command,
                "connect_timeout": where.connect_timeout}
    if isinstance(where, OnCluster):
        return {"kind": "cluster", "scheduler": where.scheduler, "path_map": list(where.path_map),
                "path_map_file": where.path_map_file, "tls_ca_file": where.tls_ca_file, "tls_cert": where.tls_cert,
                "tls_key": where.tls_key}
    return {"kind": "local"}


def spec_from_record(record: Any, source: str = "the run spec") -> RunSpec:
    """A RunSpec from spec_to_record's JSON, every field checked (InputError naming `source` and the field)."""
    from autofuse_studio.core.precision.row_stream import StreamError, thresholds_from_record

    read = _Reader(record, source)
    if read.get("format", str) != SPEC_FORMAT:
        raise InputError.of("spec_wrong_format", source=source, format=SPEC_FORMAT)
    mode = read.get("mode", int)
    if mode not in (1, 2):
        raise InputError.of("spec_bad_mode", source=source)
    roles = ("npy_a", "npy_b") if mode == 2 else ("af_open_graph", "af_close_graph", "af_open_data", "af_close_data")
    paths = {role: read.text(role) for role in roles}
    ranks = read.optional("ranks", list)
    if ranks is not None and not _device_ids(ranks):
        raise InputError.of("spec_bad_ranks", source=source)
    jobs = read.optional("jobs", int)
    if jobs is not None and not 1 <= jobs <= 4096:
        raise InputError.of("spec_bad_jobs", source=source)
    try:
        thresholds = thresholds_from_record(read.get("thresholds", dict))
    except (StreamError, InputError) as error:
        raise InputError.of("spec_refused", source=source, reason=str(error), cause_code=error.code,
                            cause_params=error.params) from None
    spec = RunSpec(compare_input=read.get("compare_input", bool), step=read.optional_text("step"),
                   ranks=None if ranks is None else tuple(ranks), jobs=jobs, thresholds=thresholds, mode=mode,
                   where=_where_from(read.get("where", dict), source))
    if mode == 2:
        return replace(spec, npy_a=paths["npy_a"], npy_b=paths["npy_b"], tensor=read.optional_text("tensor"),
                       tensor_b=read.optional_text("tensor_b"))
    return replace(spec, af_open_graph=paths["af_open_graph"], af_close_graph=paths["af_close_graph"],
                   af_open_data=paths["af_open_data"], af_close_data=paths["af_close_data"])


def _device_ids(ranks: list[Any]) -> bool:
    """True for a list of at most MAX_LIST_ITEMS device ids (digits)."""
    return len(ranks) <= MAX_LIST_ITEMS and all(isinstance(rank, str) and rank.isascii() and rank.isdigit()
                                                and len(rank) <= 20 for rank in ranks)


def _where_from(record: dict[str, Any], source: str) -> Where:
    read = _Reader(record, f"{source} ('where')")
    kind = read.get("kind", str)
    if kind == "local":
        return LOCAL
    if kind == "host":
        timeout = read.get("connect_timeout", int)
        if not 1 <= timeout <= 3600:
            raise InputError.of("spec_bad_timeout", source=source)
        return OnHost(read.text("host"), read.text("remote_command"), timeout)
    if kind == "cluster":
        entries = read.get("path_map", list)
        if len(entries) > MAX_LIST_ITEMS or not all(isinstance(item, str) and len(item) <= MAX_TEXT_CHARS
                                                    for item in entries):
            raise InputError.of("spec_bad_path_map", source=source)
        return OnCluster(read.text("scheduler"), tuple(entries), read.optional_text("path_map_file"),
                         read.optional_text("tls_ca_file"), read.optional_text("tls_cert"),
                         read.optional_text("tls_key"))
    raise InputError.of("spec_bad_where", source=source)


_KIND_WORDS = {int: "a whole number", str: "a text", bool: "true or false", list: "a list", dict: "an object"}


class _Reader:
    """Typed look-ups in one JSON object, each failure a sentence naming the source and the key."""

    def __init__(self, record: Any, source: str) -> None:
        if not isinstance(record, dict):
            raise InputError.of("spec_not_object", source=source)
        self.record, self.source = record, source

    def get(self, key: str, kind: type) -> Any:
        value = self.record.get(key)
        # bool is an int in Python: a flag is no count and a count no flag.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InputError.of("spec_field_kind", source=self.source, key=key,
                                kind=_KIND_WORDS.get(kind, kind.__name__))
        return value

    def optional(self, key: str, kind: type) -> Any:
        return None if self.record.get(key) is None else self.get(key, kind)

    def text(self, key: str) -> str:
        value = self.get(key, str)
        if len(value) > MAX_TEXT_CHARS or "\x00" in value:
            raise InputError.of("spec_text_invalid", source=self.source, key=key, limit=MAX_TEXT_CHARS)
        return str(value)

    def optional_text(self, key: str) -> str | None:
        return None if self.record.get(key) is None else self.text(key)
