"""`nwa --scheduler`: plan on the client, compare on the workers that see the files, assign verdicts on the client.

The graphs are parsed here while every worker scans its view of the dump folders (file names only); the
merged scans give the same index, pairs and plan as a local run. Each (rank, step) is cut into batches of
pairs sent to the workers that see both files of every pair; a task returns only PairResults (status,
metrics, dtypes, shapes), so the rows, verdicts and first divergence are exactly the local run's.
Every task returns msgpack bytes (wire.py) and the client never unpickles what the cluster sends
(safe_client.py); a `tls://` scheduler is reached with the certificates of ClusterOptions.tls.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofuse_studio.core.cluster.address import SchedulerAddress
from autofuse_studio.core.cluster.options import ClusterOptions as ClusterOptions  # re-exported
from autofuse_studio.core.cluster.options import ClusterStats as ClusterStats  # re-exported
from autofuse_studio.core.cluster.safe_client import refusals
from autofuse_studio.core.cluster.scan import MergedSide, WorkerScan, merge_side, scan_groups, scan_sides
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


@dataclass
class ClusterRun:
    """The result (identical to a local run's) and the cluster's figures."""

    result: PrecisionResult
    stats: ClusterStats


def _wait_scans(client: Any, futures: dict[str, Any], sides: int, cancel: CancelToken, stats: ClusterStats,
                refused: int) -> list[WorkerScan]:
    """Every scan that finished; a worker that left or failed meanwhile is skipped (its folders are not seen).

    A reply that is not an autofuse-studio scan stops the run with a sentence naming the worker.
    """
    from autofuse_studio import __version__

    scans: list[WorkerScan] = []
    pending = dict(futures)
    while pending:
        cancel.check()
        if refusals() > refused:
            return scans  # the caller says so
        alive = set(live_workers(client))
        for address, future in list(pending.items()):
            if future.done():
                del pending[address]
                if future.status == "finished":
                    # A result lives on its worker until fetched: it may die meanwhile (None).
                    payloads = gather_payloads(client, [future], "dump scan", _only(address))
                    if payloads is None:
                        stats.notes.append(f"The Dask worker {address} left the cluster with its dump scan.")
                        continue
                    scan = _decoded_scan(client, future, address, payloads[0], sides, __version__)
                    if isinstance(scan, WorkerScan):
                        scans.append(scan)
                    else:
                        stats.notes.append(f"The Dask worker {address} could not scan the dump folders ({scan}).")
                else:  # e.g. autofuse-studio is not installed there: say so rather than "sees nothing"
                    error = future.exception()  # text only: safe_client never unpickles a worker's error
                    stats.notes.append(f"The Dask worker {address} could not scan the dump folders ({error}); "
                                       "install autofuse-studio[cluster] there, the same version as here.")
            elif address not in alive:
                future.cancel()
                del pending[address]
                stats.notes.append(f"The Dask worker {address} left the cluster while scanning the dump folders.")
        if pending:
            time.sleep(0.02)
    return sorted(scans, key=lambda scan: scan.worker)


def _only(address: str) -> Callable[[Any], frozenset[str]]:
    return lambda _: frozenset({address})


def _decoded_scan(client: Any, future: Any, address: str, payload: object, sides: int,
                  version: str) -> WorkerScan | str:
    """The worker's scan (named by the address the task was sent to), or a failed task's error text."""
    try:
        decoded = decode_scan(payload, version, sides)
    except WireError as error:
        raise refused_reply(client, [future], "dump scan", str(error), _only(address)) from None
    if isinstance(decoded, TaskFailed):
        return decoded.error
    return WorkerScan(address, *decoded)


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
    token = uuid.uuid4().hex[:8]
    groups = scan_groups({address: worker.name for address, worker in workers.items()}, roots, options.path_map)
    futures = {address: client.submit(scan_sides, roots, options.path_map, workers=[address],
                                      allow_other_workers=False, pure=False, key=f"af-scan-{token}-{number}")
               for number, address in enumerate(groups)}
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
        stats.workers = sum(len(groups[scan.worker]) for scan in scans)
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
    stats = ClusterStats()
    with cluster_client(options.scheduler, options.tls) as client:
        refused = refusals()
        case, sides = _load(request, client, options, progress, cancel, stats, refused)
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
    return ClusterRun(assemble_result(request, case, pairs, plan, notices, outcomes), stats)


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
