"""The Runner protocol and its three implementations: on this machine, on a host over ssh, on a Dask cluster.

Every front end (nwa, report, the API, the GUI, the host side of a `--host` run) builds a RunSpec and asks
`runner_for(spec)` for the runner of the spec's `where`; each returns a RunHandle whose events are the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.phase import Phase
from autofuse_studio.core.progress import CancelToken
from autofuse_studio.core.run.events import CaseLoaded, Indexed, Progressed, RowsDone, RunOutcome, Started
from autofuse_studio.core.run.handle import Emit, RunHandle, progress_events, rows_events
from autofuse_studio.core.run.spec import OnCluster, OnHost, RunSpec

if TYPE_CHECKING:
    from autofuse_studio.core.cluster.run import ClusterOptions
    from autofuse_studio.core.precision.engine import LoadedCase


class Runner(Protocol):
    """Starts a run of a spec; `live` asks for the rows and the dump summary as they come (the GUI, a host)."""

    def start(self, spec: RunSpec, *, live: bool = False, cancel: CancelToken | None = None) -> RunHandle:
        """The handle of the started run (cancelled by handle.cancel() or by `cancel`)."""


class LocalRunner:
    """Compare on this machine (mode 1 and mode 2)."""

    def start(self, spec: RunSpec, *, live: bool = False, cancel: CancelToken | None = None) -> RunHandle:
        """Run the spec on a thread of this process."""
        return RunHandle(lambda emit, token: run_local(spec, emit, token, live), "local-run", cancel)


class HostRunner:
    """Compare on a host profile: the spec travels as JSON over ssh, the rows come back as records."""

    def __init__(self, producers: bool = False) -> None:
        self.producers = producers  # also ask for the producer index (the GUI re-assigns verdicts with it)

    def start(self, spec: RunSpec, *, live: bool = False, cancel: CancelToken | None = None) -> RunHandle:
        """Run the spec on its host (where: OnHost)."""
        return RunHandle(lambda emit, token: run_on_host(spec, emit, token, self.producers), "host-run", cancel)


class ClusterRunner:
    """Compare on a Dask cluster: graphs parsed here, each pair on a worker that sees its files."""

    def start(self, spec: RunSpec, *, live: bool = False, cancel: CancelToken | None = None) -> RunHandle:
        """Run the spec on its scheduler's workers (where: OnCluster)."""
        return RunHandle(lambda emit, token: run_on_cluster(spec, emit, token, live), "cluster-run", cancel)


def runner_for(spec: RunSpec, producers: bool = False) -> Runner:
    """The runner of the spec's `where`; mode 2 compares two local files and runs only here."""
    if spec.mode == 2 and spec.where.kind != "local":
        raise InputError.of("mode2_here_only")
    if isinstance(spec.where, OnHost):
        return HostRunner(producers)
    if isinstance(spec.where, OnCluster):
        return ClusterRunner()
    return LocalRunner()


def check_where(spec: RunSpec) -> None:
    """Refuse, with a sentence, a spec its runner cannot run: an unknown host profile, a value that cannot travel
    to the host, a bad scheduler address or TLS file, a missing Dask. Front ends call it before any work."""
    if isinstance(spec.where, OnHost):
        from autofuse_studio.core.remote.nwa_remote import check_request
        from autofuse_studio.core.remote.profiles import find_profile

        check_request(spec, find_profile(spec.where.host).name)
    elif isinstance(spec.where, OnCluster):
        cluster_options(spec.where)
    runner_for(spec)


def start(spec: RunSpec, *, live: bool = False, producers: bool = False,
          cancel: CancelToken | None = None) -> RunHandle:
    """Start the spec on its runner (the one call front ends make)."""
    return runner_for(spec, producers).start(spec, live=live, cancel=cancel)


# --- what each runner does on its thread -------------------------------------------------------------------------


def _case_events(emit: Emit, live: bool, loaded: list[LoadedCase]) -> Callable[[LoadedCase], None]:
    """The engine's on_case: keep the case, say it was loaded (and, live, what the dump roots hold)."""
    from autofuse_studio.core.precision.dump_pairs import summarise_sides

    def on_case(case: LoadedCase) -> None:
        loaded.append(case)
        emit(CaseLoaded(case))
        if live:
            emit(Indexed(summarise_sides(case.open_index, case.close_index)))

    return on_case


def _files_indexed(case: LoadedCase | None) -> int:
    """Dump files both indexes hold (0 before a case was loaded)."""
    return 0 if case is None else case.open_index.files_indexed + case.close_index.files_indexed


