"""`nwa --scheduler`: plan on the client, compare on the workers that see the files, assign verdicts on the client.

The graphs are parsed here while the workers scan their views of the dump folders (file names only; workers
on one host that see the folders alike scan one folder each, in parallel); the merged scans give the same
index, pairs and plan as a local run. Each (rank, step) is cut into batches of pairs sent to the workers that
see both files of every pair, as soon as it is planned; a task returns only PairResults (status,
metrics, dtypes, shapes), so the rows, verdicts and first divergence are exactly the local run's.
Every task returns msgpack bytes (wire.py) and the client never unpickles what the cluster sends
(safe_client.py); a `tls://` scheduler is reached with the certificates of ClusterOptions.tls.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofuse_studio.core.cluster.address import SchedulerAddress
from autofuse_studio.core.cluster.options import ClusterOptions as ClusterOptions  # re-exported
from autofuse_studio.core.cluster.options import ClusterStats as ClusterStats  # re-exported
from autofuse_studio.core.cluster.safe_client import refusals
from autofuse_studio.core.cluster.scan import (
    MergedSide,
    ScanTask,
    WorkerScan,
    merge_side,
    scan_groups,
    scan_sides,
    scan_tasks,
)
from autofuse_studio.core.cluster.submit import (
    Submitter,
    check_refusals,
    gather_payloads,
    plan_batches,
    refused_reply,
)
from autofuse_studio.core.cluster.wire import TaskFailed, WireError, decode_scan
from autofuse_studio.core.cluster.workers import LiveWorker, cluster_client, live_workers
from autofuse_studio.core.dumps.index import TreeScan
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.ge.fusion import build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.precision.dump_pairs import DumpPair, pair_dumps
from autofuse_studio.core.precision.engine import (
    CaseSink,
    LoadedCase,
    RowSink,
    assemble_result,
    deliverer,
    input_notices,
)
from autofuse_studio.core.precision.occurrences import OccurrenceLog
from autofuse_studio.core.precision.pair import PairResult
from autofuse_studio.core.precision.plan import Plan, PlannedRow, plan_rows
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.core.run.spec import RunSpec

SIDES = ("af-open", "af-close")
_LIVENESS_CHECK_S = 0.5  # between looks at which workers are still in the cluster (a round trip each)


@dataclass
class ClusterRun:
    """The result (identical to a local run's) and the cluster's figures."""

    result: PrecisionResult
    stats: ClusterStats


def _wait_scans(client: Any, futures: dict[Any, ScanTask], roots: int, cancel: CancelToken, stats: ClusterStats,
                refused: int) -> list[WorkerScan]:
    """Every scan that finished, by its group's first worker; a group that left meanwhile, or a task that
    failed, is skipped (those folders are not seen there).

    A reply that is not an autofuse-studio scan stops the run with a sentence naming the worker.
    """
    from autofuse_studio import __version__

    scans: list[tuple[tuple[int, ...], WorkerScan]] = []
    pending = dict(futures)
    checked = time.monotonic()
    while pending:
        cancel.check()
        if refusals() > refused:
            break  # the caller says so
        done = [future for future in pending if future.done()]
        for future in done:
            task = pending.pop(future)
            scan = _finished_scan(client, future, task, roots, __version__, stats.notes)
            if scan is not None:
                scans.append((task.sides, scan))
        if time.monotonic() - checked > _LIVENESS_CHECK_S:  # a round trip to the scheduler: not on every look
            checked = time.monotonic()
            _drop_departed(client, pending, stats.notes)
        if pending and not done:
            time.sleep(0.01)
    return [scan for _, scan in sorted(scans, key=lambda item: (item[1].worker, item[0]))]


def _finished_scan(client: Any, future: Any, task: ScanTask, roots: int, version: str,
                   notes: list[str]) -> WorkerScan | None:
    """The scan of a task that is done, in its group's name; None (and a note) when it brought none."""
    who = _who(task.members)
    if future.status != "finished":  # e.g. autofuse-studio is not installed there: say so rather than "sees nothing"
        error = future.exception()  # text only: safe_client never unpickles a worker's error
        notes.append(f"{who} could not scan the dump folders ({error}); "
                     "install autofuse-studio[cluster] there, the same version as here.")
        return None
    # A result lives on its worker until fetched: it may die meanwhile (None).
    payloads = gather_payloads(client, [future], "dump scan", lambda _: task.members)
    if payloads is None:
        notes.append(f"{who} left the cluster with its dump scan.")
        return None
    scan = _decoded_scan(client, future, task, payloads[0], roots, version)
    if isinstance(scan, str):
        notes.append(f"{who} could not scan the dump folders ({scan}).")
        return None
    return scan


def _drop_departed(client: Any, pending: dict[Any, ScanTask], notes: list[str]) -> None:
    """Cancel the scans none of whose workers is still in the cluster (Dask moves one whose worker died to
    another worker of its group)."""
    alive = set(live_workers(client))
    for future, task in list(pending.items()):
        if not task.members & alive:
            future.cancel()
            del pending[future]
            notes.append(f"{_who(task.members)} left the cluster while scanning the dump folders.")


def _who(members: frozenset[str]) -> str:
    """The subject of a note about a scan task: its worker, or the workers of its group (any may run it)."""
    if len(members) == 1:
        return f"The Dask worker {next(iter(members))}"
    return f"The Dask workers {', '.join(sorted(members))} (one of them)"


def _decoded_scan(client: Any, future: Any, task: ScanTask, payload: object, roots: int,
                  version: str) -> WorkerScan | str:
    """The task's scan of its folders (None for the others), named by its group's first worker, or a failed
    task's error text."""
    try:
        decoded = decode_scan(payload, version, len(task.sides))
    except WireError as error:
        raise refused_reply(client, [future], "dump scan", str(error), lambda _: task.members) from None
    if isinstance(decoded, TaskFailed):
        return decoded.error
    worker_version, scanned, problems = decoded
    sides: list[TreeScan | None] = [None] * roots
    for number, side in zip(task.sides, scanned, strict=True):
        sides[number] = side
    return WorkerScan(task.leader, worker_version, sides, problems)


def _submit_scans(client: Any, tasks: list[ScanTask], roots: list[str], options: ClusterOptions) -> dict[Any, ScanTask]:
    """One client.map per group: the scheduler then places its tasks on different workers of the group."""
    token = uuid.uuid4().hex[:8]
    futures: dict[Any, ScanTask] = {}
    by_group: dict[str, list[ScanTask]] = {}
    for task in tasks:
        by_group.setdefault(task.leader, []).append(task)
    for group in by_group.values():
        keys = [f"af-scan-{token}-{len(futures) + number}" for number in range(len(group))]
        mapped = client.map(scan_sides, [[roots[number] for number in task.sides] for task in group],
                            [options.path_map] * len(group), key=keys, workers=sorted(group[0].members),
                            allow_other_workers=False, pure=False)
        futures.update(zip(mapped, group, strict=True))
    return futures


def _check_versions(scans: list[WorkerScan]) -> None:
    from autofuse_studio import __version__

    for scan in scans:
        if scan.version != __version__:
            raise InputError.of("worker_version", worker=scan.worker, worker_version=scan.version,
                                version=__version__)


def _merged(request: RunSpec, scans: list[WorkerScan], groups: dict[str, frozenset[str]],
            address: SchedulerAddress, notes: list[str]) -> list[MergedSide]:
    sides = []
    for number, (root, what) in enumerate(zip((request.af_open_data, request.af_close_data), SIDES, strict=True)):
        seen: list[tuple[frozenset[str], TreeScan]] = [(groups.get(scan.worker, frozenset({scan.worker})), side)
                                                       for scan in scans if (side := scan.sides[number]) is not None]
        if not seen:
            problems = " ".join(notes)
            raise InputError.of("no_worker_sees_folder", address=str(address), what=what, path=root,
                                problems=f" {problems}" if problems else "")
        sides.append(merge_side(Path(root), seen))
    return sides


def _load(request: RunSpec, client: Any, options: ClusterOptions, progress: Progress,
          cancel: CancelToken, stats: ClusterStats, refused: int) -> tuple[LoadedCase, list[MergedSide]]:
    """Parse both graphs here while every worker scans its view of both dump folders."""
    roots = [str(request.af_open_data), str(request.af_close_data)]
    workers = live_workers(client)
    if not workers:
        raise InputError.of("cluster_no_workers", address=str(options.scheduler))
    groups = scan_groups({address: worker.name for address, worker in workers.items()}, roots, options.path_map)
    futures = _submit_scans(client, scan_tasks(groups, len(roots)), roots, options)
    with gc_paused():
        progress(0, 3, "parsing the fusion-enabled graph")
        af_open = load_model(Path(request.af_open_graph), cancel)
        mapping = build_fusion_mapping(af_open)
        progress(1, 3, "parsing the fusion-disabled graph")
        af_close = load_model(Path(request.af_close_graph), cancel)
        progress(2, 3, "indexing the dump folders on the workers")
        scans = _wait_scans(client, futures, len(roots), cancel, stats, refused)
        check_refusals(refused, options)
        _check_versions(scans)
        stats.notes += [problem for scan in scans for problem in scan.problems]
        stats.workers = sum(len(groups[leader]) for leader in {scan.worker for scan in scans})
        sides = _merged(request, scans, groups, options.scheduler, stats.notes)
        keep_long_lived()  # as the local engine does: the models live for the whole run
    progress(3, 3, "indexed")
    return LoadedCase(af_open, af_close, mapping, sides[0].index, sides[1].index), sides


def run_cluster(request: RunSpec, options: ClusterOptions, progress: Progress = no_progress,
                cancel: CancelToken = NEVER_CANCELLED, on_rows: RowSink | None = None,
                on_case: CaseSink | None = None) -> ClusterRun:
    """run_mode1 on a Dask cluster: the same rows, verdicts and first divergence, computed where the dumps are."""
    # As run_mode1: no collection rescans the plan and rows while they are built; the result is frozen.
    with gc_paused():
        run = _run_cluster(request, options, progress, cancel, on_rows, on_case)
        keep_long_lived()
    return run


def _run_cluster(request: RunSpec, options: ClusterOptions, progress: Progress, cancel: CancelToken,
                 on_rows: RowSink | None, on_case: CaseSink | None) -> ClusterRun:
    stats = ClusterStats(started=time.monotonic())
    with cluster_client(options.scheduler, options.tls) as client:
        refused = refusals()
        case, sides = _load(request, client, options, progress, cancel, stats, refused)
        stats.indexed_s = time.monotonic() - stats.started
        if on_case is not None:
            on_case(case)
        notices = input_notices(case)
        pairs = pair_dumps(case.open_index, case.close_index, request.step, request.ranks, notices)
        with Submitter(client, options, stats, refused) as submitter:
            plan, outcomes = _plan_and_submit(case, pairs, request.compare_input, sides, live_workers(client),
                                              submitter)
            if on_rows is not None:
                on_rows([item.row for item in plan.rows if item.fused is None])
            deliver = None if on_rows is None else deliverer(on_rows)
            if deliver is not None and outcomes:
                deliver([(number, plan.rows[number], result) for number, result in outcomes.items()])
            outcomes.update(submitter.wait(plan.rows, progress, cancel, deliver))
    return ClusterRun(assemble_result(request, case, pairs, plan, notices, outcomes, cancel), stats)


def _plan_and_submit(case: LoadedCase, pairs: list[DumpPair], compare_input: bool, sides: list[MergedSide],
                     workers: dict[str, LiveWorker], submitter: Submitter) -> tuple[Plan, dict[int, PairResult]]:
    """The whole plan, drawn (rank, step) by (rank, step), each part's batches submitted as soon as it is drawn.

    The planner has no state across (rank, step) pairs, so the parts joined are plan_rows() over all of them.
    """
    rows: list[PlannedRow] = []
    log = OccurrenceLog()
    outcomes: dict[int, PairResult] = {}
    for pair in pairs:
        part = plan_rows(case, [pair], compare_input)
        # The batch size follows the whole run's pair count, estimated from this part's.
        expected = sum(item.fused is not None for item in part.rows) * len(pairs)
        batches, known = plan_batches(part.rows, sides, workers, len(rows), expected)
        submitter.submit(batches)
        outcomes.update(known)
        rows += part.rows
        log.paired_items += part.occurrences.paired_items
        log.newest_items += part.occurrences.newest_items
    for position, item in enumerate(rows):
        item.row.table_position = position
    return Plan(rows, log), outcomes
