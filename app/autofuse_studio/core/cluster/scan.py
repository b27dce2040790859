"""Dump indexes built where the files are: a scan task per worker, merged on the client into one DumpIndex.

Each worker walks its own view of the client's dump folders (through the path map) and sends back the file
names only, as msgpack bytes (wire.py; never a pickled object); the client merges the scans and decides
ranks, steps and runs over the union exactly as a local build over the same files would, so the plan (and
every row) is the local run's.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.cluster.pathmap import PathMap, WorkerId
from autofuse_studio.core.cluster.wire import encode_failure, encode_scan
from autofuse_studio.core.dumps.index import DumpIndex, TreeScan, scan_tree
from autofuse_studio.core.dumps.walk import WalkReport
from autofuse_studio.core.errors import AppError

# Tests only: seconds each scan task sleeps first, so a worker can be killed while it scans.
SCAN_DELAY_ENV = "AUTOFUSE_STUDIO_TEST_SCAN_DELAY"


@dataclass
class WorkerScan:
    """A scan task's scans of the sides (None: not asked, or not seen), in the client's paths."""

    worker: str  # its group's first address (scan_groups' key), not what the worker that ran it says
    version: str
    sides: list[TreeScan | None]
    problems: list[str] = field(default_factory=list)  # sentences: a folder it sees but cannot read


def current_worker() -> WorkerId:
    """The worker this task runs on (a plain process id outside a cluster, for tests)."""
    from distributed import get_worker

    worker = get_worker()
    address = str(worker.address)
    return WorkerId(address, str(worker.name), host_of(address))


def _to_client(scan: TreeScan, path_map: PathMap, worker: WorkerId) -> TreeScan:
    def client(path: str) -> str:
        return path_map.to_client(path, worker)

    report = WalkReport([(client(folder), reason) for folder, reason in scan.report.unreadable],
                        [client(link) for link in scan.report.outside_links])
    return TreeScan({Path(client(str(folder))): entries for folder, entries in scan.found.items()}, report,
                    [client(path) for path in scan.ignored], scan.notices, [client(path) for path in scan.loose])


def scan_sides(roots: list[str], path_map: PathMap) -> bytes:
    """Worker task: scan this worker's view of each dump folder (file names only, no NPY is read).

    Returns msgpack bytes (wire.ScanReply); any error is sent as a wire.TaskFailed record, never raised:
    a raised exception would reach the client as a pickle.
    """
    from autofuse_studio import __version__

    try:
        delay = os.environ.get(SCAN_DELAY_ENV)
        if delay:
            time.sleep(float(delay))
        worker = current_worker()
        sides: list[TreeScan | None] = []
        problems: list[str] = []
        for root in roots:
            local = Path(path_map.to_local(root, worker))
            if not local.is_dir():
                sides.append(None)
                continue
            try:
                sides.append(_to_client(scan_tree(local), path_map, worker))
            except AppError as error:
                problems.append(f"{worker.name}: {error}")
                sides.append(None)
        return encode_scan(__version__, sides, problems)
    except Exception as error:  # noqa: BLE001  (every error travels as text)
        return encode_failure(__version__, error)


@dataclass
class MergedSide:
    """A side's index over every worker's files, and which workers see each folder."""

    index: DumpIndex
    folders: dict[str, frozenset[str]]  # folder (client path) -> addresses of the workers that see it


def host_of(address: str) -> str:
    """'tcp://10.0.0.2:40001' -> '10.0.0.2'."""
    return address.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")


def scan_groups(workers: dict[str, str], roots: list[str], path_map: PathMap) -> dict[str, frozenset[str]]:
    """One scanning worker per (host, local folders): workers on one host that map the roots alike see the
    same files, so one scan serves them all. {scanning worker: every worker it scans for}; workers: {address: name}.
    """
    groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for address in sorted(workers):
        worker = WorkerId(address, workers[address], host_of(address))
        key = (worker.host, tuple(path_map.to_local(root, worker) for root in roots))
        groups.setdefault(key, []).append(address)
    return {members[0]: frozenset(members) for members in groups.values()}


@dataclass(frozen=True)
class ScanTask:
    """One scan task: the dump folders (by side number) it scans for a group of workers that see them alike."""

    leader: str  # the group's first address: the scans are merged under it (scan_groups' key)
    members: frozenset[str]  # any of them may run the task (Dask moves it when one dies)
    sides: tuple[int, ...]


def scan_tasks(groups: dict[str, frozenset[str]], roots: int) -> list[ScanTask]:
    """The scan tasks of every group: each folder a task of its own when the group has several workers, so
    they scan in parallel (one task for all of a lone worker's folders: one round trip, the same work)."""
    tasks = []
    for leader, members in groups.items():
        if len(members) == 1:
            tasks.append(ScanTask(leader, members, tuple(range(roots))))
        else:
            tasks += [ScanTask(leader, members, (number,)) for number in range(roots)]
    return tasks


def merge_side(root: Path, scans: list[tuple[frozenset[str], TreeScan]]) -> MergedSide:
    """Merge the workers' scans of one side; a folder several workers see (shared storage) is taken once."""
    seen: dict[str, set[str]] = {}
    owner: dict[str, frozenset[str]] = {}
    for workers, scan in scans:
        for folder in [*map(str, scan.found), *(os.path.dirname(path) for path in scan.ignored)]:
            seen.setdefault(folder, set()).update(workers)
            owner.setdefault(folder, workers)
    merged = TreeScan({})
    unreadable: set[str] = set()
    links: set[str] = set()
    messages: set[str] = set()
    for worker, scan in scans:
        merged.found.update((folder, entries) for folder, entries in scan.found.items() if owner[str(folder)] == worker)
        merged.ignored += [path for path in scan.ignored if owner[os.path.dirname(path)] == worker]
        merged.loose += [path for path in scan.loose if owner[os.path.dirname(path)] == worker]
        merged.report.unreadable += [item for item in scan.report.unreadable if item[0] not in unreadable]
        unreadable.update(folder for folder, _ in scan.report.unreadable)
        merged.report.outside_links += [link for link in scan.report.outside_links if link not in links]
        links.update(scan.report.outside_links)
        merged.notices += [notice for notice in scan.notices if notice.message not in messages]
        messages.update(notice.message for notice in scan.notices)
    # A local walk visits folders depth first in name order: the same order keeps every notice's examples.
    merged.found = dict(sorted(merged.found.items(), key=lambda item: item[0].parts))
    return MergedSide(DumpIndex.from_scan(root, merged),
                      {folder: frozenset(workers) for folder, workers in seen.items()})