def run_local(spec: RunSpec, emit: Emit, cancel: CancelToken, live: bool = False) -> RunOutcome:
    """Mode 1 through the engine (comparing starts before the af-close graph is parsed), or mode 2."""
    from autofuse_studio.core.precision.engine import run_mode1

    emit(Started())
    if spec.mode == 2:
        return _run_mode2(spec, emit)
    loaded: list[LoadedCase] = []
    result = run_mode1(spec, progress_events(emit), cancel, on_rows=rows_events(emit) if live else None,
                       on_case=_case_events(emit, live, loaded))
    case = loaded[0] if loaded else None
    return RunOutcome(result, case, files_indexed=_files_indexed(case))


def _run_mode2(spec: RunSpec, emit: Emit) -> RunOutcome:
    """Two tensor files (a raw dump's tensor chosen by spec.tensor / tensor_b), one row with its verdict."""
    from autofuse_studio.core.dumps.tensors import choose_tensor
    from autofuse_studio.core.precision.engine import compare_two

    npy_a = choose_tensor(spec.npy_a, spec.tensor)
    npy_b = choose_tensor(spec.npy_b, spec.tensor_b or spec.tensor)
    emit(Progressed(0, 1, Phase.COMPARING.value))
    pair, result = compare_two(npy_a, npy_b, spec.thresholds)
    emit(Progressed(1, 1, Phase.COMPARING.value))
    return RunOutcome(result, pair=pair)


def run_on_host(spec: RunSpec, emit: Emit, cancel: CancelToken, producers: bool = False) -> RunOutcome:
    """Check the spec can travel, run it on its host and rebuild the result here (identical to a local run's)."""
    from autofuse_studio.core.precision.stream_schema import Hello
    from autofuse_studio.core.remote.nwa_remote import check_request
    from autofuse_studio.core.remote.nwa_stream import RecordReader, RemoteStream, broken_stream
    from autofuse_studio.core.remote.profiles import find_profile

    assert isinstance(spec.where, OnHost)
    profile = find_profile(spec.where.host)
    check_request(spec, profile.name)
    emit(Progressed(0, 0, f"{Phase.CONNECTING.value} '{profile.name}'"))
    stream = RemoteStream(profile, spec, spec.where.connect_timeout, producers)
    reader = RecordReader(profile.name)
    records = stream.records(cancel)
    try:
        for record in records:
            if isinstance(record, Hello):
                emit(Started(stream.version))
            event = reader.take(record)
            if event is None:
                continue
            kind, payload = event
            if kind == "progress":
                emit(Progressed(*payload))
            elif kind == "rows":
                emit(RowsDone(payload))
            elif kind == "indexed":
                emit(Indexed(payload))
            elif kind == "result":
                return RunOutcome(payload.result, producers=payload.producers, files_indexed=payload.files_indexed)
    finally:
        records.close()
    raise broken_stream(profile.name, "no result record before its stream ended")


def cluster_options(where: OnCluster) -> ClusterOptions:
    """The checked ClusterOptions of a spec's cluster: address, path map, TLS files (a sentence for each problem)."""
    from autofuse_studio.core.cluster.address import parse_scheduler_address, require_distributed
    from autofuse_studio.core.cluster.pathmap import load_path_map
    from autofuse_studio.core.cluster.run import ClusterOptions
    from autofuse_studio.core.cluster.tls import TlsFiles, dask_security

    address = parse_scheduler_address(where.scheduler)
    path_map = load_path_map(list(where.path_map), where.path_map_file)
    require_distributed()
    given = (where.tls_ca_file, where.tls_cert, where.tls_key)
    tls = TlsFiles(*given) if any(given) else None
    dask_security(address, tls)  # tls:// without certificates, tcp:// with them, unusable files: a sentence now
    return ClusterOptions(address, path_map, tls=tls)


def run_on_cluster(spec: RunSpec, emit: Emit, cancel: CancelToken, live: bool = False) -> RunOutcome:
    """run_local on the workers of the spec's scheduler: the same rows, verdicts and first divergence."""
    from autofuse_studio.core.cluster.run import run_cluster

    assert isinstance(spec.where, OnCluster)
    options = cluster_options(spec.where)
    emit(Started())
    loaded: list[LoadedCase] = []
    run = run_cluster(spec, options, progress_events(emit), cancel,
                      on_rows=rows_events(emit) if live else None,
                      on_case=_case_events(emit, live, loaded))
    run.stats.scheduler = str(options.scheduler)
    case = loaded[0] if loaded else None
    return RunOutcome(run.result, case, files_indexed=_files_indexed(case), notes=list(run.stats.notes),
                      stats=run.stats)

