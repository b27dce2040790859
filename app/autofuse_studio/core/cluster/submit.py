"""Batches of pairs per (rank, step) and the workers that may run them; submitting, waiting, cancelling.

A batch goes only to workers that see both files of each of its pairs. A worker that dies mid-run has its
tasks moved by Dask to another allowed worker; when none is left, the batch's rows get WORKER_LOST at once
(never a task waiting forever for a worker that cannot come back). Cancel and Ctrl-C cancel every future.
A reply is msgpack bytes decoded with strict types (wire.py); anything else stops the run with a sentence
naming the worker, and nothing a worker sends is ever unpickled (safe_client.py).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from autofuse_studio.core.cluster.options import ClusterOptions, ClusterStats
from autofuse_studio.core.cluster.safe_client import TaskError, refusals
from autofuse_studio.core.cluster.tasks import compare_batch
from autofuse_studio.core.cluster.wire import TaskFailed, WireError, decode_compare, encode_pairs
from autofuse_studio.core.cluster.workers import LiveWorker, live_workers, preferred
from autofuse_studio.core.dumps.tensors import dump_folder
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.phase import Phase
from autofuse_studio.core.precision.packed_sides import Pair, pack
from autofuse_studio.core.precision.pair import PairResult, compare_pair
from autofuse_studio.core.precision.plan import PlannedRow
from autofuse_studio.core.precision.scheduler import LARGE_PAIR_BYTES, Delivery
from autofuse_studio.core.progress import CancelToken, Progress

if TYPE_CHECKING:
    from autofuse_studio.core.cluster.scan import MergedSide

# Statuses of rows the cluster could not compare (not compared: verdict UNKNOWN, like FILE_NOT_FOUND).
NO_WORKER = "NO_WORKER"  # no worker sees both files of the pair
WORKER_LOST = "WORKER_LOST"  # every worker that saw them left the cluster during the run
CLUSTER_ERROR = "CLUSTER_ERROR"  # the task failed on the cluster (Dask's error in the message)
CLUSTER_PROGRESS = Phase.COMPARING_CLUSTER.value  # progress message; done/total count tasks
MAX_BATCH = 160  # pairs per task at most: each task costs messages and a pickled spec on the scheduler
_POLL_S = 0.2
_WORKER_CHECK_S = 0.5
GATHER_TIMEOUT_S = 5.0


@dataclass
class Batch:
    """Pairs of one (rank, step) compared by one task, the rows each pair fills, and where it may run."""

    rank: str | None
    step: str
    workers: frozenset[str]
    pairs: list[Pair] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)  # plan positions filled by each pair


def _names(addresses: frozenset[str], workers: dict[str, LiveWorker]) -> str:
    named = sorted(workers[address].name if address in workers else address for address in addresses)
    return ", ".join(named) or "no worker"


def _no_worker(item: PlannedRow, seen: tuple[frozenset[str], frozenset[str]], workers: dict[str, LiveWorker]
               ) -> PairResult:
    where = f"rank {item.row.rank}" if item.row.rank is not None else "this pair"
    return PairResult(NO_WORKER, message=f"No Dask worker sees both dump files of {where} (af-open seen by "
                      f"{_names(seen[0], workers)}, af-close by {_names(seen[1], workers)}): {item.row.fused_op} "
                      f"{item.row.kind} {item.row.fused_index}")


def _batch_size(pairs: int, workers: dict[str, LiveWorker]) -> int:
    # A few tasks per worker thread keep the load balanced; bigger tasks keep Dask's per-task cost small.
    return max(1, min(MAX_BATCH, pairs // (4 * max(1, len(workers)))))


def plan_batches(planned: list[PlannedRow], sides: list[MergedSide], workers: dict[str, LiveWorker],
                 offset: int = 0, expected_pairs: int | None = None) -> tuple[list[Batch], dict[int, PairResult]]:
    """The batches to submit, and the outcomes known now (a missing file, no worker that sees a pair).

    Rows are numbered from `offset` (a part of a bigger plan); `expected_pairs` is the whole run's pair count,
    which sets the batch size (default: this part's).
    """
    outcomes: dict[int, PairResult] = {}
    groups: dict[tuple[str | None, str, frozenset[str]], dict[Pair, list[int]]] = {}
    large: list[Batch] = []
    everyone = frozenset(workers)
    # Every pair of a (rank, step) has its files in the same few folders: the workers are worked out once each.
    places: dict[tuple[str, str, str | None], tuple[frozenset[str], frozenset[str], frozenset[str]]] = {}
    for number, item in enumerate(planned, offset):
        if item.fused is None or item.origin is None:
            continue
        if item.fused.path is None or item.origin.path is None:
            outcomes[number] = compare_pair(item.fused, item.origin)  # FILE_NOT_FOUND: nothing to read
            continue
        place = (dump_folder(item.fused.path), dump_folder(item.origin.path), item.row.rank)
        known = places.get(place)
        if known is None:
            seen = (sides[0].folders.get(place[0], frozenset()), sides[1].folders.get(place[1], frozenset()))
            known = places[place] = (*seen, preferred(seen[0] & seen[1], item.row.rank, workers) & everyone)
        allowed = known[2]
        if not allowed:
            outcomes[number] = _no_worker(item, (known[0], known[1]), workers)
        elif item.size_bytes > LARGE_PAIR_BYTES:
            large.append(Batch(item.row.rank, item.row.step, allowed, [(item.fused, item.origin)], [[number]]))
        else:
            group = groups.setdefault((item.row.rank, item.row.step, allowed), {})
            group.setdefault((item.fused, item.origin), []).append(number)
    pairs = sum(len(group) for group in groups.values())
    size = _batch_size(pairs if expected_pairs is None else expected_pairs, workers)
    batches = []
    for (rank, step, allowed), group in groups.items():
        entries = list(group.items())
        count = -(-len(entries) // size)  # as few tasks as the size allows, of even sizes (no small tail task)
        for number in range(count):
            chunk = entries[number * len(entries) // count:(number + 1) * len(entries) // count]
            batches.append(Batch(rank, step, allowed, [pair for pair, _ in chunk], [rows for _, rows in chunk]))
    return batches + large, outcomes


class Submitter:
    """Runs batches on the cluster; every batch ends as results or as statuses on its rows.

    submit() may be called while the plan is still being drawn (comparing starts with the first rank);
    wait() collects everything. Leaving the `with` block on an error, cancel or Ctrl-C cancels every future.
    """

    def __init__(self, client: Any, options: ClusterOptions, stats: ClusterStats, refused: int = 0) -> None:
        self._client = client
        self._options = options
        self._stats = stats
        self._refused = refused  # the process's pickle refusals when the client connected
        self._token = uuid.uuid4().hex[:8]
        self._futures: dict[Any, Batch] = {}
        self._pending: set[Any] = set()

    def __enter__(self) -> Submitter:
        return self

    def __exit__(self, *error: object) -> None:
        if self._pending:  # cancelled, Ctrl-C or an error: nothing pending is wanted any more
            self._client.cancel(list(self._pending))
            self._pending.clear()

    def submit(self, batches: list[Batch]) -> None:
        """One client.map per set of allowed workers: one message to the scheduler instead of one per task."""
        if batches and not self._futures:
            self._stats.first_task_s = time.monotonic() - self._stats.started
        by_workers: dict[frozenset[str], list[Batch]] = {}
        for batch in batches:
            by_workers.setdefault(batch.workers, []).append(batch)
        for workers, group in by_workers.items():
            first = len(self._futures)
            keys = [f"af-compare-r{'-' if batch.rank is None else batch.rank}-s{batch.step or '-'}-{self._token}-"
                    f"{first + number}" for number, batch in enumerate(group)]
            mapped = self._client.map(compare_batch, [encode_pairs([pack(pair) for pair in batch.pairs])
                                                      for batch in group],
                                      [self._options.path_map] * len(group), key=keys, workers=sorted(workers),
                                      allow_other_workers=False, retries=self._options.retries, pure=False)
            self._futures.update(zip(mapped, group, strict=True))
            self._pending.update(mapped)
        self._stats.tasks = len(self._futures)

    def wait(self, planned: list[PlannedRow], progress: Progress, cancel: CancelToken,
             deliver: Delivery | None) -> dict[int, PairResult]:
        """Every submitted batch's outcomes by plan position (progress in tasks)."""
        futures, pending = self._futures, self._pending
        outcomes: dict[int, PairResult] = {}
        checked = time.monotonic()
        progress(len(futures) - len(pending), len(futures), CLUSTER_PROGRESS)
        while pending:
            cancel.check()
            check_refusals(self._refused, self._options)
            done = _wait_some(pending)
            pending -= done
            finished = [future for future in done if future.status == "finished"]
            gathered = gather_payloads(self._client, finished, "comparison result",
                                       lambda future: futures[future].workers)
            if gathered is None:  # a result was lost with its worker: wait for Dask (or _drop_lost) to say so
                pending.update(done)
                done = set()
                finished, gathered = [], []
            for future, payload in zip(finished, gathered, strict=True):
                batch = futures[future]
                results = self._decoded(future, payload, batch)
                self._stats.result_bytes += len(payload) if isinstance(payload, bytes) else 0
                self._stats.pairs += len(results)
                self._record(batch, results, planned, outcomes, deliver)
            for future in done.difference(finished):
                self._record(futures[future], self._failed(future, futures[future]), planned, outcomes, deliver)
            if time.monotonic() - checked > _WORKER_CHECK_S:
                checked = time.monotonic()
                pending -= self._drop_lost(pending, futures, planned, outcomes, deliver)
            progress(len(futures) - len(pending), len(futures), CLUSTER_PROGRESS)
        return outcomes

    def _decoded(self, future: Any, payload: object, batch: Batch) -> list[PairResult]:
        """A compare reply's results; a failed task's error on each row; anything else stops the run."""
        try:
            decoded = decode_compare(payload, len(batch.pairs))
        except WireError as error:
            raise refused_reply(self._client, [future], "comparison result", str(error),
                                lambda _: batch.workers) from None
        if isinstance(decoded, TaskFailed):
            where = _names(frozenset(_holders(self._client, [future])) or batch.workers, live_workers(self._client))
            return [PairResult(CLUSTER_ERROR, message=f"the comparison failed on the Dask worker {where} "
                               f"({decoded.error}): {fused.label}") for fused, _ in batch.pairs]
        return decoded

    def _failed(self, future: Any, batch: Batch) -> list[PairResult]:
        """Statuses for the pairs of a task that failed (a cancelled one counts as lost).

        Dask's error is never unpickled: safe_client keeps it as text (a TaskError).
        """
        if future.status == "cancelled":
            return [PairResult(WORKER_LOST, message=f"the task was cancelled on the cluster: {fused.label}")
                    for fused, _ in batch.pairs]
        error = future.exception()
        if isinstance(error, TaskError) and error.killed:
            status, text = WORKER_LOST, "the workers running this comparison died too often; Dask gave up"
        else:
            where = _names(batch.workers, live_workers(self._client))
            status, text = CLUSTER_ERROR, f"the task failed on the cluster (on {where}: {error})"
        return [PairResult(status, message=f"{text}: {fused.label}") for fused, _ in batch.pairs]

    def _drop_lost(self, pending: set[Any], futures: dict[Any, Batch], planned: list[PlannedRow],
                   outcomes: dict[int, PairResult], deliver: Delivery | None) -> set[Any]:
        """Futures none of whose allowed workers is still in the cluster: cancelled, their rows WORKER_LOST."""
        alive = frozenset(live_workers(self._client))
        # Finished ones too: a result not yet fetched lives on its worker and is gone with it.
        lost = {future for future in pending if not futures[future].workers & alive}
        for future in lost:
            batch = futures[future]
            self._stats.lost_pairs += len(batch.pairs)
            names = ", ".join(sorted(batch.workers))
            results = [PairResult(WORKER_LOST, message=f"Every Dask worker that sees these dump files left the "
                                  f"cluster during the run ({names}): {fused.label}") for fused, _ in batch.pairs]
            self._record(batch, results, planned, outcomes, deliver)
        if lost:
            self._client.cancel(list(lost))
        return lost

    @staticmethod
    def _record(batch: Batch, results: list[PairResult], planned: list[PlannedRow], outcomes: dict[int, PairResult],
                deliver: Delivery | None) -> None:
        group = [(number, planned[number], result) for rows, result in zip(batch.rows, results, strict=True)
                 for number in rows]
        outcomes.update((number, result) for number, _, result in group)
        if deliver is not None:
            deliver(group)


def check_refusals(baseline: int, options: ClusterOptions) -> None:
    """Stop the run when this process refused a pickle since `baseline` (safe_client.refusing_pickles)."""
    if refusals() > baseline:
        raise InputError.of("cluster_sent_pickle", address=options.scheduler)


def _holders(client: Any, futures: list[Any]) -> set[str]:
    try:
        who_has = client.who_has(futures)
    except Exception:  # noqa: BLE001  (the sentence then names the workers allowed to run the task)
        return set()
    return {str(address) for addresses in who_has.values() for address in addresses}


def refused_reply(client: Any, futures: list[Any], what: str, reason: str,
                  allowed: Callable[[Any], frozenset[str]]) -> InputError:
    """The sentence for a reply that is not an autofuse-studio task's, naming the worker that holds it."""
    holders = _holders(client, futures) or {address for future in futures for address in allowed(future)}
    workers = live_workers(client)
    named = ", ".join(f"{workers[address].name} ({address})" if address in workers and
                      workers[address].name != address else address for address in sorted(holders))
    reason = " ".join(reason.split())[:300]
    return InputError.of("worker_sent_foreign", worker=named or "(unknown)", what=what, reason=reason)


def gather_payloads(client: Any, finished: list[Any], what: str,
                    allowed: Callable[[Any], frozenset[str]]) -> list[object] | None:
    """The replies of finished tasks in one call (each result() alone is a round trip to the client's loop).

    None when they did not all arrive within GATHER_TIMEOUT_S, or when one failed or was cancelled meanwhile
    (the caller sees that on its next look): a result lives on its worker until it is fetched, and
    Client.gather() waits forever for one whose worker died meanwhile and that no other allowed worker can
    recompute. WORKAROUND: Client.gather has no timeout; Client.sync gives _gather one.
    A reply Dask refuses to read (serialized otherwise than as msgpack, or holding a pickle) stops the run
    with a sentence naming the worker that sent it.
    """
    if not finished:
        return []
    before = refusals()
    try:
        payloads: list[object] = client.sync(client._gather, finished, callback_timeout=GATHER_TIMEOUT_S)
    except TimeoutError:
        return None
    except Exception as error:  # noqa: BLE001  (Dask's refusal of a non-msgpack reply, or a refused pickle)
        if any(future.status != "finished" for future in finished):
            return None
        culprits = [future for future in finished if _unreadable(client, future)] or finished
        raise refused_reply(client, culprits, what, f"{type(error).__name__}: {error}", allowed) from None
    if refusals() > before:  # Dask got over it (it asked the scheduler instead): the sender is still rogue
        raise refused_reply(client, finished, what, "it sent a pickled Python object", allowed)
    return payloads


def _unreadable(client: Any, future: Any) -> bool:
    """True when this one task's reply cannot be fetched for another reason than time."""
    try:
        client.sync(client._gather, [future], callback_timeout=GATHER_TIMEOUT_S)
    except TimeoutError:
        return False
    except Exception:  # noqa: BLE001
        return True
    return False


def _wait_some(pending: set[Any]) -> set[Any]:
    """The futures done now, after waiting at most _POLL_S for one (so cancel and lost workers are noticed).

    distributed.wait() needs a default client, which the GUI's threads must not share; a future's done()
    is a local check, so polling it costs nothing while the workers compute.
    """
    deadline = time.monotonic() + _POLL_S
    while True:
        done = {future for future in pending if future.done()}
        if done or time.monotonic() >= deadline:
            return done
        time.sleep(0.01)
